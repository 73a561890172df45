"""Lossless compression of real hidden states as they would cross the wire: ratio and CPU per MB.

    pip install blosc2 && .venv/bin/python scripts/wire_compression.py

The figures in docs/BENCH.md ("Bytes on the wire") come from this script: the bundled model's rows for a
2,000-token document, both directions of a 2,2 split, in the three wire dtypes, compressed whole by each
candidate (zstandard is a dependency; blosc2 is not, and is left out when absent).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import torch
import zstandard

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.bench.document import document_text  # noqa: E402
from app.engine.decode.edge import LocalEdge  # noqa: E402
from app.engine.source.specs import resolve_model  # noqa: E402
from app.model.choices import SplitSpec  # noqa: E402
from app.model.layers import LayerStack  # noqa: E402
from app.wire.codecs import compress  # noqa: E402

DOCUMENT_TOKENS = 2000
REPEATS = 5
Compressor = Callable[[bytes, int], bytes]  # (payload, element size) -> compressed


def byte_planes(payload: bytes, element_size: int) -> bytes:
    """The bytes regrouped by position within an element, so exponent bytes sit together."""
    planes = np.frombuffer(payload, dtype=np.uint8).reshape(-1, element_size)
    return np.ascontiguousarray(planes.T).tobytes()


def zstd(level: int, planes: bool) -> Compressor:
    def run(payload: bytes, element_size: int) -> bytes:
        data = byte_planes(payload, element_size) if planes else payload
        return zstandard.ZstdCompressor(level=level).compress(data)

    return run


def candidates() -> dict[str, Compressor]:
    found: dict[str, Compressor] = {
        "zstd-1": zstd(1, planes=False),
        "zstd-1+planes": zstd(1, planes=True),
        "zstd-3+planes": zstd(3, planes=True),
        "splitchat (zstd-planes)": compress,
    }
    try:
        import blosc2
    except ImportError:
        print("blosc2 is not installed: its candidates are left out", file=sys.stderr)
        return found
    for name, codec, level in (
        ("blosc2-lz4+shuffle", blosc2.Codec.LZ4, 5),
        ("blosc2-zstd1+shuffle", blosc2.Codec.ZSTD, 1),
    ):
        found[name] = lambda payload, size, codec=codec, level=level: blosc2.compress2(
            payload, typesize=size, codec=codec, clevel=level, filters=[blosc2.Filter.SHUFFLE]
        )
    return found


def real_rows() -> dict[str, torch.Tensor]:
    """What the workstation sends (the head's output) and what the worker returns (the middle's)."""
    source = resolve_model()
    split = SplitSpec(2, 2)
    tokenizer = source.tokenizer()
    ids = tokenizer(document_text(DOCUMENT_TOKENS, tokenizer), add_special_tokens=False)["input_ids"]
    positions = torch.arange(len(ids))
    with torch.no_grad():
        up = LocalEdge(source, split).run_head(torch.tensor(ids), positions)
        middle = LayerStack.from_source(source, split.k_in, source.config.num_hidden_layers - split.k_out)
        down = middle(up, positions)
    return {"to worker": up[0], "from worker": down[0]}


def main() -> None:
    compressors = candidates()
    for direction, rows in real_rows().items():
        for dtype in (torch.float32, torch.bfloat16, torch.float16):
            values = rows.to(dtype)
            payload = values.view(torch.int16 if values.element_size() == 2 else torch.int32).numpy().tobytes()
            megabytes = len(payload) / 1e6
            for name, run in compressors.items():
                run(payload, values.element_size())  # warm
                started = time.perf_counter()
                for _ in range(REPEATS):
                    packed = run(payload, values.element_size())
                ms_per_mb = (time.perf_counter() - started) / REPEATS * 1000 / megabytes
                ratio = len(payload) / len(packed)
                print(
                    f"{direction:11} {str(dtype).removeprefix('torch.'):9} {name:24} ratio {ratio:5.3f}"
                    f"  {ms_per_mb:6.2f} ms/MB  ({megabytes:.1f} MB)"
                )


if __name__ == "__main__":
    main()
