"""The 4D attention mask of one block: committed entries visible to all, ancestry inside the block.

Relative causal masking (``is_causal=True`` with a populated cache) lets a speculative position see
entries it must not; every multi-token block with a past therefore gets an explicit mask.
"""

from __future__ import annotations

import torch


def causal_ancestry(size: int, device: torch.device | str = "cpu") -> torch.Tensor:
    """A q×q ancestry where each position sees itself and every earlier one."""
    return torch.ones(size, size, dtype=torch.bool, device=device).tril_()


def block_mask(
    past_len: int,
    block_len: int,
    ancestry: torch.Tensor | None,
    dtype: torch.dtype,
    device: torch.device | str,
    positions: torch.Tensor | None = None,
    window: int | None = None,
    always: bool = False,
) -> torch.Tensor | None:
    """Return the additive mask [1, 1, q, past+q], or None where no masking is needed.

    ``ancestry[i, j]`` is True when block position i may attend to block position j. None means the
    block is a causal run. A single query, or a causal run with no past, needs no mask: attention
    kernels handle those exactly without one. With a sliding ``window`` a query at position p also
    loses every key at a position p − window or earlier (the cache's entries sit at their positions:
    edits compact it before each block); ``positions`` [q] are then required. ``always`` builds the mask
    even where SDPA would not need one (eager attention applies no causality of its own).
    """
    reach = None
    if window is not None:
        if positions is None:
            raise ValueError("a sliding-window mask needs the block's positions")
        positions = positions.to(device=device).view(-1)
        if int(positions.max()) >= window:  # some query is far enough along to lose keys
            reach = positions
    if not always and reach is None and ancestry is None and (block_len == 1 or past_len == 0):
        return None
    if ancestry is None:
        ancestry = causal_ancestry(block_len, device)
    if ancestry.shape != (block_len, block_len):
        raise ValueError(f"ancestry must be {block_len}x{block_len}, got {tuple(ancestry.shape)}")
    allowed = torch.ones(block_len, past_len + block_len, dtype=torch.bool, device=device)
    allowed[:, past_len:] = ancestry.to(device=device, dtype=torch.bool)
    if reach is not None:
        keys = torch.cat([torch.arange(past_len, device=device), reach])
        allowed &= (reach.view(-1, 1) - keys.view(1, -1)) < window
    mask = torch.zeros(block_len, past_len + block_len, dtype=dtype, device=device)
    mask.masked_fill_(~allowed, torch.finfo(dtype).min)
    return mask.view(1, 1, block_len, past_len + block_len)
