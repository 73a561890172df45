"""Streets written as their name and then the house's number, with no word for street: "Córdoba 1452",
"Jerónimo Luis de Cabrera 1250", "Michigan 1544". Argentina, Uruguay and Paraguay write an address so, in
forms and in chat alike, and the rules that need a street's type ("Av.", "Calle") do not see it.

A name and a number are also a drug and its dose, a scale and its score, a law, a model or a phone number,
so a match must be worded as an address around it (a cue before it, such as "vive en" or "el de", or a flat's
floor after it) and its last name word must be what streets are named after: a town, a region or a country,
a person, or a word that no Spanish dictionary uses.
"""

from __future__ import annotations

import re

from app.identifiers import lexicon
from app.identifiers.dates import CALENDAR_WORDS, SHORT_MONTH_WORDS
from app.identifiers.entities import Entity, EntityType
from app.identifiers.towns import town_names

_NAME_WORD = r"[A-ZÁÉÍÓÚÑÜ][a-záéíóúñü]+"
_STREET = rf"{_NAME_WORD}(?: (?:de |del |de la |de los |de las )?{_NAME_WORD}){{0,3}}"
# A number that runs on into a code ("6120M", "512-09"), a decimal, a unit, a percentage, an ordinal or a
# phone's next group ("315 227 0043") is none of a house's.
_UNITS = r"mg|mcg|µg|ml|mL|l|cc|ui|UI|g|kg|km|m|m2|m²|mm|cm|h|hs|hrs|min|años|meses|días|pesos|usd|USD|dólares|euros"
_STREET_AND_NUMBER = re.compile(
    rf"(?<![\w.,/\-])(?P<street>{_STREET}) (?P<number>\d{{2,5}})"
    rf"(?![\w/\-]|[.,]\d| ?\d{{2}}| ?(?:{_UNITS})\b| ?[%º°ª$€])"
)
# What a person writes before an address: "vive en", "estamos en", "el de", "domicilio", a neighbourhood's
# comma ("Malvín, Michigan 1544").
_CUE_BEFORE = re.compile(
    r"(?i:(?<!\w)(?:en|el de|la de|los de|domicilio|dirección|direccion|calle|sito|sita|ubicado|ubicada)"
    r"[:,]?|[^\W\d_]{3,},) $"
)
# …or after it: a floor, a flat, a second number ("bis"), a corner or the streets between which it stands.
_CUE_AFTER = re.compile(
    r"(?i: (?:piso|p\.|depto|dpto|dto|apto|ap|of|oficina|local|bis|esq|esquina|entre|casi|c/)(?!\w)"
    r"| \d{1,2} ?[º°]| y (?=[A-ZÁÉÍÓÚÑ]))"
)
# The first words of a law, a form's field, a room or a scale's line, which a number follows as theirs.
_NOT_A_STREET = frozenset(
    """
    ley decreto resolución resolucion artículo articulo art expediente exp causa legajo sala cama habitación
    habitacion hab box consultorio consulta código codigo norma página pagina pág folio tomo libro año modelo
    versión version serie lote manzana piso oficina local depto dpto puerta ruta km cp casilla apartado
    matrícula matricula registro reg mat tel teléfono telefono celular cel fax whatsapp nota turno orden
    caso ficha historia dni ci cuil cuit ruc rut nit pasaporte
    """.split()
)
# A scale named after a town ("Glasgow 13") and a month, whole or short ("Mar 10"), are followed by a number too.
_NOT_A_STREETS_NAME = frozenset({"glasgow", "apgar"}) | CALENDAR_WORDS | SHORT_MONTH_WORDS


def find_bare_streets(text: str) -> list[Entity]:
    """Streets named and numbered with no street-type word, worded as an address (Spanish text)."""
    found = []
    for match in _STREET_AND_NUMBER.finditer(text):
        words = match.group("street").split()
        start = match.start("street")
        # "Estamos en Tucumán 1581": a sentence's capitalised first words are not the street's
        while len(words) > 1 and (words[0].lower() in _NOT_A_STREET or lexicon.zipf(words[0]) >= 4.5):
            start += len(words[0]) + 1
            words = words[1:]
        if words[0].lower() in _NOT_A_STREET or any(w.lower() in _NOT_A_STREETS_NAME for w in words):
            continue
        if not (_CUE_BEFORE.search(text, max(0, start - 16), start) or _CUE_AFTER.match(text, match.end())):
            continue
        if not _a_streets_namesake(words[-1]) or any(_a_medicine_or_measure(w) for w in words):
            continue
        found.append(Entity(start, match.end(), EntityType.ADDRESS))
    return found


def _a_streets_namesake(word: str) -> bool:
    """Whether streets are named after what ``word`` names: a town, a region or country, a person, or
    nothing a Spanish dictionary knows (an English word may name a street: "Thames 1750")."""
    return (
        word in town_names()
        or lexicon.is_region(word)
        or lexicon.is_name_word(word)
        or lexicon.zipf_in(word, "es") < lexicon.EVERYDAY_ZIPF
    )


def _a_medicine_or_measure(word: str) -> bool:
    return lexicon.is_kept_term(word) or lexicon.is_clinical_word(word)  # kept terms hold the drugs' names
