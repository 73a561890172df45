"""A sequence model stacked on the rules: a conditional random field that reads each word's shape, rarity,
name lists and neighbours, and what the rules found around it, and marks the words the rules left that
look like identifiers.

Why a learned stage at all: the rules are written from the failures of the development sets, and on text
by new authors they miss 3–6 % of identifier words, mostly one-off names of firms, streets and people in
layouts no rule has seen. Those misses share no wording, but they share evidence — a rare capitalised word
after "employer", a number beside a found address — which a model learns across ten authors' sets better
than another rule does (docs/PRIVACY.md, "The learned stage", has the leave-one-source-out measurement).

Why CRFsuite (python-crfsuite): a linear-chain model is what such sparse, hand-chosen evidence needs, its
file is under a megabyte, it tags a note in milliseconds in C, and it trains in a minute on this project's
annotated development sets (``scripts/train_identifier_tagger.py``). The features use only the word's own
evidence and the rules' findings, never a word list learned from the sets: names themselves are not
memorised (only words of Zipf 4 and above are seen as themselves).
"""

from __future__ import annotations

import bisect
import functools
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from app.identifiers import lexicon
from app.identifiers.entities import Entity, EntityType
from app.resources import IDENTIFIER_SET

MODEL_FILE = IDENTIFIER_SET / "tagger.crfsuite"
MODEL_CARD = IDENTIFIER_SET / "tagger.json"
# Changed whenever ``features`` changes: a model trained on other features must not be read with these.
FEATURE_VERSION = 2
OUTSIDE = "O"
# A word the model gives at least this chance of being an identifier is one. This and RULE_DROPOUT were
# chosen together on the development sets' leave-one-source-out runs (docs/PRIVACY.md, "The learned stage"):
# the most words found with no source's precision more than 3 points below the rules' alone.
THRESHOLD = 0.6
# Only words at least this common are features as themselves: context words ("employer", "at", "calle"),
# never a person's or a firm's own name.
CONTEXT_ZIPF = 4.0

WORD = re.compile(r"[^\W_]+")
# Words the model marks join into one identifier across these gaps ("Harbourline Stevedoring",
# "O'Neill-Brown", "3/1").
JOINING_GAP = re.compile(r"[ \t]?(?:[-'’&/.][ \t]?)?|[ \t]")


# L1 keeps the model small and its features few; both weights chosen once, on the leave-one-out runs.
PARAMETERS = {"c1": 0.1, "c2": 0.05, "max_iterations": 150, "feature.possible_transitions": True}

# The kinds of finding whose words the rules tell by context rather than by form: training hides a share of
# these alone.
NAMING_TYPES = frozenset({EntityType.PERSON, EntityType.ORGANIZATION, EntityType.LOCATION, EntityType.ADDRESS})
# The share of the rules' naming findings hidden from the features while training (scripts/train_identifier_tagger.py).
# With the writers' development sets, the rules find about 95.6 % of them unseen, and a model that saw half of
# their names hidden found 40 more words of 38,021 than one that saw 30 % hidden, for 39 more wrong (three folds
# of those sets, each scored by a model trained without it; docs/PRIVACY.md, "The learned stage").
RULE_DROPOUT = 0.5


class TaggerUnavailable(RuntimeError):
    """The shipped model is missing or was trained on other features."""


@dataclass(frozen=True)
class ModelCard:
    """What the shipped model was trained on, written beside it by the training script."""

    feature_version: int
    sources: tuple[str, ...]  # the annotated development sources, never a held-out one
    documents: int
    words: int
    identifier_words: int


_LETTER, _DIGIT, _RUN = re.compile(r"[^\W\d_]"), re.compile(r"\d"), re.compile(r"(.)\1{2,}")
_SPACE = re.compile(r"\s+")


@functools.lru_cache(maxsize=65536)
def _word_evidence(word: str, language: str) -> tuple[str, ...]:
    """What a word shows on its own, cached: a note repeats most of its words. Order: shape, Zipf, length,
    given name, surname, the word itself if common, a digit in it, a rare word's last three letters."""
    lower = word.lower()
    shape = _LETTER.sub(lambda m: "X" if m.group(0).isupper() else "x", word)
    shape = _RUN.sub(r"\1\1", _DIGIT.sub("d", shape))[:6]
    rarity = lexicon.zipf_in(lower, language)
    given, surnames = lexicon.every_given_name(), lexicon.every_surname()
    return (
        shape,
        str(int(rarity)),
        str(min(len(word), 12)),
        str(lower in given or word in given),
        str(lower in surnames or word in surnames),
        lower if rarity >= CONTEXT_ZIPF else "RARE",
        str(any(c.isdigit() for c in word)),
        # a rare word's ending: a name's morphology ("-ez", "-ski", "-ova"), never the name itself
        lower[-3:] if rarity < CONTEXT_ZIPF and len(lower) > 3 else "-",
    )


_OWN = ("sh", "z", "ln", "g", "s", "wd", "dig", "suf")
_SHARED = (0, 1, 5, 3, 4)  # what a neighbour shows: shape, Zipf, word, given name, surname


def features(text: str, found: Sequence[Entity], language: str) -> tuple[list[tuple[int, int]], list[list[str]]]:
    """The words of ``text`` (their spans) and each word's features, given the rules' findings ``found``
    (non-overlapping, in order) and the text's language ("en" or "es")."""
    spans = [m.span() for m in WORD.finditer(text)]
    starts = [e.start for e in found]
    words, rules, gaps = [], [], []
    for i, (start, end) in enumerate(spans):
        words.append(_word_evidence(text[start:end], language))
        at = bisect.bisect_right(starts, start) - 1
        rules.append(found[at].type.value if at >= 0 and end <= found[at].end else "-")
        gaps.append(text[spans[i - 1][1] : start] if i else "^")
    gaps.append("$")
    rows = []
    for i, mine in enumerate(words):
        row = ["bias", f"r={rules[i]}", f"pre={_SPACE.sub(' ', gaps[i])[-3:]}"]
        row += _own_features(mine)
        row.append(f"post={_SPACE.sub(' ', gaps[i + 1])[:3]}")
        row.append(f"nl={i == 0 or chr(10) in gaps[i]}")
        for offset in (-2, -1, 1, 2):
            j = i + offset
            if 0 <= j < len(words):
                row += _neighbour_features(offset, words[j])
                row.append(f"{offset}r={rules[j]}")
            else:
                row.append(f"{offset}edge")
        row.append(f"r|wd-1={rules[i]}|{words[i - 1][5] if i else '^'}")
        rows.append(row)
    return spans, rows


# A note repeats most of its words, so each word's own and neighbour features are written once, not at every
# mention (a fifth of the stage's time was these strings).
@functools.lru_cache(maxsize=65536)
def _own_features(evidence: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(f"{name}={value}" for name, value in zip(_OWN, evidence, strict=True))


@functools.lru_cache(maxsize=65536)
def _neighbour_features(offset: int, evidence: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(f"{offset}{_OWN[k]}={evidence[k]}" for k in _SHARED)


def labels(spans: Sequence[tuple[int, int]], entities: Sequence[Entity]) -> list[str]:
    """Each word's training label: the type of the annotated identifier holding it, or ``OUTSIDE``."""
    out = []
    for start, end in spans:
        holder = next((e for e in entities if e.start <= start and end <= e.end), None)
        out.append(holder.type.value if holder else OUTSIDE)
    return out


def train(examples: Sequence[tuple[list[list[str]], list[str]]], model: Path) -> None:
    """Train a model on (``features`` rows, ``labels``) pairs and write it to ``model``."""
    import pycrfsuite

    trainer = pycrfsuite.Trainer(verbose=False)
    for rows, tags in examples:
        trainer.append(rows, tags)
    trainer.set_params(PARAMETERS)
    trainer.train(str(model))


def read_card(path: Path = MODEL_CARD) -> ModelCard:
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    return ModelCard(
        feature_version=data["feature_version"],
        sources=tuple(data["sources"]),
        documents=data["documents"],
        words=data["words"],
        identifier_words=data["identifier_words"],
    )


class LearnedTagger:
    """The shipped model, loaded once; ``find`` is safe to call from one thread at a time."""

    def __init__(self, model: Path = MODEL_FILE, card: Path | None = MODEL_CARD, threshold: float = THRESHOLD):
        """``card`` None: a model this process has just trained, with this code's features."""
        import pycrfsuite

        self.threshold = threshold
        self.card = None
        if card is not None:
            try:
                self.card = read_card(card)
            except (OSError, ValueError, KeyError) as error:
                raise TaggerUnavailable(f"the identifier tagger's card {card} cannot be read: {error}") from error
            if self.card.feature_version != FEATURE_VERSION:
                raise TaggerUnavailable(
                    f"{model} was trained on features version {self.card.feature_version}, this code reads "
                    f"version {FEATURE_VERSION}: run scripts/train_identifier_tagger.py"
                )
        self._tagger = pycrfsuite.Tagger()
        try:
            self._tagger.open(str(model))
        except (OSError, ValueError) as error:
            raise TaggerUnavailable(f"the identifier tagger {model} cannot be opened: {error}") from error

    def find(self, text: str, found: Sequence[Entity], language: str) -> list[Entity]:
        """Identifiers among the words that ``found`` (the rules' non-overlapping findings, in order) left
        uncovered."""
        spans, rows = features(text, found, language)
        if not spans:
            return []
        tags = self._tagger.tag(rows)
        starts = [e.start for e in found]
        picked: list[Entity] = []
        for i, ((start, end), tag) in enumerate(zip(spans, tags, strict=True)):
            at = bisect.bisect_right(starts, start) - 1
            if at >= 0 and end <= found[at].end:
                continue
            if 1.0 - self._tagger.marginal(OUTSIDE, i) < self.threshold:
                continue
            kind = EntityType(tag) if tag != OUTSIDE else _likeliest(self._tagger, i)
            last = picked[-1] if picked else None
            if (
                last is not None
                and last.type is kind
                and JOINING_GAP.fullmatch(text[last.end : start])
                and not _covered_between(starts, found, last.end, start)
            ):
                picked[-1] = Entity(last.start, end, kind)
            else:
                picked.append(Entity(start, end, kind))
        return picked


def joined_to_neighbours(text: str, found: Sequence[Entity], learned: Sequence[Entity]) -> list[Entity]:
    """``found`` and ``learned`` as one ordered list, where a learned finding that touches a finding of the
    same type across a joining gap becomes part of it: the stand-in of "2204 nw 15th ave" is one
    address, not an address, a word and another address."""
    merged: list[Entity] = []
    fresh = set(learned)
    previous_fresh = False
    for entity in sorted([*found, *learned]):
        is_fresh = entity in fresh
        last = merged[-1] if merged else None
        if (
            last is not None
            and (is_fresh or previous_fresh)
            and last.type is entity.type
            and JOINING_GAP.fullmatch(text[last.end : entity.start])
        ):
            merged[-1] = Entity(last.start, entity.end, entity.type)
        else:
            merged.append(entity)
        previous_fresh = is_fresh
    return merged


def _covered_between(starts: list[int], found: Sequence[Entity], start: int, end: int) -> bool:
    at = bisect.bisect_left(starts, start)
    return at < len(found) and found[at].start < end


def _likeliest(tagger, position: int) -> EntityType:
    """The likeliest identifier type of a word whose single likeliest label is ``OUTSIDE``."""
    kinds = [label for label in tagger.labels() if label != OUTSIDE]
    return EntityType(max(kinds, key=lambda label: tagger.marginal(label, position)))


@functools.cache
def shipped_tagger() -> LearnedTagger:
    """The packaged model, loaded once a process. It is part of the install: a missing or stale file is an
    error, not a quietly weaker detector."""
    return LearnedTagger()
