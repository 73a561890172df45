"""What "Test connection" learns: the weights a worker serves and the link's round trip, reached as a real
session would reach it."""

from __future__ import annotations

import time
from dataclasses import dataclass

from app.engine.link.transport import RemoteMiddle


@dataclass(frozen=True)
class WorkerProbe:
    """What "Test connection" learns: the weights a worker serves, and the link's round trip."""

    fingerprint: str
    first_layer: int
    last_layer: int  # exclusive
    hidden_size: int
    rtt_ms: float  # the median of a few WebSocket pings: the network alone
    handshake_ms: float  # TCP, TLS, the token check, the hello and a session opened


async def probe_worker(
    endpoint: str, token: str, pings: int = 3, cert_sha256: str | None = None, allow_unencrypted: bool = False
) -> WorkerProbe:
    """Connect as a client would and report what the worker serves and the link's round trip.

    Raises WorkerError (unauthorized, unreachable, ...) exactly as a real connection would.
    """
    started = time.perf_counter()
    middle = await RemoteMiddle.connect(endpoint, token, cert_sha256=cert_sha256, allow_unencrypted=allow_unencrypted)
    handshake_ms = (time.perf_counter() - started) * 1000
    try:
        rtts = sorted([await middle.ping_ms() for _ in range(pings)])
    finally:
        await middle.close()
    hello = middle.hello
    return WorkerProbe(
        fingerprint=hello.fingerprint,
        first_layer=hello.first_layer,
        last_layer=hello.last_layer,
        hidden_size=hello.hidden_size,
        rtt_ms=rtts[len(rtts) // 2],
        handshake_ms=handshake_ms,
    )
