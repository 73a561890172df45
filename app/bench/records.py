"""What a bench run measured, as typed records: one prompt's run, the summaries, the RTT fits, the whole file.

A bench file (``splitchat bench --json``) is JSON of exactly these records; ``--report`` reads one back
(older files lack the fields added since, which then stay empty) and derives the rest again.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field, fields
from typing import Any

BENCH_SET = "bench"  # the bench's own prompt set (``prompts.PromptSet.BENCH``)
LOCAL = "local"  # the unsplit model in this process: not a decoding mode, the ceiling they are measured against


def _known(kind: type, data: dict) -> dict:
    """The fields of ``kind`` that ``data`` holds (a newer file's extra fields are not ours to guess at)."""
    names = {f.name for f in fields(kind)}
    return {k: v for k, v in data.items() if k in names}


def _without_empty(record: Any, keep: tuple[str, ...] = ()) -> dict:
    """A record as JSON, leaving out the fields it never got (absent, as in the files before them) but for
    those in ``keep``, whose null says something (no link to bound a local run). The bench's own prompt set
    is left unnamed too: every file before the held-out set was of it."""
    return {
        k: v
        for k, v in asdict(record).items()
        if (v is not None or k in keep) and not (k == "prompt_set" and v == BENCH_SET)
    }


@dataclass(frozen=True)
class PeerResult:
    """transformers' prompt-lookup decoding on one prompt: new tokens per forward pass."""

    new_tokens: int
    forwards: int
    tokens_per_forward: float


@dataclass
class BenchRun:
    """One prompt in one mode at one RTT: what it produced and where its time went."""

    mode: str
    rtt_ms: float
    prompt_id: str
    category: str
    prompt_tokens: int
    new_tokens: int
    round_trips: int
    tokens_per_round_trip: float
    tok_per_s: float
    decode_tok_per_s: float
    total_ms: float
    prefill_ms: float
    step_ms: dict[str, float]  # a StepBreakdown: network, local_compute, remote_compute, serialization, total
    mean_block_size: float
    accepted_per_step: dict[str, int]  # tokens a decode step committed -> how many steps did
    break_even_mean: float
    limit_tok_per_s: float
    fraction_of_limit: float
    # Decoding as fast as the link alone allows these tokens per round trip: computing for free.
    network_bound_tok_per_s: float | None = None
    # Added once every run is in: the peer on the same prompt, and ratios to other modes' runs.
    peer_pld_tokens_per_forward: float | None = None
    peer_pld_forwards: int | None = None
    peer_pld_new_tokens: int | None = None
    speedup_vs_sequential: float | None = None
    fraction_of_local: float | None = None
    network_bound_fraction_of_local: float | None = None
    prompt_set: str = BENCH_SET  # which prompt set: a ``prompts.PromptSet`` value
    draft_ms: float | None = None  # drafting and planning per decode step (inside step_ms' local_compute)
    # What the controller expected each decode step to commit, beside what it did (accepted_per_step).
    expected_tokens_per_step: float | None = None

    @property
    def decoded_tokens(self) -> int:
        """Tokens the decode steps committed (the prefill's first token not counted)."""
        return sum(int(k) * v for k, v in self.accepted_per_step.items())

    def to_json(self) -> dict:
        return _without_empty(self, keep=("network_bound_tok_per_s",))

    @classmethod
    def from_json(cls, data: dict) -> BenchRun:
        return cls(**_known(cls, data))


@dataclass
class SummaryRow:
    """A mode at an RTT over one category of one prompt set, or over all of that set (``overall``)."""

    mode: str
    rtt_ms: float
    category: str
    prompts: int
    tokens_per_round_trip: float
    tok_per_s: float  # all tokens over all time, as a person would see it
    decode_tok_per_s: float
    step_ms: dict[str, float]
    serialization_share: float
    wire_overhead_share: float
    fraction_of_limit: float
    network_bound_tok_per_s: float | None = None
    # Geometric means of the runs' ratios, and the worst run.
    speedup_vs_sequential: float | None = None
    min_speedup_vs_sequential: float | None = None
    fraction_of_local: float | None = None
    min_fraction_of_local: float | None = None
    network_bound_fraction_of_local: float | None = None
    min_network_bound_fraction_of_local: float | None = None
    peer_pld_tokens_per_forward: float | None = None
    prompt_set: str = BENCH_SET
    draft_ms: float | None = None
    expected_tokens_per_step: float | None = None
    tokens_per_step: float | None = None  # what decode steps committed, to read beside the line above

    def to_json(self) -> dict:
        return _without_empty(self)


@dataclass(frozen=True)
class RttPoint:
    """A mode's aggregate at one RTT: all tokens, all time, all round trips over the prompt set."""

    rtt_ms: float
    tokens_per_round_trip: float
    step_ms: float
    tok_per_s: float


@dataclass
class ModeFit:
    """Step time = RTT + f for one mode, how well that predicts an RTT left out, and what it projects."""

    overhead_ms: float
    cv_mean_abs_error: float | None
    measured: list[RttPoint]
    projected_tok_per_s: dict[str, float]  # RTT in ms (as text: JSON keys) -> tok/s

    @classmethod
    def from_json(cls, data: dict) -> ModeFit:
        return cls(**{**_known(cls, data), "measured": [RttPoint(**p) for p in data["measured"]]})


@dataclass
class BenchResult:
    """Everything one ``splitchat bench`` measured, and how (the file ``--json`` writes)."""

    runs: list[BenchRun]
    model: str
    split: str
    max_new_tokens: int
    device: str
    dtype: str
    wire_dtype: str
    jitter_ms: float
    bandwidth_mbps: float
    budget: int
    machine: dict[str, Any]
    summary: list[SummaryRow] = field(default_factory=list)
    decomposition: dict[str, ModeFit] = field(default_factory=dict)
    peer_pld: dict[str, PeerResult] = field(default_factory=dict)
    head_depth: int | None = None
    head_nodes: int | None = None
    # the arithmetic the draft head chose on this machine at load ("bfloat16+int8"…), which sets its cost
    draft_arithmetic: str | None = None
    elapsed_s: float | None = None

    def to_json(self) -> str:
        body = _without_empty(self)
        body["runs"] = [run.to_json() for run in self.runs]
        body["summary"] = [row.to_json() for row in self.summary]
        return json.dumps(body, indent=2)

    @classmethod
    def from_json(cls, text: str) -> BenchResult:
        data = json.loads(text)
        return cls(
            **{
                **_known(cls, data),
                "runs": [BenchRun.from_json(run) for run in data["runs"]],
                "summary": [SummaryRow(**_known(SummaryRow, row)) for row in data.get("summary", [])],
                "decomposition": {m: ModeFit.from_json(fit) for m, fit in data.get("decomposition", {}).items()},
                "peer_pld": {p: PeerResult(**peer) for p, peer in data.get("peer_pld", {}).items()},
            }
        )
