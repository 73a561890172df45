"""Where a batched pass's time goes, and how it grows with the rows in it (`splitchat bench --load`).

The worker's middle layers are built in this process and run passes of 1, 2, 4, … decode rows, one per
session, each session holding ``context`` positions. Per pass size: the pass's time, and the share of
it spent in linear layers, in attention, and in the rest (norms, rotary, activations, copies), from
PyTorch's profiler; plus what (de)serialising the pass's frames costs the worker. The curve is the
input of the GPU projection in docs/BENCH.md.
"""

from __future__ import annotations

import statistics
import time
from dataclasses import dataclass

import torch
from torch.profiler import ProfilerActivity, profile

from app.engine.source.specs import resolve_model
from app.model.batching import Segment
from app.model.choices import SplitSpec
from app.model.layers import LayerStack
from app.wire.frames import decode_frame, encode_frame, tensor_from_bytes, tensor_to_bytes

_LINEAR = ("linear", "addmm", "aten::mm", "matmul", "bmm")
_ATTENTION = ("scaled_dot_product", "flash_attention", "softmax")


@dataclass(frozen=True)
class PassCost:
    """One pass of ``rows`` decode rows (one per session)."""

    rows: int
    pass_ms: float  # median over repeats, profiler off
    linear_share: float  # of the profiled pass's operator time
    attention_share: float
    other_share: float
    serialize_ms: float  # decoding the pass's requests and encoding its replies, on the worker


def profile_passes(
    spec: str, split: SplitSpec, rows: list[int], context: int = 64, repeats: int = 12, log=print
) -> list[PassCost]:
    """Time passes of each size in ``rows`` through the middle of ``spec`` split at ``split`` (CPU, float32)."""
    source = resolve_model(spec)
    first, last = split.middle(source.num_layers)
    stack = LayerStack.from_source(source, first, last)
    hidden = source.config.hidden_size
    generator = torch.Generator().manual_seed(0)
    costs = []
    for count in rows:
        caches = [stack.new_cache() for _ in range(count)]
        for cache in caches:
            stack.forward(torch.randn(1, context, hidden, generator=generator), torch.arange(context), None, cache)
        inputs = [torch.randn(1, hidden, generator=generator) for _ in range(count)]
        _pass(stack, inputs, caches, context)  # warm-up
        times = []
        for _ in range(repeats):
            started = time.perf_counter()
            outputs = _pass(stack, inputs, caches, context)
            times.append((time.perf_counter() - started) * 1000)
        with profile(activities=[ProfilerActivity.CPU]) as profiler:
            _pass(stack, inputs, caches, context)
        linear = attention = total = 0.0
        for event in profiler.key_averages():
            self_us = event.self_cpu_time_total
            total += self_us
            name = event.key.lower()
            if any(word in name for word in _ATTENTION):
                attention += self_us
            elif any(word in name for word in _LINEAR):
                linear += self_us
        serialize_ms = _serialize_ms(inputs, outputs)
        cost = PassCost(
            rows=count,
            pass_ms=round(statistics.median(times), 2),
            linear_share=round(linear / total, 3) if total else 0.0,
            attention_share=round(attention / total, 3) if total else 0.0,
            other_share=round(1 - (linear + attention) / total, 3) if total else 0.0,
            serialize_ms=round(serialize_ms, 3),
        )
        costs.append(cost)
        log(
            f"pass of {count:>3} rows: {cost.pass_ms:6.1f} ms (linear {cost.linear_share:.0%}, attention "
            f"{cost.attention_share:.0%}, other {cost.other_share:.0%}); (de)serialising {cost.serialize_ms:.2f} ms"
        )
    return costs


def _pass(stack: LayerStack, inputs: list[torch.Tensor], caches: list, context: int) -> list[torch.Tensor]:
    """One decode row per session at position ``context``; the caches are cropped back for the next repeat."""
    segments = [Segment(x, torch.tensor([context]), c) for x, c in zip(inputs, caches, strict=True)]
    outputs = stack.forward_batch(segments)
    for cache in caches:
        cache.crop(context)
    return outputs


def _serialize_ms(inputs: list[torch.Tensor], outputs: list[torch.Tensor], repeats: int = 20) -> float:
    """What the worker spends turning the pass's request frames into tensors and its outputs into replies."""
    frames = [encode_frame({"type": "forward", "shape": list(x.shape)}, tensor_to_bytes(x, "float32")) for x in inputs]
    started = time.perf_counter()
    for _ in range(repeats):
        for frame in frames:
            decoded = decode_frame(frame)
            tensor_from_bytes(decoded.payload, "float32", decoded.header["shape"])
        for output in outputs:
            encode_frame({"type": "result", "shape": list(output.shape)}, tensor_to_bytes(output, "float32"))
    return (time.perf_counter() - started) * 1000 / repeats
