"""The decode loop across the split: prefill what is new, then one verify block per round trip.

Each step sends the last sampled token (the root) plus, when speculating, a tree of drafted
continuations and the lookahead window; verification keeps the longest path the model agrees with, and
the caches keep exactly that path. Sequential decoding is the same loop with a one-node tree.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import aclosing
from dataclasses import dataclass, field
from enum import StrEnum

import torch

from app.engine.decode.blocks import Block, VerifyBlock, build_block
from app.engine.decode.edge import LazyLogits, LocalEdge
from app.engine.decode.metrics import GenerationStats, StepClock, StepTiming
from app.engine.decode.recovery import WorkerRecovery
from app.engine.decode.repetition import RepetitionGuard
from app.engine.decode.sampling import Sampling, TokenPicker
from app.engine.decode.verification import verify
from app.engine.link.middle import Middle, MiddleBlock, MiddleReply
from app.engine.speculation.controller import Controller, Plan
from app.engine.speculation.drafter import Drafter
from app.engine.speculation.head import HeadDrafter
from app.engine.speculation.lookup import common_prefix
from app.engine.speculation.modes import Speculation
from app.engine.speculation.tree import DraftTree, Verdict
from app.model.choices import Mode
from app.model.config import max_context
from app.model.families import longrope_limit
from app.model.kv_cache import CacheEdit

# LM-head rows projected together before verification walks the tree: one product of up to 16 rows costs
# little more than one row, and verification reads 2-4 rows a step. Below 3 nodes, rows one by one are cheaper.
PREFETCH_ROWS = 16
PREFETCH_MIN = 3

# A prefill of this many tokens or more goes as a stream of blocks (``SplitSession._stream``), in about
# SEND_BLOCKS blocks of 64 to 256 rows: enough blocks for this computer's layers, the upload, the worker
# and the download to overlap (measured at ``link.transport.PIPELINE_FRAMES``), none so large that its
# layers keep the event loop (and the link's keepalive) waiting long, none larger than a CPU worker's pass,
# none so small that its pass is inefficient.
STREAM_FROM_ROWS = 128
SEND_BLOCKS = 16
MIN_BLOCK_ROWS, MAX_BLOCK_ROWS = 64, 256
AHEAD_CHUNK_ROWS = MAX_BLOCK_ROWS  # a prefill while typing: one worker pass a chunk
SEND_DEPTH = 16  # a prefill at Send: every block may be in flight (the transport bounds its frames)
AHEAD_DEPTH = 2  # a prefill while typing: a Send waits for at most two chunks before its own


def send_block_rows(rows: int) -> int:
    """The rows of each block when a prefill of ``rows`` tokens goes as a stream."""
    return min(MAX_BLOCK_ROWS, max(MIN_BLOCK_ROWS, -(-rows // SEND_BLOCKS)))


class ContextTooLong(ValueError):
    """The conversation does not fit the model's context."""


class StopReason(StrEnum):
    """Why an answer ended."""

    STOP_TOKEN = "stop_token"  # the model wrote one of its stop tokens
    MAX_NEW_TOKENS = "max_new_tokens"  # the longest-answer limit
    CANCELLED = "cancelled"  # the user stopped it
    REPEATING = "repeating"  # the repetition guard stopped a loop (repetition.py)


@dataclass
class Generation:
    tokens: list[int]
    stats: GenerationStats
    stop_reason: StopReason
    plans: list[Plan] = field(default_factory=list)


@dataclass
class _BlockOutput:
    """What the tail computed for the rows a step reads."""

    features: torch.Tensor  # [rows, hidden]: the normed features the LM head reads
    logits: LazyLogits  # their logits, projected when read


class _Reply:
    """The generation being written: tokens as they are emitted, step timings, and when it is over."""

    def __init__(self, limit: int, stop_ids: set[int], on_token: Callable[[int], None] | None):
        self.generation = Generation(tokens=[], stats=GenerationStats(), stop_reason=StopReason.MAX_NEW_TOKENS)
        self._limit, self._stop_ids, self._on_token = limit, stop_ids, on_token
        self.finished = False
        self._loops = RepetitionGuard()

    def emit(self, tokens: Sequence[int]) -> int:
        """Emit tokens in order until the reply is over; returns how many were used."""
        used = 0
        for token in tokens:
            used += 1
            self.generation.tokens.append(token)
            if self._on_token:
                self._on_token(token)
            if token in self._stop_ids:
                self.generation.stop_reason = StopReason.STOP_TOKEN
                self.finished = True
            elif self._loops.observe(self.generation.tokens):
                self.generation.stop_reason = StopReason.REPEATING  # stopped where the loop showed: see repetition.py
                self.finished = True
            elif len(self.generation.tokens) >= self._limit:
                self.finished = True
            if self.finished:
                break
        return used


class SplitSession:
    """One conversation over the three stacks; ``processed`` is the source of truth for every cache."""

    def __init__(
        self,
        edge: LocalEdge,
        middle: Middle,
        stop_ids: Sequence[int] = (),
        speculation: Speculation = Speculation(mode=Mode.SEQUENTIAL),
        draft_tree: Callable[[list[int]], DraftTree] | None = None,
        controller: Controller | None = None,
        reconnect: Callable[[], Awaitable[Middle]] | None = None,
        draft_head: HeadDrafter | None = None,
    ):
        self.edge = edge
        self.middle = middle
        # Every block runs through it: a lost worker session is replaced and the conversation read again.
        self.recovery = WorkerRecovery(self, reconnect)
        self.stop_ids = set(stop_ids)
        self.processed: list[int] = []  # tokens whose keys/values sit in all three caches
        self.max_context = max_context(edge.config)
        # LongRoPE (Phi-3 128k): the factors every cache was computed with, and the context they change at.
        self.longrope_limit = longrope_limit(edge.config)
        self.long_rope = False
        self.speculation = speculation
        self.drafter = Drafter(speculation, draft_head)
        self.window = self.drafter.window
        # A controller may be shared by the sessions of one link: what it learned carries over.
        self.controller = controller or Controller(
            speculation.mode, speculation.max_nodes, window_size=self.window.size if self.window else 0
        )
        self._draft_tree = draft_tree or self._draft  # tests pass their own to steer verification
        self._feature: torch.Tensor | None = None  # the feature whose logits chose the root (for the head)
        # Block rows the worker must keep from the last block sent; rides in the next request's header.
        self._pending_keep: tuple[int, list[int]] | None = None

    async def generate(
        self,
        prompt_ids: Sequence[int],
        max_new_tokens: int,
        sampling: Sampling = Sampling(),
        on_token: Callable[[int], None] | None = None,
        should_stop: Callable[[], bool] | None = None,
        on_step: Callable[[StepTiming, Plan | None], None] | None = None,
        on_reading: Callable[[int, int], None] | None = None,
    ) -> Generation:
        """Continue the conversation ``prompt_ids`` (the whole of it) by up to ``max_new_tokens``.

        Only the part after what the caches already hold is sent: turn 2 costs its new tokens.
        ``on_reading(done, total)`` hears how much of a long prefill has been through every layer, block by
        block (a long document takes seconds to minutes before the first word).
        """
        prompt = list(prompt_ids)
        if not prompt:
            raise ValueError("the prompt is empty")
        if len(prompt) >= self.max_context:
            raise ContextTooLong(f"the conversation has {len(prompt)} tokens; this model holds {self.max_context}")
        reply = _Reply(min(max_new_tokens, self.max_context - len(prompt)), self.stop_ids, on_token)
        picker = TokenPicker(sampling)
        self.controller.new_reply()

        self._rope_for_prompt(len(prompt))
        prefilled = await self._prefill(prompt, picker, should_stop, on_reading)
        if prefilled is None:
            reply.generation.stop_reason = StopReason.CANCELLED
            return reply.generation
        root, step = prefilled
        self._record(reply, step, None, on_step)
        reply.emit([root])
        while not reply.finished:
            if should_stop and should_stop():
                reply.generation.stop_reason = StopReason.CANCELLED
                break
            clock = StepClock("decode")
            plan, block = self._plan_block(root, clock)
            if self._outgrows_short_rope(block):
                await self._switch_to_long_rope()
            # A lost worker mid-answer means reading the whole conversation again: it reports as a first read.
            output = await self.recovery.run(self._run_block(block, block.logit_rows, clock), on_reading=on_reading)
            if output is None:
                continue  # the session was replaced: draft the same step again on the fresh one
            verdict, window_outputs = self._verify(plan, block, output, picker)
            step = clock.stop(block.size)  # the step ends with verification, as in the prefill
            root, step.tokens_out = self._commit(block, verdict, output, window_outputs, reply)
            self.controller.observe_step(
                block.size, step.compute_ms, step.network_ms, plan.tree, verdict, step.draft_ms
            )
            self._record(reply, step, plan, on_step)
        return reply.generation

    async def prefill_ahead(
        self, prefix: Sequence[int], chunk_rows: int = AHEAD_CHUNK_ROWS, should_stop: Callable[[], bool] | None = None
    ) -> int:
        """Put ``prefix`` into every cache before a reply that will begin with it (what the user is still
        typing); returns how much of it is cached. It streams in chunks, the next leaving while the worker
        computes the last; ``should_stop`` is asked before each, so a reply waits only for those in flight.

        What the caches hold beyond the common part is cropped first — an edit rolls them back to the last
        unchanged token, never to zero — and a shorter prefix (text deleted) crops them even with nothing new
        to run. ``generate`` later runs only what is missing, so the answer is the one a prefill at Send gives.
        """
        prefix = list(prefix)[: self.max_context - 1]
        if not prefix:
            return 0
        self._rope_for_prompt(len(prefix))
        reuse = common_prefix(self.processed, prefix)
        if reuse == len(prefix) and len(self.processed) > reuse:
            reuse -= 1  # nothing new, but the caches hold deleted text: re-running the last token crops them
        while reuse < len(prefix) and not (should_stop and should_stop()):
            await self.recovery.run(
                self._stream(prefix, reuse, chunk_rows, AHEAD_DEPTH, should_stop), should_stop=should_stop
            )
            reuse = len(self.processed)  # after a recovery, what the fresh session was given again
        return len(self.processed)

    async def _stream(
        self,
        tokens: list[int],
        start: int,
        block_rows: int,
        depth: int,
        should_stop: Callable[[], bool] | None = None,
        on_rows: Callable[[int, int], None] | None = None,
    ) -> tuple[_BlockOutput | None, MiddleReply | None]:
        """``tokens`` from ``start`` through every layer in causal blocks of ``block_rows``, as a stream: a
        block's head layers run and it leaves while the worker computes the ones before (``depth`` in
        flight), and each reply's tail layers run as it arrives, so this computer's layers, the link and
        the worker overlap. ``processed`` grows block by block; ``should_stop`` is asked before each, and
        ``on_rows(done, total)`` hears of each as its reply is in.

        Returns the last token's output and the replies' joint account (None, None if nothing ran).
        """
        self.edge.crop(start)  # past an edit: every cache forgets what follows the unchanged part
        self.processed = self.processed[:start]
        long_rope = self.long_rope
        sent: deque[Block] = deque()
        replies: list[MiddleReply] = []
        first_left = last_back = 0.0
        features = None

        async def heads() -> AsyncIterator[MiddleBlock]:
            nonlocal first_left
            offset = start
            while offset < len(tokens) and not (should_stop and should_stop()):
                block = Block.consecutive(tokens[offset : offset + block_rows], offset)
                hidden = self.edge.run_head(torch.tensor(block.tokens), torch.tensor(block.positions), None, long_rope)
                # The last reply's keep rides with the first block only, and stays pending until that block's
                # reply is back: a refused request leaves the worker's cache as it was, so it must go again
                # (any other failure starts the worker's side afresh: recovery.WorkerRecovery).
                keep_start, keep_rows = (self._pending_keep or (None, ())) if offset == start else (None, ())
                edit = CacheEdit(crop=block.start, keep_start=keep_start, keep_indices=tuple(keep_rows))
                sent.append(block)
                first_left = first_left or time.perf_counter()
                yield MiddleBlock(hidden, block.positions, edit, long_rope)
                offset += block.size

        async with aclosing(self.middle.stream(heads(), depth)) as stream:
            async for reply in stream:
                last_back = time.perf_counter()
                self._pending_keep = None
                block = sent.popleft()
                positions = torch.tensor(block.positions)
                features = self.edge.run_tail_features(reply.hidden, positions, None, [block.size - 1], long_rope)
                self.processed = tokens[: block.start + block.size]
                replies.append(reply)
                if on_rows:
                    on_rows(len(self.processed) - start, len(tokens) - start)
        if not replies:
            return None, None
        output = _BlockOutput(features, self.edge.lazy_logits(features))
        return output, MiddleReply.joined(replies, (last_back - first_left) * 1000)

    # -- the named steps ----------------------------------------------------------------------------
    async def _prefill(
        self,
        prompt: list[int],
        picker: TokenPicker,
        should_stop: Callable[[], bool] | None = None,
        on_reading: Callable[[int, int], None] | None = None,
    ) -> tuple[int, StepTiming] | None:
        """Run what the caches lack of ``prompt`` (at least its last token); return the first new token.

        A long one goes as a stream of blocks (``_stream``), so the wait tends to the slowest of this
        computer's layers, the link and the worker rather than their sum; ``should_stop`` is asked before
        each block (a 16,000-token document takes minutes on a CPU worker), and None means it stopped.
        """
        while True:
            clock = StepClock("prefill")
            reuse = min(common_prefix(self.processed, prompt), len(prompt) - 1)  # the last token must run
            rows = len(prompt) - reuse
            streamed = rows >= STREAM_FROM_ROWS
            # After a lost worker the prefill starts over on the fresh session: the whole prompt is new there.
            if not streamed:
                block = Block.consecutive(prompt[reuse:], reuse)
                output = await self.recovery.run(self._run_block(block, [block.size - 1], clock), keep_committed=False)
            else:
                streamed_out = await self.recovery.run(
                    self._stream(prompt, reuse, send_block_rows(rows), SEND_DEPTH, should_stop, on_reading),
                    keep_committed=False,
                )
                if streamed_out is None:
                    continue
                output, joint = streamed_out
                if len(self.processed) < len(prompt):
                    return None  # stopped part way: the caches hold what went, and the next prefill goes on from it
                clock.middle_replied(joint)
            if output is not None:
                break
        self.processed = prompt
        self._feature = output.features[-1]
        root = picker.pick(output.logits[-1])
        step = clock.stop(rows, tokens_out=1)
        if not streamed:
            # A stream's "network" is its wall time less the worker's: its transfers and this computer's
            # layers between replies, seconds for a long document — no round trip a decode step will see.
            self.controller.observe_prefill(step.network_ms)
        return root, step

    def _plan_block(self, root: int, clock: StepClock) -> tuple[Plan, VerifyBlock]:
        """Draft continuations of ``root``, let the controller prune them, and lay out the block."""
        history = self.processed + [root]
        with clock.drafting():  # what the head gate weighs against what the head's tokens save
            # Never a block the worker would refuse: a tree is capped by the pass its hello announces.
            plan = self.controller.plan(self._draft_tree(history), self.middle.max_tree_rows)
        with clock.laying_out():
            window = self.window if plan.window else None
            if window:
                window.ensure_filled(history)
            block = build_block(plan.tree, len(self.processed), window)
            too_long = max(block.positions) >= self.max_context or len(self.processed) + block.size > self.max_context
            if too_long or self._outgrows_short_rope(block):
                # Near the end of the context a drafted block would not fit, and one that reaches past a
                # LongRoPE model's trained context would mix factors: one token at a time there.
                plan = self.controller.sequential_plan(root)
                block = build_block(plan.tree, len(self.processed))
        return plan, block

    # -- LongRoPE ------------------------------------------------------------------------------------
    def _rope_for_prompt(self, length: int) -> None:
        """A prompt past the trained context is rotated with the long factors from its first token (as
        transformers does); when that changes the factors the caches hold, every cache starts again."""
        if self.longrope_limit is None or (length > self.longrope_limit) == self.long_rope:
            return
        self.long_rope = length > self.longrope_limit
        self.processed = []  # the next block starts at 0: it crops every cache
        self._pending_keep = None

    def _outgrows_short_rope(self, block: Block) -> bool:
        return self.longrope_limit is not None and not self.long_rope and max(block.positions) >= self.longrope_limit

    async def _switch_to_long_rope(self) -> None:
        """The sequence outgrows the trained context: recompute every cache with the long factors first, as
        transformers does at the same step, then carry on with them."""
        self.long_rope = True
        self._pending_keep = None
        await self.recovery.refill(list(self.processed))

    def _draft(self, history: list[int]) -> DraftTree:
        """Every candidate continuation of the root, merged into one tree."""
        with_head = self.drafter.head is not None and self._feature is not None and self.controller.decide_head()

        def root_feature(layers: int) -> torch.Tensor | None:
            stand_in = self.drafter.head.early_layers if self.drafter.head is not None else None
            return self.edge.early_feature(history[-1], len(history) - 1, layers, self.long_rope, stand_in)

        return self.drafter.draft(history, self._feature, with_head, root_feature)

    async def _run_block(self, block: Block, rows: list[int], clock: StepClock) -> _BlockOutput:
        """Run ``block`` through the head layers, the middle and the tail; the features and logits of ``rows``."""
        positions = torch.tensor(block.positions)
        # A cancelled step may have left the local stacks one block ahead: crop to what is committed.
        self.edge.crop(block.start)
        self.processed = self.processed[: block.start]
        long_rope = self.long_rope
        with clock.running_layers():
            hidden = self.edge.run_head(torch.tensor(block.tokens), positions, block.ancestry, long_rope)
        keep_start, keep_rows = self._pending_keep or (None, ())
        edit = CacheEdit(crop=block.start, keep_start=keep_start, keep_indices=tuple(keep_rows))
        reply = await self.middle.forward(hidden, block.positions, block.ancestry, edit, long_rope=long_rope)
        self._pending_keep = None
        clock.middle_replied(reply)
        with clock.running_layers():
            features = self.edge.run_tail_features(reply.hidden, positions, block.ancestry, rows, long_rope)
        return _BlockOutput(features, self.edge.lazy_logits(features))

    def _verify(
        self, plan: Plan, block: VerifyBlock, output: _BlockOutput, picker: TokenPicker
    ) -> tuple[Verdict, list[int]]:
        """The longest drafted path the model agrees with, and the window's Jacobi outputs."""
        tree, logits = plan.tree, output.logits
        if len(tree) >= PREFETCH_MIN:  # the likeliest nodes come first in a planned tree
            logits.prefetch([*range(min(len(tree), PREFETCH_ROWS)), *range(len(tree), len(logits))])
        verdict = verify(tree, logits, picker)  # projects any other row it walks on its own
        window_outputs = logits.rows(len(tree), len(logits)).argmax(-1).tolist() if block.window_rows else []
        return verdict, window_outputs

    def _commit(
        self, block: VerifyBlock, verdict: Verdict, output: _BlockOutput, window_outputs: list[int], reply: _Reply
    ) -> tuple[int, int]:
        """Emit the accepted tokens and keep exactly their path in every cache; returns (next root, emitted)."""
        emitted = verdict.emitted(block.tree)
        used = reply.emit(emitted)
        keep = verdict.accepted[:used]  # the root and the accepted drafts before the last emitted token
        self.edge.keep(block.start, keep)
        self._pending_keep = (block.start, keep)  # the worker keeps the same rows with the next request
        self.processed += [block.tokens[row] for row in keep]
        self._feature = output.features[keep[-1]]  # the last kept node's logits chose the next root
        if block.window_rows:
            self.window.advance(window_outputs, self.drafter.pool)
        return emitted[used - 1], used

    def _record(
        self,
        reply: _Reply,
        step: StepTiming,
        plan: Plan | None,
        on_step: Callable[[StepTiming, Plan | None], None] | None,
    ) -> None:
        reply.generation.stats.steps.append(step)
        if plan is not None:
            reply.generation.plans.append(plan)
        if on_step:
            on_step(step, plan)

    # -- what recovery from a lost worker asks of the session (recovery.Recoverable) ----------------
    def start_afresh(self, middle: Middle | None = None) -> None:
        """Nothing of the conversation is cached any more: every cache starts again from the next block, on
        ``middle`` when given (a fresh worker session, which holds nothing)."""
        if middle is not None:
            self.middle = middle
        self.processed = []
        self._pending_keep = None
        self.edge.crop(0)

    async def reread(
        self,
        tokens: list[int],
        should_stop: Callable[[], bool] | None = None,
        on_reading: Callable[[int, int], None] | None = None,
    ) -> None:
        """``tokens`` through every layer from the first, as a long prefill goes (one stream of blocks)."""
        await self._stream(tokens, 0, send_block_rows(len(tokens)), SEND_DEPTH, should_stop, on_reading)

    @property
    def pending_keep(self) -> tuple[int, list[int]] | None:
        """The worker-side commit (start, block rows) that the next request will carry."""
        return self._pending_keep

    async def close(self) -> None:
        await self.middle.close()
