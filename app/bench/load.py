"""`splitchat bench --load 1,4,16`: many sessions against one worker, what the worker sustains.

Each session is a client that prefills a prompt's worth of hidden states and then decodes one
position per round trip, as sequential decoding does. The hidden states are random: the worker's cost
does not depend on their values, and leaving the workstation half out measures the worker alone.
Reported per session count: aggregate tokens per second, p50/p99 step latency, and the worker
process's resident and peak memory (Linux /proc).
"""

from __future__ import annotations

import asyncio
import statistics
import time
from dataclasses import dataclass
from pathlib import Path

import torch

from app.engine.link.worker_link import WorkerLink
from app.engine.source.specs import resolve_model
from app.engine.source.split import SplitSpec
from app.model.devices import resolve_device, resolve_dtype, wire_dtype_for


async def _client(link: WorkerLink, hidden: int, prompt: int, steps: int) -> list[float]:
    middle = await link.connect()
    generator = torch.Generator().manual_seed(0)
    try:
        await middle.forward(torch.randn(1, prompt, hidden, generator=generator), list(range(prompt)))
        latencies = []
        for position in range(prompt, prompt + steps):
            started = time.perf_counter()
            await middle.forward(torch.randn(1, 1, hidden, generator=generator), [position])
            latencies.append((time.perf_counter() - started) * 1000)
        return latencies
    finally:
        await middle.close()


def process_memory_mib(pid: int) -> dict[str, float]:
    """Resident and peak memory of a process in MiB (Linux /proc; empty elsewhere)."""
    status = Path(f"/proc/{pid}/status")
    if not status.is_file():
        return {}
    fields = dict(line.split(":", 1) for line in status.read_text().splitlines() if ":" in line)
    return {key: int(fields[name].split()[0]) / 1024 for key, name in (("rss", "VmRSS"), ("peak", "VmHWM"))}


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))]


@dataclass(frozen=True)
class LoadRow:
    """What the worker sustained with ``sessions`` clients decoding at once."""

    sessions: int
    aggregate_tok_per_s: float
    step_ms_p50: float
    step_ms_p99: float
    worker_memory_mib: dict[str, float]  # rss, peak (Linux; empty elsewhere)
    prompt: int
    steps_per_session: int


def run_load(
    spec: str,
    split: SplitSpec,
    counts: list[int],
    prompt: int = 64,
    steps: int = 48,
    log=print,
    device: str = "cpu",
    dtype: str = "float32",
) -> list[LoadRow]:
    """Aggregate tok/s and step latency of ``counts`` concurrent sessions against one worker on loopback,
    which computes on ``device`` in ``dtype`` (the wire carries that dtype)."""
    source = resolve_model(spec)
    wire = wire_dtype_for(resolve_dtype(dtype, resolve_device(device)))
    sessions = ("--max-sessions-per-token", str(max(counts)))
    link = WorkerLink.embedded(source, split, wire, device=device, dtype=dtype, extra_args=sessions)
    rows = []
    try:
        link.wait_ready()
        for count in counts:
            started = time.perf_counter()
            results = asyncio.run(_gather(link, source.config.hidden_size, prompt, steps, count))
            elapsed = time.perf_counter() - started
            latencies = [ms for client in results for ms in client]
            row = LoadRow(
                sessions=count,
                aggregate_tok_per_s=round(count * steps / elapsed, 2),
                step_ms_p50=round(statistics.median(latencies), 2),
                step_ms_p99=round(percentile(latencies, 99), 2),
                worker_memory_mib={k: round(v, 1) for k, v in process_memory_mib(link.local_worker.pid).items()},
                prompt=prompt,
                steps_per_session=steps,
            )
            rows.append(row)
            log(
                f"{count:>3} sessions: {row.aggregate_tok_per_s:7.1f} tok/s in all, step p50 "
                f"{row.step_ms_p50:.1f} ms, p99 {row.step_ms_p99:.1f} ms, worker {row.worker_memory_mib}"
            )
    finally:
        link.close()
    return rows


async def _gather(link: WorkerLink, hidden: int, prompt: int, steps: int, count: int) -> list[list[float]]:
    return await asyncio.gather(*(_client(link, hidden, prompt, steps) for _ in range(count)))
