"""Several sessions' blocks through one stack in one pass: the weights are read once, attention stays per session.

Every linear layer, norm and rotary embedding of a decoder layer works row by row, so the rows of
different sessions can be concatenated and each weight matrix read once for all of them — on a GPU, and
on a CPU too, a pass of sixteen rows costs little more than a pass of one. Attention cannot be shared:
each session attends only to its own cache. transformers' decoder layers are used as they are; they get
a cache (``SessionsCache``) that appends each session's new keys and values to that session's own
cache, and they pass what it returns, together with the per-session masks, straight to the attention
function. The function registered here runs the family's own kernel (SDPA, or the family's eager
function where scores are soft-capped) once per session and concatenates the outputs in row order.

One batched attention over all sessions with a block-diagonal mask was the other way: it needs every
session's cache copied into one tensor per layer and per pass, and its cost grows with the product of
all rows and all cached positions; per-session calls cost one kernel launch each and nothing else.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass

import torch
from transformers import AttentionInterface
from transformers.integrations.sdpa_attention import sdpa_attention_forward

from app.model.kv_cache import StackCache

PREFIX = "splitchat_"


@dataclass(frozen=True)
class Segment:
    """One session's rows in a pass: its block (or a chunk of it) and the cache it extends."""

    hidden: torch.Tensor  # [q, hidden]
    positions: torch.Tensor  # [q]
    cache: StackCache
    ancestry: torch.Tensor | None = None  # [q, q], None for a causal run
    long_rope: bool = False


@dataclass(frozen=True)
class PerSession:
    """Per-session values (whole keys, whole values or masks) where transformers expects one tensor;
    ``rows`` says how many of the pass's query rows each session has, in order."""

    parts: list
    rows: list[int]


class SessionsCache:
    """The cache a decoder layer sees in a batched pass: it splits new keys/values by session."""

    def __init__(self, caches: list[StackCache], rows: list[int]):
        self.caches, self.rows = caches, rows

    def update(self, keys: torch.Tensor, values: torch.Tensor, layer_idx: int, **_: object):
        """Append each session's rows to its own cache; return every session's whole keys and values."""
        key_parts, value_parts = [], []
        pieces = zip(self.caches, keys.split(self.rows, dim=-2), values.split(self.rows, dim=-2), strict=True)
        for cache, new_keys, new_values in pieces:
            whole_keys, whole_values = cache.update(new_keys, new_values, layer_idx)
            key_parts.append(whole_keys)
            value_parts.append(whole_values)
        return PerSession(key_parts, self.rows), PerSession(value_parts, self.rows)


def implementation_name(kernel: str) -> str:
    """The name under which the per-session wrapper of ``kernel`` (``sdpa`` | ``eager``) is registered."""
    return PREFIX + kernel


def _family_eager(module: torch.nn.Module) -> Callable:
    """The eager attention function of the module's own family (Gemma's soft-caps its scores)."""
    return sys.modules[type(module).__module__].eager_attention_forward


def _per_session(kernel: str) -> Callable:
    def attention(module, query, key, value, attention_mask, **kwargs):
        base = sdpa_attention_forward if kernel == "sdpa" else _family_eager(module)
        if not isinstance(key, PerSession):  # one session: the kernel itself, nothing added
            return base(module, query, key, value, attention_mask, **kwargs)
        outputs, start = [], 0
        for keys, values, mask, rows in zip(key.parts, value.parts, attention_mask.parts, key.rows, strict=True):
            output, _ = base(module, query[:, :, start : start + rows], keys, values, mask, **kwargs)
            outputs.append(output)
            start += rows
        return torch.cat(outputs, dim=1), None

    return attention


for _kernel in ("sdpa", "eager"):
    AttentionInterface.register(implementation_name(_kernel), _per_session(_kernel))
