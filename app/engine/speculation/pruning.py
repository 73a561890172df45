"""Which drafted nodes a step sends: ranked by the chance verification reaches them, cut where it pays."""

from __future__ import annotations

from app.engine.speculation.acceptance import AcceptanceModel
from app.engine.speculation.cost import StepCost
from app.engine.speculation.sources import proposed_by_head
from app.engine.speculation.tree import DraftTree


class TreePruner:
    """Ranks a tree's nodes likeliest first (parents before children) and keeps a prefix of them."""

    MARGIN = 1.03  # speculation must beat sequential by this much to be chosen

    def __init__(self, acceptance: AcceptanceModel, cost: StepCost, max_nodes: int):
        self.acceptance, self.cost, self.max_nodes = acceptance, cost, max_nodes

    def ranked(self, tree: DraftTree) -> tuple[list[int], dict[int, float]]:
        """Non-root nodes by the estimated chance that verification reaches them, and those chances."""
        reach = self.acceptance.reach(tree)
        return sorted(range(1, len(tree)), key=lambda n: (-reach[n], n)), reach

    def within_budget(
        self, order: list[int], reach: dict[int, float], room: int | None = None
    ) -> tuple[list[int], float]:
        """The likeliest ``max_nodes`` nodes (at most ``room``) and the tokens they are expected to commit
        (the fixed modes)."""
        kept = order[: self._limit(room)]
        return kept, 1.0 + sum(reach[n] for n in kept)

    def most_tokens_per_ms(
        self, order: list[int], reach: dict[int, float], calibration: float, room: int | None = None
    ) -> tuple[list[int], float]:
        """The prefix of ``order`` (at most ``max_nodes`` and ``room`` nodes) that maximises expected tokens
        per millisecond, and its expected tokens; empty (sequential) unless it beats one token per
        single-row step by ``MARGIN``."""
        best_k, tokens = 0, 1.0
        best_rate = self.MARGIN / self.cost.step_ms(1)
        cumulative = 1.0
        for k in range(1, min(self._limit(room), len(order)) + 1):
            cumulative += calibration * reach[order[k - 1]]
            rate = cumulative / self.cost.step_ms(1 + k)
            if rate > best_rate:
                best_k, best_rate, tokens = k, rate, cumulative
        return order[:best_k], tokens

    def _limit(self, room: int | None) -> int:
        return self.max_nodes if room is None else max(0, min(self.max_nodes, room))

    def head_path(self, tree: DraftTree) -> list[int]:
        """From the root, the head's likeliest child at each depth (parents first)."""
        path, node = [], 0
        while True:
            drafted = [c for c in tree.children[node].values() if proposed_by_head(tree.votes[c])]
            if not drafted:
                return path
            node = max(drafted, key=lambda c: (self.acceptance.node_rate(tree, c), -c))
            path.append(node)
