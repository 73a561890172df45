"""`splitchat bench --load 8 --replicas 2 --kill-replica`: one replica behind HAProxy dies mid-answer.

Real split sessions (the workstation's edge, the worker's middle through the balancer) answer the bench
prompts three times: each alone, all at once, and all at once with one replica killed once every
session is mid-answer. Every answer must be token for token the one it gives alone; the cost of the
recovery is what it stalled the sessions that lost their replica: their longest wait for a token in the
killed run, against their longest wait without the failure. (The runs' total times are reported too;
on a machine whose cores both replicas share, losing one can make the rest faster.)
"""

from __future__ import annotations

import asyncio
import statistics
import time
from dataclasses import dataclass

from app.bench.balancer import Balancer
from app.bench.load import start_replicas, stop_replicas
from app.bench.prompts import load_prompts
from app.engine.decode.edge import LocalEdge
from app.engine.decode.session import SplitSession
from app.engine.link.handshake import connect_with_retries
from app.engine.link.worker_link import WorkerLink
from app.engine.source.specs import resolve_model
from app.engine.speculation.modes import Speculation
from app.model.choices import SplitSpec


@dataclass(frozen=True)
class FailoverResult:
    """What killing one of the replicas cost ``sessions`` concurrent answers."""

    sessions: int
    replicas: int
    new_tokens: int
    identical_to_alone: bool  # every answer of both concurrent runs equals the session's answer alone
    concurrent_s: float  # all sessions at once, no failure
    killed_s: float  # the same, one replica killed mid-answer
    extra_s: float  # killed − concurrent (negative where the replicas shared cores)
    sessions_recovered: int  # sessions whose worker died under them
    killed_after_tokens: int  # tokens produced in all when the replica was killed
    stall_s: float  # recovered sessions' longest wait between two tokens, median over them, with the failure
    usual_stall_s: float  # the same sessions' longest wait for a token without it


async def _answer(link, via: str, source, split, prompts, new_tokens: int, on_token=None):
    """Each prompt answered by its own split session, concurrently; return (tokens per prompt, notices,
    each session's longest wait between tokens in seconds)."""
    notices: list[list[str]] = []
    sessions = []
    stamps: list[list[float]] = [[] for _ in prompts]  # from the first token: the prefill is not a stall

    def stamping(index: int):
        def seen(token: int) -> None:
            stamps[index].append(time.perf_counter())
            if on_token is not None:
                on_token(token)

        return seen

    for _ in prompts:
        session = SplitSession(LocalEdge(source, split), await link.connect(via), speculation=Speculation(mode="auto"))
        heard: list[str] = []
        session.recovery.notice = heard.append
        session.recovery.reconnect = lambda: connect_with_retries(lambda: link.connect(via), 60.0)
        sessions.append(session)
        notices.append(heard)
    try:
        answers = await asyncio.gather(
            *(
                s.generate(p, new_tokens, on_token=stamping(i))
                for i, (s, p) in enumerate(zip(sessions, prompts, strict=True))
            )
        )
    finally:
        await asyncio.gather(*(s.close() for s in sessions))
    gaps = [max((b - a for a, b in zip(times, times[1:], strict=False)), default=0.0) for times in stamps]
    return [a.tokens for a in answers], notices, gaps


def run_failover(
    spec: str, split: SplitSpec, sessions: int = 8, replicas: int = 2, new_tokens: int = 48, log=print
) -> FailoverResult:
    """Answer ``sessions`` bench prompts alone, together, and together with a replica killed mid-answer."""
    if replicas < 2:
        raise ValueError("--kill-replica needs --replicas 2 or more (one must survive)")
    source = resolve_model(spec)
    tokenizer = source.tokenizer()
    chosen = load_prompts()[:sessions]
    prompts = [
        tokenizer.apply_chat_template(p.messages, add_generation_prompt=True, tokenize=True, return_dict=False)
        for p in chosen
    ]
    link = WorkerLink.embedded(source, split, "float32", dtype="float32")
    workers, balancer = [], None
    try:
        link.wait_ready()
        workers = [link.local_worker] + start_replicas(link, replicas - 1)
        balancer = Balancer([worker.endpoint for worker in workers])
        via = balancer.endpoint
        alone = [asyncio.run(_answer(link, via, source, split, [p], new_tokens))[0][0] for p in prompts]
        log(f"{len(prompts)} prompts answered alone")
        started = time.perf_counter()
        together, _, usual_gaps = asyncio.run(_answer(link, via, source, split, prompts, new_tokens))
        concurrent_s = time.perf_counter() - started
        log(f"together: {concurrent_s:.1f} s")
        produced = [0]
        kill_at = len(prompts) * new_tokens // 3

        def count(_token: int) -> None:
            produced[0] += 1
            if produced[0] == kill_at:
                workers[0].kill()

        started = time.perf_counter()
        killed, notices, gaps = asyncio.run(_answer(link, via, source, split, prompts, new_tokens, on_token=count))
        killed_s = time.perf_counter() - started
        log(f"together with replica 1 killed after {kill_at} tokens: {killed_s:.1f} s")
    finally:
        stop_replicas(link, workers, balancer)
    recovered = [i for i, heard in enumerate(notices) if any("reconnecting" in n for n in heard)]
    return FailoverResult(
        sessions=len(prompts),
        replicas=replicas,
        new_tokens=new_tokens,
        identical_to_alone=together == alone and killed == alone,
        concurrent_s=round(concurrent_s, 2),
        killed_s=round(killed_s, 2),
        extra_s=round(killed_s - concurrent_s, 2),
        sessions_recovered=len(recovered),
        killed_after_tokens=kill_at,
        stall_s=round(statistics.median(gaps[i] for i in recovered), 2) if recovered else 0.0,
        usual_stall_s=round(statistics.median(usual_gaps[i] for i in recovered), 2) if recovered else 0.0,
    )
