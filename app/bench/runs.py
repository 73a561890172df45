"""``splitchat bench``: decoding over an emulated WAN, every step's time broken down.

Modes: ``local`` runs the unsplit model in this process with sequential decoding (no worker, no wire:
the ceiling); every decoding mode crosses a real WebSocket to a worker process through the latency
proxy. Every run generates exactly ``max_new_tokens`` (stop tokens ignored) so runs compare like for
like. The prompt set lives in ``app/resources/bench_prompts.json``.
"""

from __future__ import annotations

import asyncio
import platform
import sys
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace

import torch

from app.bench.latency_proxy import LinkProfile, ProxyThread
from app.bench.peer import pld_tokens_per_forward
from app.bench.prompts import WARMUP, BenchPrompt
from app.bench.records import LOCAL, BenchResult, BenchRun, PeerResult
from app.bench.report import add_ratios, decompose, summarise
from app.engine.decode.edge import LocalEdge
from app.engine.decode.session import Generation, SplitSession
from app.engine.link.middle import LocalMiddle, Middle
from app.engine.link.worker_link import WorkerLink
from app.engine.source.specs import ModelSource, resolve_model
from app.engine.speculation.head import HeadDrafter
from app.engine.speculation.head_file import load_head_drafter
from app.engine.speculation.modes import Speculation
from app.jobs import Progress
from app.model.choices import MODE_NAMES, Mode, SplitSpec
from app.model.devices import resolve_device, resolve_dtype, wire_dtype_for

BENCH_MODES = (LOCAL, *MODE_NAMES)
Log = Callable[[str], None]


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


def run_bench(config: BenchConfig, log: Log = print, progress: Progress | None = None) -> BenchResult:
    """Run every mode × RTT × prompt; the runs, their summaries and the RTT decomposition.

    ``progress`` hears of the model's conversion (first use only), then of each run done."""
    source = resolve_model(config.spec, progress)
    device = resolve_device(config.device)
    dtype = resolve_dtype(config.dtype, device)
    wire = config.wire_dtype or wire_dtype_for(dtype)
    edge = LocalEdge(source, config.split, device, dtype)
    head = load_head_drafter(source, edge.embed_weight, edge.lm_head_weight, config.split.k_in, edge.dtype)
    if head is None and Mode.LEARNED in config.modes:
        log("mode learned skipped: no draft head for this model (splitchat train-draft makes one)")
        config = replace(config, modes=[m for m in config.modes if m != Mode.LEARNED])
    tokenizer = source.tokenizer()

    def chat_ids(messages: list[dict]) -> list[int]:
        ids = tokenizer.apply_chat_template(messages, add_generation_prompt=True, tokenize=True, return_dict=False)
        return list(ids)

    prompts = [(p, chat_ids(p.messages)) for p in config.prompts]
    warmup = chat_ids(WARMUP)
    remote_modes = [m for m in config.modes if m != LOCAL]
    per_prompt = int(LOCAL in config.modes) + len(remote_modes) * len(config.rtts_ms) + int(config.peer)
    tally = _Tally(progress, len(prompts) * per_prompt)
    runs: list[BenchRun] = []
    if LOCAL in config.modes:
        middle = LocalMiddle.of(source, config.split, device, dtype)
        runs += asyncio.run(
            _run_interleaved(edge, lambda: _same(middle), prompts, [LOCAL], 0.0, config, log, warmup, None, tally)
        )
    if remote_modes:
        link = WorkerLink.embedded(
            source, config.split, wire, config.max_frame, device=config.device, dtype=config.dtype
        )
        try:
            link.wait_ready()
            host, port = link.endpoint.removeprefix("ws://").rsplit(":", 1)
            for rtt in config.rtts_ms:
                profile = LinkProfile(rtt, config.jitter_ms, config.bandwidth_mbps)
                with ProxyThread(host, int(port), profile) as proxy:

                    def connect(proxy_port: int = proxy.port) -> Awaitable[Middle]:
                        return link.connect(via=f"ws://127.0.0.1:{proxy_port}")

                    runs += asyncio.run(
                        _run_interleaved(edge, connect, prompts, remote_modes, rtt, config, log, warmup, head, tally)
                    )
        finally:
            link.close()
    peers = _peer_pld(source, prompts, config, log, tally) if config.peer else {}
    for run in runs:
        peer = peers.get(run.prompt_id)
        if peer is not None:
            run.peer_pld_tokens_per_forward = peer.tokens_per_forward
            run.peer_pld_forwards, run.peer_pld_new_tokens = peer.forwards, peer.new_tokens
    add_ratios(runs)
    return BenchResult(
        runs=runs,
        summary=summarise(runs),
        decomposition=decompose(runs),
        peer_pld=peers,
        model=source.spec,
        split=str(config.split),
        max_new_tokens=config.max_new_tokens,
        device=str(device),
        dtype=str(dtype).removeprefix("torch."),
        wire_dtype=wire,
        jitter_ms=config.jitter_ms,
        bandwidth_mbps=config.bandwidth_mbps,
        budget=config.budget,
        head_depth=config.head_depth,
        head_nodes=config.head_nodes,
        draft_arithmetic=None if head is None else head.arithmetic.value,
        machine={
            "platform": platform.platform(),
            "python": sys.version.split()[0],
            "torch": torch.__version__,
            "threads": torch.get_num_threads(),
        },
    )


async def _same(middle):
    return middle


async def _run_interleaved(
    edge: LocalEdge,
    make_middle: Callable[[], Awaitable[Middle]],
    prompts: list[tuple[BenchPrompt, list[int]]],
    modes: list[str],
    rtt: float,
    config: BenchConfig,
    log: Log,
    warmup_ids: list[int],
    head: HeadDrafter | None,
    tally: _Tally,
) -> list[BenchRun]:
    """Every prompt runs in every mode back to back, so slow drift of the machine favours no mode."""
    speculations, controllers = {}, {}
    for mode in modes:
        speculations[mode] = Speculation(
            mode=Mode.SEQUENTIAL if mode == LOCAL else mode,
            max_nodes=config.budget,
            head_depth=config.head_depth,
            head_nodes=config.head_nodes,
        )
        warm = await make_middle()
        # One controller per link and mode, as in the app: the warm-up teaches it this link's costs.
        session = SplitSession(edge, warm, (), speculations[mode], draft_head=head)
        controllers[mode] = session.controller
        await session.generate(warmup_ids, 16)
        await warm.close()
    runs = []
    for prompt, ids in prompts:
        for mode in modes:
            middle = await make_middle()
            # No stop tokens: every run makes max_new_tokens.
            session = SplitSession(edge, middle, (), speculations[mode], controller=controllers[mode], draft_head=head)
            generation = await session.generate(ids, config.max_new_tokens)
            await middle.close()
            runs.append(_run_record(mode, rtt, prompt, ids, generation, log))
            tally.done(f"{mode} at {rtt:.0f} ms, {prompt.id}")
    return runs


def _run_record(
    mode: str, rtt: float, prompt: BenchPrompt, ids: list[int], generation: Generation, log: Log
) -> BenchRun:
    stats = generation.stats
    plans = generation.plans[-len(stats.decode_steps) :] if stats.decode_steps else []  # the decode steps' own
    step = stats.mean_step_ms()
    limit = 1000 * stats.tokens_per_round_trip / (rtt + step.local_compute + step.remote_compute)
    accepted = Counter(s.tokens_out for s in stats.decode_steps)
    decoded = sum(s.tokens_out for s in stats.decode_steps)
    network_ms = sum(s.network_ms for s in stats.decode_steps)
    run = BenchRun(
        mode=mode,
        rtt_ms=rtt,
        prompt_id=prompt.id,
        category=prompt.category,
        prompt_set=prompt.prompt_set,
        draft_ms=round(sum(s.draft_ms for s in stats.decode_steps) / max(1, len(stats.decode_steps)), 3),
        expected_tokens_per_step=round(sum(p.expected_tokens for p in plans) / len(plans), 4) if plans else None,
        prompt_tokens=len(ids),
        new_tokens=stats.new_tokens,
        round_trips=stats.round_trips,
        tokens_per_round_trip=round(stats.tokens_per_round_trip, 4),
        tok_per_s=round(stats.tok_per_s, 3),
        decode_tok_per_s=round(stats.decode_tok_per_s, 3),
        total_ms=round(stats.total_ms, 3),
        prefill_ms=round(stats.steps[0].total_ms, 3),
        step_ms=step.rounded(),
        mean_block_size=round(sum(s.tokens_in for s in stats.decode_steps) / max(1, len(stats.decode_steps)), 2),
        accepted_per_step={str(k): accepted[k] for k in sorted(accepted)},
        break_even_mean=round(sum(p.break_even for p in generation.plans) / max(1, len(generation.plans)), 4),
        limit_tok_per_s=round(limit, 3),
        fraction_of_limit=round(stats.decode_tok_per_s / limit, 4) if mode in (LOCAL, Mode.SEQUENTIAL) else 1.0,
        network_bound_tok_per_s=round(1000 * decoded / network_ms, 3) if network_ms > 0 else None,
    )
    log(
        f"{mode:>10} rtt {rtt:5.0f} ms {prompt.id:>20}: {run.tok_per_s:6.2f} tok/s, "
        f"{run.tokens_per_round_trip:.2f} tok/trip, block {run.mean_block_size:.1f}, "
        f"step {step.total:.1f} ms = net {step.network:.1f} + local {step.local_compute:.1f} "
        f"+ remote {step.remote_compute:.1f} + ser {step.serialization:.2f}"
    )
    return run


def _peer_pld(
    source: ModelSource,
    prompts: list[tuple[BenchPrompt, list[int]]],
    config: BenchConfig,
    log: Log,
    tally: _Tally,
) -> dict[str, PeerResult]:
    from transformers import AutoModelForCausalLM

    model = AutoModelForCausalLM.from_pretrained(source.folder, dtype=torch.float32).eval()
    peers = {}
    for prompt, ids in prompts:
        peers[prompt.id] = pld_tokens_per_forward(model, ids, config.max_new_tokens)
        log(f"{'peer pld':>10} {prompt.id:>29}: {peers[prompt.id].tokens_per_forward:.2f} tok/forward")
        tally.done(f"peer pld, {prompt.id}")
    return peers


class _Tally:
    """Counts the bench's runs for ``progress``: "bench run 5/24: sequential at 50 ms, prompt-id"."""

    def __init__(self, progress: Progress | None, total: int):
        self.progress, self.total, self.count = progress, max(1, total), 0

    def done(self, what: str) -> None:
        self.count += 1
        if self.progress is not None:
            self.progress(f"bench run {self.count}/{self.total}: {what}", min(1.0, self.count / self.total))
