"""The worker's per-pass limits and the accounts behind them: one session's requests as one KV account, blocks
that age until they are planned, trees within the announced pass on both ends."""

from __future__ import annotations

import asyncio
import random

import pytest
import torch

from app.engine.speculation.controller import Controller
from app.engine.speculation.tree import DraftTree, Verdict
from app.model.kv_cache import CacheEdit, StackCache
from app.remote_worker.batcher import Batcher, Job
from app.remote_worker.pass_policy import SLACK_PASSES
from app.remote_worker.sessions import SessionTable
from app.wire.frames import ErrorCode, ProtocolError, pack_ancestry
from app.wire.messages import ForwardRequest, Hello

HIDDEN = 4


# -- one session, one account ----------------------------------------------------------------------------------
def _fill(session, positions: int) -> None:
    """Give a session's cache ``positions`` more entries (2 layers, 1 head, dim 4)."""
    for layer in range(2):
        keys = torch.zeros(1, 1, positions, 4)
        session.cache.update(keys, keys.clone(), layer)


def test_a_sessions_requests_are_charged_one_after_another_from_the_cache_they_leave():
    """Three 48-row requests of one session at once under a 128-position budget: each is charged once the
    one before is done, for the cache it left, so the third is refused and the buffers never pass 128."""
    sessions = SessionTable(lambda: StackCache(2), 60.0, 10, bytes_per_position=100, kv_budget_per_owner=12_800)
    session = sessions.open("a")
    order: list[str] = []

    async def request(name: str) -> None:
        async with sessions.serving(session, CacheEdit(), 48):
            order.append(f"{name} in")
            assert session.reserved >= session.cache.length + 48  # its own reservation, nobody else's
            await asyncio.sleep(0.01)  # in the batcher: a later request of the session waits its turn
            _fill(session, 48)
            order.append(f"{name} out")

    async def scenario():
        return await asyncio.gather(*(request(n) for n in "abc"), return_exceptions=True)

    outcomes = asyncio.run(scenario())
    assert order == ["a in", "a out", "b in", "b out"]
    assert isinstance(outcomes[2], ProtocolError) and outcomes[2].code == ErrorCode.MEMORY_LIMIT
    assert session.cache.length == 96 and session.cache.capacity <= 128
    assert session.reserved == 0  # released: charged for what the buffers hold


def test_a_request_that_waited_for_a_session_evicted_meanwhile_is_unknown_session():
    sessions = SessionTable(lambda: StackCache(2), 60.0, 10, bytes_per_position=100)
    session = sessions.open("a")

    async def scenario():
        async def first():
            async with sessions.serving(session, CacheEdit(), 1):
                await asyncio.sleep(0.01)
                sessions.close(session.id, "a")

        async def second():
            async with sessions.serving(session, CacheEdit(), 1):
                pass

        return await asyncio.gather(first(), second(), return_exceptions=True)

    _, waited = asyncio.run(scenario())
    assert isinstance(waited, ProtocolError) and waited.code == ErrorCode.UNKNOWN_SESSION


def test_a_request_that_needs_no_more_memory_still_keeps_its_session_from_eviction():
    sessions = SessionTable(lambda: StackCache(2), 60.0, 10, bytes_per_position=100, kv_budget=12_800)
    busy, other = sessions.open("a"), sessions.open("b")
    _fill(busy, 10)  # buffers of 64
    sessions.make_room(busy, 20)  # fits what it holds: nothing reserved beyond, but it is in flight
    sessions.make_room(other, 63)  # the budget is full: the busy session must not be the one to go
    with pytest.raises(ProtocolError) as caught:
        sessions.make_room(other, 64)  # buffers of 128
    assert caught.value.code == ErrorCode.MEMORY_LIMIT and len(sessions) == 2


# -- ageing in the planner ---------------------------------------------------------------------------------------
def _job(rows: int, tree: bool = False) -> Job:
    ancestry = torch.ones(rows, rows, dtype=torch.bool).tril() if tree else None
    request = ForwardRequest("s", [rows, HIDDEN], "float32", list(range(rows)), ancestry)
    return Job(StackCache(1), request, torch.zeros(rows, HIDDEN), "float32", 4096)


def _run_plan(batcher: Batcher) -> list[tuple[Job, int]]:
    """One pass as the batcher's loop runs it, without the layers: (job, rows) planned; cut jobs re-queued."""
    planned = batcher.plan()
    for chunk in planned:
        chunk.job.done = chunk.end
        if chunk.job.left:
            batcher.enqueue(chunk.job)
    return [(chunk.job, chunk.end - chunk.start) for chunk in planned]


def test_short_blocks_that_fill_every_pass_no_longer_starve_a_long_prefill():
    """Eight clients each keep a 64-row block queued (four fill a 256-row pass), one session decodes: the
    448-row prefill used to wait for ever. Its deadline comes, it goes first, and the decode row rides in
    every pass all the same."""
    batcher = Batcher(None, None, max_pass_rows=256)  # planning only: no layers, no thread
    prefill = _job(448)
    for job in [_job(64) for _ in range(8)] + [prefill]:
        batcher.enqueue(job)
    passes = 0
    while prefill.left:
        passes += 1
        assert passes <= 16, "the prefill is starved"
        decode = _job(1)
        batcher.enqueue(decode)
        planned = _run_plan(batcher)
        assert decode in [job for job, _ in planned]
        assert sum(rows for _, rows in planned) >= 255  # no pass is left part empty for it
        for job, _ in planned:
            if job is not prefill and job is not decode and not job.left:
                batcher.enqueue(_job(64))  # the attacker sends its next block at once


def test_a_prefill_cut_to_fill_a_pass_leaves_room_for_a_decoding_session():
    """Five clients send 900-row blocks in a loop beside one decoding session: the decode row rides in every
    pass, and every pass is full."""
    batcher = Batcher(None, None, max_pass_rows=256)
    for _ in range(5):
        batcher.enqueue(_job(900))
    for _ in range(12):
        decode = _job(1)
        batcher.enqueue(decode)
        planned = _run_plan(batcher)
        assert decode in [job for job, _ in planned]
        assert sum(rows for _, rows in planned) == 256
        for job, _ in planned:
            if job is not decode and not job.left:
                batcher.enqueue(_job(900))


def test_every_pass_serves_the_most_overdue_block_and_nothing_waits_unboundedly():
    """Random arrivals of decode rows, trees up to a pass and prefills. Every pass holds the block with the
    earliest deadline, which then finishes or goes back at least three passes (it got at least 3/4 of the
    pass); a new block's deadline is never before now. Together: every block's turn comes."""
    rng = random.Random(7)
    batcher = Batcher(None, None, max_pass_rows=64)
    out_of: dict[int, int] = {}  # passes in a row each job was left out of
    passes = 0
    for _ in range(400):
        for _ in range(rng.choice([0, 0, 1, 2, 3])):
            tree = rng.random() < 0.3
            job = _job(rng.randint(2, 64) if tree else rng.choice([1, 1, 8, 30, 200]), tree)
            batcher.enqueue(job)
            assert job.deadline >= passes
        queued = list(batcher._queue)
        if not queued:
            continue
        passes += 1
        head = min(queued, key=lambda job: job.deadline)
        before = head.deadline
        planned = {id(job) for job, _ in _run_plan(batcher)}
        assert id(head) in planned
        assert not head.left or head.deadline >= before + 0.75 * SLACK_PASSES
        for job in queued:
            out_of[id(job)] = 0 if id(job) in planned else out_of.get(id(job), 0) + 1
    assert max(out_of.values()) <= 2 * SLACK_PASSES, max(out_of.values())


def test_a_tree_larger_than_a_pass_is_refused_by_the_batcher_too():
    batcher = Batcher(None, None, max_pass_rows=16)
    with pytest.raises(ProtocolError) as caught:
        asyncio.run(batcher.run(_job(17, tree=True)))
    assert caught.value.code == ErrorCode.BLOCK_TOO_LARGE


# -- trees within the announced pass -----------------------------------------------------------------------------
def _header(rows: int, ancestry: str | None) -> dict:
    header = {"v": 1, "type": "forward", "seq": 1, "session": "s", "shape": [rows, 64], "dtype": "float32", "pos": 0}
    return header if ancestry is None else {**header, "ancestry": ancestry}


def test_a_tree_over_the_pass_is_refused_before_its_ancestry_is_unpacked():
    with pytest.raises(ProtocolError) as caught:
        ForwardRequest.from_header(_header(600, "not even base64"), max_rows=2048, max_tree_rows=256)
    assert caught.value.code == ErrorCode.BLOCK_TOO_LARGE and "256" in caught.value.message
    assert ForwardRequest.from_header(_header(600, None), 2048, 256).shape == [600, 64]  # causal: cut into chunks
    chain = pack_ancestry(torch.ones(256, 256, dtype=torch.bool).tril())
    assert ForwardRequest.from_header(_header(256, chain), 2048, 256).ancestry.shape == (256, 256)


def _hello(**fields) -> dict:
    base = dict(
        fingerprint="f", first_layer=1, last_layer=3, num_layers=4, hidden_size=64, model_type="llama",
        compute_dtype="float32", max_frame=1 << 20, session_ttl_s=60.0, max_context=512,
    )  # fmt: skip
    return {"type": "hello", **base, **fields}


def test_the_tree_limit_a_hello_announces():
    assert Hello.from_header(_hello(max_block=2048, max_pass_rows=256)).max_tree_rows == 256
    assert Hello.from_header(_hello(max_block=100, max_pass_rows=256)).max_tree_rows == 100
    assert Hello.from_header(_hello(max_block=512)).max_tree_rows == 512  # an older worker: its max_block


def _chain(length: int) -> DraftTree:
    tree = DraftTree.rooted_at(0)
    tree.add_path(list(range(1, length + 1)), "lookup4")
    return tree


def _eager(controller: Controller) -> None:
    """Train a controller on a long link and drafts that are always right: it wants the biggest tree."""
    for q in (1, 9, 1, 17, 1, 33) * 4:
        tree = _chain(q - 1)
        controller.observe_step(q, 40.0 + 0.1 * q, 150.0, tree, Verdict(list(range(q)), bonus=0))


@pytest.mark.parametrize("mode", ["lookup", "lookahead", "learned", "auto"])
@pytest.mark.parametrize("max_rows", [1, 2, 8, 15, 16, 40, 256])
def test_the_planner_never_exceeds_the_rows_the_worker_announces(mode, max_rows):
    controller = Controller(mode, max_nodes=48, window_size=15)
    _eager(controller)
    controller.head.explore = True  # auto's exploring chain is capped too
    for _ in range(3):
        plan = controller.plan(_chain(60), max_rows)
        assert plan.block_size <= max_rows and len(plan.tree) + (15 if plan.window else 0) == plan.block_size
    unlimited = controller.plan(_chain(60))
    assert unlimited.block_size > 16  # without a limit this controller plans big blocks: the cap is what held
