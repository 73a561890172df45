"""A security review's attacks on the worker, over real sockets: one session fed by several connections at
once, a flood of short blocks starving a long prefill, a tree larger than the pass the worker announces."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

import pytest
import torch
from websockets.asyncio.client import ClientConnection, connect

from app.engine.link.link_codes import WorkerError
from app.model.kv_cache import CacheEdit
from app.remote_worker.server import WorkerServer, compute_thread
from app.remote_worker.shard import load_shard
from app.remote_worker.tokens import TokenFile
from app.wire.frames import DEFAULT_MAX_FRAME, ErrorCode, Frame, decode_frame, encode_frame, tensor_to_bytes
from app.wire.messages import ForwardRequest, OpenRequest
from app.wire.worker_tokens import issue_token, token_hash
from tests.helpers import open_split_session, reference_greedy
from tests.integration.conftest import TINY_SPLIT as SPLIT

HIDDEN = 64  # the tiny Llama's
BUDGET_MB = 0.125  # the tiny middle holds 1 KiB a position: 128 positions
ATTACKERS = 16  # connections flooding short blocks


@contextlib.asynccontextmanager
async def in_process_worker(shard_folder, tmp_path, **options) -> AsyncIterator[tuple[WorkerServer, str, str]]:
    """The real server on a loopback socket in this event loop (so a test can read its session table)."""
    token = issue_token(tmp_path / "tokens.txt")
    compute = compute_thread()
    shard = await asyncio.get_running_loop().run_in_executor(compute, load_shard, shard_folder)
    worker = WorkerServer(shard, TokenFile(tmp_path / "tokens.txt"), DEFAULT_MAX_FRAME, compute=compute, **options)
    listener = await worker.start("127.0.0.1", 0)
    try:
        yield worker, f"ws://127.0.0.1:{listener.sockets[0].getsockname()[1]}", token
    finally:
        listener.close()
        await listener.wait_closed()
        if worker.batcher._serving is not None:
            worker.batcher._serving.cancel()
        worker.close()


async def dial(endpoint: str, token: str) -> tuple[ClientConnection, dict]:
    """A raw client: connected, authenticated, its hello read."""
    ws = await connect(endpoint, additional_headers={"Authorization": f"Bearer {token}"}, max_size=None)
    return ws, decode_frame(await ws.recv()).header


async def ask(ws: ClientConnection, frame: bytes, timeout: float = 30.0) -> Frame:
    await ws.send(frame)
    return decode_frame(await asyncio.wait_for(ws.recv(), timeout))


async def open_session(ws: ClientConnection) -> str:
    reply = await ask(ws, encode_frame(OpenRequest().to_header(0)))
    assert reply.type == "opened", reply.header
    return reply.header["session"]


def forward(
    session: str, rows: int, pos: int = 0, seq: int = 1, tree: bool = False, crop: int | None = None, seed: int = 0
) -> bytes:
    """A forward frame of ``rows`` random hidden states: causal, or (``tree``) a chain sent with its ancestry."""
    ancestry = torch.ones(rows, rows, dtype=torch.bool).tril() if tree else None
    request = ForwardRequest(
        session, [rows, HIDDEN], "float32", list(range(pos, pos + rows)), ancestry, CacheEdit(crop=crop)
    )
    hidden = torch.randn(rows, HIDDEN, generator=torch.Generator().manual_seed(seed))
    return encode_frame(request.to_header(seq), tensor_to_bytes(hidden, "float32"))


@pytest.fixture
def single_threaded(monkeypatch):
    """Workers started by the test compute on one thread: the tiny model gains nothing from two, and on a
    machine other work keeps busy, two OpenMP threads waiting on each other made a 256-row pass 20-70x
    slower (8 ms against 150-650 ms)."""
    monkeypatch.setenv("OMP_NUM_THREADS", "1")


def rows_of(reply: Frame) -> torch.Tensor:
    return torch.frombuffer(bytearray(reply.payload), dtype=torch.float32).reshape(reply.header["shape"])


# -- Finding 2: one session, several connections, one KV account ---------------------------------------------
@pytest.mark.parametrize("budget", ["kv_budget_mb", "kv_budget_per_token_mb"])
async def test_connections_feeding_one_session_at_once_stay_within_its_kv_budget(tiny_split, tmp_path, budget):
    """Four connections push 48-row blocks into one session at once, five each, under a 128-position budget.
    Each was charged for the cache as it stood before any of them ran, and the first to finish released
    the others' reservation: the session held 192 positions. Now they run one at a time, each charged for
    what the one before left, and what does not fit is refused with memory_limit."""
    _, _, shard = tiny_split
    async with in_process_worker(shard, tmp_path, **{budget: BUDGET_MB}) as (worker, endpoint, token):
        limit = int(BUDGET_MB * (1 << 20))
        per_position = worker.sessions.bytes_per_position
        links = [(await dial(endpoint, token))[0] for _ in range(4)]
        session_id = await open_session(links[0])
        session = worker.sessions.get(session_id, token_hash(token))
        held: list[int] = []  # bytes the session's buffers hold, and all sessions are charged, as it goes
        attacking = True

        async def watch() -> None:
            while attacking:
                held.extend([session.cache.capacity * per_position, worker.sessions.used_bytes()])
                await asyncio.sleep(0.0005)

        async def push(ws: ClientConnection, link: int) -> list[Frame]:
            replies = []
            for block in range(5):
                replies.append(await ask(ws, forward(session_id, 48, seq=block, seed=10 * link + block)))
                held.append(session.cache.capacity * per_position)
            return replies

        watcher = asyncio.ensure_future(watch())
        replies = [r for rs in await asyncio.gather(*(push(ws, i) for i, ws in enumerate(links))) for r in rs]
        attacking = False
        await watcher
        results = [r for r in replies if r.type == "result"]
        refusals = [r.header["code"] for r in replies if r.type == "error"]
        assert max(held) <= limit, f"the session held {max(held) / limit:.2f}x its budget"
        assert max(r.header["cache_len"] for r in results) <= limit // per_position
        assert results and refusals and set(refusals) == {ErrorCode.MEMORY_LIMIT.value}, refusals
        # Refused before anything changed: the session goes on, from where its last accepted block left it.
        again = await ask(links[1], forward(session_id, 16, seq=9, crop=0))
        assert again.type == "result" and again.header["cache_len"] == 16
        await asyncio.gather(*(ws.close() for ws in links))


# -- Finding 3: a long prefill beside a flood of short blocks ------------------------------------------------
async def test_a_long_prefill_beside_a_flood_of_short_blocks_finishes_in_bounded_passes(
    tiny_split, single_threaded, start_worker
):
    """Connections each keep a 64-row block queued (a quarter of a 256-row pass: "short"), so short blocks
    alone fill every pass; a 448-row prefill used never to be planned (eight of them on the bundled model
    left it unfinished after 75 s; the tiny model's passes are so short that it takes sixteen to keep four
    passes' worth queued). Now it ages until it goes first: it finishes within a bounded number of passes,
    as computed alone, and a good session decoding beside the attack gets the tokens it gets alone."""
    source, model, shard = tiny_split
    worker = start_worker(shard, extra_args=("--max-sessions-per-token", str(ATTACKERS + 2)))  # 256-row passes
    prompt = [(7 * i) % 300 + 1 for i in range(12)]
    good, _ = await open_split_session(source, SPLIT, worker.endpoint, worker.token, mode="sequential")
    solo = (await good.generate(prompt, 16)).tokens
    prefiller, hello = await dial(worker.endpoint, worker.token)
    assert hello["max_pass_rows"] == 256
    long_session = await open_session(prefiller)
    alone = await ask(prefiller, forward(long_session, 448, seed=99))
    assert alone.type == "result", alone.header

    attackers = [(await dial(worker.endpoint, worker.token))[0] for _ in range(ATTACKERS)]
    sessions = [await open_session(ws) for ws in attackers]
    passes: list[int] = []
    stop = asyncio.Event()

    async def flood(ws: ClientConnection, session: str) -> None:
        # One frame sent ahead: the worker reads it the moment it has answered the one before, so this
        # connection's next block is queued again before the next pass is planned.
        block = forward(session, 64, crop=0)
        for _ in range(2):
            await ws.send(block)
        outstanding = 2
        while outstanding:
            reply = decode_frame(await asyncio.wait_for(ws.recv(), 30))
            assert reply.type == "result", reply.header
            passes.append(reply.header["pass"])
            outstanding -= 1
            if not stop.is_set():
                await ws.send(block)
                outstanding += 1

    floods = [asyncio.ensure_future(flood(ws, s)) for ws, s in zip(attackers, sessions, strict=True)]
    try:
        while len(passes) < 24:  # the flood has filled passes for a while
            await asyncio.sleep(0.01)
        start = max(passes)
        attacked = asyncio.ensure_future(ask(prefiller, forward(long_session, 448, seed=99, crop=0), timeout=20))
        beside = (await good.generate(prompt, 16)).tokens
        try:
            under_attack = await attacked
        except TimeoutError:
            pytest.fail(f"the 448-row prefill was not done 20 s after it was sent ({max(passes) - start} passes)")
    finally:
        stop.set()
        await asyncio.gather(*floods, return_exceptions=True)
    assert under_attack.type == "result", under_attack.header
    waited = under_attack.header["pass"] - start
    print(f"the 448-row prefill finished {waited} passes after it was sent")
    assert waited <= 40  # 448 rows in chunks of at least 128, each after at most a few passes out
    torch.testing.assert_close(rows_of(under_attack), rows_of(alone), rtol=1e-5, atol=1e-5)
    assert beside == solo == reference_greedy(model, prompt, 16)
    await asyncio.gather(*(ws.close() for ws in [*attackers, prefiller]))
    await good.close()


# -- Finding 4: a tree over the announced pass ---------------------------------------------------------------
NARROW = 12  # rows a pass: lookahead's window alone is 15


@pytest.fixture(scope="module")
def narrow_worker(tiny_split):
    """A worker announcing passes of NARROW rows (computing on one thread, as ``single_threaded`` says)."""
    from app.engine.link.local_worker import LocalWorker

    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("OMP_NUM_THREADS", "1")
        worker = LocalWorker(tiny_split[2], extra_args=("--max-pass-rows", str(NARROW)))
        worker.start()
    yield worker
    worker.stop()


async def test_a_tree_larger_than_a_pass_is_refused_and_the_session_goes_on(narrow_worker):
    """A tree is never cut, so one larger than a pass ran as one pass over the limit (600 rows under 256
    held a good session's step from 67 ms to 3.1 s). Now it is refused with block_too_large before anything
    changed — its crop was not applied — and the same connection and session go on, a tree of the limit
    included."""
    ws, hello = await dial(narrow_worker.endpoint, narrow_worker.token)
    assert hello["max_pass_rows"] == NARROW
    session = await open_session(ws)
    assert (await ask(ws, forward(session, 10, seq=1))).header["cache_len"] == 10
    refused = await ask(ws, forward(session, NARROW + 8, pos=10, seq=2, tree=True, crop=5))
    assert refused.type == "error" and refused.header["seq"] == 2, refused.header
    assert refused.header["code"] == ErrorCode.BLOCK_TOO_LARGE.value and str(NARROW) in refused.header["message"]
    largest = await ask(ws, forward(session, NARROW, pos=10, seq=3, tree=True))
    assert largest.type == "result", largest.header
    assert largest.header["cache_len"] == 10 + NARROW  # the refused request's crop to 5 never happened
    assert largest.header["pass_rows"] <= NARROW
    await ws.close()


@pytest.mark.parametrize("mode", ["lookahead", "auto"])
async def test_the_workstation_never_plans_a_tree_over_the_announced_pass(tiny_split, narrow_worker, mode):
    """Lookahead's window alone is 15 rows: a planner that ignored the hello would send blocks this worker
    refuses. Every block stays within its NARROW rows, and the answer is the unsplit model's."""
    source, model, _ = tiny_split
    session, _ = await open_split_session(source, SPLIT, narrow_worker.endpoint, narrow_worker.token, mode=mode)
    assert session.middle.max_tree_rows == NARROW
    prompt = [(5 * i) % 300 + 1 for i in range(40)] * 2  # repeats: lookup finds matches to draft from
    try:
        generation = await session.generate(prompt, 24)
    except WorkerError as exc:
        pytest.fail(f"the worker refused a planned block: {exc.code}: {exc}")
    finally:
        await session.close()
    assert generation.plans and max(plan.block_size for plan in generation.plans) <= NARROW
    assert generation.tokens == reference_greedy(model, prompt, 24)
