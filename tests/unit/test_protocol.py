"""The wire format: frames, tensors, ancestry bitmaps, forward headers, and the errors for bad input."""

from __future__ import annotations

import struct

import pytest
import torch

from app.model.kv_cache import CacheEdit
from app.wire.frames import (
    PROTOCOL_VERSION,
    ErrorCode,
    ProtocolError,
    decode_frame,
    encode_frame,
    pack_ancestry,
    tensor_from_bytes,
    tensor_to_bytes,
    unpack_ancestry,
)
from app.wire.messages import Closed, ErrorReply, ForwardRequest, ForwardResult, Hello, Opened, parse_reply


def test_frame_round_trips_header_and_payload():
    frame = decode_frame(encode_frame({"type": "forward", "seq": 3}, b"\x01\x02"))
    assert frame.header == {"v": PROTOCOL_VERSION, "type": "forward", "seq": 3}
    assert frame.payload == b"\x01\x02"


@pytest.mark.parametrize(
    "data, code",
    [
        (b"\x01", ErrorCode.MALFORMED),
        (struct.pack("<I", 500) + b"{}", ErrorCode.MALFORMED),
        (struct.pack("<I", 5) + b"nope!", ErrorCode.MALFORMED),
        (struct.pack("<I", 2) + b"[]", ErrorCode.MALFORMED),
        ("text frame", ErrorCode.MALFORMED),
        (struct.pack("<I", 22) + b'{"v":99,"type":"open"}', ErrorCode.BAD_VERSION),
        (struct.pack("<I", 60_000) + b"[" * 30_000 + b"]" * 30_000, ErrorCode.MALFORMED),  # nested too deep
        (struct.pack("<I", 5_000) + b"9" * 5_000, ErrorCode.MALFORMED),  # an integer Python will not parse
    ],
    ids=["short", "too long", "not json", "not an object", "text", "version", "deep nesting", "5,000 digits"],
)
def test_bad_frames_raise_typed_errors(data, code):
    with pytest.raises(ProtocolError) as caught:
        decode_frame(data)
    assert caught.value.code == code


@pytest.mark.parametrize("dtype", ["float32", "float16", "bfloat16"])
def test_tensors_round_trip_in_each_wire_dtype(dtype):
    tensor = torch.randn(5, 8)
    back = tensor_from_bytes(tensor_to_bytes(tensor, dtype), dtype, [5, 8])
    assert back.dtype == getattr(torch, dtype)
    torch.testing.assert_close(back.float(), tensor.to(getattr(torch, dtype)).float())


def test_tensor_bytes_must_match_the_declared_shape():
    with pytest.raises(ProtocolError) as caught:
        tensor_from_bytes(b"\x00" * 10, "float16", [2, 3])
    assert caught.value.code == ErrorCode.SHAPE_MISMATCH


def test_ancestry_bitmap_round_trips_and_needs_self_visibility():
    ancestry = torch.rand(11, 11) > 0.5
    ancestry.fill_diagonal_(True)
    assert torch.equal(unpack_ancestry(pack_ancestry(ancestry), 11), ancestry)
    ancestry[3, 3] = False
    with pytest.raises(ProtocolError):
        unpack_ancestry(pack_ancestry(ancestry), 11)
    with pytest.raises(ProtocolError) as caught:
        unpack_ancestry(pack_ancestry(torch.eye(4, dtype=torch.bool)), 11)
    assert caught.value.code == ErrorCode.SHAPE_MISMATCH


def test_forward_header_sends_a_contiguous_run_as_one_number():
    request = ForwardRequest("s", [300, 8], "float16", list(range(1000, 1300)), edit=CacheEdit(crop=1000))
    header = request.to_header(seq=1)
    assert header["pos"] == 1000
    parsed = ForwardRequest.from_header(decode_frame(encode_frame(header)).header)
    assert parsed.positions == list(range(1000, 1300)) and parsed.edit == CacheEdit(crop=1000)
    assert "long_rope" not in header and not parsed.long_rope  # the short factors unless said


def test_forward_header_says_when_the_block_uses_longropes_long_factors():
    request = ForwardRequest("s", [1, 8], "float32", [4096], long_rope=True)
    assert ForwardRequest.from_header(request.to_header(seq=3)).long_rope


def test_forward_header_carries_tree_positions_ancestry_and_keep():
    ancestry = torch.tensor([[1, 0, 0], [1, 1, 0], [1, 0, 1]], dtype=torch.bool)
    edit = CacheEdit(keep_start=5, keep_indices=(0, 2))
    request = ForwardRequest("s", [3, 8], "float32", [7, 8, 8], ancestry=ancestry, edit=edit)
    parsed = ForwardRequest.from_header(request.to_header(seq=2))
    assert parsed.positions == [7, 8, 8]
    assert request.to_header(seq=2)["pos_offsets"] == [0, 1, 1]
    assert torch.equal(parsed.ancestry, ancestry)
    assert parsed.edit == edit


@pytest.mark.parametrize(
    "header",
    [
        {"type": "forward", "session": "s", "shape": [2], "pos": 0},
        {"type": "forward", "session": "s", "shape": [2, 8], "pos": [1, 2]},
        {"type": "forward", "session": "s", "shape": [2, 8], "pos": 0, "pos_offsets": [0]},
        {"type": "forward", "session": "s", "shape": [2, 8], "pos": 0, "pos_offsets": [0, -1]},
        {"type": "forward", "shape": [2, 8], "pos": 0},
        {"type": "forward", "session": "s", "shape": [2, 8], "pos": 0, "crop": -1},
        {"type": "forward", "session": "s", "shape": [2, 8], "pos": 0, "keep": [1]},
        {"type": "forward", "session": "s", "shape": [2, 8], "pos": 0, "long_rope": "yes"},
        {"type": "forward", "session": "s", "shape": [True, 8], "pos": 0},
        {"type": "forward", "session": "s", "shape": [2, 8], "pos": False},
        {"type": "forward", "session": "s", "shape": [2, 8], "pos": 0, "keep": {"start": 0, "indices": [1] * 12_000}},
    ],
)
def test_malformed_forward_headers_are_refused(header):
    with pytest.raises(ProtocolError) as caught:
        ForwardRequest.from_header(header)
    assert caught.value.code == ErrorCode.MALFORMED


def test_hello_round_trips():
    hello = Hello("sha256:ab", 2, 28, 30, 576, "llama", "float32", 1 << 20, 300.0, 8192)
    assert Hello.from_header(decode_frame(encode_frame(hello.to_header())).header) == hello


def test_batching_fields_are_optional_both_ways():
    """A worker that batches speaks to an older workstation, and a newer workstation to an older worker:
    the new hello and result fields are optional, and an older parser reads only the fields it knows."""
    new_hello = Hello("sha256:ab", 2, 28, 30, 576, "llama", "float32", 1 << 20, 300.0, 8192, max_pass_rows=256)
    old_header = {k: v for k, v in new_hello.to_header().items() if k != "max_pass_rows"}
    assert Hello.from_header(old_header).max_pass_rows is None
    assert Hello.from_header(new_hello.to_header()).max_pass_rows == 256
    result = ForwardResult(3, [1, 576], "float32", 12.5, 0.4, 70, pass_id=9, pass_rows=16, queue_ms=2.0)
    header = decode_frame(encode_frame(result.to_header())).header
    assert ForwardResult.from_header(header) == result
    older = {k: header[k] for k in ("type", "seq", "shape", "dtype", "compute_ms", "serialize_ms", "cache_len")}
    parsed = ForwardResult.from_header(older)
    assert (parsed.pass_id, parsed.pass_rows, parsed.queue_ms) == (0, 0, 0.0) and parsed.cache_len == 70


def test_a_tree_frame_does_not_grow_with_the_committed_context():
    """Frame bytes at context 100 and 3,000 differ only by the digits of the numbers in the header."""
    from app.engine.decode.blocks import build_block
    from app.engine.speculation.lookahead import LookaheadWindow
    from app.engine.speculation.tree import DraftTree

    tree = DraftTree.rooted_at(5)
    tree.add_path([6, 7, 8], "lookup3")
    tree.add_path([6, 9], "pool")
    window = LookaheadWindow(width=3, ngram=3)
    window.ensure_filled([1, 2, 3])
    hidden = torch.zeros(len(tree) + window.size, 576)
    frames = {}
    for context in (100, 3000):
        block = build_block(tree, context, window)
        request = ForwardRequest(
            "a" * 32,
            [block.size, 576],
            "float16",
            block.positions,
            block.ancestry,
            edit=CacheEdit(crop=context, keep_start=context - 4, keep_indices=(0, 1, 2)),
        )
        frames[context] = encode_frame(request.to_header(seq=7), tensor_to_bytes(hidden, "float16"))
    digits = lambda context: sum(len(str(n)) for n in (context, context, context - 4))  # noqa: E731 pos, crop, keep
    header_growth = digits(3000) - digits(100)
    assert len(frames[3000]) - len(frames[100]) == header_growth
    payload = block.size * 576 * 2
    assert decode_frame(frames[100]).payload == decode_frame(frames[3000]).payload
    assert len(decode_frame(frames[3000]).payload) == payload


def test_absurd_declared_sizes_are_refused_before_anything_is_allocated():
    from app.wire.frames import ErrorCode, ProtocolError, tensor_from_bytes
    from app.wire.messages import ForwardRequest

    header = {"type": "forward", "session": "s", "shape": [10**12, 576], "dtype": "float16", "pos": 0}
    with pytest.raises(ProtocolError) as caught:
        ForwardRequest.from_header(header, max_rows=2048)
    assert caught.value.code == ErrorCode.BLOCK_TOO_LARGE
    with pytest.raises(ProtocolError) as shape:
        tensor_from_bytes(b"\x00" * 8, "float16", [10**30, 10**30])
    assert shape.value.code == ErrorCode.SHAPE_MISMATCH
    with pytest.raises(ProtocolError) as dtype:
        ForwardRequest.from_header({**header, "shape": [1, 576], "dtype": ["float16"]})
    assert dtype.value.code == ErrorCode.MALFORMED


def test_every_reply_round_trips_as_its_typed_message():
    replies = [
        Opened(seq=1, session="ab" * 16),
        Closed(seq=2),
        ForwardResult(seq=3, shape=[4, 576], dtype="float16", compute_ms=12.5, serialize_ms=0.25, cache_len=40),
        ErrorReply(ErrorCode.UNKNOWN_SESSION.value, "no such session", seq=4),
    ]
    for reply in replies:
        assert parse_reply(decode_frame(encode_frame(reply.to_header()))) == reply


@pytest.mark.parametrize(
    "header",
    [
        {"type": "result", "seq": 1, "shape": [4], "dtype": "float16"},
        {"type": "result", "seq": 1, "shape": [4, 8], "dtype": "int8"},
        {"type": "result", "seq": 1, "shape": [4, 8], "dtype": "float16", "compute_ms": "fast"},
        {"type": "opened", "seq": 1},
        {"type": "hello-again", "seq": 1},
    ],
)
def test_a_reply_that_is_not_one_of_the_protocols_is_malformed(header):
    with pytest.raises(ProtocolError) as caught:
        parse_reply(decode_frame(encode_frame(header)))
    assert caught.value.code == ErrorCode.MALFORMED
