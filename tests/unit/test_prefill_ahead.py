"""Prefill while typing: the caches end exactly as a fresh prefill of the final text leaves them, and the
answer is the one a prefill at Send gives."""

from __future__ import annotations

import asyncio

import torch

from app.model.choices import SplitSpec
from app.model.kv_cache import StackCache
from tests.unit.test_split_matches_unsplit import in_process_session


def _stacks(session):
    return (session.edge.head.cache, session.middle.stack.cache, session.edge.tail.cache)


def _filled(cache: StackCache) -> list[torch.Tensor]:
    length = cache.length
    return [k[..., :length, :] for k in cache._keys if k is not None] + [
        v[..., :length, :] for v in cache._values if v is not None
    ]


def assert_same_caches(ours, fresh) -> None:
    for mine, theirs in zip(_stacks(ours), _stacks(fresh), strict=True):
        assert mine.length == theirs.length
        for a, b in zip(_filled(mine), _filled(theirs), strict=True):
            torch.testing.assert_close(a, b, atol=1e-5, rtol=1e-5)


def test_edits_and_deletions_leave_the_caches_as_a_fresh_prefill_of_the_final_text(tiny_models):
    folder, _ = tiny_models["llama"]
    split = SplitSpec(2, 2)
    pasted = [(7 * i) % 250 + 3 for i in range(90)]
    edited = pasted[:41] + [99, 98, 97] + pasted[44:]  # a word changed in the middle of the pasted text
    shorter = edited[:30]  # then most of it deleted
    ours = in_process_session(folder, split)

    async def typing():
        assert await ours.prefill_ahead(pasted, chunk_rows=16) == 90
        middle_before = ours.middle.stack.cache.length
        assert await ours.prefill_ahead(edited, chunk_rows=16) == 90
        return middle_before

    assert asyncio.run(typing()) == 90
    fresh = in_process_session(folder, split)
    asyncio.run(fresh.prefill_ahead(edited, chunk_rows=1000))
    assert_same_caches(ours, fresh)  # rolled back to position 41 and recomputed, not restarted at zero

    asyncio.run(ours.prefill_ahead(shorter, chunk_rows=16))
    fresh = in_process_session(folder, split)
    asyncio.run(fresh.prefill_ahead(shorter))
    assert_same_caches(ours, fresh)  # deleted text leaves no rows behind, even with nothing new to run

    # Send: the whole prompt (the typed text and what follows it) gives the answer a cold prefill gives.
    prompt = shorter + [5, 6, 7]
    answer = asyncio.run(ours.generate(prompt, 16)).tokens
    assert answer == asyncio.run(in_process_session(folder, split).generate(prompt, 16)).tokens


def test_a_stop_request_ends_a_prefill_ahead_between_chunks(tiny_models):
    folder, _ = tiny_models["qwen2"]
    session = in_process_session(folder, SplitSpec(1, 1))
    cached = asyncio.run(
        session.prefill_ahead(list(range(3, 83)), chunk_rows=16, should_stop=lambda: len(session.processed) >= 32)
    )
    assert cached == 32 and session.processed == list(range(3, 35))
