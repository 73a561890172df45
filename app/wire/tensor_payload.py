"""Hidden-state rows as a frame's payload, both ways: raw little-endian bytes in the wire dtype, compressed
where the frame names a codec. The one place either half turns rows into a payload and back, so the
workstation's requests and the worker's replies cannot drift apart."""

from __future__ import annotations

import torch

from app.wire.codecs import compress, decompress
from app.wire.frames import element_size, payload_size, tensor_from_bytes, tensor_to_bytes


def pack_rows(rows: torch.Tensor, dtype: str, codec: str | None) -> bytes:
    """``rows`` as a frame carries them in ``dtype``, compressed with ``codec`` unless it is None."""
    return packed(tensor_to_bytes(rows, dtype), dtype, codec)


def packed(raw: bytes, dtype: str, codec: str | None) -> bytes:
    """Rows already in raw bytes (the worker makes them on its compute thread) as the frame carries them."""
    return raw if codec is None else compress(raw, element_size(dtype), codec)


def unpack_rows(payload: bytes, dtype: str, shape: list[int], codec: str | None) -> torch.Tensor:
    """The ``shape`` rows ``payload`` carries, or a ProtocolError (SHAPE_MISMATCH, MALFORMED). A compressed
    payload unpacks into exactly the bytes ``shape`` takes, never into what the payload itself declares."""
    if codec is not None:
        payload = decompress(payload, element_size(dtype), payload_size(dtype, shape), codec)
    return tensor_from_bytes(payload, dtype, shape)
