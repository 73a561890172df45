"""The worker's WebSocket server: auth at the handshake, sessions, forward requests, typed errors."""

from __future__ import annotations

import asyncio
import logging
import ssl
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import partial
from http import HTTPStatus

import torch
from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.exceptions import ConnectionClosed

from app.model.config import kv_bytes_per_position, max_context
from app.remote_worker.batcher import Batcher, Job
from app.remote_worker.connection_guard import (
    WRITE_LIMIT,
    GuardedConnection,
    HandshakeTally,
    Refusal,
    quiet_unadmitted,
)
from app.remote_worker.pass_policy import DEFAULT_MAX_GATHER_MS, DEFAULT_MAX_PASS_ROWS
from app.remote_worker.sessions import SessionTable
from app.remote_worker.shard import Shard
from app.remote_worker.tokens import TokenFile
from app.wire.codecs import CODECS
from app.wire.frames import (
    ErrorCode,
    Frame,
    ProtocolError,
    decode_frame,
    encode_frame,
)
from app.wire.log_redaction import redacting_logger
from app.wire.messages import (
    REPLY_DTYPES,
    Closed,
    CloseRequest,
    ErrorReply,
    ForwardRequest,
    ForwardResult,
    Hello,
    Opened,
)
from app.wire.tensor_payload import packed, unpack_rows

HEALTH_PATH = "/healthz"
REVOCATION_CHECK_S = 2.0  # how soon a deleted token's idle connections are closed
KEEPALIVE_S = 20.0  # the worker pings every this often; a client that does not answer within it is closed (1011)
OPEN_TIMEOUT_S = 10.0  # a handshake (TLS and HTTP upgrade) not done within this is cut: slowloris holds no slot
log = logging.getLogger("splitchat.worker")


def compute_thread() -> ThreadPoolExecutor:
    """The one thread that runs torch in a worker process (load the shard on it, then serve).

    OpenMP gives every thread that starts parallel work its own team of threads. With two teams in a
    process libgomp counts more threads than cores and stops spinning between parallel regions, so every
    matrix product waits for its threads to wake (docs/BENCH.md has what that cost).
    """
    return ThreadPoolExecutor(max_workers=1, thread_name_prefix="splitchat-compute")


@dataclass(frozen=True)
class ConnectionLimits:
    """How many connections the worker holds, and how long it waits on one."""

    total: int = 256
    per_token: int = 32
    # No message for this long — pings and pongs do not count — closed (the app reconnects when it needs us).
    idle_s: float = 900.0
    # Writes backed up this long (a reply, a pong, a close frame the client does not take): it is cut.
    send_s: float = 30.0
    close_s: float = 5.0  # a closing handshake the client does not finish within this: the connection is cut


class WorkerServer:
    """Serves one shard's middle layers to authenticated clients, one KV cache per session."""

    def __init__(
        self,
        shard: Shard,
        tokens: TokenFile,
        max_frame: int,
        session_ttl_s: float = 300.0,
        max_sessions: int = 64,
        max_sessions_per_token: int = 16,
        max_block: int = 2048,
        kv_budget_mb: float | None = None,
        kv_budget_per_token_mb: float | None = None,
        compute: ThreadPoolExecutor | None = None,
        limits: ConnectionLimits | None = None,
        max_pass_rows: int = DEFAULT_MAX_PASS_ROWS,
        max_gather_ms: float = DEFAULT_MAX_GATHER_MS,
    ):
        self.shard = shard
        self.stack = shard.stack
        self.tokens = tokens
        self.max_frame = max_frame
        self.max_block = max_block
        self._refusals = HandshakeTally()
        self.limits = limits or ConnectionLimits()
        self._open: dict[ServerConnection, str] = {}  # connection -> the token hash it authenticated with
        self._watcher: asyncio.Task | None = None
        self.sessions = SessionTable(
            self.stack.new_cache,
            session_ttl_s,
            max_sessions,
            max_per_owner=max_sessions_per_token,
            bytes_per_position=kv_bytes_per_position(shard.config, len(self.stack.layers), self.stack.dtype),
            kv_budget=None if kv_budget_mb is None else int(kv_budget_mb * (1 << 20)),
            kv_budget_per_owner=None if kv_budget_per_token_mb is None else int(kv_budget_per_token_mb * (1 << 20)),
        )
        # One compute thread runs every pass; the event loop stays free for I/O.
        self._compute = compute or compute_thread()
        self.batcher = Batcher(self.stack, self._compute, max_pass_rows, max_gather_ms)
        self.hello = Hello(
            fingerprint=shard.manifest.fingerprint,
            first_layer=shard.manifest.first_layer,
            last_layer=shard.manifest.last_layer,
            num_layers=shard.manifest.num_layers,
            hidden_size=shard.config.hidden_size,
            model_type=shard.config.model_type,
            compute_dtype=str(self.stack.dtype).removeprefix("torch."),
            max_frame=max_frame,
            session_ttl_s=session_ttl_s,
            max_context=max_context(shard.config),
            max_block=max_block,
            stored_dtype=shard.manifest.dtype,
            max_pass_rows=max_pass_rows,
            codecs=CODECS,
        )

    async def start(self, host: str, port: int, tls: ssl.SSLContext | None = None) -> Server:
        """Listen (TLS when given a context); the returned server's sockets tell the bound port."""
        self._watcher = asyncio.ensure_future(self._close_revoked())
        return await serve(
            self._handle,
            host,
            port,
            process_request=self._authenticate,
            compression=None,  # floats barely compress; deflate only costs CPU
            max_size=2 * self.max_frame + 65536,  # oversize frames up to 2x get a typed error
            server_header=None,
            logger=quiet_unadmitted(redacting_logger("splitchat.websockets.server")),
            ssl=tls,
            # Every connection's writes are bounded, pongs included (connection_guard.py).
            create_connection=partial(GuardedConnection, stall_s=self.limits.send_s, tally=self._refusals),
            write_limit=WRITE_LIMIT,
            close_timeout=self.limits.close_s,
            open_timeout=OPEN_TIMEOUT_S,
            ping_interval=KEEPALIVE_S,
            ping_timeout=KEEPALIVE_S,
        )

    def _authenticate(self, connection: ServerConnection, request):
        if request.path == HEALTH_PATH:
            # For load balancers and Kubernetes probes: the shard is loaded (the server listens only then)
            # and the event loop answers. It says nothing else, so it needs no token.
            connection.refusal = None  # not worth a line, however often a balancer asks
            return connection.respond(HTTPStatus.OK, "ok\n")
        headers = request.headers.get_all("Authorization")  # two of them is no token, not a server error
        header = headers[0] if len(headers) == 1 else ""
        token = header[len("Bearer ") :] if header.startswith("Bearer ") else None
        owner = self.tokens.verify(token)
        if owner is None:
            connection.refusal = Refusal.NO_TOKEN  # counted when it closes (connection_guard.py)
            return connection.respond(HTTPStatus.UNAUTHORIZED, "a valid bearer token is required\n")
        mine = sum(1 for other in self._open.values() if other == owner)
        if len(self._open) >= self.limits.total or mine >= self.limits.per_token:
            which = "this token's" if mine >= self.limits.per_token else "the worker's"
            connection.refusal = Refusal.OVER_LIMIT
            return connection.respond(HTTPStatus.SERVICE_UNAVAILABLE, f"{which} connection limit is reached\n")
        connection.splitchat_owner = owner
        return None

    async def _close_revoked(self, every_s: float = REVOCATION_CHECK_S) -> None:
        """Close the connections of a token deleted from the token file, idle ones too; and, as often,
        log the summary of refused connections once a burst of them is over."""
        while True:
            await asyncio.sleep(every_s)
            revoked = [c for c, owner in list(self._open.items()) if not self.tokens.still_valid(owner)]
            # All at once: one peer that does not take its close frame must not hold up the others.
            await asyncio.gather(*(self._close(c, 1008, "token revoked") for c in revoked), return_exceptions=True)
            self._refusals.flush()

    async def _close(self, connection: ServerConnection, code: int, reason: str) -> None:
        """Close, or cut a peer that does not finish closing within the close timeout: ``close()`` waits
        for the close frame to drain, which a client that does not read never lets it."""
        try:
            await asyncio.wait_for(connection.close(code, reason), self.limits.close_s)
        except TimeoutError:
            connection.transport.abort()

    async def _handle(self, connection: ServerConnection) -> None:
        owner = connection.splitchat_owner
        self._open[connection] = owner
        try:
            await self._serve(connection, owner)
        finally:
            self._open.pop(connection, None)

    async def _serve(self, connection: ServerConnection, owner: str) -> None:
        try:
            await self._send(connection, encode_frame(self.hello.to_header()))
            while True:
                try:
                    message = await asyncio.wait_for(connection.recv(), self.limits.idle_s)
                except TimeoutError:
                    await self._close(connection, 1001, "idle")  # the client reconnects when it next needs us
                    return
                if not self.tokens.still_valid(owner):
                    # A revoked token loses its open connections too, not only new ones.
                    await self._close(connection, 1008, "token revoked")
                    return
                await self._send(connection, await self._reply(message, owner))
        except ConnectionClosed:
            pass

    async def _send(self, connection: ServerConnection, data: bytes) -> None:
        """Send, or drop a client that stopped reading: its replies would otherwise wait here forever."""
        try:
            await asyncio.wait_for(connection.send(data), self.limits.send_s)
        except TimeoutError:
            connection.transport.abort()
            raise ConnectionClosed(None, None) from None

    async def _reply(self, message: bytes | str, owner: str) -> bytes:
        started = time.perf_counter()
        seq = None
        try:
            if len(message) > self.max_frame:
                raise ProtocolError(
                    ErrorCode.FRAME_TOO_LARGE, f"frame of {len(message)} bytes exceeds {self.max_frame}"
                )
            frame = decode_frame(message)
            seq = frame.header.get("seq")
            if frame.type == "forward":
                return await self._forward(frame, owner, started)
            if frame.type == "open":
                return encode_frame(Opened(seq, self.sessions.open(owner).id).to_header())
            if frame.type == "close":
                closing = CloseRequest.from_header(frame.header).session
                self.sessions.close(closing, owner)
                self.batcher.gathering.forget(closing)
                return encode_frame(Closed(seq).to_header())
            raise ProtocolError(ErrorCode.BAD_REQUEST, f"unknown message type {frame.type!r}")
        except ProtocolError as exc:
            return encode_frame(ErrorReply.of(exc, seq).to_header())
        except Exception as exc:  # a bug must cost one reply, never the worker
            log.exception("internal error while serving a request")
            return encode_frame(ErrorReply(ErrorCode.INTERNAL.value, f"{type(exc).__name__}: {exc}", seq).to_header())

    async def _forward(self, frame: Frame, owner: str, started: float) -> bytes:
        request = ForwardRequest.from_header(frame.header, self.max_block, self.batcher.max_pass_rows)
        session = self.sessions.get(request.session, owner)
        if request.shape[1] != self.hello.hidden_size:
            raise ProtocolError(
                ErrorCode.SHAPE_MISMATCH, f"hidden size {request.shape[1]} != this shard's {self.hello.hidden_size}"
            )
        hidden = await self._hidden_states(request, frame.payload)
        reply_dtype = request.reply_dtype or request.dtype
        if reply_dtype not in REPLY_DTYPES:
            raise ProtocolError(ErrorCode.BAD_REQUEST, f"unknown reply dtype {reply_dtype!r}")
        decoded = time.perf_counter()
        # One request of a session at a time, charged for the cache as the one before left it (sessions.py).
        async with self.sessions.serving(session, request.edit, request.shape[0]):
            job = Job(session.cache, request, hidden, reply_dtype, self.hello.max_context, session=session.id)
            done = await self.batcher.run(job)  # batched with whatever else waits (batcher.py)
        payload, codec, packed_ms = done.payload, None, 0.0
        if request.reply_codec is not None:  # the client asks only where the bytes matter
            packing = time.perf_counter()
            payload = await asyncio.to_thread(packed, payload, reply_dtype, request.reply_codec)
            codec, packed_ms = request.reply_codec, (time.perf_counter() - packing) * 1000
        result = ForwardResult(
            seq=frame.header.get("seq"),
            shape=done.shape,
            dtype=reply_dtype,
            compute_ms=done.compute_ms,
            serialize_ms=(decoded - started) * 1000 + done.encode_ms + packed_ms,
            cache_len=done.cache_len,
            pass_id=done.pass_id,
            pass_rows=done.pass_rows,
            queue_ms=done.queue_ms,
            codec=codec,
        )
        return encode_frame(result.to_header(), payload)

    async def _hidden_states(self, request: ForwardRequest, payload: bytes) -> torch.Tensor:
        """What a forward frame carries, unpacked where compressed: exactly what this worker's operator reads."""
        if request.codec is None:
            return unpack_rows(payload, request.dtype, request.shape, None)
        # Off the event loop: zstd releases the GIL, and other connections' frames keep moving.
        return await asyncio.to_thread(unpack_rows, payload, request.dtype, request.shape, request.codec)

    async def sweep_sessions(self, every_s: float) -> None:
        """Expire idle sessions for as long as the server runs."""
        while True:
            await asyncio.sleep(every_s)
            dropped = self.sessions.expire()
            if dropped:
                log.info("expired %d idle session(s)", dropped)

    def close(self) -> None:
        if self._watcher is not None:
            self._watcher.get_loop().call_soon_threadsafe(self._watcher.cancel)
        self._compute.shutdown(wait=False, cancel_futures=True)
