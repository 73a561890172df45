"""Replace a conversation's identifiers before the model reads it, and put them back in what it writes.

A ``Pseudonyms`` object is one conversation's mapping: each distinct identifier has one stand-in for the
whole conversation, every turn and every document pasted later included, so the model can still reason
about "the patient" and "the landlord". It lives on the workstation only — kept with the conversation in
its SQLite row, never logged (``__repr__`` names no identifier).
"""

from __future__ import annotations

import json
import re
import secrets
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date, timedelta

from app.identifiers.dates import INSIDE_A_LIST_OF_DAYS, Precision, month_first_evidence, parse_date, sub_dates
from app.identifiers.detect import IdentifierDetector, default_detector, name_initials
from app.identifiers.entities import Entity, EntityType
from app.identifiers.language import Language, detect_language
from app.identifiers.ocr import with_digits_repaired
from app.identifiers.office_terms import any_term
from app.identifiers.surrogates import REALISTIC, TAGS, SurrogateMaker, name_key

T = EntityType
# Unicode's private-use area, where re-identification holds the originals it has put back.
_HELD = 0xE000
_HELD_ROOM = 0xF8FF - _HELD
_HELD_CHARACTERS = re.compile("[\ue000-\uf8ff]")
_WORD_KINDS = (T.PERSON, T.ORGANIZATION, T.ADDRESS, T.LOCATION, T.OTHER)  # stand-ins built word by word
_INITIALS = re.compile(r"[A-Z]{2,4}")


FORMAT = "splitchat-pseudonyms/1"
# Common English words that are also first names: never a stand-in, or re-identification would rewrite
# ordinary prose ("will", "grace", "may").
_ORDINARY = frozenset(
    "will may june april august grace hope faith joy rose mark bill jack summer autumn dawn eve ivy lily daisy "
    "sky river reed wood young long short brown green white black gray grey page hunter mason rich major price "
    "ward bell king hall wells wall street lane stone bishop cook miles banks sharp love".split()
)


@dataclass(frozen=True)
class Replacement:
    """One identifier and the stand-in the model reads instead."""

    type: EntityType
    original: str
    surrogate: str


@dataclass(frozen=True)
class Pseudonymised:
    """What the model reads, and what was replaced where (offsets into the original text)."""

    text: str
    replaced: tuple[tuple[Entity, str], ...]  # (the identifier in the original, its stand-in)

    def counts(self) -> dict[str, int]:
        """Replaced identifiers by type."""
        out: dict[str, int] = {}
        for entity, _ in self.replaced:
            out[entity.type.value] = out.get(entity.type.value, 0) + 1
        return out


@dataclass(frozen=True)
class ModelText:
    """A message as the model read or wrote it, and where the stand-ins are in it (character offsets)."""

    text: str
    stand_ins: tuple[tuple[int, int], ...]


@dataclass
class Pseudonyms:
    """One conversation's identifiers and their stand-ins."""

    seed: int = field(default_factory=lambda: secrets.randbelow(2**31))
    date_offset_days: int = 0
    style: str = REALISTIC  # or TAGS, only to measure what realistic stand-ins are worth
    replacements: list[Replacement] = field(default_factory=list)
    words: dict[str, str] = field(default_factory=dict)  # name word (lower case) -> stand-in word
    # What the model wrote, keyed by what was shown (re-identified): the exact text to give it back next turn.
    written: dict[str, str] = field(default_factory=dict)
    # Terms the user marked in review: hidden from the model in every turn, or kept as written.
    hidden: list[str] = field(default_factory=list)
    kept: list[str] = field(default_factory=list)
    # Whether the conversation writes numeric dates month first, decided by its first date that reads only one
    # way and kept: a reading that changed later would put the model's dates back wrongly.
    month_first: bool | None = None

    def __repr__(self) -> str:  # never an identifier in a log line or a traceback
        return f"Pseudonyms({len(self.replacements)} identifiers)"

    def to_json(self) -> str:
        return json.dumps(
            {
                "format": FORMAT,
                "seed": self.seed,
                "date_offset_days": self.date_offset_days,
                "style": self.style,
                "replacements": [[r.type.value, r.original, r.surrogate] for r in self.replacements],
                "words": self.words,
                "written": self.written,
                "hidden": self.hidden,
                "kept": self.kept,
                "month_first": self.month_first,
            },
            ensure_ascii=False,
        )

    @classmethod
    def from_json(cls, text: str) -> Pseudonyms:
        data = json.loads(text)
        if data.get("format") != FORMAT:
            raise ValueError("not a pseudonym mapping this version reads")
        return cls(
            seed=data["seed"],
            date_offset_days=data["date_offset_days"],
            style=data.get("style", REALISTIC),
            replacements=[Replacement(EntityType(t), o, s) for t, o, s in data["replacements"]],
            words={name_key(word): stand_in for word, stand_in in data["words"].items()},
            written=dict(data.get("written", {})),
            hidden=list(data.get("hidden", [])),
            kept=list(data.get("kept", [])),
            month_first=data.get("month_first"),
        )


class Pseudonymiser:
    """Pseudonymises a conversation's texts and re-identifies what the model writes back."""

    def __init__(self, pseudonyms: Pseudonyms | None = None, detector: IdentifierDetector | None = None):
        self.pseudonyms = pseudonyms or Pseudonyms()
        self.detector = detector or default_detector()
        self._seen_lower = ""  # every text read so far, lower case: a stand-in must appear in none of them
        self._done: dict[str, Pseudonymised] = {}
        self._taken_words = {
            word.lower() for r in self.pseudonyms.replacements for word in re.findall(r"[^\W\d_]+", r.original)
        }
        self._maker = SurrogateMaker(
            self.pseudonyms.seed, self._taken, self.pseudonyms.date_offset_days or None, self.pseudonyms.style
        )
        for replacement in self.pseudonyms.replacements:  # a conversation reopened: its stand-ins stay taken
            self._maker.remember(replacement.type, replacement.surrogate)
        self.pseudonyms.date_offset_days = self._maker.date_offset_days
        self._maker.month_first = bool(self.pseudonyms.month_first)
        self._maker.words.update(self.pseudonyms.words)
        # By text alone: the same identifier keeps its stand-in even when a later turn's context types it
        # differently ("MRN 84729163", then "record 84729163").
        self._by_original = {r.original: r for r in self.pseudonyms.replacements}
        self._originals = {r.original.lower() for r in self.pseudonyms.replacements}

    # -- text for the model --------------------------------------------------------------------------
    def pseudonymise(self, text: str) -> Pseudonymised:
        """``text`` with every identifier replaced by its stand-in (new identifiers get new stand-ins)."""
        self._seen_lower += "\n" + text.lower()
        # "2/5" is the 2nd of May in Dublin and February the 5th in Dayton: the conversation's own unambiguous
        # dates ("3/17/2025") say which, so a date is shifted as the writer meant it; decided once
        if self.pseudonyms.month_first is None and (evidence := month_first_evidence(text)) != 0:
            self.pseudonyms.month_first = evidence > 0
        self._maker.month_first = bool(self.pseudonyms.month_first)
        kept = {term.lower() for term in self.pseudonyms.kept}
        known = [(r.original, r.type) for r in self.pseudonyms.replacements if r.original.lower() not in kept]
        language = detect_language(text)
        entities = self.detector.detect(
            text, known, language=language, hidden=self.pseudonyms.hidden, kept=self.pseudonyms.kept
        )
        originals = [e.text_in(text) for e in entities]
        for entity, original in zip(entities, originals, strict=True):  # every original is taken first
            if entity.type in _WORD_KINDS:
                for word in re.findall(r"[^\W\d_]+", original):
                    self._taken_words.add(word.lower())
        out, cursor, replaced = [], 0, []
        for index, (entity, original) in enumerate(zip(entities, originals, strict=True)):
            anchor = _range_anchor(text, entities, index) if entity.type is T.DATE else None
            if anchor is not None:
                surrogate = self._day_in_range(original, anchor)
            elif entity.type is T.PERSON and (initials := self._initials_of_a_stand_in(original, originals)):
                surrogate = initials
            else:
                surrogate = self._surrogate(entity.type, original, language is Language.SPANISH)
            out += [text[cursor : entity.start], surrogate]
            cursor = entity.end
            replaced.append((entity, surrogate))
        out.append(text[cursor:])
        self.pseudonyms.words = dict(self._maker.words)
        return Pseudonymised("".join(out), tuple(replaced))

    def conversation(self, messages: Iterable[dict]) -> list[dict]:
        """The messages as the model reads them; earlier answers as the model wrote them."""
        out = []
        for message in messages:
            content = message["content"]
            if message["role"] == "assistant" and content in self.pseudonyms.written:
                read = self._hidden_in(self.pseudonyms.written[content])
            else:
                read = self._read(content).text
            out.append({**message, "content": read})
        return out

    def _hidden_in(self, written: str) -> str:
        """What the model wrote before the user hid a term, with that term replaced too: a word hidden in
        review never reaches the model again, not even in its own earlier answer."""
        if not self.pseudonyms.hidden:
            return written
        return any_term(self.pseudonyms.hidden).sub(lambda m: self._surrogate(T.OTHER, m.group(0)), written)

    def model_texts(self, messages: Iterable[dict]) -> list[ModelText]:
        """Each message as the model read (or wrote) it, its stand-ins located: for showing the user."""
        return [ModelText(m["content"], tuple(self.stand_ins_in(m["content"]))) for m in self.conversation(messages)]

    def stand_ins_in(self, text: str) -> list[tuple[int, int]]:
        """Where the stand-ins of this conversation occur in ``text`` (as the model read or wrote it)."""
        keys = self._reverse()
        return [m.span() for m in _any_of(keys).finditer(text)] if keys else []

    def counts(self, text: str) -> dict[str, int]:
        """The identifiers replaced in ``text``, by type."""
        return self._read(text).counts()

    def _read(self, text: str) -> Pseudonymised:
        """``pseudonymise``, once per distinct text: a conversation is read again at every turn."""
        if text not in self._done:
            self._done[text] = self.pseudonymise(text)
        return self._done[text]

    def hide(self, term: str) -> None:
        """The user marked ``term`` to hide: it is replaced in every turn from now on, earlier ones included
        (the conversation is read again)."""
        term = term.strip()
        if term and term not in self.pseudonyms.hidden:
            self.pseudonyms.hidden.append(term)
            self.pseudonyms.kept = [k for k in self.pseudonyms.kept if k.lower() != term.lower()]
        self._done.clear()

    def keep(self, original: str) -> None:
        """The user un-hid a stand-in: ``original`` reaches the model as written from now on."""
        original = original.strip()
        if original and original.lower() not in {k.lower() for k in self.pseudonyms.kept}:
            self.pseudonyms.kept.append(original)
            self.pseudonyms.hidden = [h for h in self.pseudonyms.hidden if h.lower() != original.lower()]
        self._done.clear()

    def original_of(self, stand_in: str) -> str | None:
        """The identifier a stand-in of this conversation replaces, or None."""
        return self._reverse().get(stand_in.lower())

    def remember_answer(self, shown: str, written: str) -> None:
        """The model wrote ``written``; the user saw (and the history keeps) ``shown``."""
        self.pseudonyms.written[shown] = written

    # -- text for the user ---------------------------------------------------------------------------
    def reidentify(self, text: str) -> str:
        """What the model wrote, with every stand-in it names put back as the original."""
        return self._ranged_days(self._reidentified(text))

    def _ranged_days(self, text: str) -> str:
        """A day alone that opens a range or a list before a date ("del 21 al 29 de enero", "25, 26 y 2 de
        octubre") put back too: left as its stand-in, the range would read backwards ("del 21 al 18")."""
        days = {
            r.surrogate: r.original
            for r in self.pseudonyms.replacements
            if r.type is T.DATE and _LONE_DAY.fullmatch(r.surrogate)
        }
        if not days:
            return text
        return _RANGED_DAYS.sub(
            lambda listed: _DAY_OF_A_LIST.sub(lambda m: days.get(m.group(0), m.group(0)), listed.group(0)), text
        )

    def _reidentified(self, text: str) -> str:
        keys = self._reverse()
        if not keys:
            return self._reidentify_dates(text)
        tags = self.pseudonyms.style == TAGS  # written in capitals whatever the original's case
        variants = self._variants()
        # a stand-in written exactly as it was made is its own original's, whatever its case
        exact = {r.surrogate: r.original for r in self.pseudonyms.replacements}

        def original(match: re.Match) -> str:
            seen = match.group(0)
            written = keys[seen.lower()]
            if tags:
                return written
            if seen in exact and exact[seen].lower() == written.lower():
                return exact[seen]
            return _case_like(seen, written, variants.get(seen.lower(), ()))

        pattern = _any_of(keys)
        matches = list(pattern.finditer(text))
        # The originals put back are held out of the dates' pass, which would shift a restored month or day
        # once more ("abril y mayo" → "enero y febrero" → "enero y enero"). A text that already holds the
        # private characters they are held in (or more stand-ins than there are) is restored in two passes.
        if _HELD_CHARACTERS.search(text) or len(matches) > _HELD_ROOM:
            return self._reidentify_dates(pattern.sub(original, text))
        restored = [original(m) for m in matches]
        held = iter(range(len(matches)))
        text = pattern.sub(lambda _: chr(_HELD + next(held)), text)
        return _HELD_CHARACTERS.sub(lambda m: restored[ord(m.group(0)) - _HELD], self._reidentify_dates(text))

    def stream(self) -> StreamingReidentifier:
        return StreamingReidentifier(self)

    # -- inside --------------------------------------------------------------------------------------
    def _taken(self, candidate: str) -> bool:
        """A stand-in may be neither an original of this conversation nor a word its texts already use."""
        lower = candidate.lower()
        if lower in self._originals:
            return True
        if re.fullmatch(r"[^\W\d_]+(?:['’\-][^\W\d_]+)*", candidate) and (
            lower in _ORDINARY or lower in self._taken_words
        ):
            return True  # a name word: not an everyday word, not any original's word
        if lower not in self._seen_lower:  # the cheap test first: most candidates appear nowhere
            return False
        return bool(re.search(rf"(?<!\w){re.escape(lower)}(?!\w)", self._seen_lower))

    def _surrogate(self, kind: EntityType, original: str, spanish: bool = False) -> str:
        found = self._by_original.get(original)
        if found is None:
            # a number as a scan misread it ("1931-O8-17") stands in as one of its kind read right: the model
            # reads a date, not "9392-Q1-60"; the original goes back into the answer as written
            replacement = Replacement(kind, original, self._maker.make(kind, with_digits_repaired(original), spanish))
            self.pseudonyms.replacements.append(replacement)
            self._by_original[original] = found = replacement
            self._originals.add(original.lower())
        return found.surrogate

    def _initials_of_a_stand_in(self, original: str, originals: list[str]) -> str | None:
        """Initials that are the letters of a name already replaced ("CLB" of "Claire Le Brocq") stand in as the
        same letters of that name's stand-in ("EJG" of "Elaine Jane Garcia"): minutes name a person by both, and
        the model should read one person, as the writer did."""
        if original in self._by_original or not _INITIALS.fullmatch(original):
            return None
        for name in originals:
            person = self._by_original.get(name)
            if person is None or person.type is not T.PERSON or name == original:
                continue
            for way, letters in enumerate(name_initials(name)):
                if letters == original and len(stand_in := name_initials(person.surrogate)[way]) == len(original):
                    replacement = Replacement(T.PERSON, original, stand_in)
                    self.pseudonyms.replacements.append(replacement)
                    self._by_original[original] = replacement
                    self._originals.add(original.lower())
                    return stand_in
        return None

    def _day_in_range(self, original: str, anchor: date) -> str:
        """A day alone that opens a range or a list before a full date ("del 10 al 18 de enero de 2025"),
        moved as that date is, in its month: the model reads "del 26 al 3 de febrero", not "del 26 al 5"."""
        day = int(re.match(r"\d+", original).group(0))
        try:
            moved = anchor.replace(day=day) + timedelta(days=self._maker.date_offset_days)
        except ValueError:
            return self._surrogate(T.DATE, original)
        surrogate = str(moved.day).zfill(len(re.match(r"\d+", original).group(0))) + original.lstrip("0123456789")
        key = f"{original}\x00{anchor:%Y-%m}"
        found = self._by_original.get(key)
        if found is None:
            found = Replacement(T.DATE, original, surrogate)
            self.pseudonyms.replacements.append(found)
            self._by_original[key] = found
            self._originals.add(original.lower())
        return found.surrogate

    def _reverse(self) -> dict[str, str]:
        """Every stand-in (lower case) -> its original: whole identifiers, and each name word on its own."""
        reverse: dict[str, str] = {}
        for r in self.pseudonyms.replacements:
            if r.type in _WORD_KINDS:
                for word in re.findall(r"[^\W\d_]+(?:['’][^\W\d_]+)?", r.original):
                    stand_in = self._maker.words.get(name_key(word))
                    if stand_in and len(stand_in) > 1 and not (word.isupper() and stand_in.lower() in reverse):
                        reverse[stand_in.lower()] = word
        for r in self.pseudonyms.replacements:
            if r.type is T.DATE and re.fullmatch(r"\d{1,2}", r.surrogate):
                # a day alone ("el pasado 3" read as "el pasado 12"): putting every "12" of the answer back
                # would change a dose or a count, so the answer keeps the stand-in day instead
                continue
            reverse[r.surrogate.lower()] = r.original
            if self.pseudonyms.style == TAGS and r.surrogate.startswith("["):  # "PERSON_1" without its brackets
                reverse[r.surrogate[1:-1].lower()] = r.original
        return reverse

    def _variants(self) -> dict[str, list[str]]:
        """Each stand-in (lower case) -> every original written for it, in the cases the texts used ("Getafe"
        and "GETAFE", "Abena" and "abena" share one stand-in)."""
        variants: dict[str, list[str]] = {}
        for r in self.pseudonyms.replacements:
            variants.setdefault(r.surrogate.lower(), [])
            if r.original not in variants[r.surrogate.lower()]:
                variants[r.surrogate.lower()].append(r.original)
        return variants

    def _reidentify_dates(self, text: str) -> str:
        """A stand-in date written in another format than it was read is still shifted back."""
        originals = [
            parsed
            for r in self.pseudonyms.replacements
            if r.type is T.DATE and (parsed := parse_date(r.original, self._maker.month_first))
        ]
        if not originals:
            return text
        offset = self.pseudonyms.date_offset_days

        def back(written: str) -> str:
            parsed = parse_date(written, self._maker.month_first)
            if parsed is None:
                return written
            unshifted = parsed.shifted(-offset)
            again = parse_date(unshifted, self._maker.month_first)
            return unshifted if again is not None and any(again.same_as(o) for o in originals) else written

        return sub_dates(text, back)


class StreamingReidentifier:
    """Re-identifies a growing answer without ever showing part of a stand-in: a tail that could still
    become one (a name's first letters, half a date) waits for the next tokens."""

    def __init__(self, pseudonymiser: Pseudonymiser):
        self._pseudonymiser = pseudonymiser

    def update(self, written_so_far: str) -> str:
        """The text safe to show for what the model has written so far."""
        return self._pseudonymiser.reidentify(written_so_far[: _settled(written_so_far, self._keys())])

    def finish(self, written: str) -> str:
        """The whole answer re-identified. One cut short inside a stand-in (at the length limit, or by Stop)
        loses that fragment: part of a stand-in cannot be mapped back, and shown it would read as a fact
        (the start of a shifted date, a number that is no one's)."""
        return self._pseudonymiser.reidentify(written[: _whole_stand_ins(written, self._keys())])

    def _keys(self) -> list[str]:
        return list(self._pseudonymiser._reverse())


_DATE_START = re.compile(
    r"(?:\d{1,4}(?:[/.\-]\d{0,2}(?:[/.\-]\d{0,4})?)?"
    r"|\d{1,2}(?:st|nd|rd|th)?(?: of)?(?:[ \-][A-Za-z]{0,9}\.?(?:[ \-,]+\d{0,4})?)?"
    r"|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]{0,6}\.?(?: \d{0,2}(?:st|nd|rd|th)?,?(?: \d{0,4})?)?)",
    re.IGNORECASE,
)


def _settled(text: str, keys: list[str]) -> int:
    """How much of ``text`` cannot change as more is written: all but a tail that may still grow into a
    stand-in or a date, or a word not yet ended."""
    lower = text.lower()
    for start in range(max(0, len(text) - 48), len(text)):
        if start and text[start - 1].isalnum():
            continue  # only from a word's first letter
        tail = lower[start:]
        if any(key.startswith(tail) and key != tail for key in keys) or _DATE_START.fullmatch(tail):
            return start
    last_space = max(text.rfind(" "), text.rfind("\n"))
    return last_space + 1 if last_space >= 0 and text[-1].isalnum() else len(text)


def _whole_stand_ins(text: str, keys: list[str]) -> int:
    """How much of ``text`` to keep: all but a last word or more that is only the beginning of a stand-in."""
    lower = text.lower()
    for start in range(max(0, len(text) - 48), len(text)):
        if start and text[start - 1].isalnum():
            continue
        tail = lower[start:]
        if tail.strip() and any(key.startswith(tail) and key != tail for key in keys):
            return len(text[:start].rstrip())
    return len(text)


def _any_of(keys: Iterable[str]) -> re.Pattern:
    """Any of ``keys`` as a whole word, any case, the longest first."""
    return any_term(keys)


def _range_anchor(text: str, entities: list[Entity], index: int) -> date | None:
    """The date whose month a day alone belongs to, where the day opens a range or a list ending in it: "10"
    in "del 10 al 18 de enero de 2025", "14" in "los días 14, 15 y 21 de septiembre"."""
    entity = entities[index]
    if not _LONE_DAY.fullmatch(text[entity.start : entity.end]):
        return None
    for following in entities[index + 1 : index + 6]:
        between = text[entity.end : following.start]
        if following.type is not T.DATE or len(between) > 60 or not _RANGE_BETWEEN.fullmatch(between):
            return None
        parsed = parse_date(text[following.start : following.end])
        if parsed is not None and parsed.precision in (Precision.DAY, Precision.DAY_NO_YEAR):
            return parsed.day
        if parsed is None or parsed.precision is not Precision.DAY_ONLY:
            return None
    return None


# What lies between the days of a range or a list: "al", "y el", "to the", ", ", the other days.
_RANGE_BETWEEN = re.compile(
    r"(?:(?:,\s*|\s+(?:al|a|y el|y|e|hasta el|to|to the|through|and|and the|or|o|&|[–-])\s+)"
    r"(?:\d{1,2}(?:º|st|nd|rd|th)?)?)*?(?:,\s*|\s+(?:al|a|y el|y|e|hasta el|to|to the|through|and|and the|or|o|&|"
    r"[–-])\s+)",
    re.I,
)
_LONE_DAY = re.compile(r"\d{1,2}(?:º|st|nd|rd|th)?")
# A day alone before a range's or a list's other days and a date with its month ("21 al 29 de enero", "25, 26
# y 21 de septiembre", "3rd to 9th May"), never a count before another number ("take 2 to 3 tablets").
_MONTH_NAMES = (
    "january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|"
    "jul|aug|sep|sept|oct|nov|dec|enero|febrero|marzo|abril|mayo|junio|julio|agosto|septiembre|setiembre|octubre|"
    "noviembre|diciembre"
)
_DAY_OF_A_LIST = re.compile(r"\d{1,2}(?:º|st|nd|rd|th)?")
# The whole list, read from its first day (read from each, a long list of numbers was quadratic).
_RANGED_DAYS = re.compile(
    r"(?<![\w/.,:])" + INSIDE_A_LIST_OF_DAYS + r"\d{1,2}(?:º|st|nd|rd|th)?(?:,\s*\d{1,2}(?:º|st|nd|rd|th)?)*(?=,?\s+"
    r"(?:al|a|y el|y|e|hasta el|to|to the|through|and|and the|or|o|&|[–-])\s+\d{1,2}(?:º|st|nd|rd|th)?"
    rf"\s+(?:de\s+|of\s+)?(?i:{_MONTH_NAMES})\b)"
)


def _case_like(seen: str, original: str, variants: Iterable[str] = ()) -> str:
    """The original in the case the stand-in was written in. Where the texts wrote it in several cases
    ("Getafe" and "GETAFE", "Abena" and "morena abena"), the one written as the stand-in is; else the original
    in capitals where the model wrote capitals, and otherwise as it was written."""
    written = [original, *(v for v in variants if v != original)]
    for shape in (str.isupper, str.islower):
        if len(seen) > 1 and shape(seen):
            return next((v for v in written if shape(v)), original.upper() if shape is str.isupper else original)
    if len(written) > 1 and seen[:1].isupper():
        return next((v for v in written if not v.isupper() and not v.islower()), original)
    return original
