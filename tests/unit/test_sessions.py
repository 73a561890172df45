"""Worker sessions: bound to their token, expired after the idle TTL, capped in number."""

from __future__ import annotations

import time

import pytest
import torch

from app.model.kv_cache import StackCache
from app.remote_worker.sessions import SessionTable
from app.wire.frames import ErrorCode, ProtocolError


def table(ttl_s: float = 60.0, max_sessions: int = 4) -> SessionTable:
    return SessionTable(lambda: StackCache(2), ttl_s, max_sessions)


def test_a_session_is_only_reachable_with_its_owners_token():
    sessions = table()
    session = sessions.open("owner-a")
    assert sessions.get(session.id, "owner-a") is session
    with pytest.raises(ProtocolError) as caught:
        sessions.get(session.id, "owner-b")
    assert caught.value.code == ErrorCode.UNKNOWN_SESSION
    with pytest.raises(ProtocolError):
        sessions.close(session.id, "owner-b")
    assert len(sessions) == 1


def test_idle_sessions_expire_and_used_ones_do_not():
    sessions = table(ttl_s=0.3)
    idle, busy = sessions.open("a"), sessions.open("a")
    for _ in range(4):
        time.sleep(0.1)
        sessions.get(busy.id, "a")
    assert sessions.expire() == 1
    with pytest.raises(ProtocolError) as caught:
        sessions.get(idle.id, "a")
    assert caught.value.code == ErrorCode.UNKNOWN_SESSION
    assert sessions.get(busy.id, "a") is busy


def test_session_ids_are_128_bit_random_and_the_count_is_capped():
    sessions = table(max_sessions=2)
    first, second = sessions.open("a"), sessions.open("a")
    assert len(first.id) == 32 and first.id != second.id
    with pytest.raises(ProtocolError) as caught:
        sessions.open("a")
    assert caught.value.code == ErrorCode.TOO_MANY_SESSIONS


def _fill(session, positions: int) -> None:
    """Give a session's cache ``positions`` real entries (2 layers, 1 head, dim 4)."""
    for layer in range(2):
        keys = torch.zeros(1, 1, positions, 4)
        session.cache.update(keys, keys.clone(), layer)


def test_sessions_per_token_are_capped_separately_from_the_total():
    sessions = SessionTable(lambda: StackCache(2), 60.0, max_sessions=10, max_per_owner=2)
    sessions.open("a"), sessions.open("a")
    with pytest.raises(ProtocolError) as caught:
        sessions.open("a")
    assert caught.value.code == ErrorCode.TOO_MANY_SESSIONS and "this token" in caught.value.message
    sessions.open("b")  # another tenant is not affected


def test_kv_budget_evicts_the_least_recently_used_other_sessions_first():
    sessions = SessionTable(lambda: StackCache(2), 60.0, 10, bytes_per_position=100, kv_budget=20_000)
    old, recent, mine = sessions.open("a"), sessions.open("b"), sessions.open("c")
    _fill(old, 40)  # buffers for 64 positions: 6,400 bytes charged, whatever the length
    _fill(recent, 40)
    time.sleep(0.01)
    sessions.get(recent.id, "b")  # used more recently than `old`
    sessions.make_room(mine, 20)  # 12,800 + 6,400 fits: nobody goes
    sessions.release(mine)
    assert len(sessions) == 3
    sessions.make_room(mine, 100)  # 12,800 + 10,000 does not: the LRU other session goes, only it
    sessions.release(mine)
    assert len(sessions) == 2 and sessions.evicted == 1
    with pytest.raises(ProtocolError) as caught:
        sessions.get(old.id, "a")
    assert caught.value.code == ErrorCode.UNKNOWN_SESSION  # its client will re-prefill
    assert sessions.get(recent.id, "b") is recent
    with pytest.raises(ProtocolError) as too_big:
        sessions.make_room(mine, 201)  # alone over the whole budget: refused, nobody evicted for nothing
    assert too_big.value.code == ErrorCode.MEMORY_LIMIT and len(sessions) == 2


def test_kv_budget_per_token_is_a_typed_refusal():
    sessions = SessionTable(lambda: StackCache(2), 60.0, 10, bytes_per_position=100, kv_budget_per_owner=13_000)
    first, second = sessions.open("a"), sessions.open("a")
    _fill(first, 30)  # 64 positions of buffers
    sessions.make_room(second, 50)  # 6,400 + 6,400 fits the token's share
    sessions.release(second)
    assert sessions.get(first.id, "a") is first
    sessions.make_room(second, 65)  # 128 positions of buffers, over the share: the token's own idle session gives way
    sessions.release(second)
    with pytest.raises(ProtocolError):
        sessions.get(first.id, "a")
    with pytest.raises(ProtocolError) as caught:
        sessions.make_room(second, 131)  # alone over the token's share: refused
    assert caught.value.code == ErrorCode.MEMORY_LIMIT
    other = sessions.open("b")
    sessions.make_room(other, 100)  # the cap is per token


def test_cropping_does_not_hide_what_the_buffers_hold_from_the_budget():
    """Prefill 800, send one more (the buffers double to 1,600), crop back, repeat in new sessions: the
    budget once saw a handful of positions while the buffers held 12 times its size."""
    per_position = 2 * 2 * 4 * 4  # K and V, 2 layers, 4 floats of 4 bytes (what _fill writes)
    budget = 2_000 * per_position
    sessions = SessionTable(lambda: StackCache(2), 60.0, 100, bytes_per_position=per_position, kv_budget=budget)
    for _ in range(15):
        session = sessions.open("attacker")
        for block in (800, 1):
            sessions.make_room(session, session.cache.length + block)
            _fill(session, block)
            sessions.release(session)
        session.cache.crop(1)
    held = sum(
        tensor.nbytes
        for live in sessions._sessions.values()
        for tensor in [*live.cache._keys, *live.cache._values]
        if tensor is not None
    )
    assert held <= budget, f"{held / budget:.1f}x the budget held"


def test_requests_in_flight_hold_their_reservation():
    sessions = SessionTable(lambda: StackCache(2), 60.0, 10, bytes_per_position=100, kv_budget_per_owner=84_000)
    first, second, third = (sessions.open("a") for _ in range(3))
    sessions.make_room(first, 800)  # three 800-position blocks at once under an 840-position budget
    with pytest.raises(ProtocolError) as caught:
        sessions.make_room(second, 800)
    assert caught.value.code == ErrorCode.MEMORY_LIMIT
    sessions.release(first)  # done, and never grew: its reservation is returned
    sessions.make_room(third, 800)


def test_at_the_budget_a_token_evicts_its_own_sessions_before_anyone_elses():
    sessions = SessionTable(lambda: StackCache(2), 60.0, 10, bytes_per_position=100, kv_budget=19_000)
    theirs, mine_old, mine_new = sessions.open("a"), sessions.open("b"), sessions.open("b")
    _fill(theirs, 63)  # 64 positions of buffers each
    time.sleep(0.01)
    _fill(mine_old, 63)
    sessions.make_room(mine_new, 63)  # full: b's own older session goes, though a's is older still
    assert sessions.get(theirs.id, "a") is theirs
    with pytest.raises(ProtocolError):
        sessions.get(mine_old.id, "b")
