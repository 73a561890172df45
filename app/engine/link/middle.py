"""The middle of the model as the decode loop sees it: in this process, or across the wire."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Protocol

import torch

from app.model.choices import SplitSpec
from app.model.kv_cache import CacheEdit
from app.model.layers import LayerStack
from app.model.weights import WeightedModel


@dataclass
class MiddleReply:
    """Hidden states back from the middle layers, with where the time went."""

    hidden: torch.Tensor  # [1, q, hidden]
    wall_ms: float  # the whole call as the client saw it
    remote_compute_ms: float  # the middle layers' own time
    serialization_ms: float  # encoding + decoding on both ends
    frames: int = 1
    queue_ms: float = 0.0  # waiting on the worker for a pass with room (batching)
    pass_id: int = 0  # the worker's pass that finished the block (0: not batched, or an older worker)
    pass_rows: int = 0  # every session's rows in that pass

    @classmethod
    def joined(cls, replies: list[MiddleReply], wall_ms: float) -> MiddleReply:
        """One account of a stream's replies over the stream's own wall time (the last one's rows)."""
        last = replies[-1]
        return cls(
            hidden=last.hidden,
            wall_ms=wall_ms,
            remote_compute_ms=sum(r.remote_compute_ms for r in replies),
            serialization_ms=sum(r.serialization_ms for r in replies),
            frames=sum(r.frames for r in replies),
            queue_ms=sum(r.queue_ms for r in replies),
            pass_id=last.pass_id,
            pass_rows=last.pass_rows,
        )

    @property
    def network_ms(self) -> float:
        return max(0.0, self.wall_ms - self.remote_compute_ms - self.serialization_ms - self.queue_ms)


@dataclass
class MiddleBlock:
    """One causal block of a streamed prefill: the head layers' output for consecutive positions."""

    hidden: torch.Tensor  # [1, q, hidden]
    positions: list[int]
    edit: CacheEdit | None = None
    long_rope: bool = False


class Middle(Protocol):
    async def forward(
        self,
        hidden: torch.Tensor,
        positions: list[int],
        ancestry: torch.Tensor | None = None,
        edit: CacheEdit | None = None,
        long_rope: bool = False,
    ) -> MiddleReply: ...

    def stream(self, blocks: AsyncIterator[MiddleBlock], depth: int) -> AsyncIterator[MiddleReply]:
        """Consecutive causal blocks, each one's reply in order; a middle across a wire lets up to ``depth``
        blocks leave before the first one's reply is back."""
        ...

    @property
    def max_tree_rows(self) -> int | None:
        """The most rows a speculative block (a tree, never cut) may hold here; None: no limit."""
        ...

    async def close(self) -> None: ...


class LocalMiddle:
    """The middle layers in this process: the unsplit ceiling, and the reference in unit tests."""

    def __init__(self, stack: LayerStack):
        self.stack = stack

    @classmethod
    def of(
        cls, source: WeightedModel, split: SplitSpec, device: torch.device | str = "cpu", dtype=torch.float32
    ) -> LocalMiddle:
        """The middle layers of ``source`` for ``split``, read and run in this process."""
        first, last = split.middle(source.config.num_hidden_layers)
        return cls(LayerStack.from_source(source, first, last, device, dtype))

    async def forward(self, hidden, positions, ancestry=None, edit=None, long_rope=False) -> MiddleReply:
        start = time.perf_counter()
        if edit is not None:
            edit.apply(self.stack.cache)
        output = self.stack(hidden, torch.tensor(positions), ancestry, long_rope=long_rope)
        elapsed = (time.perf_counter() - start) * 1000
        return MiddleReply(output, wall_ms=elapsed, remote_compute_ms=elapsed, serialization_ms=0.0)

    @property
    def max_tree_rows(self) -> int | None:
        return None  # no pass shared with other sessions to hold up

    async def stream(self, blocks: AsyncIterator[MiddleBlock], depth: int = 1) -> AsyncIterator[MiddleReply]:
        # In this process there is no wire to overlap with: each block in turn.
        async for block in blocks:
            yield await self.forward(block.hidden, block.positions, None, block.edit, block.long_rope)

    async def close(self) -> None:
        self.stack.reset()
