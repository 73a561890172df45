"""Organisations a text names with no cue around them: "the walgreens on grand", "ins is wellmark now",
"a hacker from MIT visited Stanford", "de BBVA México". A chain, an insurer, a bank or a university places
a patient or a client as a hospital's name does, yet none carries the suffix ("Inc", "Hospital") that the
rules find an organisation by, and spaCy's small models miss them in lower case and among clinical words.

The list (``resources/identifiers/organisations.txt``) is the product's own: the chains, insurers, banks,
laboratories, universities and employers of the markets its users work in. A name the list marks as also an
everyday word ("Boots", "Target", "Nationwide") counts only as written and not as a sentence's first word;
a clinical abbreviation in capitals ("CVS: S1 S2") is the note's, not the pharmacy's; a maker's name before
its product ("IBM PC", "Dell Latitude 7440") is the product's.
"""

from __future__ import annotations

import functools
import re
from importlib.resources import files

from app.identifiers import lexicon, names
from app.identifiers.dates import CALENDAR_WORDS
from app.identifiers.entities import Entity, EntityType

_EDGE_BEFORE = r"(?<![\w&'’\-@./])"
_EDGE_AFTER = r"(?![\w&]|['’\-]\w|@|\.\w)"


@functools.cache
def _listed() -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(names found in any case, names found only as written)."""
    lines = (files("app.resources") / "identifiers" / "organisations.txt").read_text(encoding="utf-8").splitlines()
    listed = [line.strip() for line in lines if line.strip() and not line.startswith("#")]
    return (
        tuple(name for name in listed if not name.startswith("=")),
        tuple(name[1:] for name in listed if name.startswith("=")),
    )


def known_organisation(word: str) -> bool:
    """Whether ``word`` as written is a listed organisation's whole name ("Stanford", "Walgreens")."""
    return word in _listed()[1] or word.lower() in _lower_names()


@functools.cache
def _lower_names() -> frozenset[str]:
    return frozenset(name.lower() for name in _listed()[0])


def _alternation(listed: tuple[str, ...]) -> str:
    return "|".join(re.escape(name) for name in sorted(listed, key=len, reverse=True))


@functools.cache
def _patterns() -> tuple[re.Pattern, re.Pattern]:
    any_case, as_written = _listed()
    return (
        re.compile(rf"{_EDGE_BEFORE}(?:{_alternation(any_case)}){_EDGE_AFTER}", re.IGNORECASE),
        re.compile(rf"{_EDGE_BEFORE}(?:{_alternation(as_written)}){_EDGE_AFTER}"),
    )


# What follows a maker's name when it names a product, not the firm: "IBM PC", "Dell Latitude 7440", "an
# American Express card ending 7466"; in "MIT AI Lab" a capitalised word after the capitals runs the name on.
_PRODUCT_AFTER = re.compile(r" (?:cards?\b|[A-Z]{2,4}\b(?! [A-Z])|[\w\-]*\d|[A-Z][a-z]+ [\w\-]*\d)")


def names_a_product(text: str, end: int) -> bool:
    """Whether the words after a maker's name that ends at ``end`` make it a product's ("American Express
    card", "IBM PC"), which names no firm the user deals with."""
    return _PRODUCT_AFTER.match(text, end) is not None


# The rest of the firm's name after a listed one: "BBVA México", "IBM Corporation", "Salud Total Caribe",
# "BlueCross BlueShield of Arizona".
_REST_OF_NAME = re.compile(r"(?:(?: of)? [A-ZÀ-Þ][\wÀ-ÿ&'’\-]+){1,2}")


def find_known_organisations(text: str) -> list[Entity]:
    """Every mention of a listed organisation, as the module's rules allow, with the words of its name
    that follow it."""
    any_case, as_written = _patterns()
    found = []
    for match, exact in [(m, False) for m in any_case.finditer(text)] + [(m, True) for m in as_written.finditer(text)]:
        surface = match.group(0)
        if (exact or surface.isupper()) and surface in lexicon.CLINICAL_ABBREVIATIONS:
            continue  # "CVS: S1 S2 normal", "RBC 4.2"
        if exact and " " not in surface and names.opens_sentence(text, match.start()):
            # "Target BP below 130", "Nationwide recall of…"; but before another listed name it is the
            # firm's first word ("Anthem Blue Cross and Blue Shield")
            if text[match.end() : match.end() + 1] != " " or not any(
                p.match(text, match.end() + 1) for p in (any_case, as_written)
            ):
                continue
        if names_a_product(text, match.end()):
            continue
        end = match.end()
        rest = _REST_OF_NAME.match(text, end)
        if rest and not surface.islower():
            end = _name_end(text, end, rest.end())
        found.append(Entity(match.start(), end, EntityType.ORGANIZATION))
    return found


def _name_end(text: str, start: int, end: int) -> int:
    """Where the words after a listed name stop being part of it: before a word that labels or starts
    something else ("Chase Member ID", "Walgreens Pharmacy Dr Patel", "Walgreens Tuesday")."""
    cursor = start
    for word in re.finditer(r"[^\W\d_][\w&'’\-]*", text[start:end]):
        if word.group(0).lower() in _NOT_THE_NAME or word.group(0).lower() in CALENDAR_WORDS:
            break
        cursor = start + word.end()
    return cursor


_NOT_THE_NAME = frozenset(
    "de del member id no number account policy group claim card dr dra mr mrs ms sr sra the and y on in at "
    "for to from".split()
)
