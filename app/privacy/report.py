"""The privacy report: what each attacker recovered at each depth and direction, and how to read it.

A report is written once by the evaluation and read by the command line, the plot, the Privacy tab
and the settings panel's depth table; the rule for which attack a person is shown lives here only.
On disk it is JSON of exactly these fields (``to_json`` / ``from_json``).
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field, fields

from app.privacy.settings import PrivacySettings

REPORT_FORMAT = "splitchat-privacy"
REPORT_VERSION = 1
TO_WORKER, FROM_WORKER = "to_worker", "from_worker"
DIRECTIONS = (TO_WORKER, FROM_WORKER)
BASELINES = ("most_frequent", "unigram_prior")
# What a person is shown per direction: the strongest attack that applies, public weights first.
HEADLINE_ATTACKERS = {
    TO_WORKER: ("public_head_search", "learned_mlp"),
    FROM_WORKER: ("public_tail", "learned_mlp"),
}


class ReportError(ValueError):
    """A file that is not a privacy report this version reads."""


@dataclass(frozen=True)
class Rates:
    """Top-1 and top-5 recovery over the test positions, with 95 % Wilson intervals and every outcome."""

    top1: float
    top5: float
    ci95: tuple[float, float]
    ci95_top5: tuple[float, float]
    n_test: int
    outcomes_top1: str  # one '1' or '0' per test position, in order: paired tests need them
    outcomes_top5: str

    @classmethod
    def of(cls, top1: list[bool], top5: list[bool], interval) -> Rates:
        n = len(top1)
        return cls(
            top1=sum(top1) / n if n else 0.0,
            top5=sum(top5) / n if n else 0.0,
            ci95=tuple(interval(sum(top1), n)),
            ci95_top5=tuple(interval(sum(top5), n)),
            n_test=n,
            outcomes_top1="".join("1" if x else "0" for x in top1),
            outcomes_top5="".join("1" if x else "0" for x in top5),
        )


@dataclass(frozen=True)
class Recovery(Rates):
    """One attacker's rates at one split depth, on one direction of the wire."""

    depth: int = 0
    direction: str = TO_WORKER  # TO_WORKER | FROM_WORKER
    attacker: str = ""

    @classmethod
    def measured(cls, depth: int, direction: str, attacker: str, rates: Rates) -> Recovery:
        return cls(**asdict(rates), depth=depth, direction=direction, attacker=attacker)


@dataclass(frozen=True)
class DepthComparison:
    """An exact McNemar test (top-1) between two adjacent depths, for one direction and attacker."""

    direction: str
    attacker: str
    depths: tuple[int, int]
    only_shallower_right: int
    only_deeper_right: int
    p_value: float


@dataclass(frozen=True)
class CorpusFacts:
    """The text the attacks ran on, split by document."""

    description: str
    train_documents: list[str]
    test_documents: list[str]
    train_pairs: int
    test_pairs: int
    test_tokens_seen_in_training: float  # a learned inverter can only name tokens it saw: its top-5 ceiling
    split: str


@dataclass(frozen=True)
class Exposure:
    """What a person is told about one depth: the strongest attack on each direction, and the learned one."""

    depth: int
    sent: Recovery | None
    returned: Recovery | None
    sent_learned: Recovery | None


@dataclass(frozen=True)
class PrivacyReport:
    num_layers: int
    corpus: CorpusFacts
    settings: PrivacySettings
    threat_models: dict[str, str]
    baseline: dict[str, Rates]
    results: list[Recovery]
    comparisons: list[DepthComparison]
    elapsed_s: float
    created: str
    model: str = ""
    model_fingerprint: str = ""
    public_checkpoint: bool = True
    format: str = field(default=REPORT_FORMAT)
    version: int = field(default=REPORT_VERSION)

    def recovery(self, depth: int, direction: str, attacker: str) -> Recovery | None:
        return next(
            (r for r in self.results if (r.depth, r.direction, r.attacker) == (depth, direction, attacker)), None
        )

    def series(self, direction: str, attacker: str) -> list[Recovery]:
        """One attacker's rows on one direction, by depth."""
        return sorted((r for r in self.results if (r.direction, r.attacker) == (direction, attacker)), key=_depth)

    @property
    def depths(self) -> list[int]:
        return sorted({r.depth for r in self.results})

    def exposure(self, depth: int) -> Exposure:
        """The rows a person is shown for ``depth`` (None where that depth was not measured)."""

        def headline(direction: str) -> Recovery | None:
            rows = (self.recovery(depth, direction, attacker) for attacker in HEADLINE_ATTACKERS[direction])
            return next((row for row in rows if row is not None), None)

        return Exposure(
            depth, headline(TO_WORKER), headline(FROM_WORKER), self.recovery(depth, TO_WORKER, "learned_mlp")
        )

    def sent_range(self) -> tuple[float, float] | None:
        """The lowest and highest top-1 a person is shown for what is sent, over the depths measured."""
        rates = [e.sent.top1 for e in map(self.exposure, self.depths) if e.sent is not None]
        return (min(rates), max(rates)) if rates else None

    def to_json(self, indent: int | None = None) -> str:
        return json.dumps(asdict(self), indent=indent)

    @classmethod
    def from_json(cls, text: str) -> PrivacyReport:
        data = json.loads(text)
        if data.get("format") != REPORT_FORMAT or data.get("version") != REPORT_VERSION:
            raise ReportError(f"not a {REPORT_FORMAT} v{REPORT_VERSION} report")
        try:
            return cls(
                **{
                    **{k: data[k] for k in (f.name for f in fields(cls)) if k in data},
                    "corpus": CorpusFacts(**data["corpus"]),
                    "settings": PrivacySettings.from_dict(data["settings"]),
                    "baseline": {name: _rates(rates) for name, rates in data["baseline"].items()},
                    "results": [_rates(r, Recovery) for r in data["results"]],
                    "comparisons": [
                        DepthComparison(**{**c, "depths": tuple(c["depths"])}) for c in data["comparisons"]
                    ],
                }
            )
        except (KeyError, TypeError) as exc:
            raise ReportError(f"a damaged privacy report: {exc}") from None


def _rates(data: dict, kind: type[Rates] = Rates) -> Rates:
    return kind(**{**data, "ci95": tuple(data["ci95"]), "ci95_top5": tuple(data["ci95_top5"])})


def _depth(row: Recovery) -> int:
    return row.depth
