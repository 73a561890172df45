"""Hostile clients against a real worker process on loopback: what one connection may cost the worker.

A client that pings and never reads once grew the worker's memory by gigabytes and held its connection
for ever (pongs queued with no bound; every close waited for the peer to read); one such connection
stopped the revocation of every other token; and 1,000 refused handshakes wrote 2,000 log lines.
Every loop here is bounded by a deadline; the bounds are generous for a loaded two-core machine.
"""

from __future__ import annotations

import asyncio
import base64
import os
import select
import socket
import time
from pathlib import Path

import psutil
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from app.engine.link.local_worker import LocalWorker
from app.wire.frames import decode_frame, encode_frame
from app.wire.worker_tokens import issue_token, token_hash

IDLE_S, SEND_S, CLOSE_S = 3.0, 2.0, 1.0
SMALL_RCVBUF = 4096  # the client's receive window: the worker's pongs have nowhere to go
GONE = (ConnectionResetError, BrokenPipeError, ConnectionAbortedError)


@pytest.fixture(scope="module")
def strict_worker(tiny_split):
    """A worker with short limits: idle 3 s, send 2 s, close 1 s."""
    _, _, shard = tiny_split
    limits = ("--idle-timeout", str(IDLE_S), "--send-timeout", str(SEND_S), "--close-timeout", str(CLOSE_S))
    with LocalWorker(shard, extra_args=limits) as worker:
        yield worker


@pytest.fixture(scope="module")
def patient_worker(tiny_split):
    """Long idle and send timeouts, so that only the bounded close can free a stuck connection."""
    _, _, shard = tiny_split
    limits = ("--idle-timeout", "60", "--send-timeout", "60", "--close-timeout", str(CLOSE_S))
    with LocalWorker(shard, extra_args=limits) as worker:
        yield worker


def _upgrade(worker: LocalWorker, token: str) -> socket.socket:
    """A raw socket past the WebSocket handshake, with a small receive window; the hello is left unread."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, SMALL_RCVBUF)  # before connect: it sets the window
    sock.settimeout(10)
    sock.connect(("127.0.0.1", worker.port))
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall(
        (
            f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{worker.port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\nAuthorization: Bearer {token}\r\n\r\n"
        ).encode()
    )
    head = b""
    while b"\r\n\r\n" not in head:  # the response head only: from here on this client never reads
        chunk = sock.recv(256)
        assert chunk, "the worker closed the handshake"
        head += chunk
    assert head.startswith(b"HTTP/1.1 101"), head
    return sock


def _ping(payload: bytes = b"p" * 125) -> bytes:
    """One masked client ping frame (a pong of the same size comes back for each)."""
    mask = os.urandom(4)
    return bytes([0x89, 0x80 | len(payload)]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


PINGS = b"".join(_ping() for _ in range(64))  # whole frames: a partial send continues where it stopped


class Pinger:
    """Sends whole ping frames on a non-blocking raw socket, never reading; tells when the worker dropped it."""

    def __init__(self, sock: socket.socket):
        sock.setblocking(False)
        self.sock, self._offset, self.sent = sock, 0, 0

    def push(self, wait_s: float = 0.05) -> bool:
        """Send what the socket takes now; False once the worker has dropped the connection."""
        try:
            sent = self.sock.send(memoryview(PINGS)[self._offset :])
        except BlockingIOError:
            select.select([], [self.sock], [self.sock], wait_s)
            return True
        except GONE:
            return False
        self._offset, self.sent = (self._offset + sent) % len(PINGS), self.sent + sent
        return True

    def one(self) -> bool:
        """A single ping (slow pinging); False once the worker has dropped the connection."""
        try:
            self.sock.sendall(_ping(b"q"))  # a few bytes: fits any buffer left
        except BlockingIOError:
            return True
        except GONE:
            return False
        return True

    def dropped_within(self, seconds: float, poll_s: float = 0.1) -> bool:
        """Probe with single pings until the worker drops us (a reset) or ``seconds`` pass."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if not self.one():
                return True
            time.sleep(poll_s)
        return False


def _rss(worker: LocalWorker) -> int:
    return psutil.Process(worker.pid).memory_info().rss


def test_a_ping_flood_that_never_reads_is_dropped_and_costs_little_memory(strict_worker):
    worker = strict_worker
    pinger = Pinger(_upgrade(worker, worker.token))
    baseline = peak = _rss(worker)
    started = time.monotonic()
    deadline, next_sample, dropped_after = started + 15, started, None
    while time.monotonic() < deadline:  # without bounds this flood runs until the test gives up
        if not pinger.push():
            dropped_after = time.monotonic() - started
            break
        if time.monotonic() >= next_sample:
            peak, next_sample = max(peak, _rss(worker)), time.monotonic() + 0.2
    pinger.sock.close()
    growth_mb = (peak - baseline) / 2**20
    print(f"flood: {pinger.sent / 2**20:.1f} MiB of pings, dropped after {dropped_after} s, RSS +{growth_mb:.1f} MB")
    assert dropped_after is not None and dropped_after < 12
    assert growth_mb < 40
    assert worker.alive()


async def test_pings_are_not_activity_a_pinging_client_is_closed_when_idle(strict_worker):
    """A client that reads gets the close frame (1001); one that never reads is cut after the close timeout."""
    worker = strict_worker
    headers = {"Authorization": f"Bearer {worker.token}"}
    started = time.monotonic()
    reading = await connect(worker.endpoint, additional_headers=headers, proxy=None, ping_interval=None)
    assert decode_frame(await reading.recv()).header["type"] == "hello"
    silent = Pinger(await asyncio.to_thread(_upgrade, worker, worker.token))
    deadline = started + 9  # idle 3 s + close 1 s, with room; an unbounded close takes 13 s and more
    silent_alive = True
    while time.monotonic() < deadline:
        try:
            await asyncio.wait_for(await reading.ping(), timeout=5)
        except ConnectionClosed:
            break
        silent_alive = silent_alive and silent.one()
        await asyncio.sleep(0.1)
    await asyncio.wait_for(reading.wait_closed(), timeout=max(0.1, deadline - time.monotonic()))
    assert reading.close_code == 1001 and reading.close_reason == "idle"
    assert time.monotonic() - started >= IDLE_S  # the pings kept it open no longer, and no shorter
    assert not silent_alive or await asyncio.to_thread(silent.dropped_within, max(0.1, deadline - time.monotonic()))
    silent.sock.close()


def _stall(worker: LocalWorker, token: str) -> Pinger:
    """A connection whose replies pile up unread: ping until the worker's writes back up, then go quiet."""
    pinger = Pinger(_upgrade(worker, token))
    deadline, blocked_since = time.monotonic() + 3, None
    while time.monotonic() < deadline and pinger.sent < 8 * 2**20:
        before = pinger.sent
        assert pinger.push(), "dropped while stalling"
        if pinger.sent == before:
            blocked_since = blocked_since or time.monotonic()
            if time.monotonic() - blocked_since > 0.5:  # the worker stopped taking them: it is backed up
                break
        else:
            blocked_since = None
    return pinger


async def test_one_stuck_connection_does_not_delay_the_revocation_of_another_token(patient_worker):
    worker = patient_worker
    stuck_token, idle_token = issue_token(worker.token_file), issue_token(worker.token_file)
    stuck = await asyncio.to_thread(_stall, worker, stuck_token)  # opened first: the watcher meets it first
    idle = await connect(
        worker.endpoint, additional_headers={"Authorization": f"Bearer {idle_token}"}, proxy=None, ping_interval=None
    )
    assert decode_frame(await idle.recv()).header["type"] == "hello"
    revoked = {token_hash(stuck_token), token_hash(idle_token)}
    kept = [line for line in worker.token_file.read_text().splitlines() if line not in revoked]
    _replace(worker.token_file, "\n".join(kept) + "\n")
    await asyncio.wait_for(idle.wait_closed(), timeout=8)  # the watcher looks every 2 s
    assert idle.close_code == 1008 and idle.close_reason == "token revoked"
    assert await asyncio.to_thread(stuck.dropped_within, 8)  # cut after the close timeout, not held
    stuck.sock.close()
    async with connect(
        worker.endpoint, additional_headers={"Authorization": f"Bearer {worker.token}"}, proxy=None
    ) as ws:  # the worker's own token still serves
        assert decode_frame(await ws.recv()).header["type"] == "hello"
        await ws.send(encode_frame({"type": "open", "seq": 1}))
        assert decode_frame(await ws.recv()).header["type"] == "opened"


def _replace(path: Path, text: str) -> None:
    partial = path.with_name(path.name + ".new")
    partial.write_text(text)
    os.replace(partial, path)


def _log_lines(worker: LocalWorker) -> list[str]:
    return (Path(worker.token_file).parent / "worker.log").read_text().splitlines()


def _refused_handshakes(worker: LocalWorker, each: int) -> None:
    """``each`` handshakes with a bad token, ``each`` of garbage and ``each`` abandoned half-way."""
    request = (
        "GET / HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
    )
    attempts = [
        (request + "Authorization: Bearer not-a-token\r\n\r\n").encode(),
        b"\x16\x03\x01\x02\x00garbage that is not HTTP\r\n\r\n",
        request.encode()[:60],  # half a request, then the client hangs up
    ]
    for _ in range(each):
        for attempt in attempts:
            with socket.create_connection(("127.0.0.1", worker.port), timeout=10) as sock:
                sock.sendall(attempt)
                if attempt.endswith(b"\r\n\r\n"):
                    while sock.recv(4096):  # the refusal, then the worker's close
                        pass


def _settled_count(worker: LocalWorker, quiet_s: float = 1.0, limit_s: float = 10.0) -> int:
    """The log's line count once it has stopped growing for ``quiet_s``."""
    deadline = time.monotonic() + limit_s
    count, since = len(_log_lines(worker)), time.monotonic()
    while time.monotonic() < deadline and time.monotonic() - since < quiet_s:
        time.sleep(0.2)
        now = len(_log_lines(worker))
        if now != count:
            count, since = now, time.monotonic()
    return count


def test_refused_handshakes_add_a_bounded_number_of_log_lines_and_a_client_s_lines_still_appear(strict_worker):
    worker = strict_worker
    before = _settled_count(worker)
    _refused_handshakes(worker, each=100)
    grown = _settled_count(worker) - before
    print(f"300 refused handshakes: {grown} log lines")
    assert grown <= 8  # a summary per interval, not a line per handshake
    summary = "\n".join(_log_lines(worker)[before:])
    assert "refused" in summary and "Traceback" not in summary

    async def legitimate() -> None:
        async with connect(
            worker.endpoint, additional_headers={"Authorization": f"Bearer {worker.token}"}, proxy=None
        ) as ws:
            assert decode_frame(await ws.recv()).header["type"] == "hello"

    mark = len(_log_lines(worker))
    asyncio.run(legitimate())
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and not any("connection open" in line for line in _log_lines(worker)[mark:]):
        time.sleep(0.1)
    assert any("connection open" in line for line in _log_lines(worker)[mark:])
