"""Registration plates after the word that names a vehicle or its make and model, in any country's layout and
any case: "my car rkz 4471", "hire car WX 48817", "rego 1XT 8KW", "VW Golf F-AO 2291", "patente af 892 jq",
"PPU JTRW-48", "the nct cert for 12-c-20331".

A plate has no check and no single shape, so the cue is the evidence, and the plate is what the cue names: a
few groups of letters and digits, with both among them, ending before the sentence goes on ("my car rkz 4471
on royal avenue").
"""

from __future__ import annotations

import re

from app.identifiers import lexicon
from app.identifiers.entities import Entity, EntityType
from app.identifiers.names import FUNCTION_WORDS

VEHICLE_WORDS = (
    r"car|vehicle|van|truck|lorry|ute|motorbike|motorcycle|scooter|taxi|rego|registration|reg|plates?|nct cert for|"
    r"auto|coche|carro|camioneta|camión|camion|moto|motocicleta|veh[íi]culo|furgoneta|ppu|placa patente|placas?|"
    r"patente|tablilla|dominio|matr[íi]cula|chapa|registered|ambulance|ambulancia|bus|minibus|matatu|mototaxi"
)
# Makes that name a car and nothing else; a model's word or two may follow before the plate.
_MAKES = (
    r"toyota|ford|honda|nissan|volkswagen|vw|bmw|mercedes|mercedes-benz|audi|hyundai|kia|seat|renault|peugeot|"
    r"citro[eë]n|fiat|tesla|chevrolet|chevy|dodge|jeep|subaru|mazda|volvo|[sš]koda|opel|vauxhall|lexus|mitsubishi|"
    r"suzuki|dacia|cupra|chrysler"
)
_SEP = r"(?:,?\s*(?:[:#]|(?i:no\.?|n[º°]\.?)|is|was|es|era)\s*|\s+)"
_NOT_A_VEHICLE_WORD = rf"(?!(?i:{VEHICLE_WORDS})(?!\w))"
# (a plate of one group has up to eight characters: "MPH417", "KTR882", "7ABC123")
_PLATE = rf"{_NOT_A_VEHICLE_WORD}(?P<plate>[A-Za-z0-9]{{1,8}}(?:[ \-][A-Za-z0-9]{{1,5}}){{0,3}})(?![\w\-])"
_CUED_PLATE = re.compile(
    rf"(?<![\w\-])(?:(?i:{VEHICLE_WORDS})(?!\w)"
    # the make and a model's word or two, the fewest first: "VW Golf F-AO 2291"
    rf"|(?P<make>(?i:{_MAKES}))(?: {_NOT_A_VEHICLE_WORD}[A-Za-z0-9][\w\-]{{0,12}}){{1,2}}?,?){_SEP}{_PLATE}"
)


_CUE = re.compile(rf"(?<![\w\-])(?:(?i:{VEHICLE_WORDS})(?!\w)|(?i:{_MAKES}))")


def find_plates(text: str) -> list[Entity]:
    """Plates named by a vehicle's word or its make and model."""
    found = []
    # read from every cue, not only after the last match: "the plate on his ute is MPH417" is read from "ute"
    # once the words after "plate" are no plate
    matches = (_CUED_PLATE.match(text, cue.start()) for cue in _CUE.finditer(text))
    for match in (m for m in matches if m is not None):
        start, end = match.span("plate")
        if any(start < f.end for f in found[-1:]):
            continue
        groups = re.split(r"([ \-])", match.group("plate"))
        while groups and _goes_on(groups[-1]):  # "rkz 4471 on royal avenue": the plate ended before "on"
            groups = groups[:-2]
        # (a group joined by a hyphen is the plate's, whatever word it spells: "car AT-48-ZT")
        while len(groups) > 2 and groups[1] != "-" and _goes_on(groups[0]):  # "the car was at 3pm": no plate
            start += len(groups[0]) + len(groups[1])
            groups = groups[2:]
        # (groups in capitals joined by hyphens are a plate's, whatever word one spells: "car AT-48-ZT")
        hyphened = bool(groups) and set(groups[1::2]) == {"-"} and "".join(groups).isupper()
        if not groups or not hyphened and any(group.lower() in FUNCTION_WORDS for group in groups[::2]):
            continue  # "vehicle 1 of 2"
        if any(group.isalpha() and (len(group) >= 5 or lexicon.is_kept_term(group)) for group in groups[::2]):
            continue  # "car Mazda CX-5": a make and its model, no plate
        if match.group("make") and re.fullmatch(r"(?:19|20)\d\d", groups[0]):
            continue  # "Ford F-150 2019 XLT": the model's year and trim
        plate = "".join(groups)
        compact = re.sub(r"[ \-]", "", plate)
        if not (4 <= len(compact) <= 10 and re.search(r"\d", compact) and re.search(r"[A-Za-z]", compact)):
            continue
        if plate.isalpha() or re.fullmatch(r"\d+[a-z]{1,3}", compact):
            continue  # "3pm", "2nd": a time or an ordinal, not a plate
        found.append(Entity(start, start + len(plate), EntityType.VEHICLE))
    return found


def _goes_on(group: str) -> bool:
    """A word of the sentence after the plate, not one of its groups."""
    lower = group.lower()
    return group.isalpha() and (lower in FUNCTION_WORDS or len(group) >= 3 and lexicon.zipf(group) >= 3.5)
