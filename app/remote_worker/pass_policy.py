"""How big a batched pass may be, and when to start one: a brief wait for sessions about to come back.

A pass holds at most ``DEFAULT_MAX_PASS_ROWS`` rows unless the admin says otherwise (``--max-pass-rows``):
on this project's CPU a pass of 256 rows of the bundled model takes about as long as a user notices,
and a GPU takes far more (raise it there).

Starting a pass the moment the compute thread is free splits sessions that decode in step into groups
that never meet again: the first request to arrive after a pass starts the next one alone, and the
others, arriving a millisecond later, wait a whole pass for it and then form a group of their own.
Every step then costs two passes instead of one. So before a pass the batcher waits for the sessions
answered by the last passes whose round trip back to the worker (their *turnaround*: from their answer
to their next request) has been shorter than the gathering window — on the same machine or a LAN,
a millisecond or two — and not for the others: a workstation a WAN round trip away is never waited
for. The window is a quarter of the last pass's time, at most ``max_gather_ms``, so waiting can cost
a step no more than a fraction of the pass it joins.

Sessions that start together (a morning's first questions, the bench's synchronised start) have no
such history to go by. So while fewer rows wait than the last pass held — a sign that others are
still on their way — the pass also waits until arrivals pause for a moment (``QUIET_SHARE`` of the
window, at most ``QUIET_MAX_S``), again never past the window. A lone session is never held up by it.

Which waiting blocks a pass takes is an age that eventually wins: each block's deadline is fixed when it
arrives (the pass then planned, plus its slack), so a block arriving later never goes before an older
one of its size, and a block past its deadline goes before every block that arrived after it.
"""

from __future__ import annotations

import statistics
from collections import deque

DEFAULT_MAX_PASS_ROWS = 256
# Which blocks a pass takes (batcher.py): earliest deadline first, a block's deadline the pass it came in
# plus a slack that grows with its rows, up to SLACK_PASSES for a pass's worth or more.
SLACK_PASSES = 4.0
SMALL_SHARE = 16  # a block of at most 1/16 of a pass is small (a decode row, a small tree) ...
GUARD_SHARE = 4  # ... and small blocks waiting keep up to 1/4 of every pass for themselves
DEFAULT_MAX_GATHER_MS = 25.0
WINDOW_SHARE = 0.25  # of the last pass's time
FORGET_S = 10.0  # an answered session silent this long is not expected back soon
QUIET_SHARE = 0.25  # of the window: the pause in arrivals that ends a burst
QUIET_MAX_S = 0.005


class Gathering:
    """Per-session turnarounds, and which sessions a pass about to start should wait for."""

    def __init__(self, max_gather_ms: float = DEFAULT_MAX_GATHER_MS):
        self.max_gather_s = max(0.0, max_gather_ms) / 1000
        self._answered_at: dict[str, float] = {}
        self._turnarounds: dict[str, deque[float]] = {}  # seconds, the last few
        self.last_pass_s = 0.0
        self._last_pass_rows = 0
        self._last_arrival = float("-inf")
        self._deadline = float("-inf")
        self._fewer_than_before = False

    def window_s(self) -> float:
        return min(self.max_gather_s, WINDOW_SHARE * self.last_pass_s)

    def pass_done(self, started: float, ended: float, rows: int) -> None:
        self.last_pass_s = ended - started
        self._last_pass_rows = rows

    def begin(self, now: float, queued_rows: int) -> None:
        """A pass could start now with ``queued_rows`` rows: open the gathering window."""
        self._deadline = now + self.window_s()
        self._fewer_than_before = queued_rows < self._last_pass_rows

    def wait_s(self, now: float) -> float:
        """How much longer to wait before starting the pass (0: start it now)."""
        if now >= self._deadline:
            return 0.0
        if self.expected(now):
            return self._deadline - now
        quiet = min(QUIET_MAX_S, QUIET_SHARE * self.window_s())
        if self._fewer_than_before and now - self._last_arrival < quiet:
            return min(self._deadline, self._last_arrival + quiet) - now
        return 0.0

    def arrived(self, session: str, now: float) -> None:
        """A request of ``session`` arrived: learn how long it took to come back."""
        self._last_arrival = now
        answered = self._answered_at.pop(session, None)
        if answered is None:
            return
        # The median of the last few: one long pause (the user reading, a slow first step) must not
        # make a session that usually returns at once look like one a WAN away, nor the reverse.
        self._turnarounds.setdefault(session, deque(maxlen=5)).append(now - answered)

    def turnaround(self, session: str) -> float:
        """The session's usual turnaround in seconds (infinite until one was seen)."""
        seen = self._turnarounds.get(session)
        return statistics.median(seen) if seen else float("inf")

    def answered(self, session: str, now: float) -> None:
        """``session``'s request got its answer: it may be back soon."""
        self._answered_at[session] = now

    def expected(self, now: float) -> set[str]:
        """Answered sessions whose next request should arrive within the window (stale ones forgotten)."""
        window = self.window_s()
        for session in [s for s, at in self._answered_at.items() if now - at > FORGET_S]:
            del self._answered_at[session]
            self._turnarounds.pop(session, None)
        if window <= 0:
            return set()
        expected = set()
        for session, at in self._answered_at.items():
            usual = self.turnaround(session)
            if usual <= window and now - at < window + usual:
                expected.add(session)
        return expected

    def forget(self, session: str) -> None:
        self._answered_at.pop(session, None)
        self._turnarounds.pop(session, None)
