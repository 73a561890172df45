"""``splitchat bench``: decoding over an emulated WAN, every step's time broken down.

Modes: ``local`` runs the unsplit model in this process with sequential decoding (no worker, no wire:
the ceiling); ``sequential``, ``lookup``, ``lookahead`` and ``auto`` cross a real WebSocket to a worker
process through the latency proxy. Every run generates exactly ``max_new_tokens`` (stop tokens ignored)
so runs compare like for like. The prompt set lives in ``resources/bench_prompts.json``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import platform
import sys
import threading
import time
from collections import Counter
from dataclasses import dataclass, replace
from pathlib import Path

import torch

from app.engine.bench_peer import pld_tokens_per_forward
from app.engine.bench_report import add_ratios, decompose, plot_bench, summarise
from app.engine.decoding import Speculation, SplitSession
from app.engine.devices import resolve_device, resolve_dtype, wire_dtype_for
from app.engine.draft_head import load_drafter
from app.engine.edge import LocalEdge
from app.engine.export import embedded_shard, expected_fingerprint
from app.engine.latency_proxy import LatencyProxy, LinkProfile
from app.engine.layers import LayerStack
from app.engine.local_worker import LocalWorker
from app.engine.middle import LocalMiddle
from app.engine.models import ModelSource, resolve_model
from app.engine.split import SplitSpec
from app.engine.transport import RemoteMiddle

PROMPT_FILE = Path(__file__).resolve().parents[2] / "resources" / "bench_prompts.json"
MODES = ("local", "sequential", "lookup", "lookahead", "learned", "auto")
WARMUP = [{"role": "user", "content": "Hello! Please introduce yourself briefly."}]


@dataclass
class BenchPrompt:
    id: str
    category: str
    messages: list[dict]


def load_prompts(path: Path = PROMPT_FILE, per_category: int = 0) -> list[BenchPrompt]:
    """The bench prompt set; ``per_category`` > 0 keeps only the first N of each category."""
    prompts = [BenchPrompt(**p) for p in json.loads(path.read_text())["prompts"]]
    if per_category:
        seen: Counter[str] = Counter()
        kept = []
        for prompt in prompts:
            seen[prompt.category] += 1
            if seen[prompt.category] <= per_category:
                kept.append(prompt)
        prompts = kept
    return prompts


@dataclass
class BenchConfig:
    spec: str
    split: SplitSpec
    rtts_ms: list[float]
    modes: list[str]
    max_new_tokens: int
    prompts: list[BenchPrompt]
    jitter_ms: float = 0.0
    bandwidth_mbps: float = 0.0
    device: str = "auto"
    dtype: str = "auto"
    wire_dtype: str | None = None
    max_frame: int = 1 << 20
    budget: int = 48
    head_depth: int = 6
    head_nodes: int = 20
    peer: bool = True


class ProxyThread:
    """The latency proxy on its own event loop, so this process's compute never delays its delivery."""

    def __init__(self, host: str, port: int, profile: LinkProfile):
        self._loop = asyncio.new_event_loop()
        self._proxy = LatencyProxy(host, port, profile)
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)

    def __enter__(self) -> int:
        self._thread.start()
        return asyncio.run_coroutine_threadsafe(self._proxy.start(), self._loop).result(10)

    def __exit__(self, *exc) -> None:
        asyncio.run_coroutine_threadsafe(self._proxy.close(), self._loop).result(10)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(10)
        self._loop.close()


def run_bench(config: BenchConfig, log=print) -> dict:
    """Run every mode × RTT × prompt; return ``{"runs": [...], "summary": [...], "decomposition": ...}``."""
    source = resolve_model(config.spec)
    device = resolve_device(config.device)
    dtype = resolve_dtype(config.dtype, device)
    wire = config.wire_dtype or wire_dtype_for(dtype)
    edge = LocalEdge(source, config.split, device, dtype)
    drafter = load_drafter(source, edge)
    if drafter is None and "learned" in config.modes:
        log("mode learned skipped: no draft head for this model (splitchat train-draft makes one)")
        config = replace(config, modes=[m for m in config.modes if m != "learned"])
    tokenizer = source.tokenizer()
    prompts = [
        (
            p,
            list(
                tokenizer.apply_chat_template(p.messages, add_generation_prompt=True, tokenize=True, return_dict=False)
            ),
        )
        for p in config.prompts
    ]
    # Not one of the measured prompts: the warm-up must not teach the controller their answers.
    warmup = list(tokenizer.apply_chat_template(WARMUP, add_generation_prompt=True, tokenize=True, return_dict=False))
    runs: list[dict] = []
    if "local" in config.modes:
        middle = LocalMiddle(LayerStack.from_source(source, *config.split.middle(source.num_layers), device, dtype))
        runs += asyncio.run(
            _run_interleaved(edge, lambda: _same(middle), prompts, ["local"], 0.0, config, log, warmup, None)
        )
    remote_modes = [m for m in config.modes if m != "local"]
    if remote_modes:
        worker = LocalWorker(
            embedded_shard(source, config.split), device=config.device, dtype=config.dtype, max_frame=config.max_frame
        )
        endpoint, token = worker.start()
        host, port = endpoint.removeprefix("ws://").rsplit(":", 1)
        fingerprint = expected_fingerprint(source, config.split)
        try:
            for rtt in config.rtts_ms:
                profile = LinkProfile(rtt, config.jitter_ms, config.bandwidth_mbps)
                with ProxyThread(host, int(port), profile) as proxy_port:

                    async def connect(proxy_port=proxy_port):
                        return await RemoteMiddle.connect(
                            f"ws://127.0.0.1:{proxy_port}",
                            token,
                            expected_fingerprint=fingerprint,
                            wire_dtype=wire,
                            max_frame=config.max_frame,
                        )

                    runs += asyncio.run(
                        _run_interleaved(edge, connect, prompts, remote_modes, rtt, config, log, warmup, drafter)
                    )
        finally:
            worker.stop()
    peers = _peer_pld(source, prompts, config, log) if config.peer else {}
    for run in runs:
        if run["prompt_id"] in peers:
            run["peer_pld_tokens_per_forward"] = peers[run["prompt_id"]]["tokens_per_forward"]
            run["peer_pld_forwards"] = peers[run["prompt_id"]]["forwards"]
            run["peer_pld_new_tokens"] = peers[run["prompt_id"]]["new_tokens"]
    add_ratios(runs)
    return {
        "runs": runs,
        "summary": summarise(runs),
        "decomposition": decompose(runs),
        "peer_pld": peers,
        "model": source.spec,
        "split": str(config.split),
        "max_new_tokens": config.max_new_tokens,
        "device": str(device),
        "dtype": str(dtype).removeprefix("torch."),
        "wire_dtype": wire,
        "jitter_ms": config.jitter_ms,
        "bandwidth_mbps": config.bandwidth_mbps,
        "budget": config.budget,
        "head_depth": config.head_depth,
        "head_nodes": config.head_nodes,
        "machine": {
            "platform": platform.platform(),
            "python": sys.version.split()[0],
            "torch": torch.__version__,
            "threads": torch.get_num_threads(),
        },
    }


async def _same(middle):
    return middle


async def _run_interleaved(
    edge, make_middle, prompts, modes, rtt, config: BenchConfig, log, warmup_ids, drafter
) -> list[dict]:
    """Every prompt runs in every mode back to back, so slow drift of the machine favours no mode."""
    speculations, controllers = {}, {}
    for mode in modes:
        speculations[mode] = Speculation(
            mode="sequential" if mode == "local" else mode,
            max_nodes=config.budget,
            head_depth=config.head_depth,
            head_nodes=config.head_nodes,
        )
        warm = await make_middle()
        # One controller per link and mode, as in the app: the warm-up teaches it this link's costs.
        session = SplitSession(edge, warm, (), speculations[mode], draft_head=drafter)
        controllers[mode] = session.controller
        await session.generate(warmup_ids, 16)
        await warm.close()
    runs = []
    for prompt, ids in prompts:
        for mode in modes:
            middle = await make_middle()
            # No stop tokens: every run makes max_new_tokens.
            session = SplitSession(
                edge, middle, (), speculations[mode], controller=controllers[mode], draft_head=drafter
            )
            generation = await session.generate(ids, config.max_new_tokens)
            await middle.close()
            runs.append(_run_record(mode, rtt, prompt, ids, generation, log))
    return runs


def _run_record(mode: str, rtt: float, prompt: BenchPrompt, ids: list[int], generation, log) -> dict:
    stats = generation.stats
    step = stats.mean_step_ms()
    limit = 1000 * stats.tokens_per_round_trip / (rtt + step["local_compute"] + step["remote_compute"])
    accepted = Counter(s.tokens_out for s in stats.decode_steps)
    decoded = sum(s.tokens_out for s in stats.decode_steps)
    network_ms = sum(s.network_ms for s in stats.decode_steps)
    run = {
        "mode": mode,
        "rtt_ms": rtt,
        "prompt_id": prompt.id,
        "category": prompt.category,
        "prompt_tokens": len(ids),
        "new_tokens": stats.new_tokens,
        "round_trips": stats.round_trips,
        "tokens_per_round_trip": round(stats.tokens_per_round_trip, 4),
        "tok_per_s": round(stats.tok_per_s, 3),
        "decode_tok_per_s": round(stats.decode_tok_per_s, 3),
        "total_ms": round(stats.total_ms, 3),
        "prefill_ms": round(stats.steps[0].total_ms, 3),
        "step_ms": {k: round(v, 3) for k, v in step.items()},
        "mean_block_size": round(sum(s.tokens_in for s in stats.decode_steps) / max(1, len(stats.decode_steps)), 2),
        "accepted_per_step": {str(k): accepted[k] for k in sorted(accepted)},
        "break_even_mean": round(sum(p.break_even for p in generation.plans) / max(1, len(generation.plans)), 4),
        "limit_tok_per_s": round(limit, 3),
        # Decoding as fast as the link alone allows these tokens per round trip: computing for free.
        "network_bound_tok_per_s": round(1000 * decoded / network_ms, 3) if network_ms > 0 else None,
        "fraction_of_limit": round(stats.decode_tok_per_s / limit, 4) if mode in ("local", "sequential") else 1.0,
    }
    log(
        f"{mode:>10} rtt {rtt:5.0f} ms {prompt.id:>20}: {run['tok_per_s']:6.2f} tok/s, "
        f"{run['tokens_per_round_trip']:.2f} tok/trip, block {run['mean_block_size']:.1f}, "
        f"step {step['total']:.1f} ms = net {step['network']:.1f} + local {step['local_compute']:.1f} "
        f"+ remote {step['remote_compute']:.1f} + ser {step['serialization']:.2f}"
    )
    return run


def _peer_pld(source: ModelSource, prompts, config: BenchConfig, log) -> dict:
    from transformers import AutoModelForCausalLM

    model = AutoModelForCausalLM.from_pretrained(source.folder, dtype=torch.float32).eval()
    peers = {}
    for prompt, ids in prompts:
        peers[prompt.id] = pld_tokens_per_forward(model, ids, config.max_new_tokens)
        log(f"{'peer pld':>10} {prompt.id:>29}: {peers[prompt.id]['tokens_per_forward']:.2f} tok/forward")
    return peers


def report_command(args: argparse.Namespace) -> int:
    """Re-derive summaries, the decomposition and the plot from the runs of an earlier bench JSON."""
    result = json.loads(args.report.read_text())
    add_ratios(result["runs"])
    result["summary"] = summarise(result["runs"])
    result["decomposition"] = decompose(result["runs"])
    if args.json:
        args.json.write_text(json.dumps(result, indent=2))
    if args.plot:
        plot_bench(result, args.plot)
    print_summary(result)
    return 0


def run_bench_command(args: argparse.Namespace) -> int:
    if args.report:
        return report_command(args)
    if args.load:
        return load_command(args)
    modes = [m.strip() for m in args.modes.split(",") if m.strip()]
    unknown = set(modes) - set(MODES)
    if unknown:
        raise ValueError(f"unknown bench mode(s) {', '.join(sorted(unknown))}; choose from {', '.join(MODES)}")
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
        prompts=load_prompts(per_category=args.prompts),
        jitter_ms=args.jitter_ms,
        bandwidth_mbps=args.bandwidth_mbps,
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
    result = run_bench(config, log=lambda line: print(line, file=sys.stderr, flush=True))
    result["elapsed_s"] = round(time.perf_counter() - started, 1)
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(result, indent=2))
    if args.plot:
        args.plot.parent.mkdir(parents=True, exist_ok=True)
        plot_bench(result, args.plot)
    print_summary(result)
    return 0


def load_command(args: argparse.Namespace) -> int:
    from app.engine.load_bench import run_load

    counts = [int(n) for n in args.load.split(",") if n.strip()]
    if not counts or min(counts) < 1:
        raise ValueError("--load takes session counts such as 1,4,16")
    rows = run_load(args.model, SplitSpec.parse(args.split), counts, log=lambda line: print(line, flush=True))
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps({"model": args.model, "split": args.split, "load": rows}, indent=2))
    return 0


def print_summary(result: dict) -> None:
    for row in result["summary"]:
        if row["category"] != "overall":
            continue
        step = row["step_ms"]
        extras = ""
        if "speedup_vs_sequential" in row:
            extras += f", {row['speedup_vs_sequential']:.2f}x sequential (min {row['min_speedup_vs_sequential']:.2f})"
        if "fraction_of_local" in row:
            extras += f", {row['fraction_of_local']:.2f} of local"
        if "network_bound_fraction_of_local" in row:
            extras += f" (with free compute {row['network_bound_fraction_of_local']:.2f})"
        print(
            f"{row['mode']:>10} rtt {row['rtt_ms']:5.0f} ms: {row['tok_per_s']:6.2f} tok/s, "
            f"{row['tokens_per_round_trip']:.2f} tok/trip{extras}; step {step['total']:.1f} ms "
            f"(net {step['network']:.1f}, local {step['local_compute']:.1f}, remote {step['remote_compute']:.1f}, "
            f"ser {step['serialization']:.2f}; ser + framing {row['wire_overhead_share']:.2%})"
        )
    for mode, fit in result["decomposition"].items():
        print(
            f"{mode:>10} overhead f = {fit['overhead_ms']:.1f} ms (CV error {fit['cv_mean_abs_error']}); "
            f"projected tok/s {fit['projected_tok_per_s']}"
        )
