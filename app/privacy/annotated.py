"""Documents whose identifiers a person marked, in a plain JSONL format an office can write for its own
text (docs/PRIVACY.md, "Your own documents"), and the sources the project's own figures come from.

One JSON object a line::

    {"id": "letter-7", "language": "es", "text": "…", "entities": [{"start": 10, "end": 35, "type": "person"}]}

``start`` and ``end`` are character offsets into ``text`` (``text[start:end]`` is the identifier), ``type``
one of ``EntityType``'s values, an optional ``"text"`` repeats the identifier and is checked. ``language``
("en" or "es") is optional.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

from app.identifiers.entities import Entity, EntityType
from app.privacy.identifier_corpus import LabelledDocument, load_corpus
from app.resources import IDENTIFIER_SET

ANNOTATED_SETS = IDENTIFIER_SET / "sets"


class AnnotatedSetError(ValueError):
    """An annotated file that cannot be scored: which file, which line, what is wrong."""


class Role(StrEnum):
    DEVELOPMENT = "development"  # read while tuning the detector
    HELD_OUT = "held_out"  # scored only: never read while tuning


@dataclass(frozen=True)
class Source:
    """One evaluation source: who wrote it, how, and whether the detector was tuned on it."""

    name: str
    role: Role
    author: str
    documents: tuple[LabelledDocument, ...]


def load_annotated(path: Path) -> list[LabelledDocument]:
    """The documents of a JSONL file, or of every ``*.jsonl`` file in a folder (sorted by name)."""
    path = Path(path)
    if path.is_dir():
        files = sorted(path.glob("*.jsonl"))
        if not files:
            raise AnnotatedSetError(f"{path} holds no .jsonl file")
        return [document for file in files for document in _read_file(file)]
    if not path.is_file():
        raise AnnotatedSetError(f"{path} is neither a .jsonl file nor a folder of them")
    return _read_file(path)


def _read_file(path: Path) -> list[LabelledDocument]:
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as error:
        raise AnnotatedSetError(f"cannot read {path}: {error}") from error
    documents, seen = [], set()
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        where = f"{path.name}, line {number}"
        try:
            record = json.loads(line)
        except json.JSONDecodeError as error:
            raise AnnotatedSetError(f"{where}: not JSON ({error.msg})") from error
        document = _document(record, where, path.stem)
        if document.id in seen:
            raise AnnotatedSetError(f"{where}: the id {document.id!r} appears twice")
        seen.add(document.id)
        documents.append(document)
    return documents


def _document(record: object, where: str, family: str) -> LabelledDocument:
    if not isinstance(record, dict) or not isinstance(record.get("text"), str):
        raise AnnotatedSetError(f'{where}: each line must be an object with a "text" string')
    text = record["text"]
    entities = []
    for index, item in enumerate(record.get("entities", [])):
        try:
            start, end, kind = int(item["start"]), int(item["end"]), EntityType(item["type"])
        except (KeyError, TypeError, ValueError) as error:
            raise AnnotatedSetError(
                f"{where}: entity {index + 1} needs start, end and a type among "
                f"{', '.join(t.value for t in EntityType)}"
            ) from error
        if not 0 <= start < end <= len(text):
            raise AnnotatedSetError(f"{where}: entity {index + 1} ({start}-{end}) lies outside the text")
        if "text" in item and item["text"] != text[start:end]:
            raise AnnotatedSetError(
                f"{where}: entity {index + 1} says {item['text']!r} but the text there is {text[start:end]!r}"
            )
        entities.append(Entity(start, end, kind))
    language = record.get("language", "en")
    if language not in ("en", "es"):
        raise AnnotatedSetError(f'{where}: language must be "en" or "es"')
    return LabelledDocument(str(record.get("id", where)), family, "annotated", text, tuple(sorted(entities)), language)


# The project's own sources (docs/PRIVACY.md, "The evaluation sets", says how each was made). Only the
# development ones were read while the detector was tuned.
_WRITTEN = (
    ("written-dev", Role.DEVELOPMENT, "a helper's hand-written notes, letters and messages (EN and ES)"),
    ("written-dev-2-en", Role.DEVELOPMENT, "a fifth author's English documents from nine countries"),
    ("written-dev-2-es", Role.DEVELOPMENT, "a sixth author's Spanish documents, Spain and 11 Latin American countries"),
    ("written-dev-3-en", Role.DEVELOPMENT, "an eighth author's English documents from sixteen countries"),
    ("written-dev-3-es", Role.DEVELOPMENT, "a ninth author's Spanish documents, twenty countries and Spain's regions"),
    (
        "written-dev-4-en",
        Role.DEVELOPMENT,
        "an eleventh author's English documents and short records, seven countries",
    ),
    (
        "written-dev-4-es",
        Role.DEVELOPMENT,
        "a tenth author's Spanish documents and short records, Spain and Mexico first",
    ),
    (
        "written-dev-5-en",
        Role.DEVELOPMENT,
        "a fourteenth author's English short records and documents, sixteen countries' formats",
    ),
    (
        "written-dev-5-es",
        Role.DEVELOPMENT,
        "a fifteenth author's Spanish short records and documents, Spain and ten countries of the Americas",
    ),
    ("public-text-dev", Role.DEVELOPMENT, "credits, man pages and changelogs shipped in Debian, annotated by hand"),
    (
        "writer-06",
        Role.DEVELOPMENT,
        "writer 6, 12 en and 12 es: clinical and legal documents: "
        "Pakistan, Bangladesh, Uganda, Zambia, Barbados, Malta, Alaska; Spain's provinces, Latin America",
    ),
    (
        "writer-07",
        Role.DEVELOPMENT,
        "writer 7, 12 en and 12 es: clinical and legal documents: "
        "Sri Lanka, Trinidad, Botswana, Fiji, Gibraltar, Jersey, Hawaii; Spain, Latin America",
    ),
    (
        "writer-08",
        Role.DEVELOPMENT,
        "writer 8, 12 en and 12 es: clinical and legal documents: "
        "Rwanda, Sierra Leone, Namibia, Guyana, Cyprus, Guernsey, Maine; Spain, Latin America",
    ),
    (
        "writer-09",
        Role.DEVELOPMENT,
        "writer 9, 12 en and 12 es: clinical and legal documents: "
        "Leeds, Nepal, Ghana, Zimbabwe, Texas, Hong Kong, Singapore; Spain, Latin America",
    ),
    (
        "writer-10",
        Role.DEVELOPMENT,
        "writer 10, 12 en and 12 es: clinical and legal documents: "
        "Malta, Malawi, Papua New Guinea, the Isle of Man, Alberta, New Mexico; Spain, Latin America",
    ),
    (
        "writer-11",
        Role.DEVELOPMENT,
        "writer 11, 12 en and 12 es: clinical and legal documents: "
        "Ghana, Mauritius, the Bahamas, Orkney, Wales, Newfoundland; Spain, Latin America",
    ),
    (
        "writer-12",
        Role.DEVELOPMENT,
        "writer 12, 12 en and 12 es: clinical and legal documents: "
        "Ethiopia, South Sudan, Samoa, Cayman, Shetland, Montana, Kerala; Spain, Latin America",
    ),
    (
        "writer-15",
        Role.DEVELOPMENT,
        "writer 15, 12 en and 12 es: "
        "chats, voicemails, dictation, workplace messages and CSV exports, US, UK, Ireland, Oceania; Spanish alike",
    ),
    (
        "writer-16",
        Role.DEVELOPMENT,
        "writer 16, 12 en and 12 es: "
        "chats, voicemails, dictation, booking logs and spreadsheets, US, UK, Australia; Spanish alike",
    ),
    (
        "writer-18",
        Role.DEVELOPMENT,
        "writer 18, 12 en and 12 es: text messages, call logs, handovers and calendars, US, UK, Oceania; Spanish alike",
    ),
    (
        "writer-20",
        Role.DEVELOPMENT,
        "writer 20, 12 en and 12 es: text pasted from other software: "
        "faxes, e-filing receipts, portals, scans; eight countries; Spanish alike",
    ),
    (
        "writer-23",
        Role.DEVELOPMENT,
        "writer 23, 12 en and 12 es: "
        "batches of short records (forms, KYC queues, alerts, tickets, labels) in some thirty countries' formats",
    ),
    ("written-en", Role.HELD_OUT, "a second author's English clinical and legal documents"),
    ("written-es", Role.HELD_OUT, "a third author's Spanish documents from Spain and Latin America"),
    ("public-text", Role.HELD_OUT, "real public-domain text with its natural identifiers, annotated by hand"),
    (
        "written-5-en",
        Role.HELD_OUT,
        "a twelfth author's English documents (US, UK, Ireland, Canada, Australia, New Zealand), added at 7d0c4bd",
    ),
    (
        "written-5-es",
        Role.HELD_OUT,
        "a thirteenth author's Spanish documents (Spain, Mexico, Colombia, Argentina, Chile, Peru, Venezuela, "
        "Costa Rica), added at 7d0c4bd",
    ),
    (
        "written-6-en",
        Role.HELD_OUT,
        "a sixteenth author's English short records and documents, twelve countries and expatriates, added at 19a128b",
    ),
    (
        "written-6-es",
        Role.HELD_OUT,
        "a seventeenth author's Spanish short records and documents, sixteen countries, added at 19a128b",
    ),
    (
        "writer-13",
        Role.HELD_OUT,
        "writer 13, 12 en and 12 es: clinical and legal documents: "
        "Kenya, Nigeria, Cameroon, Jamaica, Guam, Scotland, Ireland, Ontario; Spain, Latin America",
    ),
    (
        "writer-14",
        Role.HELD_OUT,
        "writer 14, 12 en and 12 es: clinical and legal documents: "
        "Tonga, Vanuatu, the Philippines, Pakistan, Bangladesh, Liberia, Quebec; Spain, Mexico",
    ),
    (
        "writer-17",
        Role.HELD_OUT,
        "writer 17, 12 en and 12 es: clinical and legal documents: "
        "Botswana, Mauritius, Fiji, Singapore, Malta, Devon, Minnesota; Spain, Latin America",
    ),
    (
        "writer-19",
        Role.HELD_OUT,
        "writer 19, 12 en and 12 es: informal text: "
        "chat, voicemail, workplace messages, dictation, US, UK, Ireland, Oceania; Spanish alike",
    ),
    (
        "writer-21",
        Role.HELD_OUT,
        "writer 21, 12 en and 12 es: "
        "formal documents of kinds no other set had (hospice, autopsy, bankruptcy, powers of attorney); Spanish alike",
    ),
    (
        "writer-22",
        Role.HELD_OUT,
        "writer 22, 12 en and 12 es: text pasted from other software: "
        "record systems, PDFs, e-mail threads, calendars, six countries; Spanish alike",
    ),
    (
        "writer-24",
        Role.HELD_OUT,
        "writer 24, 12 en and 12 es: "
        "batches of short records (crew lists, sign-ups, disputes, contact cards) in some thirty countries' formats",
    ),
)


def project_sources() -> list[Source]:
    """Every evaluation source shipped with the project, development ones first."""
    templates = load_corpus()
    sources = [
        Source(
            "templates-dev",
            Role.DEVELOPMENT,
            "this project's twelve template families, development half",
            tuple(d for d in templates if d.half == "development"),
        ),
        Source(
            "templates-held-out",
            Role.HELD_OUT,
            "this project's twelve template families, held-out half",
            tuple(d for d in templates if d.half == "held_out"),
        ),
    ]
    for name, role, author in _WRITTEN:
        file = ANNOTATED_SETS / f"{name}.jsonl"
        if file.is_file():
            sources.append(Source(name, role, author, tuple(load_annotated(file))))
    return sorted(sources, key=lambda source: source.role != Role.DEVELOPMENT)
