"""How well a detector finds the identifiers of an annotated set: span recall, token recall and precision.

A token is a run of letters or digits. An identifier's token counts as found when any finding covers it,
whatever type the finding says: what matters for privacy is that the model never reads it (a name taken
for an organisation is still replaced). Precision is the share of found tokens that are part of an
identifier. A span counts as found when every one of its tokens is.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from app.identifiers import lexicon
from app.identifiers.entities import Entity, EntityType
from app.privacy.identifier_corpus import LabelledDocument
from app.privacy.stats import wilson_interval

_TOKEN = re.compile(r"[^\W_]+")
# Titles count neither for recall nor against precision (lexicon.TITLES says why).
TITLES = lexicon.TITLES


@dataclass(frozen=True)
class Rate:
    """``hits`` of ``total``, with its Wilson 95 % interval."""

    hits: int
    total: int

    @property
    def value(self) -> float:
        return self.hits / self.total if self.total else 1.0

    @property
    def ci95(self) -> tuple[float, float]:
        return wilson_interval(self.hits, self.total)


@dataclass(frozen=True)
class DetectionScores:
    """Per type and over all types: span recall, token recall; precision over all found tokens."""

    span_recall: dict[str, Rate]
    token_recall: dict[str, Rate]
    token_precision: Rate
    documents: int
    precision_by_type: dict[str, Rate] | None = None  # the found type's tokens that are identifiers

    def worst_type(self) -> tuple[str, float]:
        by_type = {k: v.value for k, v in self.token_recall.items() if k != "overall"}
        kind = min(by_type, key=by_type.get)
        return kind, by_type[kind]


def _tokens(text: str) -> list[tuple[int, int]]:
    return [m.span() for m in _TOKEN.finditer(text) if m.group(0).lower() not in TITLES]


def _covered(span: tuple[int, int], entities: Iterable[Entity]) -> bool:
    return any(e.start <= span[0] and span[1] <= e.end for e in entities)


def score(documents: list[LabelledDocument], detect: Callable[[str], list[Entity]]) -> DetectionScores:
    """Run ``detect`` on every document and score it against the annotations."""
    span_hits: dict[str, list[int]] = {}
    token_hits: dict[str, list[int]] = {}
    precise = found_tokens = 0
    by_type: dict[str, list[int]] = {}
    for document in documents:
        predicted = detect(document.text)
        tokens = _tokens(document.text)
        for entity in document.entities:
            inside = [t for t in tokens if entity.start <= t[0] and t[1] <= entity.end]
            if not inside:
                continue  # a title alone
            hits = sum(_covered(t, predicted) for t in inside)
            for key in (entity.type.value, "overall"):
                span_hits.setdefault(key, [0, 0])
                span_hits[key][0] += hits == len(inside)
                span_hits[key][1] += 1
                token_hits.setdefault(key, [0, 0])
                token_hits[key][0] += hits
                token_hits[key][1] += len(inside)
        for token in tokens:
            finding = next((e for e in predicted if e.start <= token[0] and token[1] <= e.end), None)
            if finding is not None:
                found_tokens += 1
                right = _covered(token, document.entities)
                precise += right
                by_type.setdefault(finding.type.value, [0, 0])
                by_type[finding.type.value][0] += right
                by_type[finding.type.value][1] += 1
    return DetectionScores(
        span_recall={k: Rate(*v) for k, v in span_hits.items()},
        token_recall={k: Rate(*v) for k, v in token_hits.items()},
        token_precision=Rate(precise, found_tokens),
        documents=len(documents),
        precision_by_type={k: Rate(*v) for k, v in by_type.items()},
    )


def misses(document: LabelledDocument, detect: Callable[[str], list[Entity]]) -> list[tuple[EntityType, str]]:
    """The identifiers (type, text) of a document that ``detect`` left uncovered, in part or whole."""
    predicted = detect(document.text)
    out = []
    for entity in document.entities:
        inside = [t for t in _tokens(document.text) if entity.start <= t[0] and t[1] <= entity.end]
        if not all(_covered(t, predicted) for t in inside):
            out.append((entity.type, entity.text_in(document.text)))
    return out
