"""Towns named on their own, by a gazetteer: "Racine", "Skokie", "Uppsala", "Padre Las Casas", "vive en
alcobendas".

HIPAA counts every town as an identifier, and a note or a letter names one with no cue around it ("45M,
originally from Glasgow" has one; "Monterrey, N.L., a 7 de marzo" and "visited Stanford in 1976" do not).
spaCy's small models miss the smaller and the foreign ones, and the address rules see a town only beside a
postcode or a street. The list is GeoNames' places of 5,000 people or more (scripts/build_towns.py); what a
name on it must also be to count as the town is this module's work, because many towns share their name
with an everyday word ("Reading", "Mobile", "Sale"), a scale ("Glasgow 15") or a court's chamber ("ante la
Sala").
"""

from __future__ import annotations

import functools
import gzip
import re
from importlib.resources import files

from app.identifiers import lexicon, names, places
from app.identifiers.dates import CALENDAR_WORDS
from app.identifiers.entities import Entity, EntityType

_CAPITALISED = places.CAPITALISED_NAME
_LINK = rf"(?:{places.NAME_LINK}|upon|on|sur|am|an der)"
# A run of capitalised words (with the small words of place names between them); a town is found only as
# a whole run, so a town's name inside a longer one ("Glasgow Royal Infirmary", "Stanford University",
# "Taylor Street") is left to the rules for organisations, people and streets.
_RUN = re.compile(rf"(?<![\w@./\-]){_CAPITALISED}(?: (?:{_LINK} )?{_CAPITALISED}){{0,4}}(?![\w@]|[\-'’]\w)")
# A town in lower case counts only after the words that place someone somewhere: "salgo de alcobendas",
# "salgo d alcobendas" as a chat abbreviates it.
_LOWER_CUED = re.compile(
    r"(?<!\w)(?i:from|in|to|near|at|de|d|desde|en|hasta|hacia|para|a)\s+"
    r"(?P<town>the(?= )|[a-zà-öø-ÿ][a-zà-öø-ÿ'\-]{3,})(?!\w)"
)
# The words that say where someone lives, has moved or comes from, just before a town typed in lower case.
_RESIDENCE_BEFORE = re.compile(
    r"(?i:\b(?:li(?:ve|ves|ving|ved)(?: out| over| up| down)?|moved|staying|stays|from|reside[ns]?|"
    r"viv[eoí]n?|viv[íi]a|se mud[óo]|es de|son de|soy de) (?:in|to|at|near|en|a)?\s*)$"
)
# A town in lower case before its state or country, as a chat or a portal message types one: "outside
# bangor, maine", "vive en ciudad de la costa, canelones". The region vouches for the town before it.
_LOWER_BEFORE_REGION = re.compile(
    r"(?<![\w@./\-])(?P<words>[a-zà-öø-ÿ][a-zà-öø-ÿ'\-]+(?: [a-zà-öø-ÿ'\-]+){0,3}),[ \t]*"
    r"(?P<region>[a-zà-öø-ÿ][a-zà-öø-ÿ]+(?: [a-zà-öø-ÿ]+){0,2}?)(?=[ \t]*(?:[.,;:)!?\n]|$))"
)
# (not a year's digits, nor a longer number's last group: "in 2024 police found", "…5531 vence 08/27")
_LOWER_AFTER_POSTCODE = re.compile(
    r"(?<![\w.,/\-])(?<!\d )(?!(?:19|20)\d\d )(?:\d{5}|\d{4}|\d{2}-\d{3}|\d{3} \d{2}|\d{4}-\d{3}) "
    r"(?P<words>[a-zà-öø-ÿ][a-zà-öø-ÿ'\-]{2,}(?: [a-zà-öø-ÿ'\-]{2,}){0,2})"
)
# A word this common after a number is the sentence's ("1500 people", "12000 made"), not a town.
_EVERYDAY_AFTER_POSTCODE_ZIPF = 4.0
# The words after a town's first in lower case that may be its name's: "alcala de henares", "san juan del rio".
_NEXT_LOWER_WORD = re.compile(r" [a-zà-öø-ÿ'\-]{2,}")
# "enfermedad de parkinson", "tiroiditis de hashimoto": a disease's or a test's eponym in lower case.
_EPONYM_BEFORE = re.compile(
    r"(?i:enfermedad|s[íi]ndrome|tiroiditis|escala|signo|maniobra|criterios|test|prueba|[íi]ndice|disease|"
    r"syndrome|sign|scale)\s+(?:de\s+)?$"
)
# A letter's place and date: "Monterrey, N.L., a 7 de marzo de 2025", "Buenos Aires, 12 de marzo de
# 2025", "New York, March 3, 2025". The place there is a town even when it shares a region's name.
_PLACE_AND_DATE = re.compile(
    r"(?m)^[ \t]*(?:(?:En|In|At|On|From|Desde|Dado en|Dada en|Hecho en|Firmado en) )?"
    rf"(?P<town>{_CAPITALISED}(?: (?:{_LINK} )?{_CAPITALISED}){{0,3}})"
    r"(?:,[ \t]*[A-Z][\w.]{0,12}(?: [A-Z][\w.]{0,12})?)?,[ \t]+(?:(?i:a|el|on|the)[ \t]+)?"
    r"(?=\d{1,2}(?:º|°|o\.)?[ \t]+de[ \t]+[a-zA-Z]|\d{1,2}(?:st|nd|rd|th)?[ \t]+[A-Z][a-z]+\.?[ \t]+\d{4}|"
    r"[A-Z][a-z]+\.?[ \t]+\d{1,2}(?:st|nd|rd|th)?,?[ \t]+\d{4}|\d{1,2}[/.\-]\d{1,2}[/.\-]\d{2,4})"
)
# (and a possessive: "your Honor", "mi Reina", "our Victoria" name no town)
_ARTICLE_BEFORE = re.compile(
    r"(?<!\w)(?i:the|an|la|el|los|las|un|una|your|his|her|our|my|their|mi|tu|su|nuestra|nuestro)\s+$"
)
# After the town: a form's label ("Mobile: …", "Mobile 07700 900482"). A number of one or two digits
# after a town is its postal district ("Dublin 4").
# (four or five digits alone are its postcode: "Vaasa 65100", "Sandton 2196,")
_LABEL_AFTER = re.compile(r"[ \t]*(?::|(?!\d{4,5}(?![\d\-/]|[ .]\d))[+(]?\d{3})")
# Scales and charts named after towns, which a note gives with a number or their kind ("Glasgow 15",
# "GCS: Glasgow 14/15", "Bristol type 4", "Oxford 4/5", "Manchester triage").
_SCALES = frozenset("glasgow bristol oxford epworth edmonton manchester richmond boston denver".split())
_SCALE_AFTER = re.compile(
    r"[ \t]*(?:\d{1,2}(?:/\d{1,2})?(?!\d)|(?i:type|stool|coma|score|scale|triage|naming|frail)\b)"
)
_CALENDAR = CALENDAR_WORDS
# Latin after a preposition, not a town: "in toto", "in situ", "de novo".
_LATIN = frozenset("toto situ vitro vivo utero novo facto bloc extremis loco vacuo".split())
# A word of an institution's or a street's name, not a town on its own ("Center", "Registro", "Valley").
_STRUCTURAL = frozenset(
    "street road avenue lane drive court place square way close crescent terrace boulevard park hill valley "
    "bank center centre university college hospital clinic school church registro calle avenida plaza paseo "
    "camino centro sala juzgado tribunal audiencia clínica colegio parroquia notaría notaria unidad "
    "mobile union liberty independence providence enterprise".split()
)
# A line that a sentence runs on from: its last word in lower case, no stop after it ("his brother comes
# from\nVitoria", "the flat in\nLiverpool"); the word opening the next line is inside the sentence.
_WRAPPED_LINE = re.compile(r"(?<![\w'’])(?-i:[a-zà-ÿ]{2,})[ \t]*\n[ \t]*$")
# Everyday words below this frequency are taken as the town when capitalised inside a sentence; one that
# opens a sentence (capitalised anyway) must be rarer; one in capitals or in lower case rarer still.
_INSIDE_SENTENCE_ZIPF = 4.5
_OPENING_ZIPF = 3.0
_CAPITALS_ZIPF = 3.5
_LOWER_ZIPF = 3.5

T = EntityType


@functools.cache
def town_names() -> frozenset[str]:
    """Every name on the list as written ("Gijón", "Gijon", "Seville"), and in lower case."""
    with gzip.open(files("app.resources") / "identifiers" / "towns.txt.gz", "rt", encoding="utf-8") as handle:
        written = handle.read().split("\n")
    return frozenset(written) | frozenset(name.lower() for name in written)


@functools.cache
def _countries() -> tuple[dict[str, str], dict[str, tuple[str, ...]]]:
    """Each town name's country (of its most populous place) by its name in lower case, and each country's
    towns of 15,000 people or more that may stand in for another (scripts/build_towns.py)."""
    country: dict[str, str] = {}
    pools: dict[str, list[str]] = {}
    with gzip.open(files("app.resources") / "identifiers" / "town_countries.tsv.gz", "rt", encoding="utf-8") as rows:
        for row in rows:
            name, code, stand_in = row.rstrip("\n").split("\t")
            country.setdefault(name.lower(), code)
            if stand_in == "1":
                pools.setdefault(code, []).append(name)
    return country, {code: tuple(names) for code, names in pools.items()}


def town_country(name: str) -> tuple[str] | None:
    """The country whose town ``name`` is, as a one-item tuple, or None for a name no town on the list has."""
    code = _countries()[0].get(name.strip().lower())
    return None if code is None else (code,)


def stand_in_towns(country: str) -> tuple[str, ...]:
    """The towns of ``country`` (ISO 3166 alpha-2) a stand-in is drawn from."""
    return _countries()[1].get(country, ())


@functools.cache
def stand_in_pool(countries: tuple[str, ...]) -> tuple[str, ...]:
    """The towns of all of ``countries``, in their order: built once, as every stand-in of a town draws from it."""
    return tuple(name for country in countries for name in stand_in_towns(country))


def find_towns(text: str) -> list[Entity]:
    """The towns in ``text`` that no cue marks: capitalised runs that are a town's whole name, and lower-case
    ones after "de", "en", "from"…"""
    towns = town_names()
    found = []
    for match in _RUN.finditer(text):
        surface = match.group(0)
        if surface in towns and (
            _the_town(text, match.start(), match.end(), surface) or _a_line_of_an_address(text, *match.span(), surface)
        ):
            found.append(Entity(match.start(), _with_district(text, match.end(), surface), T.LOCATION))
        elif surface.isupper() and surface.title() in towns and _the_town(text, *match.span(), surface):
            found.append(Entity(match.start(), match.end(), T.LOCATION))  # "VAASA", "ALCOBENDAS"
    for match in _PLACE_AND_DATE.finditer(text):
        surface = match.group("town")
        if _a_place_heading(surface, towns):
            found.append(Entity(*match.span("town"), T.LOCATION))
    for match in _LOWER_BEFORE_REGION.finditer(text):
        if not lexicon.is_region(match.group("region")):
            continue
        words = list(re.finditer(r"\S+", match.group("words")))
        for first in words[-3:] if len(words) > 3 else words:  # the longest run of its last words that is a town
            start = match.start("words") + first.start()
            surface = text[start : match.end("words")]
            if surface in towns and not lexicon.is_region(surface) and _a_lower_town(surface):
                found.append(Entity(start, match.end("words"), T.LOCATION))
                break
    # a town typed in lower case after its postcode, as an address line writes them: "08221 terrassa", "46001
    # valencia" (the postcode vouches for a town's name that is a rare word; an everyday one after a number
    # goes on with the sentence)
    for match in _LOWER_AFTER_POSTCODE.finditer(text):
        words = list(re.finditer(r"\S+", match.group("words")))
        for last in reversed(words):  # the longest run of its first words that is a town
            end = match.start("words") + last.end()
            surface = text[match.start("words") : end]
            if (
                surface in towns
                and not lexicon.is_region(surface)
                and surface.lower() not in _CALENDAR
                and max(lexicon.zipf(surface), lexicon.zipf_in(surface, "es")) < _EVERYDAY_AFTER_POSTCODE_ZIPF
            ):
                found.append(Entity(match.start("words"), end, T.LOCATION))
                break
    # a text typed without capitals names its towns so too, the famous among them, after the words that say
    # where someone lives or comes from ("she moved to seattle", "lives in kent", "i live in the bronx"): there
    # a town as frequent as a capitalised one inside a sentence is one
    informal = names.mostly_lower_case(text)
    for match in _LOWER_CUED.finditer(text):
        start, end = match.span("town")
        lived = informal and _RESIDENCE_BEFORE.search(text, max(0, start - 24), start) is not None
        if text[start:end].lower() == "the":
            if not lived or (town := _NEXT_LOWER_WORD.match(text, end)) is None:
                continue  # "in the villages": a town's name only where someone lives there
            end = town.end()  # "the bronx"
        # the longest town of several words from here: "en alcala de henares", "in new york"
        ends, position = [], end
        while len(ends) < 3 and (following := _NEXT_LOWER_WORD.match(text, position)) is not None:
            ends.append(position := following.end())
        end = next((e for e in reversed(ends) if text[start:e] in towns), end)
        surface = text[start:end]
        if surface in towns and _the_town(text, start, end, surface, lived):
            found.append(Entity(start, end, T.LOCATION))
    return found


def _a_lower_town(surface: str) -> bool:
    """A town's name typed in lower case before its region: not a word that everyday text uses more than
    rarely ("home, texas"), nor a month or a clinical word."""
    lower = surface.lower()
    if lower in _CALENDAR or lower in _STRUCTURAL or lexicon.is_clinical_word(surface):
        return False
    return " " in surface or max(lexicon.zipf(surface), lexicon.zipf_in(surface, "es")) < _INSIDE_SENTENCE_ZIPF


# A postal district after its town at an address line's end: "Ringsend, Dublin 4, D04 K7W2", "Dublin 2".
_DISTRICT = re.compile(r" \d{1,2}(?=[ \t]*(?:,|\n|$))")


def _with_district(text: str, end: int, surface: str) -> int:
    district = _DISTRICT.match(text, end)
    return district.end() if district and surface.lower() not in _SCALES else end


# A line of a letter's heading or signature block: short, and no sentence ends on it.
_BLOCK_LINE = re.compile(r"[^\n]{2,60}(?<![.:;?!])\n")


def _a_line_of_an_address(text: str, start: int, end: int, surface: str) -> bool:
    """A town that is a whole line of its own under another line of a block ("Tomasz Wiśniewski\nDublin 4",
    "27 Kingsley Road\nLeeds"), however common its name: there it is the address's town."""
    line_start = text.rfind("\n", 0, start) + 1
    line_end = _with_district(text, end, surface)
    if text[line_start:start].strip() or text[line_end : line_end + 1] not in ("", "\n"):
        return False
    lower = surface.lower()
    if lower in _CALENDAR or lower in _STRUCTURAL or lexicon.is_region(surface) or lexicon.is_kept_term(surface):
        return False
    previous = text.rfind("\n", 0, max(0, line_start - 1)) + 1
    return line_start > 0 and _BLOCK_LINE.fullmatch(text, previous, line_start) is not None


def _a_place_heading(surface: str, towns: frozenset[str]) -> bool:
    """The place a letter's date line names: a town on the list, in any form or frequency, one named like
    its region, or one with a word no dictionary holds; not a weekday or a label."""
    words = surface.split()
    if surface.lower() in _CALENDAR or words[0].lower() in _CALENDAR or surface.lower() in _STRUCTURAL:
        return False
    if surface in towns or surface.title() in towns or lexicon.is_region(surface):
        return True
    # One word no dictionary holds names the place ("Leamington Spa", "Villa Tunari").
    return any(len(w) > 3 and max(lexicon.zipf(w), lexicon.zipf_in(w, "es")) < _OPENING_ZIPF for w in words)


def _the_town(text: str, start: int, end: int, surface: str, lived: bool = False) -> bool:
    """Whether ``surface`` is a town where it stands; ``lived``: after the words that say someone lives there,
    in a text typed without capitals, where a famous town's name is as frequent as a word."""
    lower = surface.lower()
    if lower in _CALENDAR or lower in _LATIN or lexicon.is_region(surface) or lexicon.is_kept_term(surface):
        return False
    if _LABEL_AFTER.match(text, end) or lower in _SCALES and _SCALE_AFTER.match(text, end):
        return False
    if " " in surface:
        return True  # "Padre Las Casas", "Silver Spring": a name of several words is the place's
    if len(surface) <= 3 or lower in _STRUCTURAL:
        return False
    if _ARTICLE_BEFORE.search(text, max(0, start - 9), start):
        return False  # "ante la Sala", "the Reading": a common noun
    if text[max(0, start - 2) : start].strip() == "&" or text[end : end + 2].strip() == "&":
        return False  # "Physio & Rehab": a word of a firm's name
    frequency = max(lexicon.zipf(surface), lexicon.zipf_in(surface, "es"))
    if surface.islower():
        return (
            frequency < (_INSIDE_SENTENCE_ZIPF if lived else _LOWER_ZIPF)
            and not lexicon.is_clinical_word(surface)
            and not _EPONYM_BEFORE.search(text, max(0, start - 16), start)
        )
    if surface.isupper():  # four capitals or fewer are an abbreviation's ("HIDA", "CABA")
        return len(surface) > 4 and frequency < _CAPITALS_ZIPF and surface not in lexicon.CLINICAL_ABBREVIATIONS
    if names.opens_sentence(text, start) and not _WRAPPED_LINE.search(text, max(0, start - 40), start):
        return frequency < _OPENING_ZIPF
    return frequency < _INSIDE_SENTENCE_ZIPF
