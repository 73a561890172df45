"""Where each step's time went, and the totals a generation reports."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field

from app.engine.link.middle import MiddleReply


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
    layout_ms: float = 0.0  # laying out the block (positions, ancestry), already inside local_compute_ms
    # This computer's decoder layers (head and tail), already inside local_compute_ms; the rest of it (the LM
    # head, verification, drafting) does not grow with the split depth. 0 for a streamed prefill, whose
    # layers overlap the wire.
    layers_ms: float = 0.0

    @property
    def compute_ms(self) -> float:
        """What running the block cost (local + remote + serialization), drafting and laying it out aside:
        the figure the controller fits against block size."""
        return self.local_compute_ms - self.draft_ms - self.layout_ms + self.remote_compute_ms + self.serialization_ms


class StepClock:
    """Times one step as it happens: the whole step is wall time, the middle's call is the reply's own
    account (network, remote compute, serialization), and everything else is local compute."""

    def __init__(self, kind: str):
        self.kind = kind  # "prefill" | "decode"
        self._started = time.perf_counter()
        self._spans = {"draft": 0.0, "layout": 0.0, "layers": 0.0}
        self._reply: MiddleReply | None = None

    @contextmanager
    def drafting(self) -> Iterator[None]:
        """Drafting and planning: local time, also reported on its own."""
        with self._span("draft"):
            yield

    @contextmanager
    def laying_out(self) -> Iterator[None]:
        """Laying the plan out as a block: local time, also reported on its own."""
        with self._span("layout"):
            yield

    @contextmanager
    def running_layers(self) -> Iterator[None]:
        """This computer's decoder layers: local time, also reported on its own."""
        with self._span("layers"):
            yield

    @contextmanager
    def _span(self, name: str) -> Iterator[None]:
        start = time.perf_counter()
        try:
            yield
        finally:
            self._spans[name] += (time.perf_counter() - start) * 1000

    def middle_replied(self, reply: MiddleReply) -> None:
        self._reply = reply

    def stop(self, tokens_in: int, tokens_out: int = 0) -> StepTiming:
        """The step's timing, measured up to now (``tokens_out`` may be filled in once committed)."""
        if self._reply is None:
            raise RuntimeError("a step's timing needs the middle's reply")
        total_ms = (time.perf_counter() - self._started) * 1000
        reply = self._reply
        return StepTiming(
            kind=self.kind,
            tokens_in=tokens_in,
            tokens_out=tokens_out,
            local_compute_ms=max(0.0, total_ms - reply.wall_ms),
            remote_compute_ms=reply.remote_compute_ms,
            serialization_ms=reply.serialization_ms,
            network_ms=reply.network_ms,
            total_ms=total_ms,
            frames=reply.frames,
            draft_ms=self._spans["draft"],
            layout_ms=self._spans["layout"],
            layers_ms=self._spans["layers"],
        )


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

    def local_step_cost(self, local_layers: int) -> LocalStepCost | None:
        """This computer's part of a decode step, split into what grows with its layers and what does not
        (None before a decode step)."""
        steps = self.decode_steps
        if not steps or local_layers < 1:
            return None
        layers = sum(s.layers_ms for s in steps) / len(steps)
        rest = sum(s.local_compute_ms - s.layers_ms for s in steps) / len(steps)
        return LocalStepCost(per_layer_ms=layers / local_layers, other_ms=max(0.0, rest))

    def mean_step_ms(self) -> StepBreakdown:
        """Mean per decode step (per step of any kind when there was no decode step)."""
        steps = self.decode_steps or self.steps
        n = max(1, len(steps))
        return StepBreakdown(
            network=sum(s.network_ms for s in steps) / n,
            local_compute=sum(s.local_compute_ms for s in steps) / n,
            remote_compute=sum(s.remote_compute_ms for s in steps) / n,
            serialization=sum(s.serialization_ms for s in steps) / n,
            total=sum(s.total_ms for s in steps) / n,
        )


@dataclass(frozen=True)
class StepBreakdown:
    """Where a typical step's milliseconds went."""

    network: float
    local_compute: float
    remote_compute: float
    serialization: float
    total: float

    def rounded(self, digits: int = 3) -> dict[str, float]:
        """As a JSON object (the bench's and ``ask --json``'s ``step_ms``)."""
        return {name: round(value, digits) for name, value in asdict(self).items()}


@dataclass(frozen=True)
class LocalStepCost:
    """This computer's compute in a decode step, measured: per local decoder layer, and the rest (the LM
    head over the block's rows, verification, drafting), which stays whatever the split depth."""

    per_layer_ms: float
    other_ms: float

    def at(self, local_layers: int) -> float:
        """The step's local compute with ``local_layers`` decoder layers here (both ends together)."""
        return self.other_ms + local_layers * self.per_layer_ms
