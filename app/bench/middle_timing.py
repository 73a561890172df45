"""How long the worker's middle layers take per round trip, for a published model's shape on a device.

``python -m app.bench.middle_timing --shape llama-3.1-8b --device cuda --dtype bfloat16`` builds the
middle layers of that shape with random weights directly on the device (no checkpoint on disk), fills a
KV cache with ``--context`` positions, then times blocks of 1, 16 and 64 rows — a sequential step, a
typical speculative tree and a large one — each followed by the crop that rejecting it costs. Prints
one JSON object per row count (median and 90th percentile over ``--repeats``).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time

import torch

from app.bench.checkpoints import PUBLISHED, published_config, tensor_shapes
from app.model.choices import DEVICE_CHOICES, DTYPE_CHOICES
from app.model.devices import resolve_device, resolve_dtype
from app.model.layers import LayerStack
from app.model.weights import InMemory, layer_prefix


def random_middle(config, first: int, last: int, device: torch.device, dtype: torch.dtype) -> LayerStack:
    """Layers [first, last) of ``config`` with random weights, made on ``device``."""
    prefixes = tuple(layer_prefix(i) for i in range(first, last))
    generator = torch.Generator(device=device).manual_seed(0)
    tensors = {}
    for item in tensor_shapes(config, lambda name: name.startswith(prefixes)):
        values = torch.randn(item.shape, generator=generator, device=device, dtype=torch.float32)
        values = 1.0 + 0.05 * values if "norm" in item.name else 0.02 * values
        tensors[item.name] = values.to(dtype)
    return LayerStack(config, first, last, InMemory(tensors), device, dtype)


def _synchronise(device: torch.device) -> None:
    if device.type == "cuda":
        torch.cuda.synchronize(device)


def time_blocks(stack: LayerStack, context: int, rows: list[int], repeats: int) -> list[dict]:
    device, hidden_size = stack.device, stack.config.hidden_size
    generator = torch.Generator(device=device).manual_seed(1)
    cache = stack.new_cache()
    for start in range(0, context, 512):  # the prompt, in the chunks a worker receives
        size = min(512, context - start)
        block = torch.randn(1, size, hidden_size, generator=generator, device=device)
        stack(block, torch.arange(start, start + size, device=device), cache=cache)
    results = []
    for count in rows:
        block = torch.randn(1, count, hidden_size, generator=generator, device=device)
        positions = torch.arange(context, context + count, device=device)
        times = []
        for _ in range(repeats + 2):  # two to warm the kernels up, not counted
            _synchronise(device)
            started = time.perf_counter()
            stack(block, positions, cache=cache)
            _synchronise(device)
            times.append((time.perf_counter() - started) * 1000)
            cache.crop(context)
        times = sorted(times[2:])
        results.append(
            {
                "rows": count,
                "median_ms": round(statistics.median(times), 3),
                "p90_ms": round(times[min(len(times) - 1, int(0.9 * len(times)))], 3),
            }
        )
    return results


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m app.bench.middle_timing", description=__doc__.splitlines()[0])
    parser.add_argument("--shape", default="llama-3.1-8b", choices=sorted(PUBLISHED))
    parser.add_argument("--split", type=int, default=2, help="layers kept on each side: the middle is the rest")
    parser.add_argument("--layers", type=int, default=0, help="time only this many middle layers (0 = all)")
    parser.add_argument("--device", default="auto", choices=DEVICE_CHOICES)
    parser.add_argument("--dtype", default="auto", choices=DTYPE_CHOICES)
    parser.add_argument("--context", type=int, default=1024)
    parser.add_argument("--rows", default="1,16,64")
    parser.add_argument("--repeats", type=int, default=20)
    args = parser.parse_args(argv)
    config = published_config(args.shape)
    device = resolve_device(args.device)
    dtype = resolve_dtype(args.dtype, device)
    first, last = args.split, config.num_hidden_layers - args.split
    if args.layers:
        last = min(last, first + args.layers)
    stack = random_middle(config, first, last, device, dtype)
    for row in time_blocks(stack, args.context, [int(r) for r in args.rows.split(",")], args.repeats):
        layers = last - first
        print(json.dumps({"shape": args.shape, "device": str(device), "dtype": str(dtype), "layers": layers, **row}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
