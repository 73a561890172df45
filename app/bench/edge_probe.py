"""What the workstation's half of a model costs: memory at its peak, load time, and one step's time.

Run as its own process (``python -m app.bench.edge_probe --model DIR``) so that its peak memory is the
edge's alone: the interpreter's baseline is read after every import the app makes and before the first
tensor, then the edge is loaded and blocks of 1, 16 and 32 rows go through the head layers, the tail
layers and the LM head. The LM head's share is timed on its own for the same rows. Prints one JSON
object (``EdgeProbe``).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from app.bench.load import process_memory_mib
from app.model.choices import STORED_DTYPE_CHOICES

ROWS = (1, 16, 32)


@dataclass(frozen=True)
class StepTime:
    rows: int
    head_ms: float  # embedding and the first k layers
    tail_ms: float  # the last k layers, the norm and the LM head on every row
    lm_head_ms: float  # the LM head alone on the same rows (part of tail_ms)


@dataclass(frozen=True)
class EdgeProbe:
    model: str
    split: str
    dtype: str
    edge_mib: float  # what the edge holds in the compute dtype: embedding (once if tied), layers, LM head
    baseline_mib: float  # the process after its imports, before any weight
    peak_mib: float  # the process's peak, loading and stepping included
    load_s: float
    steps: list[StepTime]

    @property
    def peak_over_edge(self) -> float:
        """(peak − baseline) ÷ the edge's own size: what loading costs beyond the weights it keeps."""
        return (self.peak_mib - self.baseline_mib) / self.edge_mib


def probe(model: str, split_text: str, dtype_name: str, repeats: int = 5) -> EdgeProbe:
    import torch

    from app.engine.decode.edge import LocalEdge
    from app.engine.source.inspection import inspect_model
    from app.engine.source.specs import resolve_model
    from app.model.choices import SplitSpec

    baseline = process_memory_mib(os.getpid()).get("rss", 0.0)
    source = resolve_model(model)
    split = SplitSpec.parse(split_text)
    dtype = getattr(torch, dtype_name)
    started = time.perf_counter()
    edge = LocalEdge(source, split, "cpu", dtype)
    load_s = time.perf_counter() - started
    steps = []
    for rows in ROWS:
        ids = torch.randint(0, source.config.vocab_size, (rows,), generator=torch.Generator().manual_seed(rows))
        positions = torch.arange(rows)
        head, tail, lm = [], [], []
        for _ in range(repeats):
            edge.reset()
            t0 = time.perf_counter()
            hidden = edge.run_head(ids, positions)
            t1 = time.perf_counter()
            features = edge.run_tail_features(hidden, positions)
            edge.project(features)
            t2 = time.perf_counter()
            edge.project(features)
            t3 = time.perf_counter()
            head.append((t1 - t0) * 1000)
            tail.append((t2 - t1) * 1000)
            lm.append((t3 - t2) * 1000)
        steps.append(StepTime(rows, statistics.median(head), statistics.median(tail), statistics.median(lm)))
    memory = process_memory_mib(os.getpid())
    return EdgeProbe(
        model=model,
        split=str(split),
        dtype=dtype_name,
        edge_mib=inspect_model(model).edge_bytes(split.k_in, split.k_out, dtype_name) / 2**20,
        baseline_mib=baseline,
        peak_mib=memory.get("peak", 0.0),
        load_s=load_s,
        steps=steps,
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m app.bench.edge_probe", description=__doc__.splitlines()[0])
    parser.add_argument("--model", required=True, type=Path)
    parser.add_argument("--split", default="2")
    parser.add_argument("--dtype", default="float32", choices=STORED_DTYPE_CHOICES)
    args = parser.parse_args(argv)
    # Everything the app imports before it loads a model, so the baseline is the app's own.
    import app.engine.chat  # noqa: F401
    import app.engine.decode.edge  # noqa: F401

    result = probe(str(args.model), args.split, args.dtype)
    print(json.dumps({**asdict(result), "peak_over_edge": result.peak_over_edge}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
