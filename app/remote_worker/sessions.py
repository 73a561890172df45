"""Per-session KV caches on the worker, each bound to the token that opened it, with an idle TTL."""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from app.engine.kv_cache import StackCache
from app.protocol import ErrorCode, ProtocolError


@dataclass
class Session:
    id: str
    owner: str  # hash of the token that opened it
    cache: StackCache
    last_used: float = field(default_factory=time.monotonic)


class SessionTable:
    """Open sessions; an id is only ever usable with the token that opened it."""

    def __init__(self, new_cache: Callable[[], StackCache], ttl_s: float, max_sessions: int):
        self._new_cache = new_cache
        self.ttl_s = ttl_s
        self.max_sessions = max_sessions
        self._sessions: dict[str, Session] = {}

    def __len__(self) -> int:
        return len(self._sessions)

    def open(self, owner: str) -> Session:
        self.expire()
        if len(self._sessions) >= self.max_sessions:
            raise ProtocolError(
                ErrorCode.TOO_MANY_SESSIONS, f"the worker holds its limit of {self.max_sessions} sessions"
            )
        session = Session(id=secrets.token_hex(16), owner=owner, cache=self._new_cache())
        self._sessions[session.id] = session
        return session

    def get(self, session_id: str, owner: str) -> Session:
        """The caller's live session; another token's session looks exactly like an unknown one."""
        session = self._sessions.get(session_id)
        now = time.monotonic()
        if session is not None and now - session.last_used > self.ttl_s:
            del self._sessions[session_id]
            session = None
        if session is None or session.owner != owner:
            raise ProtocolError(ErrorCode.UNKNOWN_SESSION, "no such session (expired or never opened): re-prefill")
        session.last_used = now
        return session

    def close(self, session_id: str, owner: str) -> None:
        self.get(session_id, owner)
        del self._sessions[session_id]

    def expire(self) -> int:
        """Drop sessions idle past the TTL; return how many."""
        now = time.monotonic()
        stale = [sid for sid, s in self._sessions.items() if now - s.last_used > self.ttl_s]
        for sid in stale:
            del self._sessions[sid]
        return len(stale)
