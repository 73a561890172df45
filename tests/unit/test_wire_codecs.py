"""Compressed hidden-state payloads: bit-exact both ways, smaller on real-looking rows, and safe to read."""

from __future__ import annotations

import pytest
import torch
import zstandard
from hypothesis import given, settings
from hypothesis import strategies as st

from app.wire.codecs import ZSTD_PLANES, compress, decompress
from app.wire.frames import ErrorCode, ProtocolError, tensor_from_bytes, tensor_to_bytes
from app.wire.messages import ForwardRequest, ForwardResult, Hello
from app.wire.tensor_payload import pack_rows, unpack_rows


def _rows(dtype: torch.dtype, rows: int = 256, hidden: int = 576) -> torch.Tensor:
    """Hidden-state-like rows: a few large outlier channels over small values, as transformers' residuals."""
    generator = torch.Generator().manual_seed(0)
    values = torch.randn(rows, hidden, generator=generator) * 0.5
    values[:, 7] *= 400  # the massive-activation channels real residual streams carry
    return values.to(dtype)


@pytest.mark.parametrize("dtype", ["float32", "bfloat16", "float16"])
def test_compressed_rows_come_back_bit_for_bit_and_smaller(dtype):
    rows = _rows(getattr(torch, dtype))
    raw = tensor_to_bytes(rows, dtype)
    packed = compress(raw, rows.element_size())
    assert len(packed) < len(raw)
    back = tensor_from_bytes(decompress(packed, rows.element_size(), len(raw)), dtype, list(rows.shape))
    assert torch.equal(back.view(torch.int8), rows.view(torch.int8))  # bits, so -0.0 and NaN payloads count


@settings(max_examples=60, deadline=None)
@given(data=st.binary(min_size=0, max_size=4096).map(lambda b: b[: len(b) // 4 * 4]), size=st.sampled_from([1, 2, 4]))
def test_any_bytes_round_trip_exactly(data, size):
    assert decompress(compress(data, size), size, len(data)) == data


def test_special_values_keep_their_bits():
    special = torch.tensor([0.0, -0.0, float("inf"), -float("inf"), float("nan"), 1e-45, -3.4e38] * 40)
    raw = tensor_to_bytes(special, "float32")
    assert decompress(compress(raw, 4), 4, len(raw)) == raw


def test_a_small_frame_that_unpacks_to_gigabytes_is_refused_before_allocating():
    bomb = zstandard.ZstdCompressor(level=19).compress(bytes(1 << 26))  # 64 MiB of zeros in a few KB
    assert len(bomb) < 10_000
    with pytest.raises(ProtocolError) as refused:
        decompress(bomb, 4, 1024)  # the shape in the header asks for 1 KiB
    assert refused.value.code is ErrorCode.SHAPE_MISMATCH


@pytest.mark.parametrize(
    ("payload", "code"),
    [
        (b"not zstd at all", ErrorCode.MALFORMED),
        (zstandard.ZstdCompressor().compress(bytes(1024))[:-4], ErrorCode.MALFORMED),  # truncated
        (zstandard.ZstdCompressor().compress(bytes(1024)) + b"\x00extra", ErrorCode.MALFORMED),  # trailing bytes
        (zstandard.ZstdCompressor(write_content_size=False).compress(bytes(1024)), ErrorCode.SHAPE_MISMATCH),
        (zstandard.ZstdCompressor().compress(bytes(1023)), ErrorCode.SHAPE_MISMATCH),  # one byte short
    ],
)
def test_bad_compressed_payloads_are_typed_errors(payload, code):
    with pytest.raises(ProtocolError) as refused:
        decompress(payload, 4, 1024)
    assert refused.value.code is code


def test_an_unknown_codec_is_a_bad_request():
    with pytest.raises(ProtocolError) as refused:
        compress(bytes(16), 4, codec="gzip")
    assert refused.value.code is ErrorCode.BAD_REQUEST


def test_codecs_ride_in_the_headers_and_an_older_workers_hello_offers_none():
    request = ForwardRequest("s", [3, 8], "float32", [0, 1, 2], codec=ZSTD_PLANES, reply_codec=ZSTD_PLANES)
    parsed = ForwardRequest.from_header(request.to_header(seq=4))
    assert (parsed.codec, parsed.reply_codec) == (ZSTD_PLANES, ZSTD_PLANES)
    plain = ForwardRequest.from_header(ForwardRequest("s", [3, 8], "float32", [0, 1, 2]).to_header(seq=5))
    assert (plain.codec, plain.reply_codec) == (None, None)
    result = ForwardResult(4, [3, 8], "float32", 1.0, 0.1, 3, codec=ZSTD_PLANES)
    assert ForwardResult.from_header(result.to_header()).codec == ZSTD_PLANES
    hello = Hello("f", 2, 4, 6, 64, "llama", "float32", 1 << 20, 300.0, 2048, codecs=(ZSTD_PLANES,))
    assert Hello.from_header(hello.to_header()).codecs == (ZSTD_PLANES,)
    older = {k: v for k, v in hello.to_header().items() if k != "codecs"}
    assert Hello.from_header(older).codecs == ()
    with pytest.raises(ProtocolError):
        ForwardRequest.from_header({**request.to_header(seq=6), "codec": 7})


@pytest.mark.parametrize("codec", [None, ZSTD_PLANES])
@pytest.mark.parametrize("dtype", ["float32", "bfloat16", "float16"])
def test_the_one_payload_codec_carries_rows_both_ways_bit_for_bit(dtype, codec):
    rows = _rows(getattr(torch, dtype), rows=5, hidden=64)
    back = unpack_rows(pack_rows(rows, dtype, codec), dtype, [5, 64], codec)
    assert back.dtype == rows.dtype and torch.equal(back.view(torch.uint8), rows.view(torch.uint8))
    with pytest.raises(ProtocolError) as refused:  # the reader's shape decides, never the payload's
        unpack_rows(pack_rows(rows, dtype, codec), dtype, [6, 64], codec)
    assert refused.value.code is ErrorCode.SHAPE_MISMATCH


@pytest.mark.parametrize("field", ["codec", "reply_codec"])
def test_a_request_naming_an_unknown_codec_is_refused_as_it_is_read(field):
    header = ForwardRequest("s", [3, 8], "float32", [0, 1, 2]).to_header(seq=1) | {field: "gzip"}
    with pytest.raises(ProtocolError) as refused:
        ForwardRequest.from_header(header)
    assert refused.value.code is ErrorCode.BAD_REQUEST and "gzip" in refused.value.message
