"""``splitchat bench`` from the command line: check the options, run, write and print what was measured."""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import asdict
from pathlib import Path

from app.bench.document import project, run_document_bench
from app.bench.failover import run_failover
from app.bench.load import run_load
from app.bench.pass_profile import profile_passes
from app.bench.prompts import load_prompt_sets
from app.bench.records import BenchResult
from app.bench.report import add_ratios, decompose, plot_bench, summarise
from app.bench.runs import BENCH_MODES, BenchConfig, run_bench
from app.engine.source.specs import resolve_model
from app.model.choices import SplitSpec
from app.progress_display import stderr_progress


def report_command(args: argparse.Namespace) -> int:
    """Re-derive summaries, the decomposition and the plot from the runs of an earlier bench JSON."""
    result = BenchResult.from_json(args.report.read_text())
    add_ratios(result.runs)
    result.summary = summarise(result.runs)
    result.decomposition = decompose(result.runs)
    if args.json:
        args.json.write_text(result.to_json())
    if args.plot:
        plot_bench(result, args.plot)
    print_summary(result)
    return 0


def run_bench_command(args: argparse.Namespace) -> int:
    if args.report:
        return report_command(args)
    if args.load:
        return load_command(args)
    if args.document_tokens:
        return document_command(args)
    modes = [m.strip() for m in args.modes.split(",") if m.strip()]
    unknown = set(modes) - set(BENCH_MODES)
    if unknown:
        raise ValueError(f"unknown bench mode(s) {', '.join(sorted(unknown))}; choose from {', '.join(BENCH_MODES)}")
    rtts = [float(r) for r in args.rtt_ms.split(",") if r.strip()]
    if any(r < 0 for r in rtts):
        raise ValueError("RTTs must be >= 0")
    if min(args.budget, args.head_depth, args.head_nodes) < 1:
        raise ValueError("--budget, --head-depth and --head-nodes must be >= 1")
    config = BenchConfig(
        spec=args.model,
        split=SplitSpec.parse(args.split),
        rtts_ms=rtts,
        modes=modes,
        max_new_tokens=args.max_new_tokens,
        prompts=load_prompt_sets(args.prompt_set, per_category=args.prompts),
        jitter_ms=args.jitter_ms,
        bandwidth_mbps=_one_bandwidth(args.bandwidth_mbps),
        device=args.device,
        dtype=args.dtype,
        wire_dtype=args.wire_dtype,
        max_frame=args.max_frame,
        budget=args.budget,
        head_depth=args.head_depth,
        head_nodes=args.head_nodes,
        peer=not args.no_peer,
    )
    started = time.perf_counter()
    # The per-run lines go above the progress bar (on a terminal) without tearing it.
    result = run_bench(config, log=stderr_progress.write, progress=stderr_progress)
    stderr_progress.close()
    result.elapsed_s = round(time.perf_counter() - started, 1)
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(result.to_json())
    if args.plot:
        args.plot.parent.mkdir(parents=True, exist_ok=True)
        plot_bench(result, args.plot)
    print_summary(result)
    return 0


def _numbers(text: str, what: str) -> list[float]:
    try:
        values = [float(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise ValueError(f"{what} takes numbers separated by commas, not {text!r}") from None
    if not values or min(values) < 0:
        raise ValueError(f"{what} takes numbers >= 0, e.g. 20,100,0")
    return values


def _one_bandwidth(text: str) -> float:
    values = _numbers(text, "--bandwidth-mbps")
    if len(values) != 1:
        raise ValueError("--bandwidth-mbps takes one value here (a list only with --document-tokens)")
    return values[0]


def document_command(args: argparse.Namespace) -> int:
    """The wait for the first token after pasting a long document: cold, and sent ahead while typing."""
    sizes = [int(n) for n in _numbers(args.document_tokens, "--document-tokens")]
    if min(sizes) < 1:
        raise ValueError("--document-tokens takes sizes of at least one token")
    rtts = _numbers(args.rtt_ms, "--rtt-ms")
    bandwidths = _numbers(args.bandwidth_mbps, "--bandwidth-mbps")
    split = SplitSpec.parse(args.split)
    runs = []
    for rtt in rtts:
        runs += run_document_bench(
            args.model,
            split,
            sizes,
            rtt,
            bandwidths,
            ahead=not args.no_ahead,
            log=_result_line,
            device=args.device,
            dtype=args.dtype,
            wire_dtype=args.wire_dtype,
            compression={"on": (True,), "off": (False,), "both": (False, True)}[args.wire_compression],
            cores_apart=args.cores_apart,
            progress=stderr_progress,
        )
    stderr_progress.close()
    hidden = resolve_model(args.model).config.hidden_size
    wire = args.wire_dtype or _wire_of(args)
    projections = project(runs, hidden, wire, sorted({*sizes, 4000, 16000}), sorted({*bandwidths, 50.0, 100.0}))
    for row in projections:
        _print(
            f"projection {row.shape}, {row.document_tokens} tokens, {row.bandwidth_mbps:g} Mbit/s: upload "
            f"{row.upload_s:.1f} s, download {row.download_s:.1f} s; link {row.serial_link_s:.1f} s in turn, "
            f"{row.overlapped_link_s:.1f} s overlapped (half precision on the wire; worker compute not included)"
        )
    if args.json:
        _write_json(
            args.json,
            {
                "model": args.model,
                "split": args.split,
                "rtt_ms": rtts,
                "wire_dtype": wire,
                "runs": [asdict(run) for run in runs],
                "projections": [asdict(row) for row in projections],
            },
        )
    return 0


def _wire_of(args: argparse.Namespace) -> str:
    from app.model.devices import resolve_device, resolve_dtype, wire_dtype_for

    return wire_dtype_for(resolve_dtype(args.dtype, resolve_device(args.device)))


def load_command(args: argparse.Namespace) -> int:
    counts = [int(n) for n in args.load.split(",") if n.strip()]
    if not counts or min(counts) < 1:
        raise ValueError("--load takes session counts such as 1,4,16")
    if args.replicas < 1:
        raise ValueError("--replicas must be at least 1")
    if args.cores_apart and args.replicas > 1:
        raise ValueError("--cores-apart takes one worker (--replicas 1)")
    if args.kill_replica:
        return failover_command(args, counts)
    split = SplitSpec.parse(args.split)
    rows = run_load(
        args.model,
        split,
        counts,
        log=_result_line,
        device=args.device,
        dtype=args.dtype,
        max_pass_rows=args.max_pass_rows,
        replicas=args.replicas,
        progress=stderr_progress,
        cores_apart=args.cores_apart,
        rounds=args.load_rounds,
    )
    stderr_progress.close()
    # The cost curve (rows per pass vs time) behind the GPU projection: the CPU worker's middle in-process.
    on_cpu = args.device in ("cpu", "auto") and args.replicas == 1
    curve = profile_passes(args.model, split, sorted({1, 2, 4, 8, 16, 32, *counts}), log=_print) if on_cpu else []
    if args.json:
        load = {
            "model": args.model,
            "split": args.split,
            "device": args.device,
            "dtype": args.dtype,
            "replicas": args.replicas,
            "cores_apart": args.cores_apart,
            "load_rounds": args.load_rounds,
            "load": [asdict(row) for row in rows],
            "pass_profile": [asdict(cost) for cost in curve],
        }
        _write_json(args.json, load)
    return 0


def _write_json(path: Path, body: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(body, indent=2))


def _print(line: str) -> None:
    print(line, flush=True)


def _result_line(line: str) -> None:
    """A result on stdout while a progress bar may be drawn on the terminal: above it, not through it."""
    stderr_progress.write(line, sys.stdout)


def failover_command(args: argparse.Namespace, counts: list[int]) -> int:
    if len(counts) != 1:
        raise ValueError("--kill-replica takes one session count, e.g. --load 8")
    result = run_failover(
        args.model,
        SplitSpec.parse(args.split),
        sessions=counts[0],
        replicas=args.replicas,
        new_tokens=args.max_new_tokens,
        log=_print,
    )
    print(
        f"{result.sessions} sessions over {result.replicas} replicas, one killed after "
        f"{result.killed_after_tokens} tokens: {result.sessions_recovered} recovered, answers identical to "
        f"alone: {result.identical_to_alone}; their longest wait for a token {result.stall_s:.2f} s "
        f"(without the failure {result.usual_stall_s:.2f} s); all answers {result.concurrent_s:.1f} s without "
        f"the failure, {result.killed_s:.1f} s with it"
    )
    if args.json:
        _write_json(args.json, {"model": args.model, "split": args.split, "failover": asdict(result)})
    return 0 if result.identical_to_alone else 1


def print_summary(result: BenchResult) -> None:
    sets = list(dict.fromkeys(row.prompt_set for row in result.summary))
    for row in result.summary:
        if row.category != "overall":
            continue
        step = row.step_ms
        named = f" [{row.prompt_set}]" if len(sets) > 1 else ""
        extras = ""
        if row.speedup_vs_sequential is not None:
            extras += f", {row.speedup_vs_sequential:.2f}x sequential (min {row.min_speedup_vs_sequential:.2f})"
        if row.fraction_of_local is not None:
            extras += f", {row.fraction_of_local:.2f} of local"
        if row.network_bound_fraction_of_local is not None:
            extras += f" (with free compute {row.network_bound_fraction_of_local:.2f})"
        print(
            f"{row.mode:>10} rtt {row.rtt_ms:5.0f} ms{named}: {row.tok_per_s:6.2f} tok/s, "
            f"{row.tokens_per_round_trip:.2f} tok/trip{extras}; step {step['total']:.1f} ms "
            f"(net {step['network']:.1f}, local {step['local_compute']:.1f}, remote {step['remote_compute']:.1f}, "
            f"ser {step['serialization']:.2f}; ser + framing {row.wire_overhead_share:.2%})"
        )
    for mode, fit in result.decomposition.items():
        print(
            f"{mode:>10} overhead f = {fit.overhead_ms:.1f} ms (CV error {fit.cv_mean_abs_error}); "
            f"projected tok/s {fit.projected_tok_per_s}"
        )
