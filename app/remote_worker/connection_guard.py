"""What one WebSocket connection may cost the worker: a bounded write buffer, and bounded log lines.

websockets answers every ping from inside ``data_received``, writing the pong to the transport without
waiting for it to drain. A client that pings and never reads grew that buffer without limit (3 GB in
75 s), and every ``close()`` then waited for it to drain. And the library logs two lines for every
connection at INFO, so clients without a token could fill the disk. The worker's connections are
``GuardedConnection``s; ``QuietUnadmitted`` keeps the library's lines for the connections it admitted
and folds everything about the others into ``HandshakeTally``'s periodic summary.
"""

from __future__ import annotations

import asyncio
import enum
import logging
import time
from collections import Counter
from collections.abc import Callable

from websockets.asyncio.server import ServerConnection

log = logging.getLogger("splitchat.worker")

WRITE_LIMIT = 2**15  # bytes queued on a connection's transport before its writers wait (and it stops reading)


class Refusal(enum.Enum):
    """Why a connection was never admitted; what the summary counts it as."""

    NO_TOKEN = "without a valid token"
    OVER_LIMIT = "over a connection limit"
    INCOMPLETE = "closed, timed out or malformed before a complete handshake"


class HandshakeTally:
    """Connections that were never admitted, logged at most once per ``interval_s`` with how many there were.

    An attacker without a token must not be able to fill the disk: whatever such connections make the
    worker log becomes one warning per interval. The first one is logged at once, so an operator sees a
    problem start; ``flush`` (called periodically) reports the rest of a burst once it is over.
    """

    def __init__(self, interval_s: float = 10.0, clock: Callable[[], float] = time.monotonic):
        self.interval_s = interval_s
        self._clock = clock
        self._counts: Counter[Refusal] = Counter()
        self._suppressed_errors = 0
        self._latest: object = None
        self._last = self._last_error = float("-inf")

    def note(self, refusal: Refusal, address: object) -> None:
        self._counts[refusal] += 1
        self._latest = address
        self.flush()

    def allow_error(self) -> bool:
        """Whether a library error about an unadmitted connection may be logged now (one per interval)."""
        if self._clock() - self._last_error >= self.interval_s:
            self._last_error = self._clock()
            return True
        self._suppressed_errors += 1
        return False

    def flush(self) -> None:
        """Log what was counted since the last summary, if there is any and the interval has passed."""
        now = self._clock()
        if not (self._counts or self._suppressed_errors) or now - self._last < self.interval_s:
            return
        kinds = ", ".join(f"{count} {refusal.value}" for refusal, count in self._counts.items())
        since = "since start" if self._last == float("-inf") else f"in the last {now - self._last:.0f} s"
        errors = f"; {self._suppressed_errors} library error(s) about them not logged" * bool(self._suppressed_errors)
        log.warning(
            "refused %d connection(s) %s: %s (latest from %s)%s",
            sum(self._counts.values()),
            since,
            kinds or "none",
            self._latest,
            errors,
        )
        self._counts.clear()
        self._suppressed_errors, self._last = 0, now


class GuardedConnection(ServerConnection):
    """A server connection that stops reading while its writes back up, and is cut if they stay backed up.

    While the transport holds more than ``WRITE_LIMIT`` unsent bytes the connection reads nothing, so a
    client's pings wait in the kernel's buffers as its requests would, instead of becoming pongs in ours:
    what it has queued for writing is at most the limit, the reply being sent and the pongs of one read.
    If the writes stay backed up for ``stall_s`` (the send timeout) the peer is not reading; the
    transport is aborted, whatever was waiting on it — a reply, a pong, a keepalive ping, a close frame.
    """

    def __init__(self, protocol, server, *, stall_s: float, tally: HandshakeTally, **options) -> None:
        super().__init__(protocol, server, **options)
        self.stall_s = stall_s
        self.tally = tally
        self.splitchat_owner: str | None = None  # the token hash, once the handshake is admitted
        self.refusal: Refusal | None = Refusal.INCOMPLETE  # None: nothing to report (a health check)
        self._stall: asyncio.TimerHandle | None = None
        self._peer: object = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)
        self._peer = _address(transport.get_extra_info("peername"))  # a TLS transport forgets it on closing

    def pause_writing(self) -> None:
        super().pause_writing()
        self.transport.pause_reading()
        if self._stall is None:
            self._stall = self.loop.call_later(self.stall_s, self.transport.abort)

    def resume_writing(self) -> None:
        super().resume_writing()
        self._cancel_stall()
        if not self.recv_messages.paused:  # the message queue may be full too: its own flow control decides
            self.transport.resume_reading()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self.paused:  # reading was resumed by the message queue while writes are still backed up
            self.transport.pause_reading()

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel_stall()
        super().connection_lost(exc)
        if self.splitchat_owner is None and self.refusal is not None:
            self.tally.note(self.refusal, self._peer)

    def _cancel_stall(self) -> None:
        if self._stall is not None:
            self._stall.cancel()
            self._stall = None


def _address(peer: object) -> object:
    """``host:port`` for an IP peer (the tuple's other fields say nothing in a log line)."""
    if isinstance(peer, tuple) and len(peer) >= 2:
        host, port = peer[0], peer[1]
        return f"[{host}]:{port}" if ":" in str(host) else f"{host}:{port}"
    return peer


class QuietUnadmitted(logging.Filter):
    """Keeps the WebSocket library's per-connection lines only for connections the worker admitted.

    Each record names its connection (websockets adds it as ``websocket``). Lines about a connection that
    was refused or never finished its handshake are dropped — ``HandshakeTally`` counts the connection —
    except one error per interval, so a bug in the handshake still shows.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        connection = getattr(record, "websocket", None)
        try:
            tally = getattr(connection, "tally", None)
            admitted = getattr(connection, "splitchat_owner", None) is not None
        except ReferenceError:  # the connection is gone; nothing it says is worth a line
            return False
        if tally is None or admitted:
            return True
        return record.levelno >= logging.ERROR and tally.allow_error()


def quiet_unadmitted(logger: logging.Logger) -> logging.Logger:
    """``logger`` with a ``QuietUnadmitted`` filter (added once, however often asked)."""
    if not any(isinstance(f, QuietUnadmitted) for f in logger.filters):
        logger.addFilter(QuietUnadmitted())
    return logger
