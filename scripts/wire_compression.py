"""Lossless compression of real hidden states as they would cross the wire: ratio and CPU per MB.

    pip install zstandard blosc2 && .venv/bin/python scripts/wire_compression.py

Not a dependency of splitchat: the figures in docs/BENCH.md ("Bytes on the wire") come from this script.
"""

import sys
import time

import numpy as np
import torch

try:
    import blosc2
    import zstandard
except ImportError:
    sys.exit("this measurement needs zstandard and blosc2: pip install zstandard blosc2")
from app.bench.document import document_text
from app.engine.decode.edge import LocalEdge
from app.engine.source.specs import resolve_model
from app.engine.source.split import SplitSpec
from app.model.layers import LayerStack
source = resolve_model(); split = SplitSpec(2, 2)
edge = LocalEdge(source, split); tok = source.tokenizer()
ids = tok(document_text(2000, tok), add_special_tokens=False)["input_ids"]
pos = torch.arange(len(ids))
with torch.no_grad():
    up = edge.run_head(torch.tensor(ids), pos)
    mid = LayerStack.from_source(source, 2, 28)
    down = mid(up, pos)
def shuffle(a: np.ndarray) -> bytes:  # byte-plane transpose: exponent bytes together
    b = a.view(np.uint8).reshape(-1, a.itemsize)
    return np.ascontiguousarray(b.T).tobytes()
rows = []
for name, t in (("to worker", up[0]), ("from worker", down[0])):
    for dtype in (torch.float32, torch.bfloat16, torch.float16):
        x = t.to(dtype)
        raw = x.view(torch.int16 if x.element_size() == 2 else torch.int32).numpy()
        data = raw.tobytes()
        for codec, fn in (
            ("zstd-1", lambda d: zstandard.ZstdCompressor(level=1).compress(d)),
            ("zstd-1+shuffle", lambda d: zstandard.ZstdCompressor(level=1).compress(shuffle(np.frombuffer(d, dtype=raw.dtype)))),
            ("zstd-3+shuffle", lambda d: zstandard.ZstdCompressor(level=3).compress(shuffle(np.frombuffer(d, dtype=raw.dtype)))),
            ("blosc2-lz4+shuffle", lambda d: blosc2.compress2(d, typesize=raw.itemsize, codec=blosc2.Codec.LZ4, filters=[blosc2.Filter.SHUFFLE])),
            ("blosc2-zstd1+shuffle", lambda d: blosc2.compress2(d, typesize=raw.itemsize, codec=blosc2.Codec.ZSTD, clevel=1, filters=[blosc2.Filter.SHUFFLE])),
        ):
            fn(data)
            t0 = time.perf_counter(); n = 5
            for _ in range(n): c = fn(data)
            ms = (time.perf_counter() - t0) / n * 1000
            print(f"{name:11} {str(dtype)[6:]:9} {codec:22} ratio {len(data)/len(c):5.3f}  {ms/ (len(data)/1e6):6.2f} ms/MB  ({len(data)/1e6:.1f} MB)")
