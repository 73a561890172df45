"""Organisations and holders a text names by its own conventions rather than by a suffix: an abbreviation
defined in brackets after the name it abbreviates ("Carnegie-Mellon University (CMU)", "Bolt, Beranek and
Newman (BBN)"), and the holder of a copyright notice ("Copyright (C) 2003-2022 g10 Code GmbH"). The form is
the evidence, so neither needs to be on a list; once found, every later mention of the abbreviation is
found too (``detect._further_mentions``)."""

from __future__ import annotations

import re

from app.identifiers import lexicon
from app.identifiers.entities import Entity, EntityType
from app.identifiers.known_organisations import known_organisation
from app.identifiers.towns import town_names

T = EntityType

_CONNECTOR = r"(?:and|&|of|for|the|de|del|la|y|für|der|in|on|at)"
_WORD = r"[A-Z][\w&'’.\-]*"
_DEFINED = re.compile(
    rf"(?<![\w\-])(?P<long>{_WORD}(?:,? (?:{_CONNECTOR} )*(?:{_WORD}|[a-z]+)){{1,7}}) "
    r"\((?P<short>[A-Z][A-Za-z&]{1,7})\)"
)
_COPYRIGHT = re.compile(
    r"(?i:copyright|\(c\)|©)(?: ?\((?i:c)\)| ?©)?(?: (?:\d{4}(?:\s?[-–]\s?\d{2,4})?,?))+ (?:(?i:by) )?"
    r"(?P<holder>[^\n<>(\[]{2,80}?)(?=\.?\s*(?:<|\(|\[|\n|$)|(?<!\b[A-Z])\. |,? (?i:all rights))"
)
_ORGANISATION_WORDS = re.compile(
    r"\b(?:Inc|Ltd|Limited|LLC|LLP|GmbH|AG|SA|SL|BV|Corp|Corporation|Company|Co|Foundation|Consortium|University|"
    r"Universidad|Regents|Institute|Instituto|Association|Society|Project|Team|Group|Laborator(?:y|ies)|Lab|"
    r"Bundesamt|Agency|Council|Trust|Systems|Software|Technologies|Networks|Labs)\b\.?"
)
_NOBODY = frozenset(
    "the authors authors the contributors contributors its authors its contributors the author the original "
    "author holders the copyright holders individual contributors".split(" ")
)


def _initials(long: str) -> str:
    """The letters an abbreviation of ``long`` is made of: each word's first letter, every letter of a word in
    capitals ("AI"), both halves of a hyphenated word ("Carnegie-Mellon")."""
    letters = []
    for word in re.split(r"[ \-]+", long.replace(",", " ")):
        if not word or re.fullmatch(_CONNECTOR, word):
            continue
        letters.append(word if word.isupper() and len(word) <= 4 else word[0])
    return "".join(letters).upper()


def _kind(name: str) -> EntityType:
    """A person where the name reads as one (two to four capitalised words or initials, one on the name
    lists, no institution's word), else an organisation."""
    words = re.findall(r"[^\W\d_]+", name)
    if _ORGANISATION_WORDS.search(name) or not words or not 2 <= len(words) <= 5:
        return T.ORGANIZATION
    personal = all(w[0].isupper() for w in words) and any(lexicon.is_name_word(w) for w in words if len(w) > 1)
    return T.PERSON if personal else T.ORGANIZATION


def _named_by_a_rare_word(name: str) -> bool:
    """Whether ``name`` is an institution's ("Carnegie-Mellon University") or holds a rare word ("Bolt, Beranek
    and Newman"), not a disease's or a ward's everyday words ("Chronic Kidney Disease", "Emergency
    Department")."""
    if _ORGANISATION_WORDS.search(name):
        return True
    words = [w for w in re.findall(r"[^\W\d_]+", name) if len(w) > 1 and not re.fullmatch(_CONNECTOR, w.lower())]
    if any(known_organisation(w) or w in town_names() for w in words if w[0].isupper()):
        return True  # "Stanford AI lab (SAIL)": a name the lists know, however common
    return any(lexicon.zipf(w) < 3.5 and not lexicon.is_kept_term(w) and not w.isupper() for w in words)


def find_defined(text: str) -> list[Entity]:
    """A name and the abbreviation defined after it, both organisations (or a person's, "John Fitzgerald
    Kennedy (JFK)")."""
    found = []
    for match in _DEFINED.finditer(text):
        long, short = match.group("long"), match.group("short").replace("&", "").upper()
        every = long.split()
        for start in range(len(every)):  # the name may begin after words of the sentence
            words = every[start:]
            candidate = " ".join(words)
            if _initials(candidate) == short and len(words) >= 2 and candidate[0].isupper():
                if not _named_by_a_rare_word(candidate):
                    break  # "Emergency Department (ED)", "Chronic Kidney Disease (CKD)": no one's name
                kind = _kind(candidate)
                offset = match.start("long") + long.index(candidate)
                found += [
                    Entity(offset, offset + len(candidate), kind),
                    Entity(*match.span("short"), kind),
                ]
                break
    return found


def find_copyright_holders(text: str) -> list[Entity]:
    """Whoever a copyright notice names: a person or an organisation, never "the authors"."""
    found = []
    for match in _COPYRIGHT.finditer(text):
        holder = match.group("holder").strip(" ,.")
        start = match.start("holder") + match.group("holder").index(holder)
        lead = re.match(r"(?i:the) ", holder)
        if lead:
            holder, start = holder[lead.end() :], start + lead.end()
        if holder.lower() in _NOBODY or not re.search(r"[^\W\d_]{2}", holder):
            continue
        found.append(Entity(start, start + len(holder), _kind(holder)))
    return found
