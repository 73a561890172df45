"""The decode loop across the split: prefill the new part of the conversation, then one token per round trip."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import torch

from app.engine.edge import LocalEdge
from app.engine.metrics import GenerationStats, StepTiming
from app.engine.middle import CacheEdit, Middle
from app.engine.models import max_context
from app.engine.sampling import Sampling, TokenPicker


class ContextTooLong(ValueError):
    """The conversation does not fit the model's context."""


@dataclass
class Generation:
    tokens: list[int]
    stats: GenerationStats
    stop_reason: str  # "stop_token" | "max_new_tokens" | "cancelled"


class SplitSession:
    """One conversation over the three stacks; ``processed`` is the source of truth for every cache."""

    def __init__(self, edge: LocalEdge, middle: Middle, stop_ids: Sequence[int] = ()):
        self.edge = edge
        self.middle = middle
        self.stop_ids = set(stop_ids)
        self.processed: list[int] = []  # tokens whose keys/values sit in all three caches
        self.max_context = max_context(edge.config)

    async def generate(
        self,
        prompt_ids: Sequence[int],
        max_new_tokens: int,
        sampling: Sampling = Sampling(),
        on_token: Callable[[int], None] | None = None,
        should_stop: Callable[[], bool] | None = None,
    ) -> Generation:
        """Continue the conversation ``prompt_ids`` (the whole of it) by up to ``max_new_tokens``.

        Only the part after what the caches already hold is sent: turn 2 costs its new tokens.
        """
        prompt = list(prompt_ids)
        if not prompt:
            raise ValueError("the prompt is empty")
        if len(prompt) >= self.max_context:
            raise ContextTooLong(f"the conversation has {len(prompt)} tokens; this model holds {self.max_context}")
        max_new_tokens = min(max_new_tokens, self.max_context - len(prompt))
        picker = TokenPicker(sampling)
        stats = GenerationStats()
        generated: list[int] = []

        reuse = _common_prefix(self.processed, prompt)
        reuse = min(reuse, len(prompt) - 1)  # the last prompt token must run to give logits
        logits = await self._step(prompt[reuse:], reuse, stats, "prefill")
        stop_reason = "max_new_tokens"
        while len(generated) < max_new_tokens:
            token = picker.pick(logits[-1])
            generated.append(token)
            stats.steps[-1].tokens_out = 1
            if on_token:
                on_token(token)
            if token in self.stop_ids:
                stop_reason = "stop_token"
                break
            if len(generated) == max_new_tokens:
                break
            if should_stop and should_stop():
                stop_reason = "cancelled"
                break
            logits = await self._step([token], len(self.processed), stats, "decode")
        return Generation(tokens=generated, stats=stats, stop_reason=stop_reason)

    async def _step(self, tokens: list[int], start: int, stats: GenerationStats, kind: str) -> torch.Tensor:
        """Run tokens at positions start.. through all three stacks; return their logits [q, V]."""
        step_start = time.perf_counter()
        positions = list(range(start, start + len(tokens)))
        position_tensor = torch.tensor(positions)
        # Cache edits first: a cancelled step may have left a stack one block ahead.
        self.edge.crop(start)
        self.processed = self.processed[:start]
        hidden = self.edge.run_head(torch.tensor(tokens), position_tensor)
        head_ms = (time.perf_counter() - step_start) * 1000
        reply = await self.middle.forward(hidden, positions, edit=CacheEdit(crop=start))
        tail_start = time.perf_counter()
        logits = self.edge.run_tail(reply.hidden, position_tensor)
        self.processed.extend(tokens)
        end = time.perf_counter()
        local_ms = head_ms + (end - tail_start) * 1000
        stats.steps.append(
            StepTiming(
                kind=kind,
                tokens_in=len(tokens),
                tokens_out=0,
                local_compute_ms=local_ms,
                remote_compute_ms=reply.remote_compute_ms,
                serialization_ms=reply.serialization_ms,
                network_ms=reply.network_ms,
                total_ms=(end - step_start) * 1000,
                frames=reply.frames,
            )
        )
        return logits

    async def close(self) -> None:
        await self.middle.close()


def _common_prefix(a: Sequence[int], b: Sequence[int]) -> int:
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n
