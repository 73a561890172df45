"""Adaptive speculation: each step, pick the tree size (0 = sequential) that maximises tokens per ms.

Everything it uses is measured live (``cost.py``, ``acceptance.py``): the round trip, the per-step
compute as a function of block size, and the acceptance rate of drafted tokens per source and depth.
The break-even acceptance a* = (RTT + f_spec) / (RTT + f_seq) is what a speculative step must average
(tokens per step) to beat a sequential one; it is reported with every plan. A controller may be shared
by the sessions of one link, so what it learned carries over between turns.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.engine.speculation.acceptance import AcceptanceModel, Calibration
from app.engine.speculation.cost import StepCost
from app.engine.speculation.gates import HeadGate, WindowGate
from app.engine.speculation.pruning import TreePruner
from app.engine.speculation.tree import DraftTree, Verdict
from app.model.choices import Mode


@dataclass
class Plan:
    """What one step sends: a pruned tree, perhaps the window, and why."""

    tree: DraftTree
    window: bool
    block_size: int
    expected_tokens: float
    expected_ms: float
    break_even: float  # a*: tokens per step this plan must average to beat sequential

    @property
    def sequential(self) -> bool:
        return self.block_size == 1


class Controller:
    """Chooses each step's plan for a decoding mode from live measurements."""

    def __init__(self, mode: Mode | str = Mode.AUTO, max_nodes: int = 48, window_size: int = 0):
        self.mode = Mode.parse(mode)
        self.cost = StepCost()
        self.acceptance = AcceptanceModel()
        self.calibration = Calibration()
        self.pruner = TreePruner(self.acceptance, self.cost, max_nodes)
        self.head = HeadGate(self.cost)
        self.window = WindowGate(self.cost, window_size)

    def new_reply(self) -> None:
        self.head.new_reply()

    def decide_head(self) -> bool:
        """Whether this step drafts with the learned head: ``learned`` always, ``auto`` while it pays."""
        return self.head.decide() if self.mode.adaptive else self.head.begin(self.mode.drafts_with_head)

    def plan(self, tree: DraftTree, max_rows: int | None = None) -> Plan:
        """Prune ``tree`` (and decide on the window) for the next step.

        ``max_rows`` is the most rows the worker takes in one speculative block (the ``max_pass_rows`` of its
        hello): it refuses a larger tree, so the root, the kept nodes and the window stay within it.
        """
        if not self.mode.speculates:
            return self.sequential_plan(tree.tokens[0])
        order, reach = self.pruner.ranked(tree)
        room, window = self._room(max_rows)
        if not self.mode.adaptive:
            kept, tokens = self.pruner.within_budget(order, reach, room)
            return self._plan(tree.pruned([0, *kept]), window, tokens)
        calibration = self.calibration.factor()
        kept, tokens = self.pruner.most_tokens_per_ms(order, reach, calibration, room)
        if self.head.explore:
            self.head.explore = False
            chain = [n for n in self.pruner.head_path(tree) if n not in kept]
            chain = chain[: max(0, room - len(kept))]  # parents first: a prefix of the path is still a path
            kept = kept + chain
            tokens += sum(calibration * reach[n] for n in chain)
        if window:
            window = self.window.decide(1 + len(kept))
        return self._plan(tree.pruned([0, *kept]), window, tokens)

    def _room(self, max_rows: int | None) -> tuple[int, bool]:
        """Drafted nodes a block may hold under ``max_rows`` (the root and any window beside them), and
        whether the window may run at all: a limit too small for the root and the window leaves it out."""
        window = self.window.size > 0 and self.mode.runs_window
        if max_rows is None:
            return self.pruner.max_nodes, window
        window = window and 1 + self.window.size <= max_rows
        return min(self.pruner.max_nodes, max_rows - 1 - (self.window.size if window else 0)), window

    def sequential_plan(self, root: int) -> Plan:
        return self._plan(DraftTree.rooted_at(root), window=False, tokens=1.0)

    def observe_prefill(self, network_ms: float) -> None:
        # Only the RTT: a prefill's hundreds of rows would drag the decode-block line's intercept far
        # from what small blocks cost.
        self.cost.observe_rtt(network_ms)

    def observe_step(
        self,
        block_size: int,
        compute_ms: float,
        network_ms: float,
        tree: DraftTree,
        verdict: Verdict,
        draft_ms: float = 0.0,
    ) -> None:
        self.cost.observe_rtt(network_ms)
        self.cost.observe_compute(block_size, compute_ms)
        if self.mode.adaptive and len(tree) > 1:  # before the estimates learn from this step
            self.calibration.observe(sum(self.acceptance.reach(tree).values()) - 1.0, len(verdict.accepted) - 1)
        self.acceptance.observe(tree, verdict)
        self.window.observe(tree, verdict, ran=block_size > len(tree))
        self.head.observe(tree, verdict, block_size, draft_ms)

    def _plan(self, tree: DraftTree, window: bool, tokens: float) -> Plan:
        size = len(tree) + (self.window.size if window else 0)
        step = self.cost.step_ms(size)
        return Plan(tree, window, size, tokens, step, break_even=step / self.cost.step_ms(1))
