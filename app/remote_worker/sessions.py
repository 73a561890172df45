"""Per-session KV caches on the worker, each bound to the token that opened it, with an idle TTL.

Limits: sessions per token and in all; KV memory per token and in all. Memory is charged as what the
buffers hold — their capacity, which doubles as a cache grows and is not given back by a crop short of
zero — and a request in flight holds its reservation until it is done, so neither cropping nor
sending blocks in parallel gets past the budget. When a block would go over the total, the least
recently used *other* sessions of the same token are evicted first, then other tokens' — their
clients re-prefill — and only a block that cannot fit even then is refused.

A session's requests are one account: they run one at a time (``SessionTable.serving``), each charged
for the cache as the request before it left it. Several connections feeding one session at once were
each charged for the cache as it stood before any of them ran (a stale length: four of them held 2.1×
the budget), a request that needed no more than another's reservation reserved nothing, and the first
to finish released the reservation the others still relied on.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field

from app.model.kv_cache import CacheEdit, StackCache
from app.wire.frames import ErrorCode, ProtocolError


@dataclass
class Session:
    id: str
    owner: str  # hash of the token that opened it
    cache: StackCache
    last_used: float = field(default_factory=time.monotonic)
    reserved: int = 0  # capacity promised to the request in flight (positions); 0: none in flight
    # Held by the session's one request in flight; the next waits here, whichever connection it came on.
    turn: asyncio.Lock = field(default_factory=asyncio.Lock, repr=False, compare=False)

    @property
    def charged(self) -> int:
        """Positions of memory this session is charged for: what it holds, or what it was promised."""
        return max(self.cache.capacity, self.reserved)


class SessionTable:
    """Open sessions; an id is only ever usable with the token that opened it."""

    def __init__(
        self,
        new_cache: Callable[[], StackCache],
        ttl_s: float,
        max_sessions: int,
        max_per_owner: int | None = None,
        bytes_per_position: int = 0,
        kv_budget: int | None = None,
        kv_budget_per_owner: int | None = None,
    ):
        self._new_cache = new_cache
        self.ttl_s = ttl_s
        self.max_sessions = max_sessions
        self.max_per_owner = max_per_owner or max_sessions
        self.bytes_per_position = bytes_per_position
        self.kv_budget = kv_budget
        self.kv_budget_per_owner = kv_budget_per_owner
        self._sessions: dict[str, Session] = {}
        self.evicted = 0

    def __len__(self) -> int:
        return len(self._sessions)

    def open(self, owner: str) -> Session:
        self.expire()
        if len(self._sessions) >= self.max_sessions:
            raise ProtocolError(
                ErrorCode.TOO_MANY_SESSIONS, f"the worker holds its limit of {self.max_sessions} sessions"
            )
        if sum(1 for s in self._sessions.values() if s.owner == owner) >= self.max_per_owner:
            raise ProtocolError(
                ErrorCode.TOO_MANY_SESSIONS, f"this token already holds its limit of {self.max_per_owner} sessions"
            )
        cache = self._new_cache()
        budgets = [b for b in (self.kv_budget, self.kv_budget_per_owner) if b is not None]
        if budgets and self.bytes_per_position:  # doubling must not overshoot what a session may hold
            cache.max_capacity = min(budgets) // self.bytes_per_position
        session = Session(id=secrets.token_hex(16), owner=owner, cache=cache)
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

    def used_bytes(self, owner: str | None = None) -> int:
        return self.bytes_per_position * sum(
            s.charged for s in self._sessions.values() if owner is None or s.owner == owner
        )

    def make_room(self, session: Session, final_length: int) -> None:
        """Reserve what ``session`` needs to hold ``final_length`` positions: evict least recently used
        sessions (the same token's first), or refuse the block. ``release`` ends the reservation."""
        target = session.cache.capacity_for(final_length)
        grow = self.bytes_per_position * (target - session.charged)
        if grow <= 0:
            session.reserved = session.charged  # nothing to add, but in flight: not to be evicted meanwhile
            return
        if self.kv_budget_per_owner is not None:
            own = [s for s in self._sessions.values() if s.owner == session.owner and s is not session]
            own = sorted((s for s in own if not s.reserved), key=lambda s: s.last_used)
            while self.used_bytes(session.owner) + grow > self.kv_budget_per_owner and own:
                self._evict(own.pop(0))  # a token over its share gives up its own idle sessions first
            if self.used_bytes(session.owner) + grow > self.kv_budget_per_owner:
                share = self.kv_budget_per_owner / 2**20
                raise ProtocolError(
                    ErrorCode.MEMORY_LIMIT, f"this token's sessions would hold more than {share:.2f} MiB of KV cache"
                )
        if self.kv_budget is None:
            session.reserved = target
            return
        if self.bytes_per_position * target > self.kv_budget:
            raise ProtocolError(
                ErrorCode.MEMORY_LIMIT, f"one session of {final_length} positions exceeds the worker's KV budget"
            )
        others = sorted(
            (s for s in self._sessions.values() if s is not session and not s.reserved),  # in flight: kept
            key=lambda s: (s.owner != session.owner, s.last_used),
        )
        while self.used_bytes() + grow > self.kv_budget and others:
            self._evict(others.pop(0))
        if self.used_bytes() + grow > self.kv_budget:
            raise ProtocolError(ErrorCode.MEMORY_LIMIT, "the worker's KV budget is held by requests in flight")
        session.reserved = target

    @contextlib.asynccontextmanager
    async def serving(self, session: Session, edit: CacheEdit, rows: int) -> AsyncIterator[None]:
        """Hold ``session``'s turn and the memory a request of ``rows`` after ``edit`` needs, until it is done.

        The reservation is made once the requests before it are done, from the cache as they left it;
        MEMORY_LIMIT if it does not fit, UNKNOWN_SESSION if the session went while the request waited.
        """
        async with session.turn:
            if self._sessions.get(session.id) is not session:
                raise ProtocolError(ErrorCode.UNKNOWN_SESSION, "the session was evicted or closed: re-prefill")
            self.make_room(session, edit.length_after(session.cache.length) + rows)
            try:
                yield
            finally:
                self.release(session)

    def _evict(self, victim: Session) -> None:
        del self._sessions[victim.id]  # its client gets unknown_session and re-prefills
        self.evicted += 1

    def release(self, session: Session) -> None:
        """The request is done: the session is charged for what its buffers now hold."""
        session.reserved = 0

    def expire(self) -> int:
        """Drop sessions idle past the TTL; return how many."""
        now = time.monotonic()
        stale = [sid for sid, s in self._sessions.items() if now - s.last_used > self.ttl_s]
        for sid in stale:
            del self._sessions[sid]
        return len(stale)
