"""The client reads a worker's reply against the request it answers, never against the reply's own header.

Fuzzed as the worker is fuzzed with fake clients (tests/integration/test_worker_under_load.py): arbitrary
headers and payloads go through the very path a reply takes (``RemoteMiddle._read`` and ``_unpack``);
only a typed WorkerError may come out, a reply is accepted only as exactly the rows asked for, and memory
stays bounded whatever the header or a zstd frame declares.
"""

from __future__ import annotations

import asyncio
import json
import struct
import warnings
from functools import partial

import pytest
import torch
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from hypothesis.errors import NonInteractiveExampleWarning

from app.engine.link.link_codes import WorkerError
from app.engine.link.replies import ExpectedReply, ReplyMismatch
from app.engine.link.transport import RemoteMiddle, _Costs
from app.wire.codecs import ZSTD_PLANES, compress, compressed_bound, decompress
from app.wire.frames import PROTOCOL_VERSION, ErrorCode, ProtocolError, encode_frame, tensor_to_bytes
from app.wire.messages import ForwardResult, Hello
from tests.hostile_replies import peak_rss_growth, zero_frame

HIDDEN = 64
ROWS = 8
SEQ = 7
HELLO = Hello("sha256:" + "0" * 64, 1, 3, 4, HIDDEN, "llama", "float32", 1 << 20, 300.0, 2048, codecs=(ZSTD_PLANES,))
RAW = ExpectedReply(SEQ, ROWS, HIDDEN, "float16", None)
PACKED = ExpectedReply(SEQ, ROWS, HIDDEN, "float16", ZSTD_PLANES)
ROW_BYTES = tensor_to_bytes(torch.randn(ROWS, HIDDEN), "float16")
BOMB_CONTENT = 256 << 20


def _middle() -> RemoteMiddle:
    return RemoteMiddle(None, HELLO, "s" * 32, "float16", ZSTD_PLANES)  # no connection: only replies are read


def read(message: bytes | str, expected: ExpectedReply) -> torch.Tensor | WorkerError:
    """What the client makes of one reply message: its rows, or the typed error it becomes."""
    middle = _middle()
    return asyncio.run(middle._read(message, partial(middle._unpack, expected=expected, costs=_Costs())))


def reply(expected: ExpectedReply, payload: bytes, **header) -> bytes:
    honest = ForwardResult(
        expected.seq, [expected.rows, expected.hidden], expected.dtype, 1.0, 0.1, 9, codec=expected.codec
    )
    return encode_frame({**honest.to_header(), **header}, payload)


def test_the_rows_asked_for_come_back_raw_and_compressed():
    for expected, payload in ((RAW, ROW_BYTES), (PACKED, compress(ROW_BYTES, 2))):
        rows = read(reply(expected, payload), expected)
        assert isinstance(rows, torch.Tensor) and rows.shape == (ROWS, HIDDEN) and rows.dtype == torch.float16
        assert tensor_to_bytes(rows, "float16") == ROW_BYTES


def test_what_a_request_expects_is_fixed_when_it_is_made():
    middle = _middle()
    middle.min_compressed_bytes = 4096
    hidden = torch.randn(1, 40, HIDDEN)  # 40 rows of 128 bytes: a 32-row and an 8-row frame
    middle.hello = Hello(**{**HELLO.__dict__, "max_block": 32})
    requests = middle._requests(hidden, list(range(40)), None, None, False, whole_passes=False)
    expected = [ExpectedReply.to(seq, request) for seq, request, _ in requests]
    assert [(e.rows, e.hidden, e.dtype) for e in expected] == [(32, HIDDEN, "float16"), (8, HIDDEN, "float16")]
    assert [e.codec for e in expected] == [ZSTD_PLANES, None]  # 4 KiB is compressed, 1 KiB goes raw
    assert [r.reply_codec for _, r, _ in requests] == [e.codec for e in expected]
    assert expected[0].nbytes == 32 * HIDDEN * 2


def test_the_rows_of_a_request_are_this_sides_not_the_hellos():
    middle = _middle()
    middle.hello = Hello(**{**HELLO.__dict__, "hidden_size": 1})  # a hello that lies about the hidden size
    (seq, request, _), *_ = middle._requests(torch.randn(1, 4, HIDDEN), [0, 1, 2, 3], None, None, False, False)
    assert request.shape == [4, HIDDEN]


@pytest.mark.parametrize(
    ("message", "expected", "code"),
    [
        (
            reply(PACKED, zero_frame(BOMB_CONTENT), shape=[BOMB_CONTENT // (2 * HIDDEN), HIDDEN]),
            PACKED,
            "reply_mismatch",
        ),
        (reply(RAW, bytes(ROWS * HIDDEN * 4), dtype="float32"), RAW, "reply_mismatch"),
        (reply(RAW, ROW_BYTES[: -2 * HIDDEN], shape=[ROWS - 1, HIDDEN]), RAW, "reply_mismatch"),
        (reply(RAW, ROW_BYTES, codec=ZSTD_PLANES), RAW, "reply_mismatch"),
        (reply(PACKED, ROW_BYTES, codec=None), PACKED, "reply_mismatch"),
        (reply(RAW, ROW_BYTES[:-1]), RAW, "reply_mismatch"),
        (reply(PACKED, zero_frame(len(ROW_BYTES) + 2)), PACKED, "reply_mismatch"),  # declares 2 bytes more
        (reply(PACKED, zero_frame(len(ROW_BYTES), 16 << 20)), PACKED, "malformed"),  # holds more than it says
        (reply(PACKED, bytes(compressed_bound(len(ROW_BYTES)) + 1)), PACKED, "reply_mismatch"),
        (reply(RAW, ROW_BYTES, seq=SEQ + 1), RAW, "out_of_order"),
        (reply(RAW, ROW_BYTES, compute_ms=float("nan")), RAW, "malformed"),
        (reply(RAW, ROW_BYTES, queue_ms=10**400), RAW, "malformed"),
        (reply(RAW, ROW_BYTES, cache_len=float("inf")), RAW, "malformed"),
    ],
    ids=[
        "inflated",
        "dtype",
        "rows",
        "codec-not-asked",
        "codec-missing",
        "short",
        "zstd-declares-more",
        "zstd-holds-more",
        "longer-than-any-compression",
        "seq",
        "nan-timing",
        "huge-timing",
        "infinite-cache-length",
    ],
)
def test_a_wrong_reply_is_its_typed_error(message, expected, code):
    with peak_rss_growth() as growth:
        outcome = read(message, expected)
    assert isinstance(outcome, WorkerError) and outcome.code == code, outcome
    assert isinstance(outcome, ReplyMismatch) == (code == ReplyMismatch.CODE)
    assert growth[0] < 50


def test_a_zstd_frame_is_decompressed_into_the_size_asked_for_whatever_it_holds():
    """The worker reads compressed requests through the same function: a frame whose blocks hold more than
    its header declares fails on a buffer of the declared size, it does not grow one."""
    with peak_rss_growth() as growth, pytest.raises(ProtocolError) as refused:
        decompress(zero_frame(1 << 20, BOMB_CONTENT), 2, 1 << 20)
    assert refused.value.code is ErrorCode.MALFORMED
    assert growth[0] < 50
    assert decompress(zero_frame(1 << 20), 2, 1 << 20) == bytes(1 << 20)


# -- fuzzing ---------------------------------------------------------------------------------------
JSONISH = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
    max_leaves=6,
)
SIZES = st.integers(-2, 2**40)
HEADERS = st.fixed_dictionaries(
    {
        "v": st.sampled_from([PROTOCOL_VERSION] * 4 + [0, "1", None]),
        "type": st.sampled_from(["result"] * 4 + ["error", "opened", "closed", "hello", "", 3]),
        "seq": st.sampled_from([SEQ] * 4 + [SEQ + 1, None, "7"]),
    },
    optional={
        "shape": st.sampled_from([[ROWS, HIDDEN]] * 3) | st.lists(SIZES, max_size=3) | JSONISH,
        "dtype": st.sampled_from(["float16", "float16", "float32", "bfloat16", "int8"]) | JSONISH,
        "codec": st.sampled_from([None, ZSTD_PLANES, ZSTD_PLANES, "gzip", ""]) | JSONISH,
        "compute_ms": st.floats() | st.integers(-(10**400), 10**400) | JSONISH,
        "serialize_ms": st.floats(),
        "queue_ms": st.floats(),
        "cache_len": st.floats() | st.integers(-(2**70), 2**70) | JSONISH,
        "pass": st.integers(-(2**70), 2**70) | JSONISH,
        "pass_rows": JSONISH,
        "code": JSONISH,
        "message": JSONISH,
    },
)
PAYLOADS = st.one_of(
    st.binary(max_size=2048),
    st.just(ROW_BYTES),
    st.just(compress(ROW_BYTES, 2)),
    # Zstd frames lying about their size, and honest about a size never asked for. Their content stays
    # within 256 MiB so that a client without the bounds (the test run before the fix) fails, not the machine.
    st.builds(zero_frame, SIZES.filter(lambda n: n >= 0), st.integers(0, BOMB_CONTENT)),
    st.builds(lambda n: zero_frame(n), st.integers(0, BOMB_CONTENT)),
    st.builds(lambda data: compress(data, 2), st.binary(max_size=4096).map(lambda b: b[: len(b) // 2 * 2])),
)


def _framed(header: dict, payload: bytes) -> bytes:
    raw = json.dumps(header, separators=(",", ":")).encode()  # NaN and Infinity as Python's json writes them
    return struct.pack("<I", len(raw)) + raw + payload


MESSAGES = st.one_of(
    st.builds(_framed, HEADERS, PAYLOADS),
    st.binary(max_size=200),  # noise
    st.builds(lambda n, rest: struct.pack("<I", n) + rest, st.integers(0, 2**32 - 1), st.binary(max_size=40)),
    st.text(max_size=40),  # text messages are not part of the protocol
)


@pytest.fixture(scope="module")
def memory():
    """The whole fuzz run's growth of this process's memory.

    Hypothesis builds its table of Unicode characters (~180 MiB, cached on disk after) the first time a
    text strategy draws in a checkout, so one draw happens before the measure starts.
    """
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NonInteractiveExampleWarning)
        st.text(min_size=1).example()
    with peak_rss_growth() as growth:
        yield
    print(f"RSS growth over the fuzzed replies: {growth[0]:.1f} MiB")
    assert growth[0] < 100


@settings(max_examples=200, deadline=None, database=None, suppress_health_check=list(HealthCheck))
@given(message=MESSAGES, expected=st.sampled_from([RAW, PACKED]))
@example(reply(PACKED, zero_frame(1 << 34, BOMB_CONTENT), shape=[(1 << 34) // (2 * HIDDEN), HIDDEN]), PACKED)
@example(reply(RAW, zero_frame(BOMB_CONTENT), shape=[BOMB_CONTENT // (2 * HIDDEN), HIDDEN], codec=ZSTD_PLANES), RAW)
def test_fuzzed_replies_are_the_rows_asked_for_or_a_typed_error(memory, message, expected):
    outcome = read(message, expected)  # anything but a WorkerError raised here fails the test
    if isinstance(outcome, torch.Tensor):
        assert outcome.shape == (expected.rows, expected.hidden) and outcome.dtype == torch.float16
    else:
        assert isinstance(outcome, WorkerError) and isinstance(outcome.code, str), outcome
