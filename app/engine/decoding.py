"""The decode loop across the split: prefill what is new, then one verify block per round trip.

Each step sends the last sampled token (the root) plus, when speculating, a tree of drafted
continuations and the lookahead window; verification keeps the longest path the model agrees with, and
the caches keep exactly that path. Sequential decoding is the same loop with a one-node tree.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field

import torch

from app.engine.blocks import VerifyBlock, build_block
from app.engine.control import Controller, Plan
from app.engine.draft_head import HeadDrafter
from app.engine.drafting import POOL, ContextLookup, DraftTree, LookaheadWindow, NGramPool, common_prefix
from app.engine.edge import LocalEdge
from app.engine.metrics import GenerationStats, StepTiming
from app.engine.middle import CacheEdit, Middle, MiddleReply
from app.engine.models import max_context
from app.engine.sampling import Sampling, TokenPicker
from app.engine.verification import verify

# Worker error codes after which a fresh session and a re-prefill carry on with nothing lost.
RECOVERABLE = frozenset({"unknown_session", "connection_lost"})
HEAD_MODES = ("auto", "learned")  # modes that draft with the learned head when the model has one


# LM-head rows projected together before verification walks the tree: one product of up to 16 rows
# costs about two single rows on the bench CPU, and verification reads 2-4 rows a step. Below 3 nodes
# reading rows one by one is cheaper.
PREFETCH_ROWS = 16
PREFETCH_MIN = 3


class ContextTooLong(ValueError):
    """The conversation does not fit the model's context."""


@dataclass(frozen=True)
class Speculation:
    """How a session drafts: the mode and the sizes of its sources."""

    mode: str = "auto"  # auto | learned | lookahead | lookup | sequential
    max_nodes: int = 48  # drafted nodes per step at most (the root not counted)
    lookup_length: int = 10  # tokens proposed after a context match
    lookup_matches: int = 4  # distinct matches merged into the tree
    window_width: int = 5  # W: Jacobi window columns
    window_ngram: int = 4  # N: n-gram size harvested (the window has N-1 levels)
    pool_per_key: int = 4  # G: n-grams kept per first token
    head_depth: int = 6  # how far after the root the learned draft head drafts
    head_nodes: int = 20  # the most probable of its drafted tokens that join the tree
    head_width: int = 4  # paths it grows at each depth, and tokens it tries after each


@dataclass
class Generation:
    tokens: list[int]
    stats: GenerationStats
    stop_reason: str  # "stop_token" | "max_new_tokens" | "cancelled"
    plans: list[Plan] = field(default_factory=list)


class SplitSession:
    """One conversation over the three stacks; ``processed`` is the source of truth for every cache."""

    def __init__(
        self,
        edge: LocalEdge,
        middle: Middle,
        stop_ids: Sequence[int] = (),
        speculation: Speculation = Speculation(mode="sequential"),
        drafter: Callable[[list[int]], DraftTree] | None = None,
        controller: Controller | None = None,
        reconnect: Callable[[], Awaitable[Middle]] | None = None,
        draft_head: HeadDrafter | None = None,
    ):
        self.edge = edge
        self.middle = middle
        # Opens a fresh worker session (with its own retries); None: a lost session is an error.
        self.reconnect = reconnect
        self.notice: Callable[[str], None] | None = None  # "reconnecting…" for a status bar
        self.stop_ids = set(stop_ids)
        self.processed: list[int] = []  # tokens whose keys/values sit in all three caches
        self.max_context = max_context(edge.config)
        self.speculation = speculation
        window = (
            LookaheadWindow(speculation.window_width, speculation.window_ngram) if speculation.window_width else None
        )
        self.window = window if speculation.mode in ("auto", "lookahead") else None
        # A controller may be shared by the sessions of one link: what it learned carries over.
        self.controller = controller or Controller(
            speculation.mode, speculation.max_nodes, window_size=self.window.size if self.window else 0
        )
        self.lookup = ContextLookup(max_matches=speculation.lookup_matches)
        self.pool = NGramPool(speculation.pool_per_key)
        self._drafter = drafter or self._draft  # tests pass their own to steer verification
        self.draft_head = draft_head if speculation.mode in HEAD_MODES else None
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
    ) -> Generation:
        """Continue the conversation ``prompt_ids`` (the whole of it) by up to ``max_new_tokens``.

        Only the part after what the caches already hold is sent: turn 2 costs its new tokens.
        """
        prompt = list(prompt_ids)
        if not prompt:
            raise ValueError("the prompt is empty")
        if len(prompt) >= self.max_context:
            raise ContextTooLong(f"the conversation has {len(prompt)} tokens; this model holds {self.max_context}")
        max_new_tokens = min(max_new_tokens, self.max_context - len(prompt))
        picker = TokenPicker(sampling)
        stats = GenerationStats()
        generation = Generation(tokens=[], stats=stats, stop_reason="max_new_tokens")
        self.controller.new_reply()

        while True:
            reuse = min(common_prefix(self.processed, prompt), len(prompt) - 1)  # the last token must run
            block = VerifyBlock(
                prompt[reuse:], list(range(reuse, len(prompt))), None, DraftTree.rooted_at(0), [], reuse
            )
            try:
                logits, features, timing = await self._run_block(block, rows=[len(block.tokens) - 1], kind="prefill")
                break
            except Exception as exc:
                await self._recover_or_raise(exc)  # then prefill again, into the fresh session
        self.processed = prompt
        self._feature = features[-1]
        pick_start = time.perf_counter()
        root = picker.pick(logits[-1])
        timing.add_local((time.perf_counter() - pick_start) * 1000)
        self.controller.observe_prefill(block.size, timing.compute_ms, timing.network_ms)
        timing.step.tokens_out = 1
        stats.steps.append(timing.step)
        if on_step:
            on_step(timing.step, None)
        if self._emit(root, generation, max_new_tokens, on_token):
            return generation

        while not (should_stop and should_stop()):
            history = self.processed + [root]
            draft_start = time.perf_counter()
            plan = self.controller.plan(self._drafter(history))
            draft_ms = (time.perf_counter() - draft_start) * 1000
            window = self.window if plan.window else None
            if window:
                window.ensure_filled(history)
            block = build_block(plan.tree, len(self.processed), window)
            if max(block.positions) >= self.max_context or len(self.processed) + block.size > self.max_context:
                # Near the end of the context a drafted block would not fit: finish one token at a time.
                block = build_block(DraftTree.rooted_at(root), len(self.processed))
                plan, window = self.controller.sequential_plan(root), None
            try:
                logits, features, timing = await self._run_block(
                    block, rows=block.logit_rows, kind="decode", draft_ms=draft_ms
                )
            except Exception as exc:
                committed = list(self.processed)
                await self._recover_or_raise(exc)
                await self._refill(committed)
                continue  # the same step again, on the fresh session
            verify_start = time.perf_counter()
            if len(plan.tree) >= PREFETCH_MIN:  # the likeliest nodes come first in a planned tree
                window_rows = range(len(plan.tree), len(logits)) if window else range(0)
                logits.prefetch([*range(min(len(plan.tree), PREFETCH_ROWS)), *window_rows])
            verdict = verify(plan.tree, logits, picker)  # projects any other row it walks on its own
            window_outputs = logits.rows(len(plan.tree), len(logits)).argmax(-1).tolist() if window else []
            timing.add_local((time.perf_counter() - verify_start) * 1000)  # the LM head rows it projected
            emitted = verdict.emitted(plan.tree)
            used = 0
            done = False
            for token in emitted:
                used += 1
                if self._emit(token, generation, max_new_tokens, on_token):
                    done = True
                    break
            keep = verdict.accepted[:used]  # the root and the accepted drafts before the last emitted token
            self.edge.keep(block.start, keep)
            self._pending_keep = (block.start, keep)
            self.processed += [block.tokens[row] for row in keep]
            root = emitted[used - 1]
            self._feature = features[keep[-1]]  # the last kept node's logits chose the root
            if window:
                window.advance(window_outputs, self.pool)
            self.controller.observe_step(
                block.size, timing.compute_ms, timing.network_ms, plan.tree, verdict, timing.step.draft_ms
            )
            timing.step.tokens_out = used
            stats.steps.append(timing.step)
            generation.plans.append(plan)
            if on_step:
                on_step(timing.step, plan)
            if done:
                return generation
        generation.stop_reason = "cancelled"
        return generation

    def _emit(self, token: int, generation: Generation, limit: int, on_token) -> bool:
        """Record one generated token; True when the generation is over."""
        generation.tokens.append(token)
        if on_token:
            on_token(token)
        if token in self.stop_ids:
            generation.stop_reason = "stop_token"
            return True
        return len(generation.tokens) >= limit

    def _draft(self, history: list[int]) -> DraftTree:
        """Every candidate continuation of the root, merged into one tree."""
        tree = DraftTree.rooted_at(history[-1])
        if self.speculation.mode == "sequential":
            return tree
        self.lookup.sync(history)
        for continuation, source in self.lookup.propose(self.speculation.lookup_length):
            tree.add_path(continuation, source)
        if self.speculation.mode in ("auto", "lookahead"):
            for continuation in self.pool.propose(history[-1]):
                tree.add_path(continuation, POOL)
        if self.draft_head is not None and self._feature is not None and self.controller.wants_head():
            spec = self.speculation
            for path, sources in self.draft_head.propose(
                self._feature, history[-1], spec.head_depth, spec.head_nodes, spec.head_width
            ):
                tree.add_path(path, sources)
        return tree

    async def _run_block(self, block: VerifyBlock, rows: list[int], kind: str, draft_ms: float = 0.0):
        """Run a block through all three stacks; return (logits and features of ``rows``, its timing).

        ``draft_ms`` (drafting and planning this step) counts in the step's local time: it is paid.
        """
        step_start = time.perf_counter()
        positions = torch.tensor(block.positions)
        # A cancelled step may have left the local stacks one block ahead: crop to what is committed.
        self.edge.crop(block.start)
        self.processed = self.processed[: block.start]
        hidden = self.edge.run_head(torch.tensor(block.tokens), positions, block.ancestry)
        head_ms = (time.perf_counter() - step_start) * 1000
        keep_start, keep_rows = self._pending_keep or (None, ())
        edit = CacheEdit(crop=block.start, keep_start=keep_start, keep_indices=tuple(keep_rows))
        reply = await self.middle.forward(hidden, block.positions, block.ancestry, edit)
        self._pending_keep = None
        tail_start = time.perf_counter()
        features = self.edge.run_tail_features(reply.hidden, positions, block.ancestry, rows)
        logits = self.edge.lazy_logits(features)
        end = time.perf_counter()
        local_ms = head_ms + (end - tail_start) * 1000
        return logits, features, _BlockTiming(kind, block.size, local_ms, reply, end - step_start, draft_ms)

    async def _recover_or_raise(self, error: Exception) -> None:
        """After a lost session or link, move to a fresh session; re-raise anything else."""
        if getattr(error, "code", None) not in RECOVERABLE or self.reconnect is None:
            raise error
        if self.notice:
            self.notice(f"Worker session lost ({error.code}); reconnecting…")
        self.replace_middle(await self.reconnect())
        if self.notice:
            self.notice("Reconnected; re-sent the conversation to a new worker session.")

    async def _refill(self, committed: list[int]) -> None:
        """Re-prefill what was committed before the loss, so every cache holds it again."""
        if committed:
            block = VerifyBlock(committed, list(range(len(committed))), None, DraftTree.rooted_at(0), [], 0)
            try:
                await self._run_block(block, rows=[len(committed) - 1], kind="prefill")
            except Exception as exc:
                await self._recover_or_raise(exc)
                return await self._refill(committed)
        self.processed = committed

    def replace_middle(self, middle: Middle) -> None:
        """Continue on a fresh worker session: nothing is cached there, so the next call re-prefills."""
        self.middle = middle
        self.processed = []
        self._pending_keep = None
        self.edge.crop(0)

    @property
    def pending_keep(self) -> tuple[int, list[int]] | None:
        """The worker-side commit (start, block rows) that the next request will carry."""
        return self._pending_keep

    async def close(self) -> None:
        await self.middle.close()


class _BlockTiming:
    def __init__(
        self, kind: str, size: int, local_ms: float, reply: MiddleReply, elapsed_s: float, draft_ms: float = 0.0
    ):
        self.step = StepTiming(
            kind=kind,
            tokens_in=size,
            tokens_out=0,
            local_compute_ms=local_ms + draft_ms,
            remote_compute_ms=reply.remote_compute_ms,
            serialization_ms=reply.serialization_ms,
            network_ms=reply.network_ms,
            total_ms=elapsed_s * 1000 + draft_ms,
            frames=reply.frames,
            draft_ms=draft_ms,
        )
        self.compute_ms = local_ms + reply.remote_compute_ms + reply.serialization_ms
        self.network_ms = reply.network_ms

    def add_local(self, ms: float) -> None:
        """Local work done after the block returned (projecting and verifying) is part of the step."""
        self.step.local_compute_ms += ms
        self.step.total_ms += ms
        self.compute_ms += ms
