"""How likely a drafted token is to be accepted: counted per source and depth, and calibrated as a whole."""

from __future__ import annotations

from app.engine.speculation.cost import running
from app.engine.speculation.sources import POOL, head_confidence
from app.engine.speculation.tree import DraftTree, Verdict


class AcceptanceModel:
    """How often a drafted node is accepted when its parent was, per source and depth (Beta prior).

    The learned head's tokens are counted per confidence bin instead of per depth: its own probability
    already says how hard the position is. It is overconfident on text unlike its training answers, so
    its bins start from ``HEAD_TRUST`` times their probability and are then measured.
    """

    # (accepted, rejected) pseudo-counts: longer context matches are likelier to hold.
    PRIORS = {
        "lookup4": (1.2, 0.8),
        "lookup3": (1.0, 1.0),
        "lookup2": (0.7, 1.3),
        "lookup1": (0.4, 1.6),
        POOL: (0.3, 1.7),
    }
    HEAD_TRUST = 0.6
    FORGET = 0.98  # old evidence fades, so a change of topic is noticed

    def __init__(self):
        self._counts: dict[tuple[str, int], list[float]] = {}

    @staticmethod
    def _key(source: str, depth: int) -> tuple[str, int]:
        return source, 0 if head_confidence(source) is not None else min(depth, 8)

    def _prior(self, source: str, depth: int) -> tuple[float, float]:
        confidence = head_confidence(source)
        if confidence is None:
            return self.PRIORS.get(source, self.PRIORS[POOL])
        rate = 0.02 + self.HEAD_TRUST * confidence
        return 2 * rate, 2 * (1 - rate)

    def rate(self, source: str, depth: int) -> float:
        accepted, rejected = self._counts.get(self._key(source, depth), self._prior(source, depth))
        return accepted / (accepted + rejected)

    def node_rate(self, tree: DraftTree, node: int) -> float:
        """A node proposed by several sources is as likely as its most reliable one says."""
        return max(self.rate(source, tree.depths[node]) for source in tree.votes[node])

    def reach(self, tree: DraftTree) -> dict[int, float]:
        """Each node's estimated chance that verification reaches it (the root's is 1)."""
        # Each node's rate once, and each parent's children's total once: summed per node, a wide node's
        # children cost the square of their number.
        rates = [1.0] + [self.node_rate(tree, node) for node in range(1, len(tree))]
        totals: dict[int, float] = {}
        reach = {0: 1.0}
        for node in range(1, len(tree)):  # parents precede children in a DraftTree
            parent = tree.parents[node]
            total = totals.get(parent)
            if total is None:
                total = totals[parent] = sum(rates[child] for child in tree.children[parent].values())
            reach[node] = reach[parent] * rates[node] / max(1.0, total)
        return reach

    def observe(self, tree: DraftTree, verdict: Verdict) -> None:
        """Every child of an accepted node was tried: count which one (if any) was taken, for every
        source that proposed it."""
        on_path = set(verdict.accepted)
        for node in verdict.accepted:
            for child in tree.children[node].values():
                for source in tree.votes[child]:
                    key = self._key(source, tree.depths[child])
                    counts = self._counts.setdefault(key, list(self._prior(source, tree.depths[child])))
                    counts[0] *= self.FORGET
                    counts[1] *= self.FORGET
                    counts[0 if child in on_path else 1] += 1


class Calibration:
    """Accepted drafts per step over what the acceptance estimates expected, on recent speculative steps.

    The estimates are per source and fade slowly, so right after a change of text they can be off for
    every node at once (after pasted documents they expected more from chat replies than they got, and
    auto speculated where sequential was faster); this scales them back until they agree.
    """

    RANGE = (0.5, 1.5)

    def __init__(self):
        self._expected: float | None = None
        self._accepted: float | None = None

    def observe(self, expected_drafts: float, accepted_drafts: int) -> None:
        self._expected = running(self._expected, expected_drafts)
        self._accepted = running(self._accepted, accepted_drafts)

    def factor(self) -> float:
        if self._expected is None or self._accepted is None or self._expected < 0.05:
            return 1.0
        return min(self.RANGE[1], max(self.RANGE[0], self._accepted / self._expected))
