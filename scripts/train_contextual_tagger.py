"""Train the identifier detector's contextual stage (app/identifiers/contextual_tagger.py) on the annotated
development sources only, and write the head and its card into the package's resources.

    .venv/bin/python scripts/train_contextual_tagger.py [--leave-writers-out] [--states FILE]

``--leave-writers-out`` instead splits the writers' development sets into three folds; for each, the learned
tagger and the head are trained on every other development source, and the fold's documents are scored
without the stage and with it at each ``--threshold``: the measurement behind the stage (docs/PRIVACY.md).
``--states FILE`` keeps the language model's states of every development document there (reading them
takes minutes) and reads them back on a later run. A held-out source is never read here.
"""

from __future__ import annotations

import argparse
import functools
import json
import pickle
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from app.identifiers import contextual_tagger, learned_tagger  # noqa: E402
from app.identifiers.detect import IdentifierDetector  # noqa: E402
from app.identifiers.entities import EntityType  # noqa: E402
from app.identifiers.language import Language  # noqa: E402
from app.privacy.annotated import Role, Source, project_sources  # noqa: E402

LABELS = (contextual_tagger.OUTSIDE, *(kind.value for kind in EntityType))
HIDDEN = 256
EPOCHS = 4
BATCH = 512


def _states(sources: list[Source], cache: Path | None) -> dict[tuple[str, str, str], tuple]:
    """(source, language, document id) -> (text, word spans, features, label indices) of every development
    document."""
    if cache is not None and cache.is_file():
        with cache.open("rb") as handle:
            return pickle.load(handle)
    backbone = contextual_tagger.shipped_backbone(torch.float32)  # the same states on any processor
    out = {}
    started = time.perf_counter()
    for source in sources:
        for document in source.documents:
            spans, features = backbone.word_states(document.text)
            tags = learned_tagger.labels(spans, document.entities)
            labels = np.array([LABELS.index(t) for t in tags])
            out[(source.name, document.language, document.id)] = (
                document.text,
                spans,
                features.astype(np.float16),
                labels,
            )
        print(f"  read {source.name} ({time.perf_counter() - started:.0f} s)", flush=True)
    if cache is not None:
        with cache.open("wb") as handle:
            pickle.dump(out, handle, protocol=4)
    return out


def train(features: np.ndarray, labels: np.ndarray, seed: int = 0) -> contextual_tagger.Head:
    """A two-layer perceptron over standardised states, by AdamW with dropout: four passes."""
    torch.manual_seed(seed)
    mean = features.mean(0)
    scale = features.std(0) + 1e-4
    x = torch.from_numpy((features - mean) / scale)
    y = torch.from_numpy(labels).long()
    net = torch.nn.Sequential(
        torch.nn.Dropout(0.2),
        torch.nn.Linear(x.shape[1], HIDDEN),
        torch.nn.GELU(),
        torch.nn.Dropout(0.2),
        torch.nn.Linear(HIDDEN, len(LABELS)),
    )
    optimiser = torch.optim.AdamW(net.parameters(), lr=1e-3, weight_decay=1e-2)
    for _ in range(EPOCHS):
        for batch in torch.randperm(len(y)).split(BATCH):
            optimiser.zero_grad()
            torch.nn.functional.cross_entropy(net(x[batch]), y[batch]).backward()
            optimiser.step()
    hidden, out = net[1], net[4]
    return contextual_tagger.Head(
        mean=mean.astype(np.float32),
        scale=scale.astype(np.float32),
        hidden_weight=hidden.weight.detach().numpy().copy(),
        hidden_bias=hidden.bias.detach().numpy().copy(),
        out_weight=out.weight.detach().numpy().copy(),
        out_bias=out.bias.detach().numpy().copy(),
    )


def _stack(states: dict, keys: list) -> tuple[np.ndarray, np.ndarray]:
    return np.concatenate([states[k][2] for k in keys]).astype(np.float32), np.concatenate([states[k][3] for k in keys])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--leave-writers-out", action="store_true", help="score the writers' sets unseen")
    parser.add_argument("--threshold", type=float, action="append", help="with --leave-writers-out (repeatable)")
    parser.add_argument("--states", type=Path, help="keep (or read back) the language model's states here")
    args = parser.parse_args()
    started = time.perf_counter()
    sources = [s for s in project_sources() if s.role is Role.DEVELOPMENT]
    states = _states(sources, args.states)
    print(f"states of {len(states)} development documents in {time.perf_counter() - started:.0f} s", flush=True)
    if args.leave_writers_out:
        _leave_writers_out(sources, states, args.threshold or [contextual_tagger.THRESHOLD])
        return
    features, labels = _stack(states, list(states))
    head = train(features, labels)
    from safetensors.numpy import save_file

    save_file(head.tensors(), str(contextual_tagger.HEAD_FILE))
    card = {
        "feature_version": contextual_tagger.FEATURE_VERSION,
        "backbone": contextual_tagger.shipped_backbone().key,
        "labels": list(LABELS),
        "sources": [s.name for s in sources],
        "documents": len(states),
        "words": int(len(labels)),
        "identifier_words": int((labels != 0).sum()),
        "hidden": HIDDEN,
        "epochs": EPOCHS,
    }
    contextual_tagger.HEAD_CARD.write_text(json.dumps(card, indent=1) + "\n", encoding="utf-8")
    size = contextual_tagger.HEAD_FILE.stat().st_size / 1e6
    print(f"wrote {contextual_tagger.HEAD_FILE} ({size:.1f} MB) in {time.perf_counter() - started:.0f} s")


def _leave_writers_out(sources: list[Source], states: dict, thresholds: list[float]) -> None:
    import train_identifier_tagger as crf_training

    rules = IdentifierDetector(use_tagger=False, use_context=False)
    rules.warm([Language.ENGLISH, Language.SPANISH])
    writers = sorted(s.name for s in sources if s.name.startswith("writer-"))
    folds = [writers[i : i + 4] for i in range(0, len(writers), 4)]
    examples = {s.name: crf_training._rows(s, rules, learned_tagger.RULE_DROPOUT) for s in sources}
    backbone = _ReadAlready(states)
    names = ["without", *(f"with ≥ {t}" for t in thresholds)]
    totals = {name: [0, 0, 0, 0] for name in names}
    with tempfile.TemporaryDirectory() as folder:
        for fold in folds:
            model = Path(folder) / "fold.crfsuite"
            learned_tagger.train([e for s in sources if s.name not in fold for e in examples[s.name]], model)
            crf = learned_tagger.LearnedTagger(model, None, learned_tagger.THRESHOLD)
            head = train(*_stack(states, [k for k in states if k[0] not in fold]))
            detectors = [IdentifierDetector(tagger=crf, use_context=False)] + [
                IdentifierDetector(tagger=crf, contextual=contextual_tagger.ContextualTagger(backbone, head, LABELS, t))
                for t in thresholds
            ]
            for source in (s for s in sources if s.name in fold):
                named = [(name, functools.partial(_detect, d)) for name, d in zip(names, detectors, strict=True)]
                crf_training.print_scores(source, named, totals, width=10)
    crf_training.print_totals(totals, width=12)


class _ReadAlready:
    """The backbone's states of the development documents, read once above: scoring a fold with each
    threshold reads the same texts again."""

    def __init__(self, states: dict):
        self._by_text = {text: (spans, features) for text, spans, features, _ in states.values()}

    def word_states(self, text: str) -> tuple[list[tuple[int, int]], np.ndarray]:
        if text not in self._by_text:  # a document whose misread digits detection repaired first
            self._by_text[text] = contextual_tagger.shipped_backbone(torch.float32).word_states(text)
        spans, features = self._by_text[text]
        return spans, features.astype(np.float32)


def _detect(detector: IdentifierDetector, language: Language, text: str) -> list:
    return detector.detect(text, language=language)


if __name__ == "__main__":
    main()
