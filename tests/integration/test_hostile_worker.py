"""A hostile worker against the client: every reply is bounded by the request it answers.

The fake worker is a real WebSocket server on loopback that speaks first with the hello a real worker
sent — so the client's fingerprint and layer checks pass, as they would for an impostor copying a real
worker's hello — and answers each forward as the test says: honestly (it returns the rows it was sent), or
with a reply whose header or payload is wrong. Every wrong reply must end in a typed WorkerError, and
none may make the client allocate more than it asked for.
"""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import Callable
from dataclasses import replace

import pytest
import torch
from websockets.asyncio.server import ServerConnection, serve
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect as sync_connect

from app.engine.link.link_codes import WorkerError
from app.engine.link.local_worker import LocalWorker
from app.engine.link.replies import ReplyMismatch
from app.engine.link.transport import RemoteMiddle
from app.wire.codecs import ZSTD_PLANES, compress, decompress
from app.wire.frames import Frame, decode_frame, element_size, encode_frame, payload_size
from app.wire.messages import Closed, ForwardRequest, ForwardResult, Opened
from tests.hostile_replies import peak_rss_growth, zero_frame

ROWS = 8
BOMB_BYTES = 256 << 20  # what the inflated reply declares: before the fix the client unpacked it ~3 times
RSS_LIMIT_MIB = 100

Answer = Callable[[Frame], list[bytes | str]]  # a forward request -> the messages sent back for it


def real_hello(shard) -> dict:
    """The hello a real worker serving ``shard`` speaks first with."""
    worker = LocalWorker(shard)
    worker.start()
    try:
        headers = {"Authorization": f"Bearer {worker.token}"}
        with sync_connect(worker.endpoint, additional_headers=headers) as ws:
            return decode_frame(ws.recv()).header
    finally:
        worker.stop()


@pytest.fixture(scope="module")
def tiny_hello(tiny_split) -> dict:
    return real_hello(tiny_split[2])


class FakeWorker:
    """A WebSocket server on loopback: a copied hello, sessions opened and closed, forwards as ``answer`` says."""

    def __init__(self, hello: dict, answer: Answer):
        self.hello = hello
        self.answer = answer
        self.forwards = 0

    async def __aenter__(self) -> FakeWorker:
        self._server = await serve(self._serve, "127.0.0.1", 0, compression=None, max_size=None)
        self.endpoint = f"ws://127.0.0.1:{self._server.sockets[0].getsockname()[1]}"
        return self

    async def __aexit__(self, *_) -> None:
        self._server.close()
        await self._server.wait_closed()

    async def _serve(self, ws: ServerConnection) -> None:
        try:
            await ws.send(encode_frame(self.hello))
            async for message in ws:
                frame = decode_frame(message)
                seq = frame.header.get("seq")
                if frame.type == "open":
                    await ws.send(encode_frame(Opened(seq, "f" * 32).to_header()))
                elif frame.type == "close":
                    await ws.send(encode_frame(Closed(seq).to_header()))
                else:
                    self.forwards += 1
                    for reply in self.answer(frame):
                        await ws.send(reply)
        except ConnectionClosed:
            pass


def _asked(frame: Frame) -> tuple[ForwardRequest, bytes]:
    """A forward request and its rows as raw bytes."""
    request = ForwardRequest.from_header(frame.header)
    payload = frame.payload
    if request.codec:
        size = payload_size(request.dtype, request.shape)
        payload = decompress(payload, element_size(request.dtype), size, request.codec)
    return request, payload


def _result(frame: Frame, request: ForwardRequest, **changes) -> ForwardResult:
    honest = ForwardResult(frame.header["seq"], request.shape, request.dtype, 1.0, 0.1, 0, codec=request.reply_codec)
    return replace(honest, **changes)


def honest(frame: Frame) -> list[bytes]:
    """What a worker whose middle is the identity sends: the rows it got, as the request asked."""
    request, rows = _asked(frame)
    payload = compress(rows, element_size(request.dtype), request.reply_codec) if request.reply_codec else rows
    return [encode_frame(_result(frame, request).to_header(), payload)]


def inflated(frame: Frame) -> list[bytes]:
    """The attack: a compressed reply of a few KB whose shape and zstd frame both declare BOMB_BYTES."""
    request, _ = _asked(frame)
    hidden = request.shape[1]
    rows = BOMB_BYTES // (hidden * element_size(request.dtype))
    header = _result(frame, request, shape=[rows, hidden], codec=ZSTD_PLANES).to_header()
    return [encode_frame(header, zero_frame(rows * hidden * element_size(request.dtype)))]


def raw_as(frame: Frame, **changes) -> list[bytes]:
    """A raw reply with ``changes`` to its header; its payload as long as its own header says."""
    request, _ = _asked(frame)
    result = _result(frame, request, **{"codec": None, **changes})
    return [encode_frame(result.to_header(), bytes(payload_size(result.dtype, result.shape)))]


def split_in_two(frame: Frame) -> list[bytes]:
    """The rows asked for as two replies of half as many rows each: more frames than requests."""
    request, rows = _asked(frame)
    half, size = request.shape[0] // 2, len(rows) // 2
    shape = [half, request.shape[1]]
    return [encode_frame(_result(frame, request, shape=shape, codec=None).to_header(), rows[:size])] * 2


def truncated(frame: Frame) -> list[bytes]:
    return [honest(frame)[0][:-5]]


def cut_in_header(frame: Frame) -> list[bytes]:
    return [honest(frame)[0][:12]]


def raw_where_compressed_asked(frame: Frame) -> list[bytes]:
    request, rows = _asked(frame)
    return [encode_frame(_result(frame, request, codec=None).to_header(), rows)]


def lying_zstd_frame(frame: Frame) -> list[bytes]:
    """A header as asked and a zstd frame that declares the size asked for but holds 16 MiB (in 525 bytes)."""
    request, rows = _asked(frame)
    return [encode_frame(_result(frame, request).to_header(), zero_frame(len(rows), 16 << 20))]


async def _open(fake: FakeWorker, hello: dict) -> RemoteMiddle:
    return await RemoteMiddle.connect(
        fake.endpoint,
        "not-a-token-the-fake-checks",
        expected_fingerprint=hello["fingerprint"],
        expected_layers=(hello["first_layer"], hello["last_layer"]),
        wire_dtype="float16",
        compress=True,
    )


def _block(hello: dict, rows: int = ROWS) -> tuple[torch.Tensor, list[int]]:
    return torch.randn(1, rows, hello["hidden_size"]), list(range(rows))


async def test_an_honest_fake_is_understood(tiny_hello):
    """The fake speaks the protocol: what the failures below show is the client's checks, not a broken fake."""
    async with FakeWorker(tiny_hello, honest) as fake:
        middle = await _open(fake, tiny_hello)
        for min_compressed in (1 << 30, 0):  # raw, then compressed both ways
            middle.min_compressed_bytes = min_compressed
            hidden, positions = _block(tiny_hello)
            reply = await middle.forward(hidden, positions)
            assert torch.equal(reply.hidden, hidden.to(torch.float16))
        await middle.close()


async def test_an_inflated_shape_is_refused_before_anything_is_allocated(tiny_hello):
    async with FakeWorker(tiny_hello, inflated) as fake:
        middle = await _open(fake, tiny_hello)
        middle.min_compressed_bytes = 0  # the request asks for a compressed reply: the codec is as asked
        hidden, positions = _block(tiny_hello)
        with peak_rss_growth() as growth, pytest.raises(ReplyMismatch) as refused:
            await middle.forward(hidden, positions)
        await middle.close()
    print(f"client RSS growth under a {BOMB_BYTES >> 20} MiB inflated reply: {growth[0]:.1f} MiB")
    assert refused.value.code == "reply_mismatch" and "shape" in str(refused.value)
    assert growth[0] < RSS_LIMIT_MIB


@pytest.mark.parametrize(
    ("answer", "compressed", "code"),
    [
        (lambda frame: raw_as(frame, dtype="float32"), False, "reply_mismatch"),  # another dtype
        (lambda frame: raw_as(frame, shape=[ROWS - 1, frame.header["shape"][1]]), False, "reply_mismatch"),
        (lambda frame: raw_as(frame, shape=[ROWS, 2 * frame.header["shape"][1]]), False, "reply_mismatch"),
        (raw_where_compressed_asked, True, "reply_mismatch"),  # another codec
        (lambda frame: honest_compressed_anyway(frame), False, "reply_mismatch"),
        (lambda frame: raw_as(frame, codec="gzip"), False, "reply_mismatch"),
        (truncated, False, "reply_mismatch"),  # a payload short of the rows asked for
        (truncated, True, "malformed"),  # a zstd frame cut short
        (cut_in_header, False, "malformed"),
        (split_in_two, False, "reply_mismatch"),  # more frames than requests
        (lying_zstd_frame, True, "malformed"),
        (lambda frame: ["a text message"], False, "malformed"),
    ],
    ids=[
        "dtype",
        "fewer-rows",
        "wider-rows",
        "raw-where-compressed-asked",
        "compressed-where-raw-asked",
        "unknown-codec",
        "truncated-raw",
        "truncated-zstd",
        "cut-in-header",
        "two-frames-for-one",
        "zstd-frame-holds-more-than-it-declares",
        "text",
    ],
)
async def test_a_reply_other_than_asked_is_a_typed_worker_error(tiny_hello, answer, compressed, code):
    async with FakeWorker(tiny_hello, answer) as fake:
        middle = await _open(fake, tiny_hello)
        middle.min_compressed_bytes = 0 if compressed else 1 << 30
        hidden, positions = _block(tiny_hello)
        with peak_rss_growth() as growth, pytest.raises(WorkerError) as refused:
            await middle.forward(hidden, positions)
        await middle.close()
    assert refused.value.code == code, refused.value
    assert not refused.value.refused  # the worker's side may have changed: the session starts afresh
    assert growth[0] < RSS_LIMIT_MIB


def honest_compressed_anyway(frame: Frame) -> list[bytes]:
    """A reply compressed though the request asked for raw rows."""
    request, rows = _asked(frame)
    payload = compress(rows, element_size(request.dtype))
    return [encode_frame(_result(frame, request, codec=ZSTD_PLANES).to_header(), payload)]


async def test_a_stray_extra_reply_fails_the_next_request_not_answers_it(tiny_hello):
    """One request, two replies: the extra one must never pass for the next request's rows."""
    async with FakeWorker(tiny_hello, lambda frame: honest(frame) * 2) as fake:
        middle = await _open(fake, tiny_hello)
        hidden, positions = _block(tiny_hello)
        await middle.forward(hidden, positions)
        with pytest.raises(WorkerError) as refused:
            await middle.forward(*_block(tiny_hello))
        await middle.close()
    assert refused.value.code == "out_of_order"


async def test_a_streamed_prefill_refuses_an_inflated_reply_too(tiny_hello):
    from app.engine.link.middle import MiddleBlock

    async def blocks():
        for start in (0, ROWS):
            hidden, _ = _block(tiny_hello)
            yield MiddleBlock(hidden, list(range(start, start + ROWS)))

    async with FakeWorker(tiny_hello, inflated) as fake:
        middle = await _open(fake, tiny_hello)
        middle.min_compressed_bytes = 0
        with peak_rss_growth() as growth, pytest.raises(ReplyMismatch):
            async for _ in middle.stream(blocks(), depth=2):
                pass
        await middle.close()
    assert growth[0] < RSS_LIMIT_MIB


@pytest.mark.parametrize(
    "changes",
    [{"max_frame": "big"}, {"hidden_size": 0}, {"max_block": -1}, {"fingerprint": None}],
    ids=["max-frame-text", "no-hidden-size", "negative-max-block", "no-fingerprint"],
)
async def test_a_hello_whose_sizes_cannot_be_used_is_a_typed_worker_error(tiny_hello, changes):
    async with FakeWorker({**tiny_hello, **changes}, honest) as fake:
        with pytest.raises(WorkerError) as refused:
            await RemoteMiddle.connect(fake.endpoint, "t", compress=True)
    assert refused.value.code == "malformed"


@pytest.mark.bundled
async def test_ask_against_an_inflating_worker_exits_with_the_typed_error_and_no_traceback():
    from app.engine.link.export import embedded_shard
    from app.engine.source.specs import resolve_model
    from app.model.choices import SplitSpec

    hello = await asyncio.to_thread(real_hello, embedded_shard(resolve_model(), SplitSpec(2, 2)))
    async with FakeWorker(hello, inflated) as fake:
        ask = ["-m", "app", "ask", "Say hi.", "--endpoint", fake.endpoint, "--split", "2"]
        ask += ["--max-new-tokens", "4", "--no-pseudonymise", "--json"]
        env = {**os.environ, "SPLITCHAT_TOKEN": "a-token-the-fake-ignores"}
        env.pop("SPLITCHAT_DEBUG", None)
        process = await asyncio.create_subprocess_exec(
            sys.executable, *ask, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE, env=env
        )
        stdout, stderr = await asyncio.wait_for(process.communicate(), 300)
        forwards = fake.forwards
    message = stderr.decode()
    assert forwards >= 1, message  # it got as far as asking the worker
    assert process.returncode == 1, (stdout, message)
    assert "the worker's reply does not match the request" in message
    assert "Traceback" not in message and "unexpected" not in message
    assert b"tokens" not in stdout  # no answer was printed
