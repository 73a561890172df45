"""Lossless compression of hidden-state payloads, for links slower than the CPU that compresses them.

Hidden states are floats whose exponent bytes repeat and whose low mantissa bytes are noise. Laying the
bytes out as planes (every value's first byte, then every second byte, …) puts the exponents together, and
zstd at level 1 then shrinks bfloat16 rows ~1.4× and float32 ~1.2× for a few milliseconds of CPU a
megabyte (docs/BENCH.md, "Bytes on the wire"). The output is bit-identical to the input: the answer cannot
change. zstandard does the compression; only the byte planes are ours, because they depend on the element
size the frame header declares.

The worker offers its codecs in the hello; the client decides, frame by frame, and only on frames large
enough for the bytes to matter (a decode step's few rows are bound by the round trip, not the
bandwidth): it compresses the request and names the codec the reply may use, and the worker replies in
that codec.
"""

from __future__ import annotations

import numpy as np
import zstandard

from app.wire.frames import ErrorCode, ProtocolError

ZSTD_PLANES = "zstd-planes"
CODECS: tuple[str, ...] = (ZSTD_PLANES,)
# Below this a payload goes as it is: at 50 Mbit/s 64 KiB is 10 ms on the wire, compressing it ~0.2 ms.
MIN_COMPRESSED_BYTES = 64 * 1024
_LEVEL = 1  # levels 3+ cost 2–3× the CPU for a ratio ~2 % better on hidden states


def check_codec(codec: str | None) -> None:
    """A codec this side speaks, or None (raw bytes)."""
    if codec is not None and codec not in CODECS:
        raise ProtocolError(ErrorCode.BAD_REQUEST, f"unknown codec {codec!r} (this side speaks {', '.join(CODECS)})")


def compress(payload: bytes, element_size: int, codec: str = ZSTD_PLANES) -> bytes:
    """``payload`` (whole elements of ``element_size`` bytes) compressed with ``codec``."""
    check_codec(codec)
    planes = np.frombuffer(payload, dtype=np.uint8).reshape(-1, element_size).T
    return zstandard.ZstdCompressor(level=_LEVEL).compress(np.ascontiguousarray(planes).tobytes())


def compressed_bound(size: int) -> int:
    """The most bytes ``size`` bytes can take compressed (zstd's own worst case, ZSTD_COMPRESSBOUND, plus a
    frame header): a payload longer than this does not hold ``size`` bytes, and is refused unread."""
    small = ((128 << 10) - size) >> 11 if size < (128 << 10) else 0
    return size + (size >> 8) + small + 32


def decompress(payload: bytes, element_size: int, size: int, codec: str = ZSTD_PLANES) -> bytes:
    """The ``size`` bytes that ``payload`` compresses, or a ProtocolError.

    ``size`` is what the reader expects (the worker: the request's shape, already checked against its
    limits; the client: the rows it asked for), never a size the payload itself declares: the frame must
    declare exactly ``size``, and it is decompressed into a buffer of ``size`` bytes that it cannot
    overrun, so a few hundred bytes cannot unpack to gigabytes.
    """
    check_codec(codec)
    try:
        declared = zstandard.frame_content_size(payload)
    except zstandard.ZstdError:
        raise ProtocolError(ErrorCode.MALFORMED, "the compressed payload has no zstd frame header") from None
    if declared != size or size % element_size:
        raise ProtocolError(
            ErrorCode.SHAPE_MISMATCH, f"the compressed payload holds {declared} bytes, the shape needs {size}"
        )
    try:
        # A fixed output buffer of ``size`` bytes: a frame whose blocks hold more than it declared fails as
        # "did not decompress full frame" instead of growing it; bytes after the frame are refused too.
        planes = zstandard.ZstdDecompressor().decompress(payload, max_output_size=size, allow_extra_data=False)
    except zstandard.ZstdError as exc:
        why = f"the compressed payload is corrupt, truncated or has bytes after its frame ({exc})"
        raise ProtocolError(ErrorCode.MALFORMED, why) from None
    if len(planes) != size:
        raise ProtocolError(ErrorCode.MALFORMED, f"the compressed payload unpacked to {len(planes)} bytes, not {size}")
    values = np.frombuffer(planes, dtype=np.uint8).reshape(element_size, -1).T
    return np.ascontiguousarray(values).tobytes()
