"""One worker, many tenants, hostile input: isolation, memory limits with eviction, concurrency, fuzzing."""

from __future__ import annotations

import asyncio
import contextlib
import json
import struct
import threading

import pytest
import torch
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect as sync_connect

from app.bench.load import process_memory_mib
from app.engine.link.link_codes import WorkerError
from app.engine.link.transport import RemoteMiddle
from app.wire.frames import DEFAULT_MAX_FRAME, PROTOCOL_VERSION, ErrorCode, decode_frame, encode_frame
from tests.helpers import open_split_session, reference_greedy
from tests.integration.conftest import TINY_SPLIT as SPLIT


def prompts(count: int, length: int, seed: int) -> list[list[int]]:
    generator = torch.Generator().manual_seed(seed)
    return [torch.randint(0, 320, (length,), generator=generator).tolist() for _ in range(count)]


async def test_sixteen_concurrent_sessions_each_get_what_they_would_alone(tiny_split, start_worker):
    """Batched into shared passes — prompts of 3 to 48 tokens, four decoding modes with their own block
    sizes and trees, rejected speculation cropped back — each session's tokens are its tokens alone."""
    source, model, shard = tiny_split
    worker = start_worker(shard, extra_args=("--max-pass-rows", "64"))  # long prompts are chunked too
    sessions = [
        (await open_split_session(source, SPLIT, worker.endpoint, worker.token, mode=mode))[0]
        for mode in ["sequential", "auto", "lookahead", "lookup"] * 4
    ]
    generator = torch.Generator().manual_seed(11)
    texts = [torch.randint(0, 320, (3 + 3 * i,), generator=generator).tolist() for i in range(16)]
    results = await asyncio.gather(*(s.generate(p, 24) for s, p in zip(sessions, texts, strict=True)))
    for prompt, generation in zip(texts, results, strict=True):
        assert generation.tokens == reference_greedy(model, prompt, 24)
    await asyncio.gather(*(s.close() for s in sessions))


async def test_concurrent_blocks_share_a_pass(tiny_split, start_worker):
    source, _, shard = tiny_split
    worker = start_worker(shard)
    middles = [await RemoteMiddle.connect(worker.endpoint, worker.token, wire_dtype="float32") for _ in range(4)]
    hidden = torch.randn(1, 1, 64)
    replies = await asyncio.gather(*(m.forward(hidden, [0]) for m in middles))
    assert max(reply.pass_rows for reply in replies) >= 2  # those that arrived during the first pass ran together
    for reply in replies:  # the same row, alone or batched, beyond float rounding
        torch.testing.assert_close(reply.hidden, replies[0].hidden, rtol=1e-5, atol=1e-5)
    await asyncio.gather(*(m.close() for m in middles))


async def test_kv_budget_evicts_the_idle_tenant_who_then_recovers_transparently(tiny_split, start_worker):
    source, model, shard = tiny_split
    # Tiny middle (4 layers, 2 KV heads of 16, float32): 1 KiB per position, so 0.25 MiB holds 256.
    worker = start_worker(shard, extra_args=("--max-kv-mb", "0.25", "--max-kv-mb-per-token", "0.25"))
    first, first_notices = await open_split_session(source, SPLIT, worker.endpoint, worker.token)
    second, _ = await open_split_session(source, SPLIT, worker.endpoint, worker.token)
    a, b = prompts(2, 120, seed=3)
    out_a = await first.generate(a, 20)
    out_b = await second.generate(b, 20)  # 140 + 140 > 256: the worker evicts the first session
    turn_two = a + out_a.tokens + [7, 8, 9]
    again = await first.generate(turn_two, 20)  # unknown_session, reconnect, re-prefill, same tokens
    assert out_a.tokens == reference_greedy(model, a, 20)
    assert out_b.tokens == reference_greedy(model, b, 20)
    assert again.tokens == reference_greedy(model, turn_two, 20)
    assert any("unknown_session" in n for n in first_notices)
    await first.close()
    await second.close()


async def test_kv_budget_per_token_is_a_typed_error_not_a_crash(tiny_split, start_worker):
    source, model, shard = tiny_split
    worker = start_worker(shard, extra_args=("--max-kv-mb-per-token", "0.05"))  # ~51 positions
    session, _ = await open_split_session(source, SPLIT, worker.endpoint, worker.token)
    with pytest.raises(WorkerError) as caught:
        await session.generate(prompts(1, 80, seed=4)[0], 4)
    assert caught.value.code == ErrorCode.MEMORY_LIMIT
    await session.close()
    small = prompts(1, 20, seed=5)[0]
    # Sequential: 20 + 8 positions fit the budget whatever block sizes `auto` would pick on this machine.
    fresh, _ = await open_split_session(source, SPLIT, worker.endpoint, worker.token, mode="sequential")
    assert (await fresh.generate(small, 8)).tokens == reference_greedy(model, small, 8)


def _header_frame(header: dict, payload: bytes = b"") -> bytes:
    raw = json.dumps(header).encode()
    return struct.pack("<I", len(raw)) + raw + payload


JSONISH = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=8,
)
FIELDS = st.fixed_dictionaries(
    {
        "v": st.sampled_from([PROTOCOL_VERSION, PROTOCOL_VERSION, 0, "1", None]),
        "type": st.sampled_from(["forward", "forward", "open", "close", "hello", "", 3]),
    },
    optional={
        "session": JSONISH,
        "shape": st.lists(st.integers(-5, 2**40), max_size=3) | JSONISH,
        "dtype": st.sampled_from(["float32", "float16", "bfloat16", "int8", ""]) | JSONISH,
        "reply_dtype": st.sampled_from(["float32", "complex64"]) | JSONISH,
        "pos": st.integers(-3, 2**40) | JSONISH,
        "pos_offsets": st.lists(st.integers(-3, 10), max_size=8) | JSONISH,
        "ancestry": st.text(max_size=12) | JSONISH,
        "crop": st.integers(-3, 2**40) | JSONISH,
        "keep": st.fixed_dictionaries({"start": st.integers(-3, 50), "indices": st.lists(st.integers(-3, 50))})
        | JSONISH,
        "seq": JSONISH,
    },
)
MESSAGES = st.one_of(
    st.binary(max_size=300),  # noise
    st.builds(_header_frame, FIELDS, st.binary(max_size=600)),  # well-framed, wrong in every other way
    st.builds(lambda raw: struct.pack("<I", len(raw)) + raw, st.binary(min_size=1, max_size=60)),  # not JSON/UTF-8
    st.builds(lambda n: struct.pack("<I", n), st.integers(0, 2**32 - 1)),  # header length lies
    st.text(max_size=50),  # text messages are not part of the protocol
)


def test_fuzzed_frames_get_typed_errors_and_a_good_session_finishes_alongside(tiny_split, start_worker):
    source, model, shard = tiny_split
    worker = start_worker(shard)
    codes = {code.value for code in ErrorCode}
    good_prompt = prompts(1, 16, seed=9)[0]
    outcome: dict = {}

    def well_behaved() -> None:
        async def run():
            session, _ = await open_split_session(source, SPLIT, worker.endpoint, worker.token, mode="lookahead")
            outcome["tokens"] = (await session.generate(good_prompt, 48)).tokens
            await session.close()

        asyncio.run(run())

    headers = {"Authorization": f"Bearer {worker.token}"}
    connections = contextlib.ExitStack()

    def dial():
        ws = connections.enter_context(sync_connect(worker.endpoint, additional_headers=headers, max_size=None))
        ws.recv()  # hello
        return ws

    link = {"ws": dial()}
    rss_before = process_memory_mib(worker.pid)["rss"]
    alongside = threading.Thread(target=well_behaved)
    alongside.start()
    seen: dict[str, int] = {}

    @settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    @given(MESSAGES)
    @example(b"\x00" * (DEFAULT_MAX_FRAME + 1))  # over the frame limit
    @example(_header_frame({"v": PROTOCOL_VERSION, "type": "forward", "session": "x", "shape": [2**40, 64]}))
    @example(encode_frame({"type": "open"}))  # a legitimate request mixed in
    def throw(message) -> None:
        try:
            link["ws"].send(message)
            reply = decode_frame(link["ws"].recv(timeout=30))
        except ConnectionClosed:
            # A clean close is an allowed answer to garbage; carry on over a new connection.
            link["ws"] = dial()
            seen["closed"] = seen.get("closed", 0) + 1
            return
        assert reply.type in ("error", "opened", "closed", "result"), reply.header
        if reply.type == "error":
            assert reply.header["code"] in codes and isinstance(reply.header["message"], str)
            seen[reply.header["code"]] = seen.get(reply.header["code"], 0) + 1

    throw()
    alongside.join(timeout=300)
    connections.close()
    print("replies to fuzzed frames:", seen)
    assert worker.alive()
    assert outcome["tokens"] == reference_greedy(model, good_prompt, 48)
    assert process_memory_mib(worker.pid)["rss"] - rss_before < 150  # no allocation followed a declared size
    assert {"malformed", "frame_too_large"} <= set(seen)
    assert "internal" not in seen, seen  # every refusal is a typed one, not a caught crash
