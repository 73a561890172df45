"""Batched passes: several sessions' blocks through one stack give what each gives alone, fairly, and a bad
request fails alone."""

from __future__ import annotations

import asyncio

import pytest
import torch

from app.engine.source.specs import resolve_model
from app.model.batching import Segment
from app.model.kv_cache import CacheEdit
from app.model.layers import LayerStack
from app.remote_worker.batcher import Batcher, Job
from app.remote_worker.server import compute_thread
from app.wire.frames import ErrorCode, ProtocolError, tensor_from_bytes
from app.wire.messages import ForwardRequest
from tests.helpers import build_tiny_model

HIDDEN = 64
TREE = torch.tensor([[1, 0, 0, 0], [1, 1, 0, 0], [1, 0, 1, 0], [1, 0, 1, 1]], dtype=torch.bool)


def _stack(family: str, tmp_path) -> LayerStack:
    build_tiny_model(family, tmp_path / family)
    source = resolve_model(str(tmp_path / family))
    return LayerStack.from_source(source, 1, source.config.num_hidden_layers - 1)


def _same_caches(first, second) -> None:
    assert first.length == second.length
    for (k1, v1), (k2, v2) in zip(first.snapshot(), second.snapshot(), strict=True):
        torch.testing.assert_close(k1, k2, rtol=1e-5, atol=1e-5)
        torch.testing.assert_close(v1, v2, rtol=1e-5, atol=1e-5)


# Sliding windows (mistral_nemo, gemma), soft-capped eager attention (gemma2), per-type rotary (gemma3),
# LongRoPE (phi3), q/k norms (qwen3): every family's attention path, batched.
@pytest.mark.parametrize("family", ["llama", "qwen2", "qwen3", "phi3", "gemma2", "gemma3", "mistral_nemo"])
def test_a_batched_pass_gives_each_session_what_it_gets_alone(family, tmp_path):
    stack = _stack(family, tmp_path)
    generator = torch.Generator().manual_seed(3)
    lengths = [20, 7, 30]
    alone, batched = [stack.new_cache() for _ in lengths], [stack.new_cache() for _ in lengths]
    prompts = [torch.randn(n, HIDDEN, generator=generator) for n in lengths]
    expected = [
        stack.forward(p.unsqueeze(0), torch.arange(len(p)), None, c)[0] for p, c in zip(prompts, alone, strict=True)
    ]
    got = stack.forward_batch([Segment(p, torch.arange(len(p)), c) for p, c in zip(prompts, batched, strict=True)])
    for want, have in zip(expected, got, strict=True):
        torch.testing.assert_close(have, want, rtol=1e-5, atol=1e-5)
    # Then one row, a speculative tree and a causal run of five, in one pass.
    blocks = [
        (torch.randn(1, HIDDEN, generator=generator), torch.tensor([20]), None),
        (torch.randn(4, HIDDEN, generator=generator), torch.tensor([7, 8, 8, 9]), TREE),
        (torch.randn(5, HIDDEN, generator=generator), torch.arange(30, 35), None),
    ]
    expected = [stack.forward(x.unsqueeze(0), p, a, c)[0] for (x, p, a), c in zip(blocks, alone, strict=True)]
    got = stack.forward_batch([Segment(x, p, c, a) for (x, p, a), c in zip(blocks, batched, strict=True)])
    for want, have in zip(expected, got, strict=True):
        torch.testing.assert_close(have, want, rtol=1e-5, atol=1e-5)
    # The tree's branch 0 -> 2 -> 3 accepted: both caches keep exactly that path.
    for cache in (alone[1], batched[1]):
        CacheEdit(keep_start=7, keep_indices=(0, 2, 3)).apply(cache)
    for first, second in zip(alone, batched, strict=True):
        _same_caches(first, second)


def _job(stack, rows: int, start: int = 0, ancestry=None, edit=CacheEdit(), cache=None, seed: int = 0) -> Job:
    positions = list(range(start, start + rows)) if ancestry is None else [start, start + 1, start + 1, start + 2]
    request = ForwardRequest("s", [rows, HIDDEN], "float32", positions, ancestry, edit)
    hidden = torch.randn(rows, HIDDEN, generator=torch.Generator().manual_seed(seed))
    return Job(cache if cache is not None else stack.new_cache(), request, hidden, "float32", 512)


def _output(result) -> torch.Tensor:
    return tensor_from_bytes(result.payload, "float32", result.shape)


def test_no_session_waits_more_than_one_pass_behind_long_prefills(tmp_path):
    """Three clients send 300-row blocks, three others decode: the decoders ride in the first pass with
    room, not one pass behind each prefill; the prefills, cut into 64-row chunks, equal their whole."""
    stack = _stack("llama", tmp_path)
    batcher = Batcher(stack, compute_thread(), max_pass_rows=64)
    prefills = [_job(stack, 300, seed=1 + i) for i in range(3)]
    decoders = [_job(stack, 1, seed=10 + i) for i in range(3)]
    for job in decoders:  # each decoding session already holds a context of 10
        stack.forward(torch.randn(1, 10, HIDDEN), torch.arange(10), None, job.cache)
        job.request.positions[:] = [10]

    async def scenario():
        first = [asyncio.ensure_future(batcher.run(job)) for job in prefills]
        await asyncio.sleep(0)  # the prefills are queued (and the first chunk under way) before the others
        rest = await asyncio.gather(*(batcher.run(job) for job in decoders))
        return await asyncio.gather(*first), rest

    long, short = asyncio.run(scenario())
    assert batcher.counters.passes == 15  # 903 rows in passes of 64
    assert all(result.pass_id <= 2 for result in short)  # one pass behind the prefills at most
    for job, result in zip(prefills, long, strict=True):
        assert result.shape == [300, HIDDEN]
        alone = stack.new_cache()
        want = stack.forward(job.hidden.unsqueeze(0), torch.arange(300), None, alone)[0]
        torch.testing.assert_close(_output(result), want, rtol=1e-5, atol=1e-5)  # chunked, as a causal run allows
        _same_caches(job.cache, alone)


def test_a_bad_request_in_a_batch_fails_alone_and_leaves_its_cache_as_it_was(tmp_path):
    stack = _stack("llama", tmp_path)
    batcher = Batcher(stack, compute_thread())
    victim = stack.new_cache()
    stack.forward(torch.randn(1, 6, HIDDEN), torch.arange(6), None, victim)
    before = [(k.clone(), v.clone()) for k, v in victim.snapshot()]
    bad = _job(stack, 1, start=6, edit=CacheEdit(keep_start=2, keep_indices=(0, 9)), cache=victim)
    too_long = _job(stack, 8, start=508)  # past the 512-position context
    good = [_job(stack, 5, seed=1), _job(stack, 4, ancestry=TREE, seed=2), _job(stack, 3, seed=3)]

    async def scenario():
        return await asyncio.gather(
            *(batcher.run(job) for job in [good[0], bad, good[1], too_long, good[2]]), return_exceptions=True
        )

    first, refused, second, context, third = asyncio.run(scenario())
    assert isinstance(refused, ProtocolError) and refused.code == ErrorCode.BAD_REQUEST
    assert isinstance(context, ProtocolError) and context.code == ErrorCode.CONTEXT_TOO_LONG
    assert victim.length == 6
    for (k, v), (k0, v0) in zip(victim.snapshot(), before, strict=True):
        assert torch.equal(k, k0) and torch.equal(v, v0)
    assert first.pass_id == second.pass_id == third.pass_id == 1 and first.pass_rows == 12
    for job, result in zip(good, (first, second, third), strict=True):
        positions = torch.tensor(job.request.positions)
        want = stack.forward(job.hidden.unsqueeze(0), positions, job.request.ancestry, stack.new_cache())[0]
        torch.testing.assert_close(_output(result), want, rtol=1e-5, atol=1e-5)


def test_a_session_has_one_block_in_a_pass_and_a_tree_is_never_cut(tmp_path):
    stack = _stack("llama", tmp_path)
    batcher = Batcher(stack, compute_thread(), max_pass_rows=6)
    shared = stack.new_cache()
    first, second = _job(stack, 2, cache=shared), _job(stack, 2, start=2, cache=shared, seed=4)
    filler, tree = _job(stack, 3, seed=5), _job(stack, 4, ancestry=TREE, seed=6)
    batcher._queue.extend([first, second, filler, tree])
    plan = batcher.plan()
    assert [(c.job, c.start, c.end) for c in plan] == [(first, 0, 2), (filler, 0, 3)]  # the tree needs 4 rows
    assert list(batcher._queue) == [second, tree]
