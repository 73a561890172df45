"""The peer to beat: transformers' own prompt-lookup decoding on the unsplit model, in forwards per token."""

from __future__ import annotations

import torch

from app.bench.records import PeerResult


def pld_tokens_per_forward(model, prompt_ids: list[int], max_new_tokens: int, lookup_tokens: int = 10) -> PeerResult:
    """Greedy ``generate(prompt_lookup_num_tokens=…)``: new tokens per forward pass (prefill included)."""
    calls = 0

    def count(*_):
        nonlocal calls
        calls += 1

    handle = model.register_forward_pre_hook(count)
    try:
        with torch.no_grad():
            out = model.generate(
                torch.tensor([prompt_ids]),
                attention_mask=torch.ones(1, len(prompt_ids), dtype=torch.long),
                max_new_tokens=max_new_tokens,
                min_new_tokens=max_new_tokens,  # like the bench runs: a fixed number of tokens
                do_sample=False,
                prompt_lookup_num_tokens=lookup_tokens,
                pad_token_id=0,
            )
    finally:
        handle.remove()
    new_tokens = out.shape[1] - len(prompt_ids)
    return PeerResult(new_tokens, calls, round(new_tokens / calls, 4))
