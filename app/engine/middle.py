"""The middle of the model as the decode loop sees it: in this process, or across the wire."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Protocol

import torch

from app.engine.layers import LayerStack


@dataclass
class MiddleReply:
    """Hidden states back from the middle layers, with where the time went."""

    hidden: torch.Tensor  # [1, q, hidden]
    wall_ms: float  # the whole call as the client saw it
    remote_compute_ms: float  # the middle layers' own time
    serialization_ms: float  # encoding + decoding on both ends
    frames: int = 1

    @property
    def network_ms(self) -> float:
        return max(0.0, self.wall_ms - self.remote_compute_ms - self.serialization_ms)


@dataclass
class CacheEdit:
    """Edits applied to the middle's cache before a block: keep a path of the last block, then crop."""

    crop: int | None = None
    keep_start: int | None = None
    keep_indices: tuple[int, ...] = ()


class Middle(Protocol):
    async def forward(
        self,
        hidden: torch.Tensor,
        positions: list[int],
        ancestry: torch.Tensor | None = None,
        edit: CacheEdit | None = None,
    ) -> MiddleReply: ...

    async def close(self) -> None: ...


class LocalMiddle:
    """The middle layers in this process: the unsplit ceiling, and the reference in unit tests."""

    def __init__(self, stack: LayerStack):
        self.stack = stack

    async def forward(self, hidden, positions, ancestry=None, edit=None) -> MiddleReply:
        start = time.perf_counter()
        if edit is not None:  # the worker's order: commit the last block's path, then crop
            if edit.keep_start is not None:
                self.stack.keep(edit.keep_start, list(edit.keep_indices))
            if edit.crop is not None:
                self.stack.crop(edit.crop)
        output = self.stack(hidden, torch.tensor(positions), ancestry)
        elapsed = (time.perf_counter() - start) * 1000
        return MiddleReply(output, wall_ms=elapsed, remote_compute_ms=elapsed, serialization_ms=0.0)

    async def close(self) -> None:
        self.stack.reset()
