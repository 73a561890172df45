"""A TCP proxy that emulates a WAN link: one-way delay each direction, optional jitter and bandwidth cap.

Real sockets on loopback stand in for ``tc netem``, which needs privileges this project cannot assume.
Bytes keep their order; each chunk is delivered at
``max(previous delivery, transmit end + one-way delay + jitter)``, where a chunk's transmission starts
when the link is free and lasts ``size / bandwidth``.
"""

from __future__ import annotations

import asyncio
import random
import threading
import time
from dataclasses import dataclass


@dataclass(frozen=True)
class LinkProfile:
    rtt_ms: float = 0.0
    jitter_ms: float = 0.0  # uniform in [-jitter, +jitter] per chunk, never reordering bytes
    bandwidth_mbps: float = 0.0  # 0 = unlimited

    @property
    def one_way_s(self) -> float:
        return self.rtt_ms / 2000


class LatencyProxy:
    """Listens on 127.0.0.1 and forwards every connection to ``upstream`` through an emulated link."""

    def __init__(self, upstream_host: str, upstream_port: int, profile: LinkProfile, seed: int = 0):
        self.upstream = (upstream_host, upstream_port)
        self.profile = profile
        self._random = random.Random(seed)
        self._server: asyncio.Server | None = None
        self._tasks: set[asyncio.Task] = set()
        self._writers: set[asyncio.StreamWriter] = set()
        self._cut_after: int | None = None
        self.port: int | None = None
        self.bytes_up = 0  # client to upstream, as read (every connection)
        self.bytes_down = 0

    async def start(self) -> int:
        self._server = await asyncio.start_server(self._accept, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]
        return self.port

    def cut_after(self, n_bytes: int) -> None:
        """Fault injection: forward ``n_bytes`` more from client to server, then drop every connection.

        Tests use it to cut a link in the middle of a frame.
        """
        self._cut_after = n_bytes

    def _abort_all(self) -> None:
        for writer in list(self._writers):
            writer.transport.abort()
        self._writers.clear()

    async def close(self) -> None:
        if self._server:
            self._server.close()
            await self._server.wait_closed()
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    async def _accept(self, client_reader, client_writer) -> None:
        try:
            upstream_reader, upstream_writer = await asyncio.open_connection(*self.upstream)
        except OSError:
            client_writer.close()
            return
        self._writers.update((client_writer, upstream_writer))
        directions = ((client_reader, upstream_writer, True), (upstream_reader, client_writer, False))
        for reader, writer, upstream in directions:
            task = asyncio.create_task(self._pipe(reader, writer, upstream))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _pipe(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, upstream: bool) -> None:
        """Read as bytes arrive; a second task delivers each chunk when the emulated link would."""
        queue: asyncio.Queue[tuple[float, bytes] | None] = asyncio.Queue()
        deliver = asyncio.create_task(self._deliver(queue, writer))
        link_free_at = 0.0
        bytes_per_s = self.profile.bandwidth_mbps * 125_000
        try:
            while chunk := await reader.read(1 << 16):
                if upstream and self._cut_after is not None:
                    if len(chunk) >= self._cut_after:
                        writer.write(chunk[: self._cut_after])  # part of a frame arrives, then the link dies
                        await writer.drain()
                        self._cut_after = None
                        self._abort_all()
                        break
                    self._cut_after -= len(chunk)
                if upstream:
                    self.bytes_up += len(chunk)
                else:
                    self.bytes_down += len(chunk)
                now = time.perf_counter()
                sent_at = now
                if bytes_per_s:
                    sent_at = max(now, link_free_at) + len(chunk) / bytes_per_s
                    link_free_at = sent_at
                jitter = self._random.uniform(-1, 1) * self.profile.jitter_ms / 1000 if self.profile.jitter_ms else 0
                queue.put_nowait((sent_at + max(0.0, self.profile.one_way_s + jitter), chunk))
        except (ConnectionError, asyncio.CancelledError):
            pass
        finally:
            queue.put_nowait(None)
            await asyncio.gather(deliver, return_exceptions=True)

    @staticmethod
    async def _deliver(queue: asyncio.Queue, writer: asyncio.StreamWriter) -> None:
        last = 0.0
        try:
            while (item := await queue.get()) is not None:
                due, chunk = item
                due = max(due, last)  # jitter never reorders bytes
                last = due
                wait = due - time.perf_counter()
                if wait > 0:
                    await asyncio.sleep(wait)
                writer.write(chunk)
                await writer.drain()
        except ConnectionError:
            pass
        finally:
            writer.close()


class ProxyThread:
    """The latency proxy on its own event loop, so this process's compute never delays its delivery."""

    def __init__(self, host: str, port: int, profile: LinkProfile):
        self._loop = asyncio.new_event_loop()
        self._proxy = LatencyProxy(host, port, profile)
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)

    def __enter__(self) -> ProxyThread:
        self._thread.start()
        asyncio.run_coroutine_threadsafe(self._proxy.start(), self._loop).result(10)
        return self

    @property
    def port(self) -> int:
        return self._proxy.port

    def cut_after(self, n_bytes: int) -> None:
        """Fault injection from any thread: see ``LatencyProxy.cut_after``."""
        self._loop.call_soon_threadsafe(self._proxy.cut_after, n_bytes)

    @property
    def bytes_up(self) -> int:
        """Bytes forwarded from clients to the upstream so far."""
        return self._proxy.bytes_up

    @property
    def bytes_down(self) -> int:
        return self._proxy.bytes_down

    def __exit__(self, *exc) -> None:
        asyncio.run_coroutine_threadsafe(self._proxy.close(), self._loop).result(10)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(10)
        self._loop.close()
