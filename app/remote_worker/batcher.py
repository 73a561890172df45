"""Continuous batching: the forward requests waiting when the compute thread is free run as one pass.

A pass runs the rows of several sessions through the middle layers together (``app.model.batching``):
the weights are read once for all of them, so sixteen sessions decoding at once cost little more than
one. A pass holds at most ``max_pass_rows`` rows. Which blocks it takes (``plan``):

- Earliest deadline first. A block's deadline is the pass it arrived in (or, cut, went back to the queue
  in) plus a slack of ``SLACK_PASSES`` × its rows left ÷ ``max_pass_rows``, at most ``SLACK_PASSES``: a
  decode row is due at once, a prefill up to four passes later. Deadlines never move, so a waiting block
  only rises in the order, and once past its deadline only blocks that came before it go first.
- The first block of the order is always in the pass, whole or (a causal run, a prefill) as a chunk of
  what is left: so every pass serves the most overdue block, and no block waits more than its slack plus
  one pass for each block with an earlier deadline — one a connection, since a connection's next request
  is read after its answer.
- Small blocks (decode rows, small trees: at most 1/``SMALL_SHARE`` of a pass) keep up to
  1/``GUARD_SHARE`` of every pass for themselves while they wait, so a decoding session rides in the
  next pass beside whatever else is overdue: prefills cut to fill a pass, a flood of mid-sized blocks.

A request with rows still to compute goes back to the queue after each pass, behind what arrived
meanwhile. Shorter blocks used to go first without ageing: eight clients each keeping a 64-row block
queued kept a 448-row prefill out of every pass (unfinished after 75 s; docs/BENCH.md). A session has at
most one block in a pass (its blocks depend on each other); a speculative tree is never cut, and one
larger than a pass is refused (BLOCK_TOO_LARGE).

Every check of a request runs before its cache is touched, and one that fails answers that request
alone with its typed error; its batch-mates' rows run as if it had never come.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

import torch

from app.model.batching import Segment
from app.model.kv_cache import StackCache
from app.model.layers import LayerStack
from app.remote_worker.pass_policy import (
    DEFAULT_MAX_GATHER_MS,
    DEFAULT_MAX_PASS_ROWS,
    GUARD_SHARE,
    SLACK_PASSES,
    SMALL_SHARE,
    Gathering,
)
from app.wire.frames import ErrorCode, ProtocolError, tensor_to_bytes
from app.wire.messages import ForwardRequest

log = logging.getLogger("splitchat.worker")


@dataclass(frozen=True)
class JobResult:
    """One request's output, ready to send, and what it cost."""

    payload: bytes
    shape: list[int]
    compute_ms: float  # the passes it took part in (shared with their other rows)
    encode_ms: float
    queue_ms: float  # waiting for passes with room
    cache_len: int
    pass_id: int  # the pass that finished it
    pass_rows: int  # every session's rows in that pass


@dataclass(eq=False)
class Job:
    """A forward request in the queue, and how far it has got."""

    cache: StackCache
    request: ForwardRequest
    hidden: torch.Tensor  # [rows, hidden]
    reply_dtype: str
    max_context: int
    session: str = ""  # the session's id (for gathering; one block per session and pass is by cache)
    future: asyncio.Future | None = None
    done: int = 0  # rows computed so far
    outputs: list[torch.Tensor] = field(default_factory=list)
    compute_ms: float = 0.0
    queued_at: float = field(default_factory=time.perf_counter)
    deadline: float = 0.0  # in passes planned: the order it goes in (Batcher.enqueue)

    @property
    def rows(self) -> int:
        return self.hidden.shape[0]

    @property
    def left(self) -> int:
        return self.rows - self.done


@dataclass(frozen=True)
class Chunk:
    """Rows [start, end) of a job, in one pass."""

    job: Job
    start: int
    end: int


@dataclass
class PassCounters:
    """What the batcher has done since the worker started (the bench reads rows per pass from these)."""

    passes: int = 0
    rows: int = 0


class Batcher:
    """Queues forward requests and runs them in passes on the worker's one compute thread."""

    def __init__(
        self,
        stack: LayerStack,
        compute: ThreadPoolExecutor,
        max_pass_rows: int = DEFAULT_MAX_PASS_ROWS,
        max_gather_ms: float = DEFAULT_MAX_GATHER_MS,
    ):
        if max_pass_rows < 1:
            raise ValueError("a pass must hold at least one row")
        self.stack = stack
        self.max_pass_rows = max_pass_rows
        self.gathering = Gathering(max_gather_ms)
        self.counters = PassCounters()
        self._compute = compute
        self._queue: deque[Job] = deque()
        self._planned = 0  # passes planned so far: the clock deadlines are set by
        self._wake: asyncio.Event | None = None
        self._serving: asyncio.Task | None = None

    async def run(self, job: Job) -> JobResult:
        """Queue ``job`` and return its result once every row has been computed (ProtocolError if refused)."""
        if job.request.ancestry is not None and job.rows > self.max_pass_rows:
            # Never cut, it would run as one pass over the limit (the server refuses it before it is unpacked).
            raise ProtocolError(ErrorCode.BLOCK_TOO_LARGE, f"a tree of {job.rows} rows exceeds a pass")
        loop = asyncio.get_running_loop()
        if self._serving is None:
            self._wake = asyncio.Event()
            self._serving = asyncio.ensure_future(self._serve())
        job.future = loop.create_future()
        self.gathering.arrived(job.session, loop.time())
        self.enqueue(job)
        self._wake.set()
        return await job.future

    async def _serve(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            await self._wake.wait()
            self._wake.clear()
            while self._queue:
                await self._gather(loop)
                plan = self.plan()
                started = loop.time()
                try:
                    outcomes = await loop.run_in_executor(self._compute, self.run_pass, plan)
                except Exception as exc:  # a bug outside the layers must not stop every later pass
                    log.exception("internal error around a pass")
                    error = ProtocolError(ErrorCode.INTERNAL, f"{type(exc).__name__}: {exc}")
                    outcomes = [(chunk.job, error) for chunk in plan]
                now = loop.time()
                self.gathering.pass_done(started, now, sum(chunk.end - chunk.start for chunk in plan))
                for job, outcome in outcomes:
                    if outcome is None:
                        self.enqueue(job)  # rows left: behind whatever arrived meanwhile
                        continue
                    self.gathering.answered(job.session, now)
                    if job.future.done():
                        pass  # its client went away
                    elif isinstance(outcome, Exception):
                        job.future.set_exception(outcome)
                    else:
                        job.future.set_result(outcome)

    async def _gather(self, loop: asyncio.AbstractEventLoop) -> None:
        """Wait (briefly) for the sessions expected back before the pass starts (pass_policy.py)."""
        self.gathering.begin(loop.time(), self._queued_rows())
        while self._queued_rows() < self.max_pass_rows:
            wait = self.gathering.wait_s(loop.time())
            if wait <= 0:
                return
            self._wake.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), wait)

    def _queued_rows(self) -> int:
        return sum(job.rows - job.done for job in self._queue)

    def enqueue(self, job: Job) -> None:
        """Queue ``job``: a new one with its deadline (now plus its slack); one with rows left after a pass
        keeps the deadline it has (``plan`` moved it back by what that pass gave it)."""
        if job.done == 0:
            job.deadline = self._planned + self._slack(job.rows)
        self._queue.append(job)

    def _slack(self, rows: int) -> float:
        """Passes a block of ``rows`` may wait before it is overdue: SLACK_PASSES for a pass's worth."""
        return SLACK_PASSES * min(rows, self.max_pass_rows) / self.max_pass_rows

    def plan(self) -> list[Chunk]:
        """The next pass: earliest deadline first, small blocks' share kept, chunked to fill the row budget;
        one block per session (the module's docstring)."""
        live = [job for job in self._queue if job.future is None or not job.future.done()]  # gone clients: dropped
        budget, chunks, sessions = self.max_pass_rows, [], set()
        guard = min(sum(job.left for job in live if self._small(job)), self.max_pass_rows // GUARD_SHARE)
        for job in sorted(live, key=lambda job: job.deadline):  # stable: the earlier arrival breaks a tie
            if id(job.cache) in sessions or budget == 0:
                continue
            small = self._small(job)
            # Only small blocks use their share, and a tree first in the order (it cannot be cut, and always
            # fits an empty pass): so the first block always goes, a causal run cut to leave the share.
            waived = small or (not chunks and job.request.ancestry is not None)
            take = self._take(job, budget, 0 if waived else guard)
            if take == 0:
                continue  # a tree that does not fit (never cut): it keeps its deadline for the next pass
            chunks.append(Chunk(job, job.done, job.done + take))
            sessions.add(id(job.cache))
            budget -= take
            job.deadline += self._slack(take)  # what is left of it waits its turn behind what it just got
            if small:
                guard = max(0, guard - take)
        planned = {id(chunk.job) for chunk in chunks}
        self._queue = deque(job for job in live if id(job) not in planned)
        self._planned += 1
        return chunks

    def _small(self, job: Job) -> bool:
        return job.left <= max(1, self.max_pass_rows // SMALL_SHARE)

    @staticmethod
    def _take(job: Job, budget: int, guard: int) -> int:
        """Rows of ``job`` in a pass with ``budget`` rows left, ``guard`` of them kept for small blocks: all of
        it, a chunk of a causal run, or none (a tree that does not fit)."""
        room = budget - guard
        if job.left <= room:
            return job.left
        if job.request.ancestry is not None or room <= 0:
            return 0
        return room

    def run_pass(self, chunks: list[Chunk]) -> list[tuple[Job, JobResult | ProtocolError | None]]:
        """Run one pass on the compute thread; per job its result, its error, or None (rows left)."""
        started = time.perf_counter()
        outcomes: list[tuple[Job, JobResult | ProtocolError | None]] = []
        admitted: list[Chunk] = []
        for chunk in chunks:
            if chunk.start == 0:
                try:
                    _admit(chunk.job)
                except ProtocolError as exc:
                    outcomes.append((chunk.job, exc))
                    continue
            admitted.append(chunk)
        if not admitted:
            return outcomes
        lengths = [chunk.job.cache.length for chunk in admitted]
        try:
            outputs = self.stack.forward_batch([_segment(chunk) for chunk in admitted])
            if outputs[0].is_cuda:
                torch.cuda.synchronize()
        except Exception as exc:  # a bug costs this pass's requests, never the worker or other sessions
            log.exception("internal error in a pass of %d request(s)", len(admitted))
            for chunk, length in zip(admitted, lengths, strict=True):
                chunk.job.cache.crop(length)  # nothing half-written stays behind
            error = ProtocolError(ErrorCode.INTERNAL, f"{type(exc).__name__}: {exc}")
            return outcomes + [(chunk.job, error) for chunk in admitted]
        elapsed_ms = (time.perf_counter() - started) * 1000
        rows = sum(chunk.end - chunk.start for chunk in admitted)
        self.counters.passes += 1
        self.counters.rows += rows
        for chunk, output in zip(admitted, outputs, strict=True):
            job = chunk.job
            job.outputs.append(output)
            job.done = chunk.end
            job.compute_ms += elapsed_ms
            outcomes.append((job, self._finish(job, rows) if job.done == job.rows else None))
        return outcomes

    def _finish(self, job: Job, pass_rows: int) -> JobResult:
        encode_start = time.perf_counter()
        output = job.outputs[0] if len(job.outputs) == 1 else torch.cat(job.outputs)
        payload = tensor_to_bytes(output, job.reply_dtype)
        now = time.perf_counter()
        encode_ms = (now - encode_start) * 1000
        return JobResult(
            payload=payload,
            shape=list(output.shape),
            compute_ms=job.compute_ms,
            encode_ms=encode_ms,
            queue_ms=max(0.0, (now - job.queued_at) * 1000 - job.compute_ms - encode_ms),
            cache_len=job.cache.length,
            pass_id=self.counters.passes,
            pass_rows=pass_rows,
        )


def _admit(job: Job) -> None:
    """Every check of a request, then its cache edit: a refused request leaves its session as it was."""
    request, cache = job.request, job.cache
    try:
        request.edit.check(cache.length)
    except ValueError as exc:
        raise ProtocolError(ErrorCode.BAD_REQUEST, str(exc)) from None
    length = request.edit.length_after(cache.length)
    if length + job.rows > job.max_context or max(request.positions) >= job.max_context:
        raise ProtocolError(ErrorCode.CONTEXT_TOO_LONG, f"context would exceed {job.max_context} positions")
    request.edit.apply(cache)


def _segment(chunk: Chunk) -> Segment:
    job = chunk.job
    whole = chunk.start == 0 and chunk.end == job.rows
    return Segment(
        hidden=job.hidden[chunk.start : chunk.end],
        positions=torch.tensor(job.request.positions[chunk.start : chunk.end]),
        cache=job.cache,
        ancestry=job.request.ancestry if whole else None,  # only causal runs are ever cut
        long_rope=job.request.long_rope,
    )
