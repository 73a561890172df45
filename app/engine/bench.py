"""``splitchat bench``: decoding over an emulated WAN, with each step's time broken down.

Modes: ``local`` runs all three stacks in this process (no worker, no wire: the ceiling);
``sequential`` crosses a real WebSocket to a worker process through the latency proxy.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import platform
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import torch

from app.engine.decoding import SplitSession
from app.engine.devices import resolve_device, resolve_dtype, wire_dtype_for
from app.engine.edge import LocalEdge
from app.engine.export import embedded_shard, expected_fingerprint
from app.engine.latency_proxy import LatencyProxy, LinkProfile
from app.engine.layers import LayerStack
from app.engine.local_worker import LocalWorker
from app.engine.middle import LocalMiddle
from app.engine.models import ModelSource, layer_tensor_names, resolve_model
from app.engine.split import SplitSpec
from app.engine.transport import RemoteMiddle

BENCH_PROMPTS = [
    ("chat", "What are three good habits for keeping a shared office tidy?"),
    (
        "clause",
        "Summarise this clause: The Receiving Party shall hold the Confidential Information in strict "
        "confidence and shall not disclose it to any third party without prior written consent.",
    ),
    (
        "note",
        "Rewrite as a short referral letter: 54-year-old, chest pain on exertion for two weeks, "
        "relieved by rest, smoker, father had a heart attack at 60.",
    ),
    ("code", "Write a Python function that returns the n-th Fibonacci number iteratively."),
    ("list", "List the planets of the solar system in order from the Sun."),
    ("creative", "Write a four-line poem about rain on a city street."),
]
MODES = ("local", "sequential")


@dataclass
class BenchConfig:
    spec: str
    split: SplitSpec
    rtts_ms: list[float]
    modes: list[str]
    max_new_tokens: int
    prompts: list[tuple[str, str]]
    jitter_ms: float = 0.0
    bandwidth_mbps: float = 0.0
    device: str = "auto"
    dtype: str = "auto"
    wire_dtype: str | None = None
    max_frame: int = 1 << 20


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
    """Run every mode × RTT × prompt; return ``{"runs": [...], "summary": [...], ...}``."""
    source = resolve_model(config.spec)
    device = resolve_device(config.device)
    dtype = resolve_dtype(config.dtype, device)
    wire = config.wire_dtype or wire_dtype_for(dtype)
    edge = LocalEdge(source, config.split, device, dtype)
    tokenizer = source.tokenizer()
    prompts = [
        (
            pid,
            tokenizer.apply_chat_template(
                [{"role": "user", "content": text}], add_generation_prompt=True, tokenize=True, return_dict=False
            ),
        )
        for pid, text in config.prompts
    ]
    runs: list[dict] = []
    if "local" in config.modes:
        middle = LocalMiddle(_middle_stack(source, config.split, device, dtype))
        runs += asyncio.run(_run_prompts(edge, lambda: _same(middle), prompts, "local", 0.0, config, log))
    if "sequential" in config.modes:
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

                    runs += asyncio.run(_run_prompts(edge, connect, prompts, "sequential", rtt, config, log))
        finally:
            worker.stop()
    return {
        "runs": runs,
        "summary": summarise(runs),
        "model": source.spec,
        "split": str(config.split),
        "max_new_tokens": config.max_new_tokens,
        "device": str(device),
        "dtype": str(dtype).removeprefix("torch."),
        "wire_dtype": wire,
        "jitter_ms": config.jitter_ms,
        "bandwidth_mbps": config.bandwidth_mbps,
        "machine": {
            "platform": platform.platform(),
            "python": sys.version.split()[0],
            "torch": torch.__version__,
            "threads": torch.get_num_threads(),
        },
    }


async def _same(middle):
    return middle


async def _run_prompts(edge, make_middle, prompts, mode, rtt, config: BenchConfig, log) -> list[dict]:
    runs = []
    warm = await make_middle()
    await SplitSession(edge, warm).generate(prompts[0][1], 4)  # warm-up: first-call costs are not the link's
    await warm.close()
    for pid, ids in prompts:
        middle = await make_middle()
        session = SplitSession(edge, middle)  # no stop tokens: every run makes max_new_tokens
        generation = await session.generate(ids, config.max_new_tokens)
        await middle.close()
        stats = generation.stats
        step = stats.mean_step_ms()
        limit = 1000 / (rtt + step["local_compute"] + step["remote_compute"])
        run = {
            "mode": mode,
            "rtt_ms": rtt,
            "prompt_id": pid,
            "prompt_tokens": len(ids),
            "new_tokens": stats.new_tokens,
            "round_trips": stats.round_trips,
            "tokens_per_round_trip": round(stats.tokens_per_round_trip, 4),
            "tok_per_s": round(stats.tok_per_s, 3),
            "decode_tok_per_s": round(stats.decode_tok_per_s, 3),
            "prefill_ms": round(stats.steps[0].total_ms, 3),
            "step_ms": {k: round(v, 3) for k, v in step.items()},
            "limit_tok_per_s": round(limit, 3),
            "fraction_of_limit": round(stats.decode_tok_per_s / limit, 4),
        }
        runs.append(run)
        log(
            f"{mode:>10} rtt {rtt:5.0f} ms  {pid:>8}: {run['decode_tok_per_s']:6.2f} tok/s "
            f"({run['fraction_of_limit']:.1%} of limit)  step {step['total']:.1f} ms = net {step['network']:.1f} "
            f"+ local {step['local_compute']:.1f} + remote {step['remote_compute']:.1f} "
            f"+ ser {step['serialization']:.2f}"
        )
    return runs


def summarise(runs: list[dict]) -> list[dict]:
    """Means per (mode, rtt) over prompts."""
    groups: dict[tuple[str, float], list[dict]] = {}
    for run in runs:
        groups.setdefault((run["mode"], run["rtt_ms"]), []).append(run)
    summary = []
    for (mode, rtt), group in groups.items():
        n = len(group)
        step = {k: round(sum(r["step_ms"][k] for r in group) / n, 3) for k in group[0]["step_ms"]}
        summary.append(
            {
                "mode": mode,
                "rtt_ms": rtt,
                "prompts": n,
                "tok_per_s": round(sum(r["tok_per_s"] for r in group) / n, 3),
                "decode_tok_per_s": round(sum(r["decode_tok_per_s"] for r in group) / n, 3),
                "tokens_per_round_trip": round(sum(r["tokens_per_round_trip"] for r in group) / n, 4),
                "step_ms": step,
                "serialization_share": round(step["serialization"] / step["total"], 4) if step["total"] else 0.0,
                # Serialization plus everything the link costs beyond the emulated RTT (framing, sockets, proxy).
                "wire_overhead_share": round(
                    (step["serialization"] + max(0.0, step["network"] - rtt)) / step["total"], 4
                )
                if step["total"] and mode != "local"
                else 0.0,
                "fraction_of_limit": round(sum(r["fraction_of_limit"] for r in group) / n, 4),
            }
        )
    return summary


def _middle_stack(source: ModelSource, split: SplitSpec, device, dtype) -> LayerStack:
    first, last = split.middle(source.num_layers)
    reader = source.weights()
    return LayerStack(source.config, first, last, reader.load(layer_tensor_names(reader, first, last)), device, dtype)


def plot_bench(result: dict, path: Path) -> None:
    """tok/s against RTT per mode (with the sequential limit), and the mean step broken down per RTT."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    summary = result["summary"]
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2))
    for mode in sorted({s["mode"] for s in summary}):
        rows = sorted((s for s in summary if s["mode"] == mode), key=lambda s: s["rtt_ms"])
        rtts = [s["rtt_ms"] for s in rows]
        if mode == "local":
            left.axhline(rows[0]["decode_tok_per_s"], color="grey", linestyle="--", label="local (no network)")
            continue
        left.plot(rtts, [s["decode_tok_per_s"] for s in rows], "o-", label=mode)
        limits = [1000 / (s["rtt_ms"] + s["step_ms"]["local_compute"] + s["step_ms"]["remote_compute"]) for s in rows]
        left.plot(rtts, limits, "x:", label=f"{mode} limit 1000/(RTT+compute)")
    left.set_xlabel("emulated RTT (ms)")
    left.set_ylabel("decode tok/s")
    left.set_title(f"{result['model']}, split {result['split']}")
    left.legend(fontsize=8)
    rows = sorted((s for s in summary if s["mode"] != "local"), key=lambda s: s["rtt_ms"])
    labels = [f"{s['mode']}\n{s['rtt_ms']:.0f} ms" for s in rows]
    bottom = [0.0] * len(rows)
    for part in ("network", "local_compute", "remote_compute", "serialization"):
        values = [s["step_ms"][part] for s in rows]
        right.bar(labels, values, bottom=bottom, label=part.replace("_", " "))
        bottom = [b + v for b, v in zip(bottom, values, strict=False)]
    right.set_ylabel("mean decode step (ms)")
    right.set_title("where a step's time goes")
    right.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def run_bench_command(args: argparse.Namespace) -> int:
    modes = [m.strip() for m in args.modes.split(",") if m.strip()]
    unknown = set(modes) - set(MODES)
    if unknown:
        raise ValueError(f"unknown bench mode(s) {', '.join(sorted(unknown))}; choose from {', '.join(MODES)}")
    rtts = [float(r) for r in args.rtt_ms.split(",") if r.strip()]
    if any(r < 0 for r in rtts):
        raise ValueError("RTTs must be >= 0")
    prompts = BENCH_PROMPTS[: args.prompts] if args.prompts else BENCH_PROMPTS
    config = BenchConfig(
        spec=args.model,
        split=SplitSpec.parse(args.split),
        rtts_ms=rtts,
        modes=modes,
        max_new_tokens=args.max_new_tokens,
        prompts=prompts,
        jitter_ms=args.jitter_ms,
        bandwidth_mbps=args.bandwidth_mbps,
        device=args.device,
        dtype=args.dtype,
        wire_dtype=args.wire_dtype,
        max_frame=args.max_frame,
    )
    started = time.perf_counter()
    result = run_bench(config, log=lambda line: print(line, file=sys.stderr, flush=True))
    result["elapsed_s"] = round(time.perf_counter() - started, 1)
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(result, indent=2))
    if args.plot:
        plot_bench(result, args.plot)
    for row in result["summary"]:
        step = row["step_ms"]
        print(
            f"{row['mode']:>10} rtt {row['rtt_ms']:5.0f} ms: {row['decode_tok_per_s']:6.2f} tok/s, "
            f"{row['fraction_of_limit']:.1%} of limit, step {step['total']:.1f} ms (net {step['network']:.1f}, "
            f"local {step['local_compute']:.1f}, remote {step['remote_compute']:.1f}, "
            f"ser {step['serialization']:.2f} = {row['serialization_share']:.2%})"
        )
    return 0
