"""Frames on the wire: the binary envelope, tensors as raw bytes, the ancestry bitmap, typed error codes.

A frame is ``u32 header length (little-endian) | UTF-8 JSON header | raw tensor bytes``, sent as one
binary WebSocket message. Every header carries the protocol version ``v`` and a ``type``. Hidden
states travel as raw little-endian float16/bfloat16/float32; no rotary tensors and no dense masks
cross the wire — positions and a q×q ancestry bitmap do. See docs/PROTOCOL.md.
"""

from __future__ import annotations

import base64
import json
import math
import struct
from dataclasses import dataclass
from enum import StrEnum

import numpy as np
import torch

from app.wire.limits import DEFAULT_MAX_FRAME as DEFAULT_MAX_FRAME

PROTOCOL_VERSION = 1
_LENGTH = struct.Struct("<I")
MAX_HEADER = 64 * 1024

WIRE_DTYPES: dict[str, torch.dtype] = {
    "float32": torch.float32,
    "float16": torch.float16,
    "bfloat16": torch.bfloat16,
}


class ErrorCode(StrEnum):
    """Typed error replies; the HTTP 401 at the handshake is the only error outside a frame."""

    BAD_VERSION = "bad_version"
    MALFORMED = "malformed"
    SHAPE_MISMATCH = "shape_mismatch"
    UNKNOWN_SESSION = "unknown_session"
    FRAME_TOO_LARGE = "frame_too_large"
    BAD_REQUEST = "bad_request"
    CONTEXT_TOO_LONG = "context_too_long"
    TOO_MANY_SESSIONS = "too_many_sessions"
    BLOCK_TOO_LARGE = "block_too_large"
    MEMORY_LIMIT = "memory_limit"
    INTERNAL = "internal"


class ProtocolError(Exception):
    """A frame or request that breaks the protocol; becomes a typed error reply."""

    def __init__(self, code: ErrorCode, message: str):
        super().__init__(f"{code.value}: {message}")
        self.code = code
        self.message = message


@dataclass
class Frame:
    header: dict
    payload: bytes = b""

    @property
    def type(self) -> str:
        return self.header.get("type", "")


def encode_frame(header: dict, payload: bytes = b"") -> bytes:
    """Serialise a header (``v`` added) and payload into one binary message."""
    raw = json.dumps({"v": PROTOCOL_VERSION, **header}, separators=(",", ":")).encode()
    return b"".join((_LENGTH.pack(len(raw)), raw, payload))


def decode_frame(data: bytes | str) -> Frame:
    """Parse one binary message; raise ProtocolError on anything malformed or of another version."""
    if isinstance(data, str):
        raise ProtocolError(ErrorCode.MALFORMED, "text messages are not part of the protocol")
    if len(data) < _LENGTH.size:
        raise ProtocolError(ErrorCode.MALFORMED, "frame shorter than its length prefix")
    (length,) = _LENGTH.unpack_from(data)
    if length > MAX_HEADER or _LENGTH.size + length > len(data):
        raise ProtocolError(ErrorCode.MALFORMED, f"header length {length} does not fit the frame")
    try:
        header = json.loads(bytes(data[_LENGTH.size : _LENGTH.size + length]))
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:  # ValueError: also a 5,000-digit number
        why = f"header is not JSON the protocol reads ({type(exc).__name__})"
        raise ProtocolError(ErrorCode.MALFORMED, why) from None
    if not isinstance(header, dict) or not isinstance(header.get("type"), str):
        raise ProtocolError(ErrorCode.MALFORMED, "header must be an object with a string 'type'")
    if header.get("v") != PROTOCOL_VERSION:
        raise ProtocolError(
            ErrorCode.BAD_VERSION,
            f"protocol version {header.get('v')!r} is not supported (this side speaks {PROTOCOL_VERSION})",
        )
    return Frame(header, bytes(data[_LENGTH.size + length :]))


def tensor_to_bytes(tensor: torch.Tensor, wire_dtype: str) -> bytes:
    """Raw little-endian bytes of a tensor in the wire dtype."""
    flat = tensor.detach().to(device="cpu", dtype=WIRE_DTYPES[wire_dtype]).reshape(-1)
    return flat.view(torch.uint8).numpy().tobytes()


def element_size(wire_dtype: str) -> int:
    """Bytes a value takes in ``wire_dtype``; BAD_REQUEST for a dtype the wire does not carry."""
    dtype = WIRE_DTYPES.get(wire_dtype)
    if dtype is None:
        raise ProtocolError(ErrorCode.BAD_REQUEST, f"unknown wire dtype {wire_dtype!r}")
    return torch.finfo(dtype).bits // 8


def payload_size(wire_dtype: str, shape: list[int]) -> int:
    """Bytes a tensor of ``shape`` takes on the wire, checked before anything is allocated for it."""
    size = element_size(wire_dtype)
    if not isinstance(shape, list) or not all(isinstance(d, int) and d > 0 for d in shape):
        raise ProtocolError(ErrorCode.MALFORMED, f"bad tensor shape {shape!r}")
    return math.prod(shape) * size  # exact: declared sizes may be absurd


def tensor_from_bytes(payload: bytes, wire_dtype: str, shape: list[int]) -> torch.Tensor:
    """Rebuild a tensor; raise SHAPE_MISMATCH if the bytes do not match the declared shape."""
    expected = payload_size(wire_dtype, shape)
    dtype = WIRE_DTYPES[wire_dtype]
    if expected != len(payload):
        raise ProtocolError(
            ErrorCode.SHAPE_MISMATCH,
            f"shape {shape} in {wire_dtype} needs {expected} bytes, frame carries {len(payload)}",
        )
    return torch.frombuffer(bytearray(payload), dtype=dtype).view(*shape)


def pack_ancestry(ancestry: torch.Tensor) -> str:
    """A q×q boolean ancestry matrix as base64 of its row-major bits."""
    bits = np.packbits(ancestry.to("cpu", torch.bool).numpy().reshape(-1))
    return base64.b64encode(bits.tobytes()).decode()


def unpack_ancestry(text: str, size: int) -> torch.Tensor:
    """Inverse of pack_ancestry; every position must see itself."""
    try:
        raw = np.frombuffer(base64.b64decode(text, validate=True), dtype=np.uint8)
    except (ValueError, TypeError):
        raise ProtocolError(ErrorCode.MALFORMED, "ancestry is not base64") from None
    if raw.size != (size * size + 7) // 8:
        raise ProtocolError(ErrorCode.SHAPE_MISMATCH, f"ancestry bitmap does not fit a {size}x{size} block")
    matrix = torch.from_numpy(np.unpackbits(raw)[: size * size].astype(bool)).view(size, size)
    if not bool(matrix.diagonal().all()):
        raise ProtocolError(ErrorCode.BAD_REQUEST, "every block position must attend to itself")
    return matrix
