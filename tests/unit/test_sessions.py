"""Worker sessions: bound to their token, expired after the idle TTL, capped in number."""

from __future__ import annotations

import time

import pytest

from app.engine.kv_cache import StackCache
from app.protocol import ErrorCode, ProtocolError
from app.remote_worker.sessions import SessionTable


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
