"""``splitchat privacy --identifiers``: how well identifiers are found, what the worker's attackers still
recover of them with pseudonymisation off and on, and what it costs — one report.

Detection is scored on the held-out half of the evaluation set (and, for reference, on the development
half it was tuned on); the attacks run on held-out documents, the learned inverter trained on the
development half; the cost is timed on a 1,000-word note built from held-out clinical documents; the
answers' fidelity is measured on the bench's document-QA prompts with identifiers written in.
"""

from __future__ import annotations

import json
import statistics
import time
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING

from app.identifiers.detect import IdentifierDetector
from app.identifiers.pseudonyms import Pseudonymiser
from app.jobs import CancelFlag, Progress
from app.privacy.annotated import Role, Source, project_sources
from app.privacy.detection_scores import DetectionScores, score
from app.privacy.identifier_corpus import LabelledDocument, load_corpus
from app.privacy.identifier_fidelity import Answer, Fidelity, measure_fidelity, qa_items

if TYPE_CHECKING:  # the attacks import torch: scoring detection alone (--annotated) needs none of it
    from app.privacy.identifier_leaks import LeakRates

NOTE_WORDS = 1000


@dataclass(frozen=True)
class IdentifierSettings:
    depth: int = 2  # the split depth whose hidden states are attacked
    attack_documents: int = 90  # held-out documents sent through the attacks (all of them by default)
    train_documents: int = 90  # development documents the inversion MLP learns from
    mlp_width: int = 2048
    mlp_epochs: int = 5
    seed: int = 0
    fidelity_variants: int = 6  # renderings of each document-QA prompt (nine questions each)
    fidelity_tokens: int = 32  # answer length


@dataclass(frozen=True)
class Cost:
    first_load_s: float  # the first detection in a process: spaCy's pipelines and the word lists load
    note_words: int
    pseudonymise_ms: list[float]  # each of several runs on the same note, after the first load

    @property
    def median_ms(self) -> float:
        return statistics.median(self.pseudonymise_ms)


@dataclass(frozen=True)
class SourceScores:
    """Detection on one evaluation source in one language."""

    source: str
    role: str  # "development" (read while tuning) or "held_out"
    author: str
    language: str
    scores: DetectionScores


def score_sources(sources: list[Source], detector: IdentifierDetector) -> list[SourceScores]:
    """Each source scored on its own, per language: figures from different authors are never pooled."""
    out = []
    for source in sources:
        for language in sorted({d.language for d in source.documents}):
            documents = [d for d in source.documents if d.language == language]
            out.append(
                SourceScores(source.name, source.role.value, source.author, language, score(documents, detector.detect))
            )
    return out


def _scores_json(scores: DetectionScores) -> dict:
    return {
        "documents": scores.documents,
        "token_recall": {k: _rate_json(v) for k, v in scores.token_recall.items()},
        "span_recall": {k: _rate_json(v) for k, v in scores.span_recall.items()},
        "token_precision": _rate_json(scores.token_precision),
        "precision_by_type": {k: _rate_json(v) for k, v in (scores.precision_by_type or {}).items()},
    }


def sources_json(sources: list[SourceScores]) -> list[dict]:
    return [
        {"source": s.source, "role": s.role, "author": s.author, "language": s.language, **_scores_json(s.scores)}
        for s in sources
    ]


def source_lines(sources: list[SourceScores]) -> list[str]:
    """One line a source and language: recall and precision with their intervals, and the weakest types."""
    lines = [
        f"{'source':<20} {'role':<11} {'lang':<4} {'docs':>4} {'token recall':>24} {'precision':>24}  weakest types"
    ]
    for s in sources:
        recall, precision = s.scores.token_recall["overall"], s.scores.token_precision
        weakest = ", ".join(
            f"{kind} {rate.value:.2f}"
            for kind, rate in sorted(s.scores.token_recall.items(), key=lambda item: item[1].value)[:3]
            if kind != "overall"
        )
        lines.append(
            f"{s.source:<20} {s.role:<11} {s.language:<4} {s.scores.documents:>4} "
            f"{_percent(recall):>24} {_percent(precision):>24}  {weakest}"
        )
    return lines


def _percent(rate) -> str:
    low, high = rate.ci95
    return f"{100 * rate.value:6.2f}% [{100 * low:5.1f}, {100 * high:5.1f}]"


@dataclass(frozen=True)
class IdentifierReport:
    held_out: DetectionScores
    development: DetectionScores
    leaks: dict[str, LeakRates]  # attacker -> identifier words recovered, pseudonymisation off and on
    cost: Cost
    settings: IdentifierSettings
    elapsed_s: float
    fidelity: Fidelity | None = None  # None when no model was given to answer
    sources: tuple[SourceScores, ...] = ()  # every evaluation source on its own
    source_leaks: dict[str, dict[str, LeakRates]] | None = None  # held-out source -> attacker -> rates

    def to_json(self) -> str:
        def rates(scores: DetectionScores) -> dict:
            def one(rate) -> dict:
                return {"hits": rate.hits, "total": rate.total, "value": rate.value, "ci95": list(rate.ci95)}

            return {
                "documents": scores.documents,
                "token_recall": {k: one(v) for k, v in scores.token_recall.items()},
                "span_recall": {k: one(v) for k, v in scores.span_recall.items()},
                "token_precision": one(scores.token_precision),
            }

        body = {
            "format": "splitchat-identifier-report",
            "version": 1,
            "held_out": rates(self.held_out),
            "development": rates(self.development),
            "leaks": {
                name: {
                    label: {"hits": rate.hits, "total": rate.total, "value": rate.value, "ci95": list(rate.ci95)}
                    for label, rate in (("off", leak.off), ("on", leak.on))
                }
                for name, leak in self.leaks.items()
            },
            "sources": sources_json(list(self.sources)),
            "source_leaks": {
                source: {
                    name: {label: _rate_json(rate) for label, rate in (("off", leak.off), ("on", leak.on))}
                    for name, leak in leaks.items()
                }
                for source, leaks in (self.source_leaks or {}).items()
            },
            "cost": {**asdict(self.cost), "median_ms": self.cost.median_ms},
            "fidelity": None if self.fidelity is None else _fidelity_json(self.fidelity),
            "settings": asdict(self.settings),
            "elapsed_s": self.elapsed_s,
        }
        return json.dumps(body, indent=1)


def _rate_json(rate) -> dict:
    return {"hits": rate.hits, "total": rate.total, "value": rate.value, "ci95": list(rate.ci95)}


def _fidelity_json(fidelity: Fidelity) -> dict:
    return {
        "questions": fidelity.items,
        "plain_right": _rate_json(fidelity.plain),
        "styles": {
            style: {"right": _rate_json(result.right), "kept": _rate_json(result.kept)}
            for style, result in fidelity.styles.items()
        },
        "examples": fidelity.examples,
    }


def note_of(documents: list[LabelledDocument], words: int = NOTE_WORDS) -> str:
    """About ``words`` words of held-out clinical text, as one note."""
    text = ""
    for document in documents:
        if document.family in ("referral_letter", "ed_triage", "medication_review"):
            text += document.text + "\n"
        if len(text.split()) >= words:
            break
    return text


def time_pseudonymisation(note: str, runs: int = 7) -> Cost:
    started = time.perf_counter()
    IdentifierDetector().detect("Loading the detector for Ms Ada Lovelace.")
    first_load = time.perf_counter() - started
    times = []
    for _ in range(runs):
        pseudonymiser = Pseudonymiser()
        started = time.perf_counter()
        pseudonymiser.pseudonymise(note)
        times.append(round((time.perf_counter() - started) * 1000, 1))
    return Cost(round(first_load, 2), len(note.split()), times)


def evaluate_identifiers(
    model,
    tokenizer,
    settings: IdentifierSettings = IdentifierSettings(),
    progress: Progress | None = None,
    cancel: CancelFlag | None = None,
    answer: Answer | None = None,
) -> IdentifierReport:
    """The whole measurement (``model`` is a ``WholeModel`` of the public checkpoint); ``answer`` runs the
    chat model for the fidelity questions (skipped without it)."""
    from app.privacy.identifier_leaks import attack

    started = time.monotonic()
    say = progress or (lambda message, fraction: None)
    documents = load_corpus()
    held_out = [d for d in documents if d.half == "held_out"]
    development = [d for d in documents if d.half == "development"]
    say("Timing pseudonymisation of a 1,000-word note", 0.0)
    cost = time_pseudonymisation(note_of(held_out))
    detector = IdentifierDetector()
    say("Scoring detection on the held-out documents", 0.05)
    held_scores = score(held_out, detector.detect)
    development_scores = score(development, detector.detect)

    def attack_progress(message: str, fraction: float) -> None:
        say(message, 0.1 + 0.7 * fraction)

    sources = project_sources()
    say("Scoring detection on every evaluation source", 0.07)
    source_scores = score_sources(sources, detector)
    leaks = attack(
        model,
        tokenizer,
        development[: settings.train_documents],
        held_out[: settings.attack_documents],
        depth=settings.depth,
        mlp_width=settings.mlp_width,
        mlp_epochs=settings.mlp_epochs,
        seed=settings.seed,
        progress=lambda message, fraction: attack_progress(message, 0.5 * fraction),
        cancel=cancel,
    )
    # The same attackers on each held-out written source, as the workstation would send it.
    others = [source for source in sources if source.role is Role.HELD_OUT and not source.name.startswith("templates")]
    source_leaks = {}
    for index, source in enumerate(others):
        source_leaks[source.name] = attack(
            model,
            tokenizer,
            development[: settings.train_documents],
            list(source.documents[: settings.attack_documents]),
            depth=settings.depth,
            mlp_width=settings.mlp_width,
            mlp_epochs=settings.mlp_epochs,
            seed=settings.seed,
            progress=lambda message, fraction, i=index: attack_progress(
                f"{message} ({others[i].name})", 0.5 + 0.5 * (i + fraction) / max(1, len(others))
            ),
            cancel=cancel,
        )
    fidelity = None
    if answer is not None:
        fidelity = measure_fidelity(
            answer,
            qa_items(settings.fidelity_variants, settings.seed),
            lambda message, fraction: say(message, 0.8 + 0.2 * fraction),
            cancel,
        )
    return IdentifierReport(
        held_scores,
        development_scores,
        leaks,
        cost,
        settings,
        round(time.monotonic() - started, 1),
        fidelity,
        tuple(source_scores),
        source_leaks,
    )


def summary_lines(report: IdentifierReport) -> list[str]:
    """The report as a person reads it in a terminal."""
    held = report.held_out
    lines = [
        f"{'held-out type':<15} {'token recall':>12} {'95% CI':>15} {'span recall':>11}   ({held.documents} documents)"
    ]
    for kind, rate in sorted(held.token_recall.items(), key=lambda item: (item[0] == "overall", item[0])):
        low, high = rate.ci95
        lines.append(
            f"{kind:<15} {100 * rate.value:11.2f}% [{100 * low:5.1f}, {100 * high:5.1f}] "
            f"{100 * held.span_recall[kind].value:10.1f}%"
        )
    precision = held.token_precision
    low, high = precision.ci95
    lines.append(f"{'precision':<15} {100 * precision.value:11.2f}% [{100 * low:5.1f}, {100 * high:5.1f}]")
    for attacker, leak in report.leaks.items():
        lines.append(
            f"{attacker} at depth {report.settings.depth}: identifier words recovered "
            f"{100 * leak.off.value:.1f}% ({leak.off.hits}/{leak.off.total}) with pseudonymisation off, "
            f"{100 * leak.on.value:.2f}% ({leak.on.hits}/{leak.on.total}) on"
        )
    if report.fidelity is not None:
        fidelity = report.fidelity
        lines.append(
            f"fidelity on {fidelity.items} document questions: the plain answer names the right identifier in "
            f"{fidelity.plain.hits}; of those, still right with "
            + ", ".join(
                f"{style} stand-ins {result.kept.hits} ({100 * result.kept.value:.0f}%)"
                for style, result in fidelity.styles.items()
            )
        )
    if report.sources:
        lines += source_lines(list(report.sources))
    for source, leaks in (report.source_leaks or {}).items():
        for attacker, leak in leaks.items():
            lines.append(
                f"{source}: {attacker} recovers {100 * leak.off.value:.1f}% of identifier words with "
                f"pseudonymisation off, {100 * leak.on.value:.2f}% ({leak.on.hits}/{leak.on.total}) on"
            )
    cost = report.cost
    lines.append(
        f"pseudonymising a {cost.note_words}-word note: {cost.median_ms:.0f} ms (median of "
        f"{len(cost.pseudonymise_ms)} runs); the first load {cost.first_load_s:.1f} s"
    )
    return lines
