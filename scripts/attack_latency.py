"""A good session's tokens and step latency beside each of the security reviews' attacks on a real worker.

    .venv/bin/python scripts/attack_latency.py [--tokens 48] [--repeats 1] [--threads 1] [--json out.json]

Starts a worker process on loopback serving the bundled model's middle (split 2, float32, the product's
embedded worker), and runs a good session — a real workstation client, the bundled model's edge, decoding
greedily one token a round trip — on a fixed prompt: alone, then beside each attack, each attack run from
a separate process (so its clients do not share this process's interpreter with the good session):

- ``ping-flood``: connections past the handshake that send pings and never read (the worker drops them
  after its send timeout; they reconnect at once);
- ``starvation``: connections each keeping a 64-row block queued (the review's flood of short blocks)
  and one sending 448-row prefills in a loop;
- ``trees``: connections sending trees larger than the worker's pass (600 rows against 256, in float16
  rows: in float32 the frame is over the worker's 1 MiB and refused as ``frame_too_large`` before the
  tree is looked at), which it refuses with ``block_too_large``, in a loop;
- ``concurrent``: another token's four connections feeding one session 64-row blocks at once.

Reports per run the good session's decode-step p50 / p99, the worker's own compute per step (p50: what
the machine's other work costs, as against waiting), and whether its tokens are identical to the solo
run. The attack clients are the ones the integration tests use (tests/integration/test_hostile_*), with
the bundled model's hidden size. On a shared machine the figures move with its load: the one-minute load
average is printed beside each run. ``--threads`` (default 1) sets OMP_NUM_THREADS for this process and the
worker it starts: on a two-core machine that other work keeps busy, the worker's two spinning OpenMP threads
waiting on each other made one decode row take ~4 s instead of ~50 ms (as the integration tests found for
256-row passes), which measures the machine's scheduler, not the worker's planner.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import statistics
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from types import SimpleNamespace

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

PROMPT = "Explain in a short paragraph why a hospital might keep patient notes on its own servers."
ATTACKS = ("ping-flood", "starvation", "trees", "concurrent")
FLOOD_BLOCK, PREFILL_ROWS, TREE_ROWS, SHARED_BLOCK = 64, 448, 600, 64


@dataclass
class Run:
    """The good session's answer beside one attack (or none)."""

    attack: str
    step_ms_p50: float
    step_ms_p99: float
    step_ms_max: float
    remote_compute_ms_p50: float  # the worker's own compute for the good session's step
    steps: int
    identical_to_solo: bool
    load_1min: float  # this machine's one-minute load average when the run ended
    attacker: dict  # what the attack process did (frames answered, refusals, drops)


def load_average() -> float:
    return round(os.getloadavg()[0], 2)


# -- The attacks, each in its own process ----------------------------------------------------------------------
def attack_process(kind: str, endpoint: str, token: str, hidden: int, started, stop, results) -> None:
    """Run attack ``kind`` until ``stop`` is set; ``started`` once it is under way; its counts to ``results``."""
    os.environ.setdefault("OMP_NUM_THREADS", "1")  # random rows only: its threads must not spin
    counts = ping_flood(endpoint, token, started, stop) if kind == "ping-flood" else None
    if counts is None:
        counts = asyncio.run(_async_attack(kind, endpoint, token, hidden, started, stop))
    results.put(counts)


def ping_flood(endpoint: str, token: str, started, stop, connections: int = 4) -> dict:
    from tests.integration.test_hostile_clients_worker import Pinger, _upgrade

    worker = SimpleNamespace(port=int(endpoint.rsplit(":", 1)[1]))
    pingers = [Pinger(_upgrade(worker, token)) for _ in range(connections)]
    counts = {"connections": connections, "dropped_and_reopened": 0, "ping_mib": 0.0}
    started.set()
    while not stop.is_set():
        for index, pinger in enumerate(pingers):
            if not pinger.push(wait_s=0.01):
                counts["dropped_and_reopened"] += 1
                counts["ping_mib"] += pinger.sent / 2**20
                pinger.sock.close()
                pingers[index] = Pinger(_upgrade(worker, token))
    counts["ping_mib"] = round(counts["ping_mib"] + sum(p.sent for p in pingers) / 2**20, 1)
    for pinger in pingers:
        pinger.sock.close()
    return counts


def _frame(session: str, rows: int, hidden: int, pos=0, seq=1, tree=False, crop=None, dtype="float32"):
    """``tests.integration.test_hostile_sessions_worker.forward`` at ``hidden`` (there: the tiny model's 64)."""
    import torch

    from app.model.kv_cache import CacheEdit
    from app.wire.frames import encode_frame, tensor_to_bytes
    from app.wire.messages import ForwardRequest

    ancestry = torch.ones(rows, rows, dtype=torch.bool).tril() if tree else None
    request = ForwardRequest(
        session, [rows, hidden], dtype, list(range(pos, pos + rows)), ancestry, CacheEdit(crop=crop)
    )
    payload = torch.randn(rows, hidden, generator=torch.Generator().manual_seed(seq))
    return encode_frame(request.to_header(seq), tensor_to_bytes(payload, dtype))


async def _async_attack(kind: str, endpoint: str, token: str, hidden: int, started, stop) -> dict:
    from app.remote_worker.tokens import issue_token
    from tests.integration.test_hostile_sessions_worker import dial, open_session

    counts: dict = {"results": 0, "errors": {}}

    def count(header: dict) -> None:
        if header["type"] == "result":
            counts["results"] += 1
        else:
            code = header.get("code", header["type"])
            counts["errors"][code] = counts["errors"].get(code, 0) + 1

    async def keep_queued(ws, block: bytes, ahead: int) -> None:
        """Send ``ahead`` frames, then one more for every answer, until told to stop."""
        from app.wire.frames import decode_frame

        for _ in range(ahead):
            await ws.send(block)
        outstanding = ahead
        while outstanding:
            count(decode_frame(await asyncio.wait_for(ws.recv(), 120)).header)
            outstanding -= 1
            if not stop.is_set():
                await ws.send(block)
                outstanding += 1

    if kind == "starvation":
        links = [(await dial(endpoint, token))[0] for _ in range(9)]
        sessions = [await open_session(ws) for ws in links]
        jobs = [
            keep_queued(ws, _frame(s, FLOOD_BLOCK, hidden, crop=0), 2)
            for ws, s in zip(links[:8], sessions[:8], strict=True)
        ]
        jobs.append(keep_queued(links[8], _frame(sessions[8], PREFILL_ROWS, hidden, crop=0), 1))
        counts.update(connections=8, block_rows=FLOOD_BLOCK, prefill_rows=PREFILL_ROWS)
    elif kind == "trees":
        links = [(await dial(endpoint, token))[0] for _ in range(2)]
        sessions = [await open_session(ws) for ws in links]
        trees = [_frame(s, TREE_ROWS, hidden, tree=True, dtype="float16") for s in sessions]  # under 1 MiB
        jobs = [keep_queued(ws, tree, 1) for ws, tree in zip(links, trees, strict=True)]
        counts.update(connections=2, tree_rows=TREE_ROWS)
    elif kind == "concurrent":
        token_file = Path(os.environ["ATTACK_TOKEN_FILE"])
        other = issue_token(token_file)
        await asyncio.sleep(3)  # the worker re-reads its token file every 2 s
        links = [(await dial(endpoint, other))[0] for _ in range(4)]
        shared = await open_session(links[0])  # one session, fed by all four at once
        jobs = [keep_queued(ws, _frame(shared, SHARED_BLOCK, hidden, crop=0), 2) for ws in links]
        counts.update(connections=4, block_rows=SHARED_BLOCK, token="another")
    else:
        raise ValueError(kind)
    started.set()
    await asyncio.gather(*jobs)
    await asyncio.gather(*(ws.close() for ws in links))
    return counts


# -- The good session ------------------------------------------------------------------------------------------
async def good_answer(source, split, link, prompt: list[int], tokens: int):
    from app.engine.decode.edge import LocalEdge
    from app.engine.decode.session import SplitSession

    session = SplitSession(LocalEdge(source, split), await link.connect())  # sequential: a token a round trip
    try:
        return await session.generate(prompt, tokens)
    finally:
        await session.close()


def summarise(attack: str, generation, solo: list[int] | None, attacker: dict) -> Run:
    from app.bench.load import percentile

    steps = generation.stats.decode_steps
    latencies = [step.total_ms for step in steps]
    return Run(
        attack=attack,
        step_ms_p50=round(statistics.median(latencies), 1),
        step_ms_p99=round(percentile(latencies, 99), 1),
        step_ms_max=round(max(latencies), 1),
        remote_compute_ms_p50=round(statistics.median(step.remote_compute_ms for step in steps), 1),
        steps=len(steps),
        identical_to_solo=solo is None or generation.tokens == solo,
        load_1min=load_average(),
        attacker=attacker,
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tokens", type=int, default=48, help="tokens the good session decodes (%(default)s)")
    parser.add_argument("--repeats", type=int, default=1, help="rounds of solo + every attack (%(default)s)")
    parser.add_argument("--attacks", default=",".join(ATTACKS), help="comma-separated, of " + ", ".join(ATTACKS))
    parser.add_argument("--split", default="2", help="the split (%(default)s)")
    parser.add_argument("--threads", type=int, default=1, help="OpenMP threads, here and the worker's (%(default)s)")
    parser.add_argument("--json", type=Path, help="write the runs here")
    args = parser.parse_args(argv)
    if args.threads < 1:
        parser.error("--threads must be at least 1")
    os.environ["OMP_NUM_THREADS"] = str(args.threads)  # before torch loads; the worker process inherits it
    attacks = [a for a in args.attacks.split(",") if a]
    unknown = set(attacks) - set(ATTACKS)
    if unknown:
        parser.error(f"unknown attack(s): {', '.join(sorted(unknown))}")

    from app.engine.link.worker_link import WorkerLink
    from app.engine.source.names import BUNDLED_SPEC
    from app.engine.source.specs import resolve_model
    from app.model.choices import SplitSpec

    source, split = resolve_model(BUNDLED_SPEC), SplitSpec.parse(args.split)
    tokenizer = source.tokenizer()
    messages = [{"role": "user", "content": PROMPT}]
    prompt = list(tokenizer.apply_chat_template(messages, add_generation_prompt=True, tokenize=True, return_dict=False))
    link = WorkerLink.embedded(source, split, "float32", dtype="float32", extra_args=("--max-sessions-per-token", "32"))
    runs: list[Run] = []
    context = multiprocessing.get_context("spawn")
    try:
        link.wait_ready()
        worker = link.local_worker
        os.environ["ATTACK_TOKEN_FILE"] = str(worker.token_file)  # the spawned attackers read it
        print(f"worker pid {worker.pid} at {link.endpoint}; prompt {len(prompt)} tokens; load {load_average()}")
        solo_tokens: list[int] | None = None
        for round_ in range(args.repeats):
            for attack in ("solo", *attacks):
                attacker: dict = {}
                process = None
                if attack != "solo":
                    started, stop, results = context.Event(), context.Event(), context.Queue()
                    process = context.Process(
                        target=attack_process,
                        args=(attack, link.endpoint, link.token, source.config.hidden_size, started, stop, results),
                    )
                    process.start()
                    if not started.wait(120):
                        raise RuntimeError(f"the {attack} attack did not start")
                    time.sleep(2.0)  # under way: the worker's queue holds the attack before the good session asks
                generation = asyncio.run(good_answer(source, split, link, prompt, args.tokens))
                if process is not None:
                    stop.set()
                    attacker = results.get(timeout=300)
                    process.join(60)
                if solo_tokens is None:
                    solo_tokens = generation.tokens
                run = summarise(attack, generation, solo_tokens, attacker)
                runs.append(run)
                print(
                    f"round {round_ + 1} {attack:>11}: step p50 {run.step_ms_p50:8.1f} ms, p99 {run.step_ms_p99:8.1f} "
                    f"ms (worker compute p50 {run.remote_compute_ms_p50:.1f} ms), {run.steps} steps, identical to "
                    f"solo: {run.identical_to_solo}; load {run.load_1min}; attacker {attacker}",
                    flush=True,
                )
                if not worker.alive():
                    raise RuntimeError("the worker died")
    finally:
        link.close()
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        body = {"prompt": PROMPT, "tokens": args.tokens, "split": args.split, "threads": args.threads}
        body["runs"] = [asdict(r) for r in runs]
        args.json.write_text(json.dumps(body, indent=2))
    return 0 if all(run.identical_to_solo for run in runs) else 1


if __name__ == "__main__":
    sys.exit(main())
