"""Measured token recovery from the hidden states that cross the wire, per split depth and direction.

``evaluate`` runs the model over a corpus split by document, captures what a symmetric split at each
depth would send (``to_worker``) and receive (``from_worker``), runs every attacker on the test
documents, and returns a JSON-ready report: rates with Wilson intervals, per-token outcomes, and exact
McNemar tests between adjacent depths. ``run`` adds the cache: one report per model fingerprint and
settings, so the app shows it instantly.
"""

from __future__ import annotations

import os
import time
from dataclasses import replace
from pathlib import Path

import torch

from app.engine.source.fingerprints import model_fingerprint
from app.engine.source.specs import ModelSource, cache_root
from app.jobs import CancelFlag, Progress, raise_if_cancelled
from app.privacy.activations import Activations, WholeModel, boundaries_for, capture
from app.privacy.attacks import (
    codebook,
    head_search,
    hits,
    learned_inversion,
    most_frequent,
    nearest_rows,
    unigram_prior,
)
from app.privacy.corpus import (
    CorpusError,
    CorpusSplit,
    bundled_corpus,
    folder_corpus,
    pseudonymised,
    split_by_document,
    tokenize,
)
from app.privacy.report import (
    BASELINES,
    FROM_WORKER,
    HEADLINE_ATTACKERS,
    TO_WORKER,
    CorpusFacts,
    DepthComparison,
    PrivacyReport,
    Rates,
    Recovery,
    ReportError,
)
from app.privacy.settings import PrivacySettings
from app.privacy.shipped import shipped_report
from app.privacy.stats import discordant, mcnemar_exact, wilson_interval
from app.privacy.threats import THREAT_MODELS

# Which attackers apply to which direction (the head search needs the tokens' own layers; the tail
# attack reads the model's output, which only the returned state feeds).
ATTACKERS = {
    TO_WORKER: ("learned_mlp", "public_embedding", "public_codebook", "public_head_search"),
    FROM_WORKER: ("learned_mlp", "public_embedding", "public_tail"),
}


def run(
    source: ModelSource,
    settings: PrivacySettings,
    progress: Progress | None = None,
    cancel: CancelFlag | None = None,
    refresh: bool = False,
) -> PrivacyReport:
    """The cached report for this model and settings, computing (and caching) it when absent."""
    boundaries_for(list(settings.depths), source.num_layers)  # refuse a bad depth before any heavy work
    corpus = folder_corpus(Path(settings.corpus)) if settings.corpus else bundled_corpus()
    fingerprint = model_fingerprint(source)
    path = report_path(fingerprint, settings)
    if path.is_file() and not refresh:
        try:
            return PrivacyReport.from_json(path.read_text())
        except ReportError:
            pass  # written by another version: measure again
    if progress:
        progress("Reading the model", 0.0)
    model = WholeModel.from_source(source)
    if settings.pseudonymise:
        if progress:
            progress("Pseudonymising the corpus", 0.0)
        corpus = pseudonymised(corpus)
    documents = tokenize(corpus, source.tokenizer(), settings.max_doc_tokens)
    split = split_by_document(
        documents, settings.test_share, settings.seed, settings.max_train_pairs, settings.max_test_pairs
    )
    report = replace(
        evaluate(model, split, settings, corpus.description, progress, cancel),
        model=source.spec,
        model_fingerprint=fingerprint,
        public_checkpoint=source.public_checkpoint,
    )
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_suffix(f".{os.getpid()}.tmp")
    partial.write_text(report.to_json())
    os.replace(partial, path)  # a cancelled or crashed run leaves no half report behind
    return report


def report_path(fingerprint: str, settings: PrivacySettings) -> Path:
    return cache_root() / "privacy" / fingerprint.removeprefix("sha256:")[:16] / f"{settings.key()}.json"


def cached_reports(fingerprint: str) -> list[PrivacyReport]:
    """Every readable cached report for a model, newest first."""
    folder = cache_root() / "privacy" / fingerprint.removeprefix("sha256:")[:16]
    paths = sorted(folder.glob("*.json"), key=lambda p: p.stat().st_mtime, reverse=True) if folder.is_dir() else []
    reports = []
    for path in paths:
        try:
            reports.append(PrivacyReport.from_json(path.read_text()))
        except (ValueError, OSError):  # not a report this version reads (ReportError), or not JSON at all
            continue
    return reports


def best_report(fingerprint: str) -> PrivacyReport | None:
    """The report a person is shown for a model, or None: the app shows no estimate rather than a guess.

    Not simply the newest: a quick run (a few hundred test tokens, or without the public-weights attacks)
    must not replace a thorough one, or the window would quote a figure far below what was measured. The
    ranking: the public-weights attack on what is sent was run, on the raw (not pseudonymised) text, on the
    most test tokens, newest first. The report shipped with the app for exactly these weights takes part
    as the oldest, so a fresh install shows it and a measurement of one's own as thorough replaces it.
    """

    def thoroughness(report: PrivacyReport) -> tuple[bool, bool, int]:
        public = HEADLINE_ATTACKERS[TO_WORKER][0] in report.settings.attackers
        return public, not report.settings.pseudonymise, report.corpus.test_pairs

    shipped = shipped_report(fingerprint)
    reports = cached_reports(fingerprint) + ([shipped] if shipped is not None else [])
    return max(reports, key=thoroughness) if reports else None  # max keeps the first (newest) of equals


def evaluate(
    model: WholeModel,
    split: CorpusSplit,
    settings: PrivacySettings,
    corpus_description: str,
    progress: Progress | None = None,
    cancel: CancelFlag | None = None,
) -> PrivacyReport:
    """Attack every (depth, direction) on the test documents; return the report (without model fields)."""
    started = time.monotonic()
    names_train, names_test = {d.name for d in split.train}, {d.name for d in split.test}
    if names_train & names_test:
        raise CorpusError(f"train and test share documents: {sorted(names_train & names_test)[:3]}")
    wanted = boundaries_for(list(settings.depths), model.num_layers)
    plan = [(key, a) for key in wanted for a in ATTACKERS[key[1]] if a in settings.attackers]
    stages = _Stages(progress, ["capture_train", "capture_test"] + [a for _, a in plan])
    train = capture(model, split.train, list(wanted.values()), settings.chunk_tokens, stages.sub(), cancel)
    test = capture(model, split.test, list(wanted.values()), settings.chunk_tokens, stages.sub(), cancel)
    scored = test.scored
    targets = test.targets[scored]
    n_test = len(targets)

    baseline_guesses = {
        "most_frequent": most_frequent(train.targets, n_test),
        "unigram_prior": unigram_prior(train.targets, n_test, settings.seed),
    }
    baseline = {name: Rates.of(*hits(g, targets), wilson_interval) for name, g in baseline_guesses.items()}
    attacks = _Attacks(model, train, test, settings, cancel)
    results = []
    for (depth, direction), attacker in plan:
        raise_if_cancelled(cancel)
        guesses = attacks.guesses(attacker, depth, wanted[(depth, direction)], stages.sub())
        stages.finish(f"{attacker} at depth {depth}, {direction}: done")
        rates = Rates.of(*hits(guesses[scored], targets), wilson_interval)
        results.append(Recovery.measured(depth, direction, attacker, rates))
    for depth, direction in wanted:
        for name in BASELINES:
            results.append(Recovery.measured(depth, direction, name, baseline[name]))
    return PrivacyReport(
        num_layers=model.num_layers,
        corpus=CorpusFacts(
            description=corpus_description,
            train_documents=sorted(names_train),
            test_documents=sorted(names_test),
            train_pairs=len(train.targets),
            test_pairs=n_test,
            test_tokens_seen_in_training=float(torch.isin(targets, train.targets).float().mean()),
            split="by document (seeded shuffle); no document in both",
        ),
        settings=settings,
        threat_models={name: THREAT_MODELS[name] for name in THREAT_MODELS if name in settings.attackers},
        baseline=baseline,
        results=results,
        comparisons=compare_adjacent_depths(results),
        elapsed_s=round(time.monotonic() - started, 1),
        created=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    )


def compare_adjacent_depths(results: list[Recovery]) -> list[DepthComparison]:
    """Exact McNemar tests (top-1) between each depth and the next one, per direction and attacker."""
    out = []
    groups: dict[tuple[str, str], list[Recovery]] = {}
    for row in results:
        if row.attacker not in BASELINES:
            groups.setdefault((row.direction, row.attacker), []).append(row)
    for (direction, attacker), rows in groups.items():
        rows = sorted(rows, key=lambda r: r.depth)
        for shallow, deep in zip(rows, rows[1:], strict=False):
            a = [c == "1" for c in shallow.outcomes_top1]
            b = [c == "1" for c in deep.outcomes_top1]
            only_shallow, only_deep = discordant(a, b)
            out.append(
                DepthComparison(
                    direction=direction,
                    attacker=attacker,
                    depths=(shallow.depth, deep.depth),
                    only_shallower_right=only_shallow,
                    only_deeper_right=only_deep,
                    p_value=mcnemar_exact(only_shallow, only_deep),
                )
            )
    return out


class _Attacks:
    """Runs each attacker on the test positions, building each depth's codebook once for the two that use it."""

    def __init__(self, model, train: Activations, test: Activations, settings: PrivacySettings, cancel):
        self.model, self.train, self.test, self.settings, self.cancel = model, train, test, settings, cancel
        # The codebook's context: the corpus's most common token, a position every token often follows.
        self.context = [int(torch.bincount(train.targets).argmax())]
        self._codebooks: dict[int, torch.Tensor] = {}

    def guesses(self, attacker: str, depth: int, boundary: int, progress: Progress | None) -> torch.Tensor:
        """Top-5 guesses for every test position (the caller keeps the scored ones)."""
        observed = self.test.taps[boundary]
        if attacker == "learned_mlp":
            s = self.settings
            return learned_inversion(
                self.train.taps[boundary], self.train.targets, observed, s.mlp_width, s.mlp_epochs,
                seed=s.seed, progress=progress, cancel=self.cancel,
            )  # fmt: skip
        if attacker == "public_embedding":
            return nearest_rows(observed, self.model.embed)
        if attacker == "public_codebook":
            return nearest_rows(observed, self._codebook(depth, progress))
        if attacker == "public_head_search":
            rows = self._codebook(depth, progress)
            shortlist = nearest_rows(observed, rows, k=min(self.settings.search_candidates, len(rows)))
            return head_search(self.model, depth, observed, shortlist, self.test.chunks(), progress, self.cancel)
        if attacker == "public_tail":
            return self.test.predicted  # running the public tail on the returned state reproduces the output
        raise ValueError(f"unknown attacker {attacker!r}")

    def _codebook(self, depth: int, progress: Progress | None) -> torch.Tensor:
        if depth not in self._codebooks:
            self._codebooks[depth] = codebook(self.model, depth, self.context, progress=progress, cancel=self.cancel)
        return self._codebooks[depth]


class _Stages:
    """Maps each stage's own 0..1 progress onto the whole evaluation's, weighted by its rough cost."""

    WEIGHT = {"capture_train": 3.0, "capture_test": 1.0, "learned_mlp": 10.0, "public_head_search": 4.0}
    LIGHT = 0.2  # projections, the tail read-out; a codebook's cost is charged to the first stage using it

    def __init__(self, progress: Progress | None, names: list[str]):
        self.progress = progress
        self.weights = [self.WEIGHT.get(n, 3.0 if n == "public_codebook" else self.LIGHT) for n in names]
        self.total, self.done, self.index = sum(self.weights), 0.0, 0

    def sub(self) -> Progress | None:
        """The reporter for the next stage; the stage before it is counted as finished."""
        base = sum(self.weights[: self.index])
        weight = self.weights[self.index]
        self.index += 1
        if self.progress is None:
            return None

        def report(message: str, fraction: float) -> None:
            self.progress(message, min(1.0, (base + weight * fraction) / self.total))

        return report

    def finish(self, message: str) -> None:
        if self.progress is not None:
            self.progress(message, sum(self.weights[: self.index]) / self.total)
