"""What a file's name quoted in a message says of someone: "OPG_DeSilva_20250502.dcm", "receta_mateo_140324.pdf",
"Corlett_HE_will_copy.pdf". Scanners, clinics and courts name files by the patient and the day; the parts are
joined by underscores and points, which the other rules read as one word."""

from __future__ import annotations

import re
from datetime import date

from app.identifiers import lexicon
from app.identifiers.entities import Entity, EntityType

T = EntityType
_FILE_NAME = re.compile(
    r"(?<![\w./\-])[\w\-]+(?:\.[\w\-]+)*\.(?i:pdf|docx?|xlsx?|jpe?g|png|heic|gif|dcm|tiff?|txt|csv|zip|mp3|mp4|m4a|"
    r"opus|ogg|wav|eml|msg|rtf|odt)\b"
)
_PART = re.compile(r"[^\W_]+")
_CAMEL = re.compile(r"[A-Z][a-z]+")


# A folder's path on a shared drive, which names the client and the matter as a file's name does:
# "S:\\Clients\\Holloway_B (25-0112)\\Pleadings\\", "Z:\\DESPACHO\\EXPEDIENTES 2025\\25-046 GIL MOGOLLON …\\".
_FOLDER_PATH = re.compile(r"(?<![\w\\])[A-Za-z]:\\[^\n\\]+(?:\\[^\n\\]+)*\\?")


def stems(text: str) -> list[tuple[int, int]]:
    """The spans of the quoted files' names without their extensions, and of folders' paths: read with their
    underscores and backslashes as spaces, a name's codes and dates are what the rules find in prose."""
    spans = [(m.start(), m.group(0).rfind(".") + m.start()) for m in _FILE_NAME.finditer(text)]
    return spans + [m.span() for m in _FOLDER_PATH.finditer(text)]


def as_words(stem: str) -> str:
    """``stem`` with the marks that join a file's words as spaces, the same length."""
    return stem.replace("_", " ").replace("\\", " ")


def find_file_names(text: str) -> list[Entity]:
    """The dates and the people's names in the files' names ``text`` quotes."""
    found = []
    for name in _FILE_NAME.finditer(text):
        stem_end = name.group(0).rfind(".") + name.start()
        parts = list(_PART.finditer(text, name.start(), stem_end))
        words = [part.group(0).lower() for part in parts]
        for index, part in enumerate(parts):
            word = part.group(0)
            beside = set(words[max(0, index - 1) : index] + words[index + 1 : index + 2])
            if word.isdigit():
                # an invoice's or an order's number after its word ("INV_231299", "order_150624")
                if _a_compact_date(word) and not beside & _NUMBER_WORDS:
                    found.append(Entity(part.start(), part.end(), T.DATE))
            elif _a_name(word) and not beside & _SCALE_WORDS and not lexicon.is_kept_term(word):
                # a scale's or a society's author beside its word: "Escala_Norton", "Hamilton_Depression_Scale"
                found.append(Entity(part.start(), part.end(), T.PERSON))
    return found


# The words a number of some other kind follows in a file's name.
_NUMBER_WORDS = frozenset("inv invoice order pedido factura fra ref no num id po receipt recibo".split())
# The words beside an eponym in a file's name: a scale's, a test's, a disease's, a society's.
_SCALE_WORDS = frozenset(
    "escala scale test score index indice índice disease enfermedad syndrome sindrome síndrome depression "
    "uk society sociedad criteria criterios".split()
)


def _a_compact_date(digits: str) -> bool:
    """Whether ``digits`` are a day written without separators: year, month and day in eight ("20250502"), or
    day, month and a two-digit year in six ("140324")."""
    if len(digits) == 8:
        year, month, day = int(digits[:4]), int(digits[4:6]), int(digits[6:])
    elif len(digits) == 6:
        day, month, year = int(digits[:2]), int(digits[2:4]), 2000 + int(digits[4:])
    else:
        return False
    # (no file is named by a day beyond next year: "231299" is a number)
    if not 1900 <= year <= date.today().year + 1:
        return False
    try:
        date(year, month, day)
    except ValueError:
        return False
    return True


def _a_name(word: str) -> bool:
    """Whether a part of a file's name is a person's: a name on the lists no everyday word shares ("mateo",
    "Corlett"), or one joined to its particle ("DeSilva", "McArdle")."""
    if len(word) < 3 or any(c.isdigit() for c in word):
        return False
    if _a_name_word(word):
        return True
    pieces = _CAMEL.findall(word)
    return len(pieces) >= 2 and "".join(pieces) == word and _a_name_word(pieces[-1])


def _a_name_word(word: str) -> bool:
    """A word on the lists of names that is not also an everyday word ("will", "mark", "final")."""
    return (
        lexicon.is_name_word(word) and word.lower() not in lexicon.EVERYDAY_NAMES and lexicon.zipf(word.lower()) < 4.6
    )
