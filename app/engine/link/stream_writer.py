"""Write a safetensors file one tensor at a time.

The safetensors library writes a file from a dict of tensors held in memory together; the worker's
shard of a 70B model is over a hundred gigabytes. The format is a header announcing every tensor's
dtype, shape and byte range, then the bytes: with the shapes known from the checkpoint's headers, the
header is written first and each tensor appended as it is read. Files are read back by the library.
"""

from __future__ import annotations

import json
import struct
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import torch

from app.model.weights import tensor_bytes

_CODES = {torch.float32: "F32", torch.bfloat16: "BF16", torch.float16: "F16"}


@dataclass(frozen=True)
class Planned:
    """A tensor the file will hold, known before its bytes are."""

    name: str
    dtype: torch.dtype
    shape: tuple[int, ...]

    @property
    def nbytes(self) -> int:
        return tensor_bytes(self.shape, self.dtype)


def write_safetensors(
    path: Path, planned: list[Planned], tensors: Iterable[tuple[str, torch.Tensor]], metadata: dict[str, str]
) -> None:
    """Write ``tensors`` (arriving in ``planned``'s order, each matching its plan) to ``path``."""
    header: dict[str, object] = {"__metadata__": metadata}
    offset = 0
    for item in planned:
        header[item.name] = {
            "dtype": _CODES[item.dtype],
            "shape": list(item.shape),
            "data_offsets": [offset, offset + item.nbytes],
        }
        offset += item.nbytes
    encoded = json.dumps(header, separators=(",", ":")).encode()
    encoded += b" " * (-len(encoded) % 8)  # the data starts 8-byte aligned
    expected = iter(planned)
    with path.open("wb") as handle:
        handle.write(struct.pack("<Q", len(encoded)))
        handle.write(encoded)
        for name, tensor in tensors:
            item = next(expected, None)
            if item is None or item.name != name or tensor.dtype != item.dtype or tuple(tensor.shape) != item.shape:
                raise ValueError(f"{name} does not match the planned tensor {item}")
            handle.write(tensor.detach().to("cpu").contiguous().view(torch.uint8).numpy().data)
        if next(expected, None) is not None:
            raise ValueError("fewer tensors arrived than were planned")
