"""`splitchat bench --load 1,4,16`: many sessions against one worker, what the worker sustains.

Each session is a client that prefills a prompt's worth of hidden states and then decodes one
position per round trip, as sequential decoding does. The hidden states are random: the worker's cost
does not depend on their values, and leaving the workstation half out measures the worker alone.
Reported per session count: aggregate tokens per second, p50/p99 step latency, how many rows the
worker's batched passes held on average (over the passes the decode steps saw), the pass's own time and
the wait for one, and the worker process's resident and peak memory (Linux /proc).

With ``cores_apart`` the worker process and this one (every client's coroutine) each keep to half of the
cores (``core_affinity``), so the clients' own turnaround does not take the worker's core; each row then
says which cores the worker's threads and this process were allowed.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import os
import statistics
import time
from dataclasses import dataclass
from pathlib import Path

import torch

from app.bench.balancer import Balancer
from app.bench.core_affinity import core_halves, pin_this_process, process_cores
from app.engine.link.local_worker import LocalWorker
from app.engine.link.worker_link import WorkerLink
from app.engine.source.specs import resolve_model
from app.jobs import Progress
from app.model.choices import SplitSpec
from app.model.devices import resolve_device, resolve_dtype, wire_dtype_for


@dataclass(frozen=True)
class Step:
    """One decode step of one session, as the client saw it and as the worker reported it."""

    ms: float
    pass_id: int
    pass_rows: int
    compute_ms: float
    queue_ms: float


async def _client(
    link: WorkerLink, hidden: int, prompt: int, steps: int, prefilled: asyncio.Barrier, via: str | None
) -> list[Step]:
    middle = await link.connect(via)
    generator = torch.Generator().manual_seed(0)
    try:
        await middle.forward(torch.randn(1, prompt, hidden, generator=generator), list(range(prompt)))
        await prefilled.wait()  # every session decodes at once: the steady state being measured
        seen = []
        for position in range(prompt, prompt + steps):
            started = time.perf_counter()
            reply = await middle.forward(torch.randn(1, 1, hidden, generator=generator), [position])
            ms = (time.perf_counter() - started) * 1000
            seen.append(Step(ms, reply.pass_id, reply.pass_rows, reply.remote_compute_ms, reply.queue_ms))
        return seen
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
    mean_rows_per_pass: float  # over the distinct passes the decode steps ran in
    pass_ms_p50: float  # one such pass's compute on the worker
    queue_ms_p50: float  # a step's wait on the worker for a pass with room
    max_pass_rows: int | None  # the worker's row budget per pass (its hello)
    prefill_s: float  # every session's prompt, before the decoding being measured
    replicas: int  # workers behind HAProxy (1: one worker, no balancer)
    cores_apart: bool = False  # the worker on one half of the cores, the clients on the other
    worker_cores: list[int] | None = None  # cores the worker's threads may use (Linux; None elsewhere)
    client_cores: list[int] | None = None  # cores this process, every client, may use
    rounds: int = 1  # runs of this count pooled, taken in turn with the other counts


def run_load(
    spec: str,
    split: SplitSpec,
    counts: list[int],
    prompt: int = 64,
    steps: int = 48,
    log=print,
    device: str = "cpu",
    dtype: str = "float32",
    max_pass_rows: int | None = None,
    replicas: int = 1,
    progress: Progress | None = None,
    cores_apart: bool = False,
    rounds: int = 1,
) -> list[LoadRow]:
    """Aggregate tok/s and step latency of ``counts`` concurrent sessions against one worker on loopback
    (or ``replicas`` of it behind HAProxy), computing on ``device`` in ``dtype`` (the wire carries that).

    Every session prefills ``prompt`` positions, then all decode ``steps`` positions at once; the
    aggregate is the decode phase's tokens over its time. With ``rounds`` above one the counts are run
    in turn that many times (1, 16, 1, 16, …) and each count's figures pool its rounds: the ratio of two
    counts then compares them on the same machine, not on a machine that drifted between the first
    count and the last (a shared VM's steal moves by tens of per cent within a minute). With
    ``cores_apart`` (Linux, one worker) the worker runs on one half of the cores and this process's
    clients on the other; this process's own cores are given back at the end.
    """
    if cores_apart and replicas > 1:
        raise ValueError("--cores-apart takes one worker (--replicas 1)")
    if rounds < 1:
        raise ValueError("--load-rounds must be at least 1")
    halves = core_halves() if cores_apart else None
    source = resolve_model(spec, progress)
    wire = wire_dtype_for(resolve_dtype(dtype, resolve_device(device)))
    options = ["--max-sessions-per-token", str(max(counts))]
    if max_pass_rows is not None:
        options += ["--max-pass-rows", str(max_pass_rows)]
    original = frozenset(os.sched_getaffinity(0)) if halves else frozenset()
    original_threads = torch.get_num_threads()
    if halves:
        pin_this_process(halves.worker)  # the worker process starts with these cores (and one thread each)
    try:
        link = WorkerLink.embedded(source, split, wire, device=device, dtype=dtype, extra_args=tuple(options))
    finally:
        if halves:
            pin_this_process(halves.app)
    workers, balancer, rows = [], None, []
    try:
        link.wait_ready()
        workers = [link.local_worker] + start_replicas(link, replicas - 1)
        if replicas > 1:
            balancer = Balancer([worker.endpoint for worker in workers])
        via = balancer.endpoint if balancer else None
        announced = asyncio.run(_announced_pass_rows(link, via))
        threads = torch.get_num_threads()
        torch.set_num_threads(1)  # the clients only draw random rows: their threads must not spin on its cores
        try:
            pooled: dict[int, list] = {count: [] for count in counts}
            runs = [count for _ in range(rounds) for count in counts]
            for done, count in enumerate(runs):
                if progress:
                    sessions = f"{count} session{'s' * (count != 1)}"
                    progress(f"load run {done + 1}/{len(runs)}: {sessions} at once", done / len(runs))
                with garbage_held():
                    results, prefill_s, decode_s = asyncio.run(
                        _gather(link, source.config.hidden_size, prompt, steps, count, via)
                    )
                cores = (process_cores(link.local_worker.pid), process_cores(os.getpid()))
                pooled[count].append((results, prefill_s, decode_s, _summed_memory(workers), cores))
        finally:
            torch.set_num_threads(threads)
        if progress:
            progress(f"load run {len(runs)}/{len(runs)} done", 1.0)
        for count in dict.fromkeys(counts):
            their = pooled[count]
            results = [client for run in their for client in run[0]]
            prefill_s = statistics.mean(run[1] for run in their)
            decode_s = sum(run[2] for run in their)
            memory, (worker_cores, client_cores) = their[-1][3], their[-1][4]
            steps_seen = [step for client in results for step in client]
            latencies = [step.ms for step in steps_seen]
            # Replicas number their passes alike: a pass is told apart by what it reported too.
            passes = {(step.pass_id, step.pass_rows, step.compute_ms): step for step in steps_seen if step.pass_id}
            row = LoadRow(
                sessions=count,
                aggregate_tok_per_s=round(count * steps * len(their) / decode_s, 2),
                step_ms_p50=round(statistics.median(latencies), 2),
                step_ms_p99=round(percentile(latencies, 99), 2),
                worker_memory_mib=memory,
                prompt=prompt,
                steps_per_session=steps,
                mean_rows_per_pass=round(statistics.mean(p.pass_rows for p in passes.values()), 2) if passes else 0.0,
                pass_ms_p50=round(statistics.median(p.compute_ms for p in passes.values()), 2) if passes else 0.0,
                queue_ms_p50=round(statistics.median(step.queue_ms for step in steps_seen), 2),
                max_pass_rows=announced,
                prefill_s=round(prefill_s, 3),
                replicas=replicas,
                cores_apart=cores_apart,
                worker_cores=worker_cores or None,  # empty: not readable here (not Linux)
                client_cores=client_cores or None,
                rounds=len(their),
            )
            rows.append(row)
            log(
                f"{count:>3} sessions: {row.aggregate_tok_per_s:7.1f} tok/s in all, step p50 "
                f"{row.step_ms_p50:.1f} ms, p99 {row.step_ms_p99:.1f} ms, {row.mean_rows_per_pass:.1f} rows a pass "
                f"({row.pass_ms_p50:.1f} ms), wait {row.queue_ms_p50:.1f} ms, worker {row.worker_memory_mib}"
            )
    finally:
        stop_replicas(link, workers, balancer)
        if halves:
            pin_this_process(original)
            torch.set_num_threads(original_threads)
    return rows


@contextlib.contextmanager
def garbage_held():
    """No cyclic collection in this process while a run is timed; one after it, outside the timing.

    This one process stands for every session's workstation. Its full collections (the model and the
    libraries it loaded, and up to 380,000 objects a run's connections leave in cycles: 0.1–0.6 s each,
    several a run) stalled all sixteen clients at once, which sixteen workstations never do together,
    and set the sixteen-session p99 rather than the worker did. The worker collects as it always does.
    """
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
        gc.collect()


def stop_replicas(link: WorkerLink, workers: list[LocalWorker], balancer: Balancer | None) -> None:
    """Stop the balancer, the replicas started beside the link's worker, and that worker."""
    if balancer is not None:
        balancer.stop()
    for worker in workers[1:]:
        worker.stop()
    link.close()


def start_replicas(link: WorkerLink, count: int) -> list[LocalWorker]:
    """More workers serving the embedded link's shard with its token: replicas for a balancer."""
    first = link.local_worker
    replicas = []
    for _ in range(count):
        replica = LocalWorker(
            first.shard,
            first.device,
            first.dtype,
            first.max_frame,
            first.session_ttl_s,
            extra_args=first.extra_args,
            shared_token=(first.token_file, first.token),
        )
        replica.start()
        replicas.append(replica)
    return replicas


def _summed_memory(workers: list[LocalWorker]) -> dict[str, float]:
    """Resident and peak MiB of the worker processes together (each replica holds its own weights)."""
    total: dict[str, float] = {}
    for worker in workers:
        for key, value in process_memory_mib(worker.pid).items():
            total[key] = round(total.get(key, 0.0) + value, 1)
    return total


async def _announced_pass_rows(link: WorkerLink, via: str | None) -> int | None:
    middle = await link.connect(via)
    try:
        return middle.hello.max_pass_rows
    finally:
        await middle.close()


async def _gather(
    link: WorkerLink, hidden: int, prompt: int, steps: int, count: int, via: str | None = None
) -> tuple[list[list[Step]], float, float]:
    """Every client's steps, the prefill phase's seconds and the decode phase's seconds."""
    prefilled = asyncio.Barrier(count + 1)  # the clients and this observer
    started = time.perf_counter()
    decoding = asyncio.ensure_future(prefilled.wait())  # released with the clients, when all have prefilled
    clients = asyncio.gather(*(_client(link, hidden, prompt, steps, prefilled, via) for _ in range(count)))
    await asyncio.wait([decoding, clients], return_when=asyncio.FIRST_COMPLETED)
    decode_start = time.perf_counter()
    try:
        results = await clients
    finally:
        decoding.cancel()
    return results, decode_start - started, time.perf_counter() - decode_start
