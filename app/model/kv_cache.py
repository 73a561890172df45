"""A growable key/value cache for one LayerStack, the operations decoding needs, and the edit before a block.

It speaks the one method transformers' attention modules call (``update``), so the library's own
decoder layers write into it; layer indices are local to the stack.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch


class StackCache:
    """Keys and values of every layer in a stack, stored in capacity-doubling buffers."""

    def __init__(self, num_layers: int):
        self._keys: list[torch.Tensor | None] = [None] * num_layers
        self._values: list[torch.Tensor | None] = [None] * num_layers
        self._lengths = [0] * num_layers
        self.max_capacity: int | None = None  # doubling stops here (the worker's budget), never below a need

    @property
    def length(self) -> int:
        """Number of committed-or-pending positions held (the same in every layer)."""
        return self._lengths[0]

    @property
    def capacity(self) -> int:
        """Positions the buffers have room for: what the cache costs in memory, whatever its length."""
        return max((keys.shape[-2] for keys in self._keys if keys is not None), default=0)

    def capacity_for(self, length: int) -> int:
        """The capacity once the cache holds ``length`` positions.

        Buffers double as they grow, and a growth always leaves room past ``length``: a buffer made to the
        prompt's exact size was reallocated, and every layer's cache copied, at the first decode step
        (sixteen sessions of a 64-position prompt made that pass 1.7 times as slow as the next).
        """
        capacity = self.capacity
        if length <= capacity:
            return capacity
        grown = 64 if capacity == 0 else 2 * capacity
        while grown <= length:
            grown *= 2
        if self.max_capacity is not None:
            grown = min(grown, self.max_capacity)
        return max(length, grown)

    def update(self, keys: torch.Tensor, values: torch.Tensor, layer_idx: int, **_: object):
        """Append a block's keys/values for one layer; return that layer's whole cache."""
        start = self._lengths[layer_idx]
        end = start + keys.shape[-2]
        buffer_k, buffer_v = self._ensure_capacity(layer_idx, keys, end)
        buffer_k[:, :, start:end] = keys
        buffer_v[:, :, start:end] = values
        self._lengths[layer_idx] = end
        return buffer_k[:, :, :end], buffer_v[:, :, :end]

    def crop(self, length: int) -> None:
        """Forget every entry at or after ``length``."""
        if not 0 <= length <= self.length:
            raise ValueError(f"cannot crop a cache of {self.length} entries to {length}")
        self._lengths = [length] * len(self._lengths)
        if length == 0:  # a fresh start (a new conversation, a re-prefill): give the buffers back
            self._keys = [None] * len(self._keys)
            self._values = [None] * len(self._values)

    @torch.inference_mode()  # the buffers were made under inference mode; edits must be too
    def keep(self, start: int, indices: list[int]) -> None:
        """Keep entries [0, start) plus the block entries ``start + i`` for i in ``indices``, in order.

        This commits an accepted path of a speculative block: a gather, not only a crop, because the
        accepted tokens of a tree need not be contiguous.
        """
        block = self.length - start
        if start < 0 or block < 0 or any(not 0 <= i < block for i in indices):
            raise ValueError(f"keep indices {indices} out of range for a block of {block} at {start}")
        if list(indices) == list(range(len(indices))):
            self.crop(start + len(indices))
            return
        for layer, (keys, values) in enumerate(zip(self._keys, self._values, strict=False)):
            if keys is None:
                continue
            index = torch.tensor(indices, dtype=torch.long, device=keys.device) + start
            kept_k, kept_v = keys[:, :, index], values[:, :, index]
            keys[:, :, start : start + len(indices)] = kept_k
            values[:, :, start : start + len(indices)] = kept_v
            self._lengths[layer] = start + len(indices)
        self._lengths = [start + len(indices)] * len(self._lengths)

    def snapshot(self) -> list[tuple[torch.Tensor, torch.Tensor]]:
        """Each layer's used keys and values (views, for inspection)."""
        return [
            (k[:, :, :n], v[:, :, :n])
            for k, v, n in zip(self._keys, self._values, self._lengths, strict=True)
            if k is not None
        ]

    def nbytes(self) -> int:
        """Bytes held by the buffers (capacity, not only the used part)."""
        return sum(t.numel() * t.element_size() for t in self._keys + self._values if t is not None)

    def _ensure_capacity(self, layer: int, like: torch.Tensor, needed: int):
        keys = self._keys[layer]
        if keys is None or keys.shape[-2] < needed:
            capacity = self.capacity_for(needed)
            shape = (*like.shape[:-2], capacity, like.shape[-1])
            new_k = like.new_empty(shape)
            new_v = like.new_empty(shape)
            used = self._lengths[layer]
            if keys is not None and used:
                new_k[:, :, :used] = keys[:, :, :used]
                new_v[:, :, :used] = self._values[layer][:, :, :used]
            self._keys[layer], self._values[layer] = new_k, new_v
        return self._keys[layer], self._values[layer]


@dataclass(frozen=True)
class CacheEdit:
    """What a cache forgets before the next block: keep an accepted path of the last block, then crop.

    The order is the rule both halves follow: the keep commits what verification accepted from the
    block before (a gather), and the crop then drops anything a cancelled or failed step left behind.
    """

    crop: int | None = None  # forget entries at or after this length
    keep_start: int | None = None  # keep [0, keep_start) + keep_start + keep_indices
    keep_indices: tuple[int, ...] = ()

    def check(self, length: int) -> None:
        """ValueError unless this edit fits a cache of ``length`` entries (nothing is changed)."""
        if self.keep_start is not None:
            block = length - self.keep_start
            if self.keep_start < 0 or block < 0 or any(not 0 <= i < block for i in self.keep_indices):
                raise ValueError(f"keep indices out of range for a block of {block} at {self.keep_start}")
            if len(set(self.keep_indices)) != len(self.keep_indices):
                raise ValueError("keep indices must be distinct")
            length = self.keep_start + len(self.keep_indices)
        if self.crop is not None and not 0 <= self.crop <= length:
            raise ValueError(f"cannot crop a cache of {length} entries to {self.crop}")

    def apply(self, cache: StackCache) -> None:
        """Edit ``cache``; ValueError when the edit does not fit what it holds."""
        if self.keep_start is not None:
            cache.keep(self.keep_start, list(self.keep_indices))
        if self.crop is not None:
            cache.crop(self.crop)

    def length_after(self, length: int) -> int:
        """The length of a cache of ``length`` entries once edited (what memory must allow for)."""
        if self.keep_start is not None:
            length = min(length, self.keep_start + len(self.keep_indices))
        if self.crop is not None:
            length = min(length, self.crop)
        return length
