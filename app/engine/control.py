"""Adaptive speculation: each step, pick the tree size (0 = sequential) that maximises tokens per ms.

Everything it uses is measured live: the round trip, the per-step compute as a function of block size
(local + remote + serialization, fitted as a + b·q), and the acceptance rate of drafted tokens per source
and depth. The break-even acceptance a* = (RTT + f_spec) / (RTT + f_seq) is what a speculative step must
average (tokens per step) to beat a sequential one; it is reported with every step.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.engine.drafting import POOL, DraftTree
from app.engine.verification import Verdict

MODES = ("auto", "lookahead", "lookup", "sequential")
_DECAY = 0.97  # recent steps count more: the link and the text change as a reply goes on


class LinearCost:
    """Milliseconds as a + b·q, by exponentially weighted least squares over recent steps."""

    def __init__(self, prior_a: float, prior_b: float):
        self._prior = (prior_a, prior_b)
        self._sw = self._sx = self._sy = self._sxx = self._sxy = 0.0

    def observe(self, q: int, ms: float) -> None:
        self._sw = self._sw * _DECAY + 1
        self._sx = self._sx * _DECAY + q
        self._sy = self._sy * _DECAY + ms
        self._sxx = self._sxx * _DECAY + q * q
        self._sxy = self._sxy * _DECAY + q * ms

    def predict(self, q: int) -> float:
        a, b = self.coefficients()
        return a + b * q

    def coefficients(self) -> tuple[float, float]:
        if self._sw == 0:
            return self._prior
        mean_x, mean_y = self._sx / self._sw, self._sy / self._sw
        var = self._sxx / self._sw - mean_x * mean_x
        if var < 1.0:  # one block size seen so far: keep the prior slope
            b = self._prior[1]
        else:
            b = max(0.0, (self._sxy / self._sw - mean_x * mean_y) / var)
        return mean_y - b * mean_x, b


class AcceptanceModel:
    """How often a drafted node is accepted when its parent was, per source and depth (Beta prior)."""

    PRIORS = {"lookup": (3.0, 2.0), POOL: (1.0, 3.0)}  # (accepted, rejected) pseudo-counts

    def __init__(self):
        self._counts: dict[tuple[str, int], list[float]] = {}

    @staticmethod
    def _key(source: str, depth: int) -> tuple[str, int]:
        return source, min(depth, 8)

    def rate(self, source: str, depth: int) -> float:
        counts = self._counts.get(self._key(source, depth))
        if counts is None:
            accepted, rejected = self.PRIORS["lookup" if source.startswith("lookup") else POOL]
            return accepted / (accepted + rejected)
        return counts[0] / (counts[0] + counts[1])

    def observe(self, tree: DraftTree, verdict: Verdict) -> None:
        """Every child of an accepted node was tried: count which one (if any) was taken."""
        on_path = set(verdict.accepted)
        for node in verdict.accepted:
            for child in tree.children[node].values():
                key = self._key(tree.sources[child], tree.depths[child])
                if key not in self._counts:
                    prior = self.PRIORS["lookup" if tree.sources[child].startswith("lookup") else POOL]
                    self._counts[key] = list(prior)
                self._counts[key][0 if child in on_path else 1] += 1


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

    def __init__(self, mode: str = "auto", max_nodes: int = 48, window_size: int = 0, window_share: float = 0.15):
        if mode not in MODES:
            raise ValueError(f"decoding mode must be one of {', '.join(MODES)}")
        self.mode = mode
        self.max_nodes = max_nodes
        self.window_size = window_size
        self.window_share = window_share  # auto keeps the window while it costs at most this share of a step
        self.compute = LinearCost(prior_a=20.0, prior_b=0.5)
        self.acceptance = AcceptanceModel()
        self.rtt_ms: float | None = None

    def observe_prefill(self, tokens: int, compute_ms: float, network_ms: float) -> None:
        self._observe_rtt(network_ms)
        if tokens > 1:  # a long block pins the slope; decode steps then pin the intercept
            self.compute.observe(tokens, compute_ms)

    def observe_step(self, block_size: int, compute_ms: float, network_ms: float, tree: DraftTree, verdict: Verdict):
        self._observe_rtt(network_ms)
        self.compute.observe(block_size, compute_ms)
        self.acceptance.observe(tree, verdict)

    def _observe_rtt(self, network_ms: float) -> None:
        self.rtt_ms = network_ms if self.rtt_ms is None else 0.8 * self.rtt_ms + 0.2 * network_ms

    def step_ms(self, block_size: int) -> float:
        return (self.rtt_ms or 0.0) + self.compute.predict(block_size)

    def plan(self, tree: DraftTree) -> Plan:
        """Prune ``tree`` (and decide on the window) for the next step."""
        if self.mode == "sequential":
            return self._plan(DraftTree.rooted_at(tree.tokens[0]), window=False, tokens=1.0)
        order, reach = self._ranked_nodes(tree)
        window = self.window_size > 0 and self.mode in ("auto", "lookahead")
        if self.mode in ("lookahead", "lookup"):
            kept = order[: self.max_nodes]
            return self._plan(tree.pruned([0, *kept]), window, 1.0 + sum(reach[n] for n in kept))
        best_k, best_rate, tokens = 0, 0.0, 1.0
        cumulative = 1.0
        for k in range(0, min(self.max_nodes, len(order)) + 1):
            if k:
                cumulative += reach[order[k - 1]]
            rate = cumulative / self.step_ms(1 + k)
            if rate > best_rate:
                best_k, best_rate, tokens = k, rate, cumulative
        if window:  # the window pays off in later steps; keep it while it is cheap next to the step
            base = 1 + best_k
            extra = self.step_ms(base + self.window_size) - self.step_ms(base)
            window = extra <= self.window_share * self.step_ms(base)
        return self._plan(tree.pruned([0, *order[:best_k]]), window, tokens)

    def _plan(self, tree: DraftTree, window: bool, tokens: float) -> Plan:
        size = len(tree) + (self.window_size if window else 0)
        step = self.step_ms(size)
        return Plan(tree, window, size, tokens, step, break_even=step / self.step_ms(1))

    def _ranked_nodes(self, tree: DraftTree) -> tuple[list[int], dict[int, float]]:
        """Non-root nodes by the estimated chance that verification reaches them (parents first)."""
        reach = {0: 1.0}
        for node in range(1, len(tree)):  # parents precede children in a DraftTree
            parent = tree.parents[node]
            siblings = tree.children[parent].values()
            total = sum(self.acceptance.rate(tree.sources[s], tree.depths[s]) for s in siblings)
            rate = self.acceptance.rate(tree.sources[node], tree.depths[node])
            reach[node] = reach[parent] * rate / max(1.0, total)
        order = sorted(range(1, len(tree)), key=lambda n: (-reach[n], n))
        return order, reach
