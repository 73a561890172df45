"""What follows a street address on its line: the flat, floor or door in the forms of many countries ("3. OG
links", "lgh 1102", "4 tr", "m. 118", "bât. B, 3e étage", "scala B", "Space 44"), and, where the address is typed
in lower case, the suburb, the town and the postcode after it ("41 mackintosh place, roath, cardiff cf24 4rq",
"van ostadestraat 212-2, 1073 tk amsterdam", "12/5 beach st, coogee nsw 2034").

A street is the evidence: after one, a short run of words up to a comma or a postcode is the place it lies in,
and a code of a postcode's shape is its postcode. The same words elsewhere in a chat are nothing.
"""

from __future__ import annotations

import re

from app.identifiers import lexicon
from app.identifiers.entities import Entity, EntityType
from app.identifiers.names import FUNCTION_WORDS
from app.identifiers.towns import town_names

T = EntityType

# One flat, floor, door or plot after the street and its number; a few may follow one another.
_UNIT = (
    r"(?:\d{1,2}\. ?(?:OG|Etage|Stock|St\.|og|etage|stock)(?: (?:links|rechts|Mitte|li\.|re\.|mitte))?"  # German
    r"|(?:EG|DG|Hinterhaus|Vorderhaus|Seitenflügel)(?: (?:links|rechts))?"
    r"|(?i:lgh\.?|lägenhet) ?\d{3,4}|\d{1,2} ?(?i:tr\.?|trappor)(?!\w)"  # Swedish: the flat's number, the floor
    r"|(?i:m\.|lok\.) ?\d{1,4}"  # Polish: the flat (mieszkanie), the premises
    r"|(?i:b[âa]t(?:iment)?\.?|esc(?:alier)?\.?|appt?\.?|porte) ?[A-Z0-9]{1,4}(?!\w)"  # French
    r"|\d{1,2} ?(?:e|er|ème|eme|º|°) (?i:[ée]tage)"
    r"|(?i:scala|piano|int\.?|interno) ?[A-Z0-9]{1,3}(?!\w)"  # Italian
    r"|\d{1,2}\.?[º°]? ?(?i:andar|dto\.?|esq\.?|dir\.?)"  # Portuguese
    r"|(?i:space|lot|suite|ste\.?|apt\.?|apartment|unit|flat|room|rm\.?|#) ?#?\d{1,5}[A-Za-z]?(?!\w)"
    r"|(?i:bis|ter)(?!\w)"
    r"|\d{1,2}\. ?(?i:eskuina|ezkerra|erdia|esk\.|ezk\.)"  # Basque: right, left, middle
    r"|(?i:àtic|atic|baixos|entresòl|principal|pral\.)(?: \d{1,2}[aª])?(?!\w)"  # Catalan
    r"|\d{1,2} ?[°º] ?\"?[A-Z]\"?(?!\w)"  # Argentina: 4° "C"
    # Mexico's and Chile's: the street's side of town, the floor, the office, the block and the flat
    r"|(?:Ote|Pte|Nte|Sur|Oriente|Poniente|Norte)\.?(?!\w)"
    r"|(?i:piso|planta|despacho|oficina|of\.|dpto\.?|depto\.?|departamento|apto\.?|local|torre|block|bloque|"
    r"casa|int\.?|interior|consultorio|villa|portal|puerta|nivel) ?\"?[\w-]{1,5}\"?(?!\w)"
    # a floor by its ordinal before its word ("1.er piso", "2do. nivel", "3er piso")
    r"|\d{1,2}(?:\.?er|\.?º|\.?ª|do|ro|to|vo|no)\.? (?i:piso|nivel|planta)"
    # Colombia's plate after its street ("Circular 4 # 70-32"), Spain's floor and door ("14, 1.º", "3.º B")
    r"|# ?\d{1,3}[A-Z]?(?: ?Bis)?-\d{1,3}(?!\w)|\d{1,2}\.?[º°ª](?:-\d{1,2}\.?[º°ª])?(?: ?[A-Z](?!\w))?"
    r"|(?i:edificio|edif\.|condominio|residencial|conjunto) [A-ZÁÉÍÓÚÑ][\wÀ-ÿ]*"
    r"(?: (?:(?:del|de la|de|la|las|los) )?[A-ZÁÉÍÓÚÑ][\wÀ-ÿ]*){0,3}(?: \d{1,3}(?!\w))?)"
)
_TAIL = re.compile(
    # a street's pattern may have read the floor's number as a door already ("Allee 142, 3" of "3. OG links",
    # "Kale Nagusia 12, 3" of "3. eskuina", "Rivadavia 5680, 4°" of '4° "C"')
    r"(?:(?<=\d)\. ?(?:OG|Etage|Stock|og|etage|stock)(?: (?:links|rechts|Mitte|li\.|re\.|mitte))?"
    r"|(?<=\d)\. ?(?i:eskuina|ezkerra|erdia)|(?<=[°º]) ?\"[A-Z]\")?"
    # (four pieces at most — a block, a staircase, a floor, a door — so that a chat's run of flats, "1º A, 1º B,
    # 2º A, …", is not read again whole from each of them)
    rf"(?:[/-]\d{{1,4}}[A-Za-z]?(?!\w))?(?:(?:,? | )(?:{_UNIT})){{0,4}}"
)

_LOWER_WORD = r"[a-zà-ÿ][a-zà-ÿ'’\-]+"
# The states and provinces a town's line may name before its postcode: no identifier, read past.
_LOWER_STATE = r"(?:nsw|vic|qld|wa|sa|tas|act|nt|on|qc|bc|ab|mb|sk|ns|nb|nl|pe|[a-z]{2}(?= \d{5}(?!\d)))"
_LOWER_POSTCODE = (
    r"(?:[a-z]{1,2}\d[a-z\d]? ?\d[a-z]{2}"  # the UK
    r"|[a-z]\d[a-z] ?\d[a-z]\d"  # Canada
    r"|\d{4} ?[a-z]{2}(?= )"  # the Netherlands
    r"|\d{4}-\d{3}|\d{3} \d{2}|\d{2}-\d{3}|\d{4,6})(?![\w-])"
)
_LOWER_POSTCODE_FIRST = re.compile(rf",? (?P<zip>{_LOWER_POSTCODE}) (?P<town>{_LOWER_WORD}(?: {_LOWER_WORD}){{0,2}})")
_LOWER_TOWN = re.compile(
    rf",? (?P<town>{_LOWER_WORD}(?: {_LOWER_WORD}){{0,2}}?)(?:,? {_LOWER_STATE})?"
    rf"(?:,? (?P<zip>{_LOWER_POSTCODE}))?(?=[,.;:)!?\n]|$| -| –| and | y )"
)
# Words that go on with the sentence, not the address: the place ended before them.
_NOT_A_PLACE = FUNCTION_WORDS | frozenset(
    "please pls thanks gracias ring call phone mobile cell tel email llamar llama teléfono telefono móvil movil "
    "correo".split()
)


def unit_after(text: str, end: int) -> int:
    """Where a street address ends once the flat, floor or door written after it (if any) are counted."""
    if _STREET_TYPE_BEFORE.search(text, max(0, end - 12), end):
        directional = _POST_DIRECTIONAL.match(text, end)
        end = directional.end() if directional else end
    tail = _TAIL.match(text, end)
    return tail.end() if tail else end


# A US or Canadian street's quadrant after its type ("1510 rainier ave s, seattle", "800 Pine St NW Apt 3"),
# then the line's comma, its end or the unit: not a word of the sentence.
_STREET_TYPE_BEFORE = re.compile(
    r"(?i:\b(?:ave|avenue|st|street|rd|road|blvd|boulevard|way|dr|drive|pl|place|ct|court|ln|lane|hwy|highway|"
    r"pkwy|parkway|ter|terrace|cir|circle))\.?$"
)
# (in capitals before the sentence's next word too: "at Kipling Ave & Finch Ave W on 14 June")
_POST_DIRECTIONAL = re.compile(
    r" (?:(?:[NSEW]|NE|NW|SE|SW)\.?(?=[ ,.;)\n]|$)|(?:[nsew]|ne|nw|se|sw)\.?(?=,|\n|$| (?i:apt|unit|suite|ste|#)))"
)


def lower_case_places_after(text: str, end: int) -> list[Entity]:
    """The suburb, town and postcode after a street address typed in lower case, from ``end`` on."""
    found: list[Entity] = []
    for _ in range(3):
        first = _LOWER_POSTCODE_FIRST.match(text, end)
        if first is not None:
            town = _town_words(text, *first.span("town"))
            found.append(Entity(*first.span("zip"), T.POSTCODE))
            if town is not None:
                found.append(town)
            break
        place = _LOWER_TOWN.match(text, end)
        if place is None:
            break
        town = _town_words(text, *place.span("town"))
        if town is None or town.end != place.end("town"):
            break
        if place.group("zip") is None and not _a_place(town.text_in(text)):
            break  # "…, near the shops": no town's name, and no postcode to vouch for one
        found.append(town)
        if place.group("zip"):
            found.append(Entity(*place.span("zip"), T.POSTCODE))
            break
        end = place.end()
    return found


def _town_words(text: str, start: int, end: int) -> Entity | None:
    """The town's span: its words up to the first that goes on with the sentence."""
    words = list(re.finditer(r"\S+", text[start:end]))
    kept = []
    for word in words:
        if word.group(0) in _NOT_A_PLACE or lexicon.is_clinical_word(word.group(0)):
            break
        kept.append(word)
    if not kept:
        return None
    return Entity(start + kept[0].start(), start + kept[-1].end(), T.LOCATION)


def _a_place(name: str) -> bool:
    """A town by the gazetteer, or a name rare enough as a word to be a suburb's ("roath", "berea")."""
    return name in town_names() or all(lexicon.zipf(word) < 3.5 for word in name.split())
