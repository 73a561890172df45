"""Where each step's time went, and the totals a generation reports."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class StepTiming:
    """One round trip of the decode loop, in milliseconds."""

    kind: str  # "prefill" | "decode"
    tokens_in: int  # positions sent through the model this step
    tokens_out: int  # tokens committed by this step
    local_compute_ms: float
    remote_compute_ms: float
    serialization_ms: float
    network_ms: float
    total_ms: float
    frames: int = 1
    draft_ms: float = 0.0  # drafting and planning, already inside local_compute_ms and total_ms


@dataclass
class GenerationStats:
    """A generation's steps and the figures derived from them."""

    steps: list[StepTiming] = field(default_factory=list)

    @property
    def round_trips(self) -> int:
        return len(self.steps)

    @property
    def new_tokens(self) -> int:
        return sum(s.tokens_out for s in self.steps)

    @property
    def decode_steps(self) -> list[StepTiming]:
        return [s for s in self.steps if s.kind == "decode"]

    @property
    def total_ms(self) -> float:
        return sum(s.total_ms for s in self.steps)

    @property
    def tokens_per_round_trip(self) -> float:
        return self.new_tokens / self.round_trips if self.round_trips else 0.0

    @property
    def tok_per_s(self) -> float:
        """Generated tokens per second over the whole generation, prefill included."""
        return 1000 * self.new_tokens / self.total_ms if self.total_ms else 0.0

    @property
    def decode_tok_per_s(self) -> float:
        steps = self.decode_steps
        elapsed = sum(s.total_ms for s in steps)
        return 1000 * sum(s.tokens_out for s in steps) / elapsed if elapsed else 0.0

    def mean_step_ms(self) -> dict[str, float]:
        """Mean per decode step: network, local and remote compute, serialization, total."""
        steps = self.decode_steps or self.steps
        if not steps:
            return {"network": 0.0, "local_compute": 0.0, "remote_compute": 0.0, "serialization": 0.0, "total": 0.0}
        n = len(steps)
        return {
            "network": sum(s.network_ms for s in steps) / n,
            "local_compute": sum(s.local_compute_ms for s in steps) / n,
            "remote_compute": sum(s.remote_compute_ms for s in steps) / n,
            "serialization": sum(s.serialization_ms for s in steps) / n,
            "total": sum(s.total_ms for s in steps) / n,
        }
