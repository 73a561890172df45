"""Dates written out in words, as Spanish deeds, contracts and court papers write them: "a nueve de abril de
dos mil veinticinco", "a los veinte (20) días del mes de enero de 2025", "el veinticinco (25) de abril del
año dos mil veinticinco (2025)"; and as English deeds, proclamations and old letters do: "the fourth day of
July, 1861", "the twenty-second of December". Read into a date and written again in the same words for a
stand-in."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date

from app.identifiers.spelled_numbers import spell

_MONTHS = "enero febrero marzo abril mayo junio julio agosto septiembre octubre noviembre diciembre".split()
_PLAIN = str.maketrans("áéíóú", "aeiou")


# The older spelling of sixteen to nineteen and twenty-one to twenty-nine in three words, which deeds and
# handwritten wills still use: "diez y siete de Abril de dos mil diez y nueve".
_OLDER = {
    "dieciséis": "diez y seis",
    "diecisiete": "diez y siete",
    "dieciocho": "diez y ocho",
    "diecinueve": "diez y nueve",
    "veintiuno": "veinte y uno",
    "veintiún": "veinte y un",
    "veintidós": "veinte y dos",
    "veintitrés": "veinte y tres",
    "veinticuatro": "veinte y cuatro",
    "veinticinco": "veinte y cinco",
    "veintiséis": "veinte y seis",
    "veintisiete": "veinte y siete",
    "veintiocho": "veinte y ocho",
    "veintinueve": "veinte y nueve",
}
_OLDER_WORD = re.compile("|".join(_OLDER))


def _spellings(number: int) -> set[str]:
    """``number`` spelled as today and, where it differs, in the older three words."""
    spelled = spell(number)
    return {spelled, _OLDER_WORD.sub(lambda m: _OLDER[m.group(0)], spelled)}


_WORD_VALUES = {w.translate(_PLAIN): n for n in range(1, 32) for w in _spellings(n)} | {"primero": 1, "un": 1}
_YEAR_VALUES = {w.translate(_PLAIN): y for y in range(1900, 2100) for w in _spellings(y)}


def _alternatives(words: set[str]) -> str:
    """Every spelling, with and without its accents, longest first."""
    spellings = words | {w.translate(_PLAIN) for w in words}
    return "|".join(sorted(spellings, key=len, reverse=True))


_DAY_WORDS = _alternatives({w for n in range(1, 32) for w in _spellings(n)} | {"primero"})
_YEAR_WORDS = _alternatives({w for y in range(1900, 2100) for w in _spellings(y)})
_MONTH = "|".join(_MONTHS) + "|setiembre"
SPELLED = re.compile(
    rf"(?<![\w])(?P<day>{_DAY_WORDS})(?: \((?P<daynum>\d{{1,2}})\))?(?P<days> d[íi]as? del mes)? de (?P<month>{_MONTH})"
    rf"(?:(?P<of> de(?:l año)?| del) (?P<year>{_YEAR_WORDS}|\d{{4}})(?: \((?P<yearnum>\d{{4}})\))?)?(?![\w])",
    re.IGNORECASE,
)


_EN_ORDINALS = (
    "first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth thirteenth fourteenth "
    "fifteenth sixteenth seventeenth eighteenth nineteenth twentieth"
).split()
_EN_MONTHS = "January February March April May June July August September October November December".split()


def english_ordinal(number: int, separator: str = "-") -> str:
    """1 → "first", 22 → "twenty-second", 30 → "thirtieth" (days of a month only)."""
    if number <= 20:
        return _EN_ORDINALS[number - 1]
    if number == 30:
        return "thirtieth"
    tens, units = divmod(number, 10)
    return ("twenty" if tens == 2 else "thirty") + separator + _EN_ORDINALS[units - 1]


_EN_UNITS = (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
    "seventeen eighteen nineteen"
).split()
_EN_TENS = {
    20: "twenty",
    30: "thirty",
    40: "forty",
    50: "fifty",
    60: "sixty",
    70: "seventy",
    80: "eighty",
    90: "ninety",
}


def english_below_100(number: int) -> str:
    if number < 20:
        return _EN_UNITS[number]
    tens, units = divmod(number, 10)
    return _EN_TENS[tens * 10] + (f"-{_EN_UNITS[units]}" if units else "")


def english_year(year: int, joined: bool = False) -> str:
    """2006 → "two thousand six" ("two thousand and six" if ``joined``), 1984 → "nineteen eighty-four",
    1905 → "nineteen oh five", 1900 → "nineteen hundred"."""
    if year >= 2000:
        rest = year - 2000
        return "two thousand" + (f" {'and ' if joined else ''}{english_below_100(rest)}" if rest else "")
    century, rest = divmod(year, 100)
    tail = "hundred" if rest == 0 else f"oh {_EN_UNITS[rest]}" if rest < 10 else english_below_100(rest)
    return f"{english_below_100(century)} {tail}"


# (a transcript writes "nineteen sixty two" as it writes "nineteen sixty-two")
_EN_YEAR_VALUES = {
    spoken: y
    for y in range(1900, 2100)
    for joined in (False, True)
    for spoken in {english_year(y, joined), english_year(y, joined).replace("-", " ")}
}
_EN_YEAR_WORDS = "|".join(sorted(_EN_YEAR_VALUES, key=len, reverse=True))
_EN_DAY_VALUES = {english_ordinal(n, sep): n for n in range(1, 32) for sep in ("-", " ")}
_EN_DAY_WORDS = "|".join(sorted(_EN_DAY_VALUES, key=len, reverse=True))
# "the fourth day of July, 1861", "the twenty-second of December": only after "the", since "second of March"
# alone is also a moment's count.
_SPELLED_EN = (
    rf"(?P<day>{_EN_DAY_WORDS})(?P<days> day)? of (?P<month>{'|'.join(_EN_MONTHS)})"
    rf"(?:(?P<of>,? (?:in the year )?)(?P<year>1[6-9]\d\d|20\d\d))?(?![\w])"
)
# With its year, the same needs no "the": a date of birth read out ("Third of March, 1932", "date of birth
# third of June 1956").
_SPELLED_EN_WITH_YEAR = (
    rf"(?P<day>{_EN_DAY_WORDS})(?P<days> day)? of (?P<month>{'|'.join(_EN_MONTHS)})"
    rf"(?P<of>,? (?:in the year )?)(?P<year>1[6-9]\d\d|20\d\d|{_EN_YEAR_WORDS})(?![\w-])"
)
SPELLED_EN = re.compile(rf"(?<=\bthe ){_SPELLED_EN}", re.IGNORECASE)
SPELLED_EN_WITH_YEAR = re.compile(rf"(?<![\w-])(?<!the ){_SPELLED_EN_WITH_YEAR}", re.IGNORECASE)
_SPELLED_EN_WHOLE = re.compile(_SPELLED_EN, re.IGNORECASE)
_SPELLED_EN_WITH_YEAR_WHOLE = re.compile(_SPELLED_EN_WITH_YEAR, re.IGNORECASE)
# As a date is read out: "June ninth, two thousand six", "March the third, 1998".
# The month capitalised, or in lower case as a transcript or a message writes it, but for "may": "we may first
# ask" is no date.
_SPOKEN_EN = (
    rf"(?P<month>{'|'.join(_EN_MONTHS)}|{'|'.join(m.upper() for m in _EN_MONTHS)}|"
    rf"{'|'.join(m.lower() for m in _EN_MONTHS if m != 'May')}) (?i:the )?"
    rf"(?P<day>(?i:{_EN_DAY_WORDS}))(?:(?P<of>,? )(?P<year>(?i:{_EN_YEAR_WORDS})|1[6-9]\d\d|20\d\d))?(?![\w-])"
)
SPOKEN_EN = re.compile(rf"(?<![\w]){_SPOKEN_EN}")
_SPOKEN_EN_WHOLE = re.compile(_SPOKEN_EN)


# A date of birth read out in numbers, as a voicemail's transcript writes it: "the third of the fourth nineteen
# thirty one", "twelve eight twenty nineteen", "nineteen oh nine thirty" (day, month, year). Only after the
# words that ask for one: elsewhere "twelve eight" is a count.
def _spaced(words: str) -> list[str]:
    return [words, words.replace("-", " ")]


_ORDINAL_DAYS = {w: n for n in range(1, 32) for w in _spaced(english_ordinal(n))}
_CARDINAL_DAYS = {w: n for n in range(1, 32) for w in _spaced(english_below_100(n))}
_ORDINAL_MONTHS = {english_ordinal(n): n for n in range(1, 13)}
_CARDINAL_MONTHS = {english_below_100(n): n for n in range(1, 13)} | {f"oh {_EN_UNITS[n]}": n for n in range(1, 10)}
_FULL_YEARS = {w: y for y in range(1900, 2100) for joined in (False, True) for w in _spaced(english_year(y, joined))}
_FULL_YEARS |= {w: y for y in range(2010, 2100) for w in _spaced(f"twenty {english_below_100(y - 2000)}")}
_SHORT_YEARS = {w: n for n in range(10, 100) for w in _spaced(english_below_100(n))} | {
    f"oh {_EN_UNITS[n]}": n for n in range(1, 10)
}


def _longest_first(values: dict[str, int]) -> str:
    return "|".join(sorted(values, key=len, reverse=True))


_SPOKEN_BIRTH_DATE = (
    rf"(?P<the>the )?(?P<day>(?i:{_longest_first(_ORDINAL_DAYS | _CARDINAL_DAYS)}))"
    rf"(?P<of> of(?: the)?)? (?P<month>(?i:{_longest_first(_ORDINAL_MONTHS | _CARDINAL_MONTHS)}))"
    rf"(?:(?P<comma>,)? (?P<year>(?i:{_longest_first(_FULL_YEARS)}|{_longest_first(_SHORT_YEARS)})))?"
)
SPOKEN_BIRTH = re.compile(
    r"(?i:\b(?:date of birth|d\.? ?o\.? ?b\.?|born(?: on)?|birthday)\b[,:]?\s+(?:is\s+)?)"
    rf"(?P<date>{_SPOKEN_BIRTH_DATE})(?![\w-])"
)
_SPOKEN_BIRTH_WHOLE = re.compile(_SPOKEN_BIRTH_DATE)


def _parse_spoken_birth(text: str) -> tuple[date, Callable[[date], str], bool] | None:
    """A date of birth read out in numbers, and how to read another out alike."""
    match = _SPOKEN_BIRTH_WHOLE.fullmatch(text)
    if match is None:
        return None
    day_words, month_words = match.group("day").lower(), match.group("month").lower()
    day = _ORDINAL_DAYS.get(day_words) or _CARDINAL_DAYS.get(day_words)
    month = _ORDINAL_MONTHS.get(month_words) or _CARDINAL_MONTHS.get(month_words)
    year_words = (match.group("year") or "").lower()
    short = year_words in _SHORT_YEARS and year_words not in _FULL_YEARS
    year = _FULL_YEARS.get(year_words) or (1900 + _SHORT_YEARS[year_words] if short else None)
    try:
        parsed = date(year or 2000, month, day)
    except (ValueError, TypeError):
        return None
    ordinal_day, ordinal_month = day_words in _ORDINAL_DAYS, month_words in _ORDINAL_MONTHS
    hyphens = "-" in text

    def render(d: date) -> str:
        def words(spoken: str) -> str:
            return spoken if hyphens else spoken.replace("-", " ")

        month_spoken = (
            english_ordinal(d.month)
            if ordinal_month
            else f"oh {_EN_UNITS[d.month]}"
            if month_words.startswith("oh ") and d.month < 10
            else english_below_100(d.month)
        )
        pieces = {
            "day": words(english_ordinal(d.day) if ordinal_day else english_below_100(d.day)),
            "month": words(month_spoken),
            "year": words(
                (f"oh {_EN_UNITS[d.year % 100]}" if d.year % 100 < 10 else english_below_100(d.year % 100))
                if short
                else f"twenty {english_below_100(d.year - 2000)}"
                if year_words.startswith("twenty ") and d.year >= 2010
                else english_year(d.year, " and " in year_words)
            ),
        }
        return _written_into(match, pieces)

    return parsed, render, year is not None


def find_spelled(text: str) -> list[tuple[int, int]]:
    # a deed breaks its lines anywhere: "el dos de⏎octubre de mil novecientos treinta y dos" (a line's break
    # read as a space keeps every offset)
    flat = text.replace("\n", " ")
    return [
        m.span()
        for pattern in (SPELLED, SPELLED_EN, SPELLED_EN_WITH_YEAR, SPOKEN_EN)
        for m in pattern.finditer(flat)
        if parse_spelled(m.group(0)) is not None
    ] + [m.span("date") for m in SPOKEN_BIRTH.finditer(text) if _parse_spoken_birth(m.group("date")) is not None]


def parse_spelled(text: str) -> tuple[date, Callable[[date], str], bool] | None:
    """(the date, how to write another one alike, whether it names a year), or None."""
    text = text.replace("\n", " ")
    match = SPELLED.fullmatch(text.strip())
    if match is None:
        return _parse_english(text.strip()) or _parse_spoken_birth(text.strip())
    day = _WORD_VALUES.get(match.group("day").lower().translate(_PLAIN))
    month_name = match.group("month").lower()
    month = 9 if month_name == "setiembre" else _MONTHS.index(month_name) + 1
    year_text = match.group("year")
    year = None
    if year_text:
        year = int(year_text) if year_text.isdigit() else _longest_year(year_text)
        if year is None:
            return None
    try:
        parsed = date(year or 2000, month, day)
    except (ValueError, TypeError):
        return None

    def render(d: date) -> str:
        pieces = {
            "day": _case_like(
                match.group("day"),
                "primero" if d.day == 1 and match.group("day") == "primero" else spell(d.day),
            ),
            "daynum": str(d.day),
            "month": _case_like(match.group("month"), _MONTHS[d.month - 1]),
            "year": (str(d.year) if year_text and year_text.isdigit() else _case_like(year_text or "", spell(d.year))),
            "yearnum": str(d.year),
        }
        return _written_into(match, pieces)

    return parsed, render, year is not None


def _parse_english(text: str) -> tuple[date, Callable[[date], str], bool] | None:
    match = (
        _SPELLED_EN_WHOLE.fullmatch(text)
        or _SPELLED_EN_WITH_YEAR_WHOLE.fullmatch(text)
        or _SPOKEN_EN_WHOLE.fullmatch(text)
    )
    if match is None:
        return None
    day = _EN_DAY_VALUES.get(match.group("day").lower())
    month = [m.lower() for m in _EN_MONTHS].index(match.group("month").lower()) + 1
    year_text = match.group("year")
    year = None if not year_text else int(year_text) if year_text.isdigit() else _EN_YEAR_VALUES[year_text.lower()]
    try:
        parsed = date(year or 2000, month, day)
    except (ValueError, TypeError):
        return None
    separator = " " if " " in match.group("day") else "-"

    def render(d: date) -> str:
        pieces = {
            "day": _case_like(match.group("day"), english_ordinal(d.day, separator)),
            "month": _case_like(match.group("month"), _EN_MONTHS[d.month - 1].lower()),
            "year": str(d.year)
            if not year_text or year_text.isdigit()
            else _case_like(year_text, _spaced_like(year_text, english_year(d.year, " and " in year_text.lower()))),
        }
        return _written_into(match, pieces)

    return parsed, render, year is not None


def _spaced_like(original: str, spelled: str) -> str:
    """``spelled`` with spaces for its hyphens where ``original`` has none ("nineteen forty two")."""
    return spelled if "-" in original else spelled.replace("-", " ")


def _written_into(match: re.Match, pieces: dict[str, str]) -> str:
    """The matched date with each of its named parts that it holds replaced by ``pieces``' words, the rest of
    it ("de", "day of", commas) as written."""
    original, base = match.group(0), match.start()
    out, cursor = [], 0
    for name in sorted((n for n in pieces if match.group(n)), key=match.start):
        out += [original[cursor : match.start(name) - base], pieces[name]]
        cursor = match.end(name) - base
    out.append(original[cursor:])
    return "".join(out)


def _longest_year(words: str) -> int | None:
    plain = words.lower().translate(_PLAIN).split()
    for end in range(len(plain), 1, -1):
        year = _YEAR_VALUES.get(" ".join(plain[:end]))
        if year is not None:
            return year if end == len(plain) else None
    return None


# A day of the month alone, spelled, after the words a message plans a day with (dates.py finds it): "para el
# quince", "presentarme el dieciséis", "court date is the twenty-first".
SPANISH_DAY_WORDS = _DAY_WORDS
ENGLISH_DAY_WORDS = _EN_DAY_WORDS


def parse_spelled_day(text: str) -> tuple[int, Callable[[date], str]] | None:
    """A spelled day of the month alone ("quince", "twenty-first"): its number, and how to write another day
    alike (in the same language, case and joining), or None."""
    word = text.strip()
    english = _EN_DAY_VALUES.get(word.lower())
    if english is not None:
        separator = " " if " " in word else "-"
        return english, lambda d: _case_like(word, english_ordinal(d.day, separator))
    spanish = _WORD_VALUES.get(word.lower().translate(_PLAIN))
    if spanish is not None and word.lower() not in {"un", "uno"}:
        return spanish, lambda d: _case_like(word, "primero" if d.day == 1 else spell(d.day))
    return None


def _case_like(model: str, word: str) -> str:
    if model.isupper():
        return word.upper()
    if model[:1].isupper():
        return word[:1].upper() + word[1:]
    return word
