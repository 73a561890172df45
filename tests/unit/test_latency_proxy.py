"""The WAN emulator delays each direction by half the RTT, caps bandwidth, and never reorders bytes."""

from __future__ import annotations

import asyncio
import time

from app.bench.latency_proxy import LatencyProxy, LinkProfile


async def _echo_server():
    async def echo(reader, writer):
        while data := await reader.read(1 << 16):
            writer.write(data)
            await writer.drain()
        writer.close()

    server = await asyncio.start_server(echo, "127.0.0.1", 0)
    return server, server.sockets[0].getsockname()[1]


async def _through_proxy(profile: LinkProfile, payload: bytes) -> tuple[float, bytes]:
    server, port = await _echo_server()
    proxy = LatencyProxy("127.0.0.1", port, profile, seed=3)
    proxy_port = await proxy.start()
    reader, writer = await asyncio.open_connection("127.0.0.1", proxy_port)
    started = time.perf_counter()
    writer.write(payload)
    await writer.drain()
    received = await reader.readexactly(len(payload))
    elapsed = time.perf_counter() - started
    writer.close()
    await proxy.close()
    server.close()
    return elapsed, received


def test_round_trip_takes_at_least_the_rtt():
    elapsed, received = asyncio.run(_through_proxy(LinkProfile(rtt_ms=120), b"ping"))
    assert received == b"ping"
    assert 0.120 <= elapsed < 0.120 + 0.5


def test_bandwidth_cap_adds_transmission_time():
    payload = bytes(range(256)) * 1000  # 256 kB at 8 Mbit/s = 1 MB/s: >= 0.256 s each way
    elapsed, received = asyncio.run(_through_proxy(LinkProfile(rtt_ms=0, bandwidth_mbps=8), payload))
    assert received == payload
    assert elapsed >= 0.256


def test_jitter_never_reorders_bytes():
    payload = bytes(i % 251 for i in range(300_000))
    elapsed, received = asyncio.run(_through_proxy(LinkProfile(rtt_ms=20, jitter_ms=15), payload))
    assert received == payload
    assert elapsed >= 0.020 - 0.015
