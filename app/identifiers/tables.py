"""What a pasted spreadsheet's columns say of their cells: "last,first,dob,phone,neighborhood" above rows of
"reyes,j,,206 883 1204,ballard". A cell of such a row may be a lower-case surname, an initial or a
neighbourhood that nothing else in the text marks as an identifier; its column's heading does.

A table is a heading line of three fields or more, separated by commas, semicolons or tabs, that names
at least two columns of identifiers, and the lines after it with as many fields (quoted fields as CSV quotes
them). It ends at the first line that has another number of fields.
"""

from __future__ import annotations

import csv
import re

from app.identifiers import lexicon
from app.identifiers.entities import Entity, EntityType

T = EntityType

# Column headings, compared in lower case without accents, spaces, dots or underscores.
_COLUMNS: dict[str, EntityType] = {
    **dict.fromkeys(
        "name fullname first firstname last lastname surname surnames given givenname givennames forename "
        "forenames middle middlename patient patientname client clientname resident residentname contact "
        "contactname nok nextofkin apellido apellidos nombre nombres nombreyapellidos apellidosynombre "
        "apellidosynombres primerapellido segundoapellido paciente cliente residente contacto familiar "
        "preferredname goesby alias apodo".split(),
        T.PERSON,
    ),
    **dict.fromkeys(
        "dob dateofbirth birthdate birthday born fnac fechanac fechanacimiento fechadenacimiento nacimiento".split(),
        T.DATE,
    ),
    **dict.fromkeys(
        "phone phonenumber tel telephone mobile cell cellphone telefono movil celular tfno tlf".split(),
        T.PHONE,
    ),
    **dict.fromkeys("address street streetaddress direccion domicilio calle".split(), T.ADDRESS),
    **dict.fromkeys(
        "city town neighborhood neighbourhood suburb locality ciudad localidad barrio municipio poblacion "
        "colonia comuna".split(),
        T.LOCATION,
    ),
    **dict.fromkeys("zip zipcode postcode postalcode cp codigopostal".split(), T.POSTCODE),
    **dict.fromkeys("email mail correo correoelectronico".split(), T.EMAIL),
    **dict.fromkeys(
        "mrn nhs nhsnumber nhc historia numhistoria nhistoria dni nie nif ssn social curp rut cedula "
        "medicaid medicare memberid member insuranceid idnumber".split(),
        T.RECORD_NUMBER,
    ),
}
_PLAIN = str.maketrans("áéíóúñü", "aeiounu")
# What a cell holds when it holds nothing.
_EMPTY = frozenset("n/a na none - – pending unknown desconocido ninguno sin dato nil ? x".split())
# (a table drawn with bars is written for reading, its cells in the forms the other rules read; a pasted
# spreadsheet's rows are bare values)
_DELIMITERS = ",;\t"


def _column(heading: str) -> EntityType | None:
    key = re.sub(r"[\s._\-/#º°()]+", "", heading.lower().translate(_PLAIN))
    return _COLUMNS.get(key)


def _fields(line: str, delimiter: str) -> list[tuple[int, int]]:
    """The span of each field of ``line`` (relative to it), trimmed, quotes outside."""
    spans, start = [], 0
    values = next(csv.reader([line], delimiter=delimiter))
    for value in values:
        at = line.find(value, start) if value else start
        if at < 0:
            return []
        end = at + len(value)
        spans.append((at, end))
        start = end
        next_delimiter = line.find(delimiter, start)
        if next_delimiter >= 0:
            start = next_delimiter + 1
    return spans


def _an_everyday_value(value: str, kind: EntityType) -> bool:
    """A cell of a name's or a place's column that holds a word of the language, not a name: "varón", "yes",
    "rural"."""
    if kind not in (T.PERSON, T.LOCATION) or " " in value or len(value) <= 2:
        return False  # (an initial is someone's: "reyes,j")
    word = value.lower()
    return max(lexicon.zipf(word), lexicon.zipf_in(word, "es")) >= 4.5 and not lexicon.is_name_word(word)


def find_table_cells(text: str) -> list[Entity]:
    """The cells of identifying columns in the tables ``text`` holds."""
    if not any(d in text for d in _DELIMITERS):
        return []
    found = []
    lines = text.split("\n")
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line) + 1)
    index = 0
    while index < len(lines):
        line = lines[index]
        delimiter = next((d for d in _DELIMITERS if line.count(d) >= 2), None)
        if delimiter is None:
            index += 1
            continue
        headings = [h.strip() for h in next(csv.reader([line], delimiter=delimiter))]
        kinds = [_column(h) for h in headings]
        # two identifying columns at least, and headings of a few words: "name,dose,frequency" lists medicines,
        # "Patient, 72, seen in clinic" is a sentence
        if sum(k is not None for k in kinds) < 2 or any(len(h) > 30 or len(h.split()) > 3 for h in headings):
            index += 1
            continue
        row = index + 1
        while row < len(lines):
            spans = _fields(lines[row], delimiter)
            if len(spans) != len(headings):
                break
            for kind, (start, end) in zip(kinds, spans, strict=True):
                value = lines[row][start:end].strip()
                if kind is None or not value or value.lower() in _EMPTY or _an_everyday_value(value, kind):
                    continue
                lead = len(lines[row][start:end]) - len(lines[row][start:end].lstrip())
                found.append(Entity(offsets[row] + start + lead, offsets[row] + start + lead + len(value), kind))
            row += 1
        index = row
    return found
