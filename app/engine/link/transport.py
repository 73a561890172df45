"""The client side of the wire: a session on a worker (reached through ``handshake.py``) running blocks of
hidden states through its middle layers, pipelined so upload, compute and download overlap."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from functools import partial
from typing import TypeVar

import torch
from websockets.asyncio.client import ClientConnection
from websockets.exceptions import ConcurrencyError, ConnectionClosed

from app.engine.link.handshake import open_checked, refuse_unencrypted
from app.engine.link.link_codes import LinkErrorCode, WorkerError
from app.engine.link.middle import MiddleBlock, MiddleReply
from app.engine.link.replies import ExpectedReply
from app.model.kv_cache import CacheEdit
from app.wire.codecs import MIN_COMPRESSED_BYTES, ZSTD_PLANES
from app.wire.frames import (
    DEFAULT_MAX_FRAME,
    WIRE_DTYPES,
    ErrorCode,
    Frame,
    ProtocolError,
    decode_frame,
    element_size,
    encode_frame,
)
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
from app.wire.tensor_payload import pack_rows

_HEADER_BUDGET = 4096  # bytes kept free in each frame for the JSON header
# A long prefill goes as at least this many frames, so upload, the worker's compute and download overlap:
# the first frame must arrive before the worker starts and the last return after it ends. A link-bound
# prefill (1,000 rows at 2 Mbit/s, 9.7 s each way) took 1.61× its slowest phase in 3 frames, 1.24× in 8
# and 1.14× in 16 (BENCH.md, long documents). Not below MIN_PIPELINE_ROWS a frame: each frame is a block
# of its own in the worker's passes.
PIPELINE_FRAMES = 16
MIN_PIPELINE_ROWS = 64
# Frames sent and not yet answered, at most. The worker reads a connection's next frame once it has
# answered the one before, and its WebSocket stops reading the socket when 16 frames wait: a client far
# ahead of a slow worker would leave the worker's keepalive ping's answer queued behind them (a 16,000-token
# prefill to a CPU worker lost its connection that way). Eight frames still cover the link's round trip.
MAX_FRAMES_IN_FLIGHT = 8
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


@dataclass
class _Flight:
    """One block of a stream on its way: its frames' requests, and what they cost so far."""

    requests: list[tuple[int, ForwardRequest, torch.Tensor]]
    started: float = field(default_factory=time.perf_counter)
    costs: _Costs = field(default_factory=_Costs)


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

    @property
    def max_tree_rows(self) -> int:
        """The most rows a speculative tree may hold on this worker: one of its passes, as its hello says (the
        worker refuses a larger one with block_too_large)."""
        return self.hello.max_tree_rows

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
        allow_unencrypted: bool = False,
    ) -> RemoteMiddle:
        """Connect, authenticate, check the worker's shard and open a session.

        With ``compress`` large frames go compressed both ways, losslessly, when the worker offers the
        codec (an older one does not: then raw bytes, as before).

        ``expected_fingerprint`` is the fingerprint itself, or a function of the dtype the worker says its
        shard stores (an admin may export a float32 model as bfloat16), run on a thread. ``wss://``
        endpoints are verified against the system's trust store, or, with ``cert_sha256``, against that one
        pinned certificate (self-signed workers). A ``ws://`` endpoint beyond this computer is refused before
        anything is sent, unless ``allow_unencrypted`` (the administrator's policy) says otherwise.
        """
        refuse_unencrypted(endpoint, allow_unencrypted)  # before anything else, as the policy is the first word
        if wire_dtype not in WIRE_DTYPES:
            raise ValueError(f"wire dtype must be one of {', '.join(WIRE_DTYPES)}")
        ws, hello = await open_checked(
            endpoint,
            token,
            expected_fingerprint=expected_fingerprint,
            expected_layers=expected_layers,
            max_frame=max_frame,
            open_timeout=open_timeout,
            cert_sha256=cert_sha256,
            allow_unencrypted=allow_unencrypted,
        )
        try:
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
    ) -> MiddleReply:
        """Run a block through the worker; long blocks go as several frames, pipelined."""
        started = time.perf_counter()
        requests = self._requests(hidden, positions, ancestry, edit, long_rope, whole_passes=False)
        expected = [ExpectedReply.to(seq, request) for seq, request, _ in requests]  # fixed before anything is sent
        costs = _Costs()

        async def frames() -> AsyncIterator[bytes]:
            # One at a time, so the first frame is on the wire while the next is packed.
            for seq, request, values in requests:
                yield await self._pack(seq, request, values, costs)

        async def unpack(index: int, frame: Frame) -> torch.Tensor:
            return await self._unpack(frame, expected[index], costs)

        outputs = await self._exchange(frames(), len(requests), unpack)
        return self._reply(outputs, costs, started, len(requests))

    async def stream(self, blocks: AsyncIterator[MiddleBlock], depth: int) -> AsyncIterator[MiddleReply]:
        """Consecutive causal blocks (a long prefill), up to ``depth`` of them in flight: the next block leaves
        while the worker computes this one, so round trips and transfers hide under its compute.

        ``blocks`` is pulled only when a block may leave, so what produces it (the head layers) runs while
        the worker computes. Each block goes as whole worker passes, at most MAX_FRAMES_IN_FLIGHT frames
        unanswered, and its reply is yielded in order. After a failure no further block leaves (the rest of
        one already leaving still goes), the replies to what went are read (so the connection's replies stay
        in step) and the first error is raised; an error from ``blocks`` comes after those replies too.
        """
        slots = asyncio.Semaphore(depth)
        window = asyncio.Semaphore(MAX_FRAMES_IN_FLIGHT)
        flights: asyncio.Queue[_Flight | None] = asyncio.Queue()
        halted = False
        send_failure: BaseException | None = None  # what broke sending (the connection is then closed)

        async def send_all() -> None:
            nonlocal send_failure
            try:
                while True:
                    await slots.acquire()
                    block = None if halted else await anext(blocks, None)
                    if block is None or halted:
                        return
                    requests = self._requests(
                        block.hidden, block.positions, None, block.edit, block.long_rope, whole_passes=True
                    )
                    flight = _Flight(requests)
                    flights.put_nowait(flight)
                    try:
                        for seq, request, values in requests:
                            await window.acquire()
                            await self._ws.send(await self._pack(seq, request, values, flight.costs))
                    except BaseException as exc:
                        send_failure = exc
                        await self._ws.close()  # part of a block went: replies would no longer line up
                        raise
            finally:
                flights.put_nowait(None)

        sender = asyncio.ensure_future(send_all())
        failure: WorkerError | None = None
        finished = False
        try:
            while (flight := await flights.get()) is not None:
                outputs = []
                for seq, request, _ in flight.requests:
                    try:
                        message = await self._ws.recv()
                    except ConnectionClosed as exc:
                        if send_failure is not None and not isinstance(send_failure, ConnectionClosed):
                            raise send_failure from None  # packing failed here: say so, not "connection lost"
                        raise WorkerError(
                            LinkErrorCode.CONNECTION_LOST, f"the connection to the worker closed: {exc}"
                        ) from None
                    window.release()
                    if failure is not None:
                        continue
                    reply = ExpectedReply.to(seq, request)
                    outcome = await self._read(message, partial(self._unpack, expected=reply, costs=flight.costs))
                    if isinstance(outcome, WorkerError):
                        failure = outcome
                    else:
                        outputs.append(outcome)
                    halted = halted or failure is not None  # no block leaves after a failure
                slots.release()
                if failure is None:
                    yield self._reply(outputs, flight.costs, flight.started, len(flight.requests))
            finished = True  # every reply to what went was read: the connection is in step
            await sender
            if failure is not None:
                raise failure
        finally:
            if not sender.done():
                sender.cancel()
            elif not sender.cancelled():
                sender.exception()  # retrieved: raised above, or superseded by the receiving side's error
            if not finished:
                await self._ws.close()  # left early: replies still on the way would answer the next request

    async def ping_ms(self) -> float:
        """One WebSocket ping's round trip, in milliseconds: the network alone, no compute."""
        waiter = await self._ws.ping()
        return 1000 * await asyncio.wait_for(waiter, 10)

    async def close(self) -> None:
        """End the session and the connection; never raises."""
        try:
            if self.session:
                await asyncio.wait_for(self._roundtrip(CloseRequest(self.session), Closed), 5)
        except (TimeoutError, WorkerError, ConnectionClosed, ConcurrencyError, OSError):
            pass  # ConcurrencyError: something still reads the connection; closing it ends that too
        finally:
            await self._ws.close()

    def _requests(
        self,
        hidden: torch.Tensor,
        positions: list[int],
        ancestry: torch.Tensor | None,
        edit: CacheEdit | None,
        long_rope: bool,
        whole_passes: bool,
    ) -> list[tuple[int, ForwardRequest, torch.Tensor]]:
        """A block cut into frames within the worker's limits, each with its sequence number and rows.

        A causal block goes as a pipeline of small frames, or with ``whole_passes`` (a block of a stream,
        already one of several) as frames as large as one of the worker's passes: a CPU worker computes
        4,000 rows in ~12 s as 256-row passes and ~21 s as 64-row ones (docs/BENCH.md, long documents).
        """
        rows, hidden_size = hidden.shape[1], hidden.shape[-1]  # this side's own rows, not the hello's word
        row_bytes = hidden_size * element_size(self.wire_dtype)
        per_frame = max(1, (self.hello.max_frame - _HEADER_BUDGET - 8 * rows) // row_bytes)
        per_frame = min(per_frame, self.hello.max_block)
        if ancestry is None and not whole_passes:
            per_frame = min(per_frame, max(MIN_PIPELINE_ROWS, -(-rows // PIPELINE_FRAMES)))
        elif ancestry is None and self.hello.max_pass_rows:
            per_frame = min(per_frame, self.hello.max_pass_rows)
        if ancestry is not None and rows > min(per_frame, self.max_tree_rows):
            raise ValueError(f"a {rows}-token tree block does not fit one frame or pass of the worker's limits")
        requests = []
        for offset in range(0, rows, per_frame):
            end = min(rows, offset + per_frame)
            self._seq += 1
            request = ForwardRequest(
                session=self.session,
                shape=[end - offset, hidden_size],
                dtype=self.wire_dtype,
                positions=positions[offset:end],
                ancestry=ancestry,
                edit=(edit or CacheEdit()) if offset == 0 else CacheEdit(),  # the edit precedes the first chunk
                long_rope=long_rope,
            )
            if self.codec is not None and (end - offset) * row_bytes >= self.min_compressed_bytes:
                # Decided here, not when packing: the reply's codec is part of what the request expects.
                request.codec = request.reply_codec = self.codec
            requests.append((self._seq, request, hidden[0, offset:end]))
        return requests

    async def _pack(self, seq: int, request: ForwardRequest, values: torch.Tensor, costs: _Costs) -> bytes:
        """One request's frame, its rows compressed off the event loop when large enough."""
        packing = time.perf_counter()
        if request.codec is None:
            payload = pack_rows(values, self.wire_dtype, None)
        else:  # off the event loop: zstd releases the GIL
            payload = await asyncio.to_thread(pack_rows, values, self.wire_dtype, request.codec)
        frame = encode_frame(request.to_header(seq), payload)
        costs.client_ms += (time.perf_counter() - packing) * 1000
        return frame

    async def _unpack(self, frame: Frame, expected: ExpectedReply, costs: _Costs) -> torch.Tensor:
        """The rows of the reply ``expected``; WorkerError if the frame is not that reply or is malformed.

        The header is checked against the request before the payload is touched, so what a reply may make
        this side allocate is bounded by what it asked for (docs/PROTOCOL.md, "Replies are bounded").
        """
        result = self._expect(frame, expected.seq, ForwardResult)
        expected.check(result, len(frame.payload))
        unpacking = time.perf_counter()
        if expected.codec is not None:
            tensor = await asyncio.to_thread(expected.rows_of, frame.payload)
        else:
            tensor = expected.rows_of(frame.payload)
        costs.add(result)
        costs.client_ms += (time.perf_counter() - unpacking) * 1000
        return tensor

    @staticmethod
    def _reply(outputs: list[torch.Tensor], costs: _Costs, started: float, frames: int) -> MiddleReply:
        output = torch.cat(outputs).unsqueeze(0) if len(outputs) > 1 else outputs[0].unsqueeze(0)
        last = costs.last
        return MiddleReply(
            hidden=output,
            wall_ms=(time.perf_counter() - started) * 1000,
            remote_compute_ms=costs.remote_ms,
            serialization_ms=costs.client_ms + costs.worker_ser_ms,
            frames=frames,
            queue_ms=costs.queue_ms,
            pass_id=last.pass_id,
            pass_rows=last.pass_rows,
        )

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

        window = asyncio.Semaphore(MAX_FRAMES_IN_FLIGHT)

        async def send_all() -> None:
            while True:
                await window.acquire()
                frame = await anext(frames, None)
                if frame is None:
                    return
                await self._ws.send(frame)

        in_step = False

        async def receive_all() -> list[T]:
            nonlocal in_step
            results: list[T] = []
            failure: WorkerError | None = None
            for index in range(count):
                message = await self._ws.recv()
                window.release()
                if failure is not None:
                    continue
                outcome = await self._read(message, partial(unpack, index))
                if isinstance(outcome, WorkerError):
                    failure = outcome
                else:
                    results.append(outcome)
            in_step = True  # every reply was read
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
            raise WorkerError(LinkErrorCode.CONNECTION_LOST, f"the connection to the worker closed: {exc}") from None
        finally:
            for task in (sending, receiving):
                task.cancel()
            if not in_step:
                await self._ws.close()  # left early (cancelled): replies on the way would answer the next request
        return replies

    @staticmethod
    async def _read(message: bytes | str, read: Callable[[Frame], Awaitable[T]]) -> T | WorkerError:
        """What ``read`` makes of one reply, or the error it makes of it — returned, not raised: the caller
        still reads the replies after it, so the connection's replies stay in step."""
        try:
            return await read(decode_frame(message))
        except ProtocolError as exc:
            return WorkerError(exc.code.value, f"the worker sent a bad frame: {exc.message}")
        except WorkerError as exc:
            return exc

    @staticmethod
    def _expect(frame: Frame, seq: int, expected: type[R]) -> R:
        """The reply ``frame`` holds, if it answers request ``seq`` as ``expected``; WorkerError otherwise."""
        try:
            reply = parse_reply(frame)
        except ProtocolError as exc:
            raise WorkerError(exc.code.value, f"the worker sent a bad reply: {exc.message}") from None
        except OverflowError:  # a timing of 1e400 digits or Infinity, which JSON as Python reads it allows
            raise WorkerError(ErrorCode.MALFORMED, "the worker sent a bad reply: a number out of range") from None
        if isinstance(reply, ErrorReply):
            raise WorkerError(reply.code, reply.message, refused=reply.code != ErrorCode.INTERNAL)
        if reply.seq != seq or not isinstance(reply, expected):
            raise WorkerError(LinkErrorCode.OUT_OF_ORDER, f"expected reply {seq}, got {reply.seq} ({frame.type})")
        return reply
