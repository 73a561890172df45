"""Numbers written out in Spanish words, as a notary writes a deed's, a registry's and a lawyer's numbers:
"ESCRITURA PÚBLICA NÚMERO CIENTO OCHENTA Y SIETE", "carné de abogado número doce mil ochocientos cuarenta y
siete", "CUARENTA Y DOS (42)". The words identify as the digits do, and a stand-in that renumbers the
digits but leaves the words ("CUARENTA Y DOS (03)") still gives the number away.

Found only after the words that introduce a number ("número", "N°", "libro", "tomo", "folio"): alone, "dos"
and "mil" are everyday words. Read and written in Spanish only, up to 999,999.
"""

from __future__ import annotations

import re

from app.identifiers.entities import Entity, EntityType

_UNITS = (
    "cero uno dos tres cuatro cinco seis siete ocho nueve diez once doce trece catorce quince dieciséis "
    "diecisiete dieciocho diecinueve veinte veintiuno veintidós veintitrés veinticuatro veinticinco veintiséis "
    "veintisiete veintiocho veintinueve"
).split()
_TENS = {30: "treinta", 40: "cuarenta", 50: "cincuenta", 60: "sesenta", 70: "setenta", 80: "ochenta", 90: "noventa"}
_HUNDREDS = {
    100: "ciento",
    200: "doscientos",
    300: "trescientos",
    400: "cuatrocientos",
    500: "quinientos",
    600: "seiscientos",
    700: "setecientos",
    800: "ochocientos",
    900: "novecientos",
}


def _plain(word: str) -> str:
    return word.lower().translate(str.maketrans("áéíóú", "aeiou"))


# Each word's value, read without accents ("dieciseis" as typed); "un"/"una" before "mil" or at the end.
_VALUES: dict[str, int] = {_plain(w): i for i, w in enumerate(_UNITS)}
_VALUES |= {"un": 1, "una": 1, "veintiun": 21, "veintiuna": 21, "cien": 100}
_VALUES |= {_plain(w): v for v, w in _TENS.items()} | {_plain(w): v for v, w in _HUNDREDS.items()}
_VALUES |= {"quinientas": 500, "doscientas": 200, "trescientas": 300, "cuatrocientas": 400, "seiscientas": 600}
_VALUES |= {"setecientas": 700, "ochocientas": 800, "novecientas": 900}
_WORD = (
    r"(?:"
    + "|".join(sorted({*_VALUES, *(w for w in _UNITS), *_TENS.values(), *_HUNDREDS.values()}, key=len, reverse=True))
    + ")"
)
# A run of number words joined by "y" and "mil", and the digits a deed writes after them: "(42)", "(14,882)".
# A number word or "mil" at a word's start: what follows a number's label when it is written in words.
NUMBER_WORD = rf"(?:{_WORD}|mil)\b"
# ("MIL OCHOCIENTOS CUARENTA Y SIETE": a thousand and more opens with "mil")
_NUMBER_WORDS = rf"(?:{_WORD}|mil\b)(?:\s+(?:y\s+)?(?:{_WORD}|mil)(?![\w]))*(?:\s+mil)?"
# "Tomo" and "Libro" capitalised only: "me tomo treinta gotas" is a dose; "no" with its point only.
_CUE = (
    r"(?:n[úu]mero|n\.?\s?[º°]\.?|no\.|(?-i:Libro|LIBRO|Tomo|TOMO)|folio|fojas|partida|asiento|inscripci[óo]n|"
    r"matr[íi]cula|"
    r"escritura(?: p[úu]blica)?(?: n[úu]mero)?|registro(?: notarial)?(?: n[úu]mero)?)"
)
_SPELLED = re.compile(
    rf"(?i)(?<!\w){_CUE}\s+(?P<value>{_NUMBER_WORDS}(?:\s?\(\s?\d[\d.,]*\s?\))?)(?!\w)",
)
_DIGITS_AFTER = re.compile(r"\s?\(\s?(?P<digits>\d[\d.,]*)\s?\)$")


def find_spelled_numbers(text: str) -> list[Entity]:
    """Numbers in Spanish words after a word that introduces a number, with their digits in brackets."""
    found = []
    for match in _SPELLED.finditer(text):
        value = match.group("value")
        words = _DIGITS_AFTER.sub("", value)
        # one word alone after the cue is a number only if it is no everyday word of the sentence: "número uno"
        # is a rank, "tomo dos" a verb's; two or more number words, or digits with it, are a number
        if len(words.split()) < 2 and not _DIGITS_AFTER.search(value):
            continue
        if parse(words) is not None:
            found.append(Entity(*match.span("value"), EntityType.RECORD_NUMBER))
    return found


def _canonical(words: str) -> str:
    """Words as ``spell`` writes them, whatever form of "uno" and accents they were typed with."""
    out = []
    for word in _plain(" ".join(words.split())).split():
        out.append({"un": "uno", "una": "uno", "veintiun": "veintiuno", "veintiuna": "veintiuno"}.get(word, word))
    return " ".join(out)


def value_of(written: str) -> int | None:
    """The number a finding spells, its digits in brackets aside ("CUARENTA Y DOS (42)" → 42); None when its
    words spell none or it has digits outside the brackets."""
    words = _DIGITS_AFTER.sub("", written)
    if re.search(r"\d", words) or not re.search(r"[^\W\d_]", words):
        return None
    return parse(words)


def parse(words: str) -> int | None:
    """The number ``words`` spell ("ciento ochenta y siete" → 187), or None if they spell none."""
    total, current = 0, 0
    tokens = [_plain(w) for w in words.split() if _plain(w) != "y"]
    if not tokens:
        return None
    for token in tokens:
        if token == "mil":
            total += (current or 1) * 1000
            current = 0
        elif token in _VALUES:
            current += _VALUES[token]
        else:
            return None
    number = total + current
    # only a number written as a number is written ("dos tres", "mil mil" are none): its own spelling back
    if number >= 1_000_000 or _canonical(spell(number)) != _canonical(words):
        return None
    return number


def spell(number: int) -> str:
    """``number`` (0–999,999) in Spanish words, lower case: 12847 → "doce mil ochocientos cuarenta y siete"."""
    if not 0 <= number < 1_000_000:
        raise ValueError(f"{number} is out of the range spelled here")
    if number == 0:
        return "cero"
    thousands, rest = divmod(number, 1000)
    parts = []
    if thousands:
        parts.append("mil" if thousands == 1 else f"{_below_thousand(thousands, before_mil=True)} mil")
    if rest:
        parts.append(_below_thousand(rest))
    return " ".join(parts)


def _below_thousand(number: int, before_mil: bool = False) -> str:
    hundreds, rest = divmod(number, 100)
    parts = []
    if hundreds:
        parts.append("cien" if hundreds == 1 and rest == 0 else _HUNDREDS[hundreds * 100])
    if rest:
        if rest < 30:
            word = _UNITS[rest]
            if before_mil and rest in (1, 21):
                word = "un" if rest == 1 else "veintiún"
            parts.append(word)
        else:
            tens, unit = divmod(rest, 10)
            word = _TENS[tens * 10]
            if unit:
                unit_word = "un" if before_mil and unit == 1 else _UNITS[unit]
                word += f" y {unit_word}"
            parts.append(word)
    return " ".join(parts)


def restated(original: str, number: int) -> str:
    """``number`` written as ``original`` writes its own: in words of its case, with its digits in brackets
    in their grouping where it gives them ("CUARENTA Y DOS (42)" → "DIECISIETE (17)")."""
    digits = _DIGITS_AFTER.search(original)
    words = original[: digits.start()] if digits else original
    spelled = spell(number)
    if words.isupper():
        spelled = spelled.upper()
    elif words[:1].isupper():
        spelled = spelled[:1].upper() + spelled[1:]
    if not digits:
        return spelled
    shown = digits.group("digits")
    separator = next((c for c in shown if c in ".,"), "")
    written = f"{number:,}".replace(",", separator) if separator and number >= 1000 else str(number)
    return spelled + original[len(words) : digits.start("digits")] + written + original[digits.end("digits") :]
