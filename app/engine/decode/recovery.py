"""Recovery from a lost worker: a fresh worker session, the conversation read again, the step repeated.

A worker session can be lost between any two blocks: expired or evicted (``unknown_session``), or the
worker died or the link was cut mid-frame (``connection_lost``). Nothing committed is lost with it, since
``processed`` says what every cache held: a fresh session given those tokens again is the same
conversation, so greedy output equals an uninterrupted run's. This is kept apart from the decode loop (as
Petals keeps it in its inference session, not its generation loop) so that the loop reads as its steps,
and every path that can lose the worker — a decode step, a prefill, a prefill while typing, the LongRoPE
recompute — recovers in the same way.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Protocol, TypeVar

from app.engine.link.link_codes import LinkErrorCode
from app.engine.link.middle import Middle
from app.wire.frames import ErrorCode

# Worker error codes after which a fresh session and a re-prefill carry on with nothing lost.
RECOVERABLE = frozenset({ErrorCode.UNKNOWN_SESSION, LinkErrorCode.CONNECTION_LOST})

T = TypeVar("T")


class Recoverable(Protocol):
    """What recovery needs of the session it carries over a lost worker."""

    processed: list[int]  # the committed tokens: what a fresh worker session must be given again

    @property
    def pending_keep(self) -> tuple[int, list[int]] | None: ...

    def start_afresh(self, middle: Middle | None = None) -> None: ...

    async def reread(
        self,
        tokens: list[int],
        should_stop: Callable[[], bool] | None = None,
        on_reading: Callable[[int, int], None] | None = None,
    ) -> None: ...


class WorkerRecovery:
    """Runs a session's blocks so that a lost worker session costs a reconnect and a re-read, not the answer."""

    def __init__(self, session: Recoverable, reconnect: Callable[[], Awaitable[Middle]] | None = None):
        self._session = session
        # Opens a fresh worker session (with its own retries); None: a lost session is an error.
        self.reconnect = reconnect
        self.notice: Callable[[str], None] | None = None  # "reconnecting…" for a status bar

    async def run(
        self,
        step: Awaitable[T],
        keep_committed: bool = True,
        should_stop: Callable[[], bool] | None = None,
        on_reading: Callable[[int, int], None] | None = None,
    ) -> T | None:
        """What ``step`` (a block not yet started) returns; after a lost session or link, None, on a fresh
        session (anything else is raised).

        With ``keep_committed`` what was committed before the loss is read again first, so the caller can
        repeat its step; without, the caller starts over (a prefill runs its whole prompt again anyway).
        ``should_stop`` and ``on_reading`` are the re-read's, as for a first read.
        """
        try:
            return await step
        except Exception as exc:
            committed = list(self._session.processed)
            await self._recover_or_raise(exc)
            if keep_committed:
                await self.refill(committed, should_stop, on_reading)
            return None

    async def refill(
        self,
        committed: list[int],
        should_stop: Callable[[], bool] | None = None,
        on_reading: Callable[[int, int], None] | None = None,
    ) -> None:
        """Put ``committed`` into every cache again from its first token, recovering from a loss on the way
        (with ``should_stop``, as much of it as went before it said stop: ``processed`` says how much)."""
        while committed:
            try:
                await self._session.reread(committed, should_stop, on_reading)
                return
            except Exception as exc:
                await self._recover_or_raise(exc)

    async def reset_worker(self) -> None:
        """Leave the worker nothing of this conversation: its session closed and a fresh one opened (or,
        without a way to reconnect, every cache emptied by the next block)."""
        self._session.start_afresh(await self.reconnect() if self.reconnect is not None else None)

    async def _recover_or_raise(self, error: Exception) -> None:
        """After a lost session or link, move to a fresh session; re-raise anything else."""
        if getattr(error, "code", None) not in RECOVERABLE or self.reconnect is None:
            if self._session.pending_keep is not None and not getattr(error, "refused", False):
                await self._forget_the_workers_side()
            raise error
        if self.notice:
            self.notice(f"Worker session lost ({error.code}); reconnecting…")
        self._session.start_afresh(await self.reconnect())
        if self.notice:
            self.notice("Reconnected to a new worker session; it reads the conversation again before going on.")

    async def _forget_the_workers_side(self) -> None:
        """A request carrying the last commit failed after the worker may have applied it (an internal error in
        its pass, a reply that could not be read): sent again it would be refused on every later request, and
        not sent, the worker might hold rejected rows. So its side starts afresh and the next request re-sends
        the conversation."""
        try:
            await self.reset_worker()
        except Exception:  # no fresh session to be had now: the next request crops the old one to nothing
            self._session.start_afresh()
