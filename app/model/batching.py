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


def _single_query_sdpa(module: torch.nn.Module, kwargs: dict) -> Callable | None:
    """The call transformers' SDPA function makes for one query row without a mask, minus its checks.

    A decode step is exactly that, once per session and layer, and the checks cost about a fifth of
    the kernel on a CPU. The kernel, its arguments and the layout of its output are the library's, so
    the result is the same to the bit. None where its own path has more to do (dropout, odd head dims).
    """
    if module.training or kwargs.get("softcap") is not None or kwargs.get("position_bias") is not None:
        return None
    gqa = {"enable_gqa": True} if getattr(module, "num_key_value_groups", 1) > 1 else {}
    scale = kwargs.get("scaling")

    def attend(query: torch.Tensor, keys: torch.Tensor, values: torch.Tensor) -> torch.Tensor:
        if keys.shape[-1] != values.shape[-1] or keys.shape[-1] > 256:
            return sdpa_attention_forward(module, query, keys, values, None, scaling=scale)[0]
        output = torch.nn.functional.scaled_dot_product_attention(query, keys, values, scale=scale, **gqa)
        return output.transpose(1, 2).contiguous()

    return attend


def _per_session(kernel: str) -> Callable:
    def attention(module, query, key, value, attention_mask, **kwargs):
        base = sdpa_attention_forward if kernel == "sdpa" else _family_eager(module)
        if not isinstance(key, PerSession):  # one session: the kernel itself, nothing added
            return base(module, query, key, value, attention_mask, **kwargs)
        outputs, start = [], 0
        single_query = _single_query_sdpa(module, kwargs) if kernel == "sdpa" else None
        for keys, values, mask, rows in zip(key.parts, value.parts, attention_mask.parts, key.rows, strict=True):
            if single_query is not None and rows == 1 and mask is None:
                outputs.append(single_query(query[:, :, start : start + 1], keys, values))
            else:
                outputs.append(base(module, query[:, :, start : start + rows], keys, values, mask, **kwargs)[0])
            start += rows
        return torch.cat(outputs, dim=1), None

    return attention


for _kernel in ("sdpa", "eager"):
    AttentionInterface.register(implementation_name(_kernel), _per_session(_kernel))
