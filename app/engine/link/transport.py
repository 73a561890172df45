"""The client side of the wire: connect, check the worker, and run blocks through its middle layers."""

from __future__ import annotations

import asyncio
import ssl
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import TypeVar

import torch
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus

from app.engine.link.middle import MiddleReply
from app.model.kv_cache import CacheEdit
from app.wire.codecs import MIN_COMPRESSED_BYTES, ZSTD_PLANES, compress, decompress
from app.wire.frames import (
    DEFAULT_MAX_FRAME,
    WIRE_DTYPES,
    Frame,
    ProtocolError,
    decode_frame,
    element_size,
    encode_frame,
    payload_size,
    tensor_from_bytes,
    tensor_to_bytes,
)
from app.wire.log_redaction import redacting_logger
from app.wire.messages import (
    Closed,
    CloseRequest,
    ErrorReply,
    ForwardRequest,
    ForwardResult,
    Hello,
    Opened,
    OpenRequest,
    parse_reply,
)
from app.wire.tls import PinMismatch, check_pin, client_context, normalise_pin

_HEADER_BUDGET = 4096  # bytes kept free in each frame for the JSON header
# A long prefill goes as at least this many frames, so upload, the worker's compute and download overlap:
# the first frame must arrive before the worker starts and the last return after it ends. A link-bound
# prefill (1,000 rows at 2 Mbit/s, 9.7 s each way) took 1.61× its slowest phase in 3 frames, 1.24× in 8
# and 1.14× in 16 (BENCH.md, long documents). Not below MIN_PIPELINE_ROWS a frame: each frame is a block
# of its own in the worker's passes.
PIPELINE_FRAMES = 16
MIN_PIPELINE_ROWS = 64
R = TypeVar("R", Opened, Closed, ForwardResult)
T = TypeVar("T")


@dataclass
class _Costs:
    """What one forward's frames cost, added up as their replies arrive."""

    client_ms: float = 0.0  # packing requests and unpacking replies here
    remote_ms: float = 0.0
    worker_ser_ms: float = 0.0
    queue_ms: float = 0.0
    last: ForwardResult | None = None

    def add(self, result: ForwardResult) -> None:
        self.remote_ms += result.compute_ms
        self.worker_ser_ms += result.serialize_ms
        self.queue_ms += result.queue_ms
        self.last = result


class WorkerError(Exception):
    """The worker refused a request or could not be used; ``code`` says which way."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code


class _PinnedConnection(ClientConnection):
    """Checks the pinned certificate after the TLS handshake, before the request carrying the token."""

    pin: str = ""

    async def handshake(self, *args, **kwargs) -> None:
        check_pin(self.transport.get_extra_info("ssl_object"), self.pin)
        await super().handshake(*args, **kwargs)


class RemoteMiddle:
    """One session on a worker: blocks of hidden states in, the middle layers' output back."""

    def __init__(
        self, connection: ClientConnection, hello: Hello, session: str, wire_dtype: str, codec: str | None = None
    ):
        self._ws = connection
        self.hello = hello
        self.session = session
        self.wire_dtype = wire_dtype
        self.codec = codec  # compresses large frames both ways (codecs.py); None: raw bytes
        self.min_compressed_bytes = MIN_COMPRESSED_BYTES  # smaller frames go raw both ways
        self._seq = 0

    @classmethod
    async def connect(
        cls,
        endpoint: str,
        token: str,
        *,
        expected_fingerprint: str | Callable[[str | None], str] | None = None,
        expected_layers: tuple[int, int] | None = None,
        wire_dtype: str = "float16",
        max_frame: int = DEFAULT_MAX_FRAME,
        open_timeout: float = 10.0,
        cert_sha256: str | None = None,
        compress: bool = False,
    ) -> RemoteMiddle:
        """Connect, authenticate, check the worker's shard and open a session.

        With ``compress`` large frames go compressed both ways, losslessly, when the worker offers the
        codec (an older one does not: then raw bytes, as before).

        ``expected_fingerprint`` is the fingerprint itself, or a function of the dtype the worker says its
        shard stores (an admin may export a float32 model as bfloat16), run on a thread. ``wss://``
        endpoints are verified against the system's trust store, or, with ``cert_sha256``, against that one
        pinned certificate (self-signed workers).
        """
        if wire_dtype not in WIRE_DTYPES:
            raise ValueError(f"wire dtype must be one of {', '.join(WIRE_DTYPES)}")
        secure = endpoint.startswith("wss://")
        if cert_sha256 and not secure:
            raise WorkerError("tls_required", "a certificate pin needs a wss:// endpoint")
        tls: dict = {}
        if secure:
            tls["ssl"] = client_context(cert_sha256)
            if cert_sha256:
                normalise_pin(cert_sha256)
                tls["create_connection"] = type("Pinned", (_PinnedConnection,), {"pin": cert_sha256})
        try:
            ws = await connect(
                endpoint,
                additional_headers={"Authorization": f"Bearer {token}"},
                compression=None,
                max_size=2 * max_frame + 65536,
                open_timeout=open_timeout,
                proxy=None,  # the worker is reached directly; system proxies would see our traffic
                logger=redacting_logger("splitchat.websockets.client"),
                **tls,
            )
        except InvalidStatus as exc:
            status = exc.response.status_code
            if status == 401:
                raise WorkerError(
                    "unauthorized", "the worker refused the token (401): check the bearer token"
                ) from None
            raise WorkerError("handshake", f"the worker answered HTTP {status}") from None
        except PinMismatch as exc:
            raise WorkerError(
                "pin_mismatch", f"refused the worker at {endpoint}: {exc}. Nothing was sent to it."
            ) from None
        except ssl.SSLCertVerificationError as exc:
            raise WorkerError(
                "tls_unverified",
                f"the worker's certificate could not be verified ({exc.verify_message}); for a self-signed "
                "worker, pin its certificate's SHA-256 in the provider settings",
            ) from None
        except (TimeoutError, OSError, InvalidHandshake) as exc:
            raise WorkerError("unreachable", f"cannot reach the worker at {endpoint}: {exc}") from None
        try:
            hello = Hello.from_header(decode_frame(await ws.recv()).header)
            # Layers first: a worker cut at another depth holds other weights too, and "a different split
            # depth" is the cause a person can act on.
            if expected_layers is not None and (hello.first_layer, hello.last_layer) != tuple(expected_layers):
                raise WorkerError(
                    "layer_mismatch",
                    f"the worker serves layers {hello.first_layer}–{hello.last_layer - 1} (split depth "
                    f"{hello.first_layer}); this computer's split needs layers {expected_layers[0]}–"
                    f"{expected_layers[1] - 1} (split depth {expected_layers[0]})",
                )
            if callable(expected_fingerprint):
                expected_fingerprint = await asyncio.to_thread(expected_fingerprint, hello.stored_dtype)
            if expected_fingerprint is not None and hello.fingerprint != expected_fingerprint:
                raise WorkerError(
                    "fingerprint_mismatch",
                    f"the worker serves weights {hello.fingerprint[:19]}…, expected {expected_fingerprint[:19]}…: "
                    "re-export the worker bundle for this model and split",
                )
            codec = ZSTD_PLANES if compress and ZSTD_PLANES in hello.codecs else None
            client = cls(ws, hello, session="", wire_dtype=wire_dtype, codec=codec)
            client.hello = Hello(**{**hello.__dict__, "max_frame": min(hello.max_frame, max_frame)})
            client.session = (await client._roundtrip(OpenRequest(), Opened)).session
            return client
        except BaseException:
            await ws.close()
            raise

    async def forward(
        self,
        hidden: torch.Tensor,
        positions: list[int],
        ancestry: torch.Tensor | None = None,
        edit: CacheEdit | None = None,
        long_rope: bool = False,
        pipelined: bool = True,
    ) -> MiddleReply:
        """Run a block through the worker; long blocks go as several frames, pipelined.

        Without ``pipelined`` (a prefill in the background, where the whole block's time counts, not its
        first byte's) frames are as large as one of the worker's passes: a CPU worker computes 4,000 rows
        in ~12 s as 256-row passes and ~21 s as 64-row ones (docs/BENCH.md, long documents).
        """
        started = time.perf_counter()
        rows = hidden.shape[1]
        row_bytes = self.hello.hidden_size * torch.finfo(WIRE_DTYPES[self.wire_dtype]).bits // 8
        per_frame = max(1, (self.hello.max_frame - _HEADER_BUDGET - 8 * rows) // row_bytes)
        per_frame = min(per_frame, self.hello.max_block)
        if ancestry is None and pipelined:
            per_frame = min(per_frame, max(MIN_PIPELINE_ROWS, -(-rows // PIPELINE_FRAMES)))
        elif ancestry is None and self.hello.max_pass_rows:
            per_frame = min(per_frame, self.hello.max_pass_rows)
        if ancestry is not None and rows > per_frame:
            raise ValueError(f"a {rows}-token tree block does not fit one frame of the worker's limits")
        requests = []
        for offset in range(0, rows, per_frame):
            end = min(rows, offset + per_frame)
            self._seq += 1
            request = ForwardRequest(
                session=self.session,
                shape=[end - offset, self.hello.hidden_size],
                dtype=self.wire_dtype,
                positions=positions[offset:end],
                ancestry=ancestry,
                edit=(edit or CacheEdit()) if offset == 0 else CacheEdit(),  # the edit precedes the first chunk
                long_rope=long_rope,
            )
            requests.append((self._seq, request, hidden[0, offset:end]))
        first_seq = requests[0][0]
        costs = _Costs()

        async def frames() -> AsyncIterator[bytes]:
            # One at a time, so the first frame is on the wire while the next is packed.
            for seq, request, values in requests:
                packing = time.perf_counter()
                payload = tensor_to_bytes(values, self.wire_dtype)
                if self.codec is not None and len(payload) >= self.min_compressed_bytes:
                    element = element_size(self.wire_dtype)
                    payload = await asyncio.to_thread(compress, payload, element, self.codec)
                    request.codec = request.reply_codec = self.codec
                frame = encode_frame(request.to_header(seq), payload)
                costs.client_ms += (time.perf_counter() - packing) * 1000
                yield frame

        async def unpack(index: int, frame: Frame) -> torch.Tensor:
            result = self._expect(frame, first_seq + index, ForwardResult)
            unpacking = time.perf_counter()
            payload = frame.payload
            if result.codec is not None:
                if result.codec != self.codec:
                    raise WorkerError("malformed", f"the worker replied in codec {result.codec!r}, not one asked for")
                size = payload_size(result.dtype, result.shape)
                element = element_size(result.dtype)
                try:
                    payload = await asyncio.to_thread(decompress, payload, element, size, result.codec)
                except ProtocolError as exc:
                    raise WorkerError(exc.code.value, f"the worker sent a bad reply: {exc.message}") from None
            costs.add(result)
            tensor = tensor_from_bytes(payload, result.dtype, result.shape)
            costs.client_ms += (time.perf_counter() - unpacking) * 1000
            return tensor

        outputs = await self._exchange(frames(), len(requests), unpack)
        output = torch.cat(outputs).unsqueeze(0) if len(outputs) > 1 else outputs[0].unsqueeze(0)
        last = costs.last
        return MiddleReply(
            hidden=output,
            wall_ms=(time.perf_counter() - started) * 1000,
            remote_compute_ms=costs.remote_ms,
            serialization_ms=costs.client_ms + costs.worker_ser_ms,
            frames=len(requests),
            queue_ms=costs.queue_ms,
            pass_id=last.pass_id,
            pass_rows=last.pass_rows,
        )

    async def ping_ms(self) -> float:
        """One WebSocket ping's round trip, in milliseconds: the network alone, no compute."""
        waiter = await self._ws.ping()
        return 1000 * await asyncio.wait_for(waiter, 10)

    async def close(self) -> None:
        """End the session and the connection; never raises."""
        try:
            if self.session:
                await asyncio.wait_for(self._roundtrip(CloseRequest(self.session), Closed), 5)
        except (TimeoutError, WorkerError, ConnectionClosed, OSError):
            pass
        finally:
            await self._ws.close()

    async def _roundtrip(self, request: OpenRequest | CloseRequest, expected: type[R]) -> R:
        self._seq += 1
        seq = self._seq

        async def one() -> AsyncIterator[bytes]:
            yield encode_frame(request.to_header(seq))

        async def check(_: int, frame: Frame) -> R:
            return self._expect(frame, seq, expected)

        (reply,) = await self._exchange(one(), 1, check)
        return reply

    async def _exchange(
        self, frames: AsyncIterator[bytes], count: int, unpack: Callable[[int, Frame], Awaitable[T]]
    ) -> list[T]:
        """Send ``count`` frames and read as many replies, concurrently so neither side's buffers fill up;
        each reply is unpacked as it arrives, while later ones are still on the way.

        Every reply is read even after one fails, so the next request's replies are its own.
        """

        async def send_all() -> None:
            async for frame in frames:
                await self._ws.send(frame)

        async def receive_all() -> list[T]:
            results: list[T] = []
            failure: WorkerError | None = None
            for index in range(count):
                message = await self._ws.recv()
                if failure is not None:
                    continue
                try:
                    results.append(await unpack(index, decode_frame(message)))
                except ProtocolError as exc:
                    failure = WorkerError(exc.code.value, f"the worker sent a bad frame: {exc.message}")
                except WorkerError as exc:
                    failure = exc
            if failure is not None:
                raise failure
            return results

        sending, receiving = asyncio.ensure_future(send_all()), asyncio.ensure_future(receive_all())
        try:
            await asyncio.wait((sending, receiving), return_when=asyncio.FIRST_EXCEPTION)
            if sending.done() and sending.exception() is not None:
                # Fewer requests went than replies are awaited: this connection's replies no longer line up.
                await self._ws.close()
                raise sending.exception()
            replies = await receiving
            await sending
        except ConnectionClosed as exc:
            raise WorkerError("connection_lost", f"the connection to the worker closed: {exc}") from None
        finally:
            for task in (sending, receiving):
                task.cancel()
        return replies

    @staticmethod
    def _expect(frame: Frame, seq: int, expected: type[R]) -> R:
        """The reply ``frame`` holds, if it answers request ``seq`` as ``expected``; WorkerError otherwise."""
        try:
            reply = parse_reply(frame)
        except ProtocolError as exc:
            raise WorkerError(exc.code.value, f"the worker sent a bad reply: {exc.message}") from None
        if isinstance(reply, ErrorReply):
            raise WorkerError(reply.code, reply.message)
        if reply.seq != seq or not isinstance(reply, expected):
            raise WorkerError("out_of_order", f"expected reply {seq}, got {reply.seq} ({frame.type})")
        return reply


@dataclass(frozen=True)
class WorkerProbe:
    """What "Test connection" learns: the weights a worker serves, and the link's round trip."""

    fingerprint: str
    first_layer: int
    last_layer: int  # exclusive
    hidden_size: int
    rtt_ms: float  # the median of a few WebSocket pings: the network alone
    handshake_ms: float  # TCP, TLS, the token check, the hello and a session opened


async def probe_worker(endpoint: str, token: str, pings: int = 3, cert_sha256: str | None = None) -> WorkerProbe:
    """Connect as a client would and report what the worker serves and the link's round trip.

    Raises WorkerError (unauthorized, unreachable, ...) exactly as a real connection would.
    """
    started = time.perf_counter()
    middle = await RemoteMiddle.connect(endpoint, token, cert_sha256=cert_sha256)
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


RETRYABLE = frozenset({"unreachable", "connection_lost", "handshake"})


async def connect_with_retries(
    connect: Callable[[], Awaitable[RemoteMiddle]],
    window_s: float = 60.0,
    notice: Callable[[str], None] | None = None,
    before_attempt: Callable[[], Awaitable[None]] | None = None,
) -> RemoteMiddle:
    """``connect()`` until it succeeds, backing off 0.25 s, 0.5 s, … 4 s between tries.

    Only a worker that cannot be reached is retried; a refusal (401, wrong weights) is final. After
    ``window_s`` the last error is raised.
    """
    deadline = time.monotonic() + window_s
    delay = 0.25
    while True:
        try:
            if before_attempt is not None:
                await before_attempt()
            return await connect()
        except WorkerError as exc:
            if exc.code not in RETRYABLE or time.monotonic() + delay > deadline:
                raise
            if notice:
                notice(f"Worker unreachable; reconnecting in {delay:.2g} s…")
            await asyncio.sleep(delay)
            delay = min(2 * delay, 4.0)
