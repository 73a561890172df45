"""Adaptive speculation: each step, pick the tree size (0 = sequential) that maximises tokens per ms.

Everything it uses is measured live: the round trip, the per-step compute as a function of block size
(local + remote + serialization, fitted as a + b·q), and the acceptance rate of drafted tokens per source
and depth. The break-even acceptance a* = (RTT + f_spec) / (RTT + f_seq) is what a speculative step must
average (tokens per step) to beat a sequential one; it is reported with every step.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.engine.draft_head import head_confidence
from app.engine.drafting import POOL, DraftTree
from app.engine.verification import Verdict

MODES = ("auto", "learned", "lookahead", "lookup", "sequential")
_DECAY = 0.97  # recent steps count more: the link and the text change as a reply goes on
_SMOOTH = 0.2  # weight of the newest sample in running means


def _by_head(tree: DraftTree, node: int, only: bool = False) -> bool:
    """Whether the learned head proposed ``node`` (``only``: and no other source did)."""
    drafted = [head_confidence(source) is not None for source in tree.votes[node]]
    return all(drafted) if only else any(drafted)


def _only_pool(tree: DraftTree, node: int) -> bool:
    """Whether only n-grams harvested by the Jacobi window proposed ``node``."""
    return tree.votes[node] == [POOL]


def _running(mean: float | None, sample: float) -> float:
    return sample if mean is None else (1 - _SMOOTH) * mean + _SMOOTH * sample


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


class BlockCost:
    """Compute ms per step by block size.

    A single row is its own regime — matrix-vector products and no mask — and on a CPU the first extra
    row costs far more than the tenth, so one line through all sizes misjudges small trees. Single rows
    get their own running mean; blocks of two or more get a + b·q, corrected by what each size has
    measured: matrix kernels work in tiles, so cost climbs in steps, not along a line (on the bench
    CPU 2- and 3-row blocks cost more than 5- or 6-row ones).
    """

    BLOCK_PREMIUM = 1.5  # prior: a small block costs half again a single row, until measured
    SIZE_WEIGHT = 3.0  # a size's own measurements outweigh the line once it has this many

    def __init__(self, prior_single_ms: float = 30.0, prior_ms_per_row: float = 1.0):
        self._single: float | None = None
        self._prior_single = prior_single_ms
        self._prior_slope = prior_ms_per_row
        self._blocks: LinearCost | None = None
        self._sizes: dict[int, tuple[float, float]] = {}  # block size -> (running mean ms, samples seen)

    def observe(self, block_size: int, ms: float) -> None:
        if block_size == 1:
            self._single = _running(self._single, ms)
            return
        if self._blocks is None:
            self._blocks = LinearCost(prior_a=ms - self._prior_slope * block_size, prior_b=self._prior_slope)
        self._blocks.observe(block_size, ms)
        mean, samples = self._sizes.get(block_size, (None, 0.0))
        # Samples are capped so the line keeps a third of the weight: a size measured long ago still
        # moves with the line when the machine's speed drifts.
        self._sizes[block_size] = (_running(mean, ms), min(samples + 1, 2 * self.SIZE_WEIGHT))

    def predict(self, block_size: int) -> float:
        single = self._single
        if block_size == 1:
            if single is None and self._blocks is not None:
                return self._blocks.predict(2) / self.BLOCK_PREMIUM
            return self._prior_single if single is None else single
        if self._blocks is None:
            base = self._prior_single if single is None else single
            return base * self.BLOCK_PREMIUM + self._prior_slope * block_size
        line = max(self._blocks.predict(block_size), single or 0.0)
        if block_size not in self._sizes:
            return line
        mean, samples = self._sizes[block_size]
        return (samples * mean + self.SIZE_WEIGHT * line) / (samples + self.SIZE_WEIGHT)


class AcceptanceModel:
    """How often a drafted node is accepted when its parent was, per source and depth (Beta prior).

    The learned head's tokens are counted per confidence bin instead of per depth: its own probability
    already says how hard the position is. It is overconfident on text unlike its training answers
    (measured on the bench prompts: tokens it gives 0.9 are right about half the time), so its bins
    start from ``HEAD_TRUST`` times their probability and are then measured.
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

    MARGIN = 1.03  # auto speculates only when it expects to beat sequential by this much
    MIN_COMPUTE_MS = 0.05
    HEAD_RETRY = 8  # auto drafts with an unprofitable head again after this many steps without
    WINDOW_RETRY = 16  # auto runs an unprofitable Jacobi window again after this many steps without,
    WINDOW_TRIAL = 4  # for this many steps (its first harvest comes from guesses, not trajectories),
    WINDOW_RETRY_MAX = 256  # and waits twice as long after each trial that finds it unprofitable
    WINDOW_PRIOR = 0.3  # accepted tokens a step only its n-grams propose, until measured
    CALIBRATION_RANGE = (0.5, 1.5)

    def __init__(self, mode: str = "auto", max_nodes: int = 48, window_size: int = 0):
        if mode not in MODES:
            raise ValueError(f"decoding mode must be one of {', '.join(MODES)}")
        self.mode = mode
        self.max_nodes = max_nodes
        self.window_size = window_size
        self.compute = BlockCost()
        self.acceptance = AcceptanceModel()
        self.rtt_ms: float | None = None
        # What drafting with the learned head costs and earns, measured on the steps that drafted with it.
        self.head_ms: float | None = None  # drafting time
        self.head_tokens: float | None = None  # accepted tokens that only the head proposed
        self.head_rows: float | None = None  # block rows that only the head proposed
        self._block_rows: float | None = None  # block size of those steps
        self._head_drafting = False  # this step's tree includes the head's drafts
        self._explore_head = False
        self._retrying = False  # this step's head drafts are a retry
        self._head_skipped = 0
        # What the Jacobi window earns: accepted tokens only its harvested n-grams proposed, per step,
        # measured while it runs (its rows' cost comes from the block-cost line).
        self.window_tokens = self.WINDOW_PRIOR
        self._window_warm = False  # the window ran last step too, so the pool holds a fresh harvest
        self._window_trial = 0  # steps left in a re-measuring run of the window
        self._window_fresh = True  # the next measurement replaces the current value (at first, the prior)
        self._window_skipped = 0
        self._window_wait = self.WINDOW_RETRY
        # Drafted tokens the acceptance estimates expected per speculative step, and what was accepted.
        self._expected_drafts: float | None = None
        self._accepted_drafts: float | None = None

    def observe_prefill(self, tokens: int, compute_ms: float, network_ms: float) -> None:
        # Only the RTT: a prefill's hundreds of rows would drag the decode-block line's intercept far
        # from what small blocks cost (measured: a 6-row block predicted at 2.4× a row instead of 1.6×).
        self._observe_rtt(network_ms)

    def observe_step(
        self,
        block_size: int,
        compute_ms: float,
        network_ms: float,
        tree: DraftTree,
        verdict: Verdict,
        draft_ms: float = 0.0,
    ):
        self._observe_rtt(network_ms)
        self.compute.observe(block_size, compute_ms)
        if self.mode == "auto" and len(tree) > 1:  # before the estimates learn from this step
            _, reach = self._ranked_nodes(tree)
            self._expected_drafts = _running(self._expected_drafts, sum(reach.values()) - 1.0)
            self._accepted_drafts = _running(self._accepted_drafts, len(verdict.accepted) - 1)
        self.acceptance.observe(tree, verdict)
        window_ran = block_size > len(tree)
        if window_ran and self._window_warm:
            gained = sum(1 for n in verdict.accepted if _only_pool(tree, n))
            self.window_tokens = _running(None if self._window_fresh else self.window_tokens, gained)
            self._window_fresh = False
        self._window_warm = window_ran
        if self._head_drafting:
            self._head_drafting = False
            only_head = {n for n in range(1, len(tree)) if _by_head(tree, n, only=True)}
            gained = sum(1 for n in verdict.accepted if n in only_head)
            # A retry measures the text as it is now: it replaces what was learned on earlier text
            # (averaged in, one retry barely moved a value learned on a pasted document, and the
            # head stayed off for most of the next, creative reply).
            fresh = self._retrying
            self._retrying = False
            self.head_ms = _running(self.head_ms, draft_ms)
            self.head_tokens = _running(None if fresh else self.head_tokens, gained)
            self.head_rows = _running(None if fresh else self.head_rows, len(only_head))
            self._block_rows = _running(None if fresh else self._block_rows, block_size)

    def head_value_ms(self) -> float:
        """What drafting with the head has been saving per step: the tokens only it proposed that were
        accepted, each worth a sequential step, less what its rows added to the block."""
        if self.head_tokens is None or self.head_rows is None or self._block_rows is None:
            return float("inf")
        without = max(1.0, self._block_rows - self.head_rows)
        added = self.step_ms(round(self._block_rows)) - self.step_ms(round(without))
        return self.head_tokens * self.step_ms(1) - added

    def wants_head(self) -> bool:
        """Whether to draft with the learned head this step.

        ``learned`` always drafts; ``auto`` drafts while what the head saves exceeds what drafting costs
        (both measured), and tries again every ``HEAD_RETRY`` steps when it does not.
        """
        if self.mode != "auto" or self.head_ms is None:
            wanted = self.mode in ("auto", "learned")
        else:
            self._head_skipped += 1
            wanted = self.head_value_ms() > self.head_ms
            if wanted:
                self._head_skipped = 0
            elif self._head_skipped >= self.HEAD_RETRY:  # re-measure now and then: the text may have changed
                self._head_skipped = 0
                self._explore_head = self._retrying = True  # and verify its likeliest path whatever the estimates say
                wanted = True
        self._head_drafting = wanted
        return wanted

    def new_reply(self) -> None:
        """A new reply is new text: an unprofitable head gets its retry on the first step."""
        self._head_skipped = max(self._head_skipped, self.HEAD_RETRY - 1)

    def _observe_rtt(self, network_ms: float) -> None:
        self.rtt_ms = _running(self.rtt_ms, network_ms)

    def step_ms(self, block_size: int) -> float:
        # A line fitted through few points can dip to zero or below for small blocks: a step is never free.
        return (self.rtt_ms or 0.0) + max(self.MIN_COMPUTE_MS, self.compute.predict(block_size))

    def sequential_plan(self, root: int) -> Plan:
        return self._plan(DraftTree.rooted_at(root), window=False, tokens=1.0)

    def plan(self, tree: DraftTree) -> Plan:
        """Prune ``tree`` (and decide on the window) for the next step."""
        if self.mode == "sequential":
            return self.sequential_plan(tree.tokens[0])
        order, reach = self._ranked_nodes(tree)
        window = self.window_size > 0 and self.mode in ("auto", "lookahead")
        if self.mode in ("learned", "lookahead", "lookup"):
            kept = order[: self.max_nodes]
            return self._plan(tree.pruned([0, *kept]), window, 1.0 + sum(reach[n] for n in kept))
        best_k, tokens = 0, 1.0
        best_rate = self.MARGIN / self.step_ms(1)  # sequential, with the margin speculation must beat
        cumulative = 1.0
        calibration = self.calibration()
        for k in range(1, min(self.max_nodes, len(order)) + 1):
            cumulative += calibration * reach[order[k - 1]]
            rate = cumulative / self.step_ms(1 + k)
            if rate > best_rate:
                best_k, best_rate, tokens = k, rate, cumulative
        kept = order[:best_k]
        if self._explore_head:
            self._explore_head = False
            chain = [n for n in self._head_path(tree) if n not in kept]
            kept, best_k = kept + chain, best_k + len(chain)
            tokens += sum(calibration * reach[n] for n in chain)
        if window:
            window = self.wants_window(1 + best_k)
        return self._plan(tree.pruned([0, *kept]), window, tokens)

    def window_value_ms(self, block_size: int) -> float:
        """What running the Jacobi window beside a ``block_size`` block saves per step: the accepted
        tokens only its n-grams proposed, each worth a sequential step, less what its rows add."""
        added = self.step_ms(block_size + self.window_size) - self.step_ms(block_size)
        return self.window_tokens * self.step_ms(1) - added

    def wants_window(self, block_size: int) -> bool:
        """Whether ``auto`` runs the window this step: while what it saves exceeds what its rows cost
        (measured: beside the learned head it rarely pays), and in a short trial every
        ``WINDOW_RETRY`` steps or more when it does not, since the text may have become repetitive."""
        if self._window_trial > 0:
            self._window_trial -= 1
            return True
        if self.window_value_ms(block_size) > 0:
            self._window_skipped = 0
            self._window_wait = self.WINDOW_RETRY
            return True
        self._window_skipped += 1
        if self._window_skipped >= self._window_wait:
            self._window_skipped = 0
            self._window_wait = min(2 * self._window_wait, self.WINDOW_RETRY_MAX)
            self._window_trial = self.WINDOW_TRIAL - 1
            self._window_fresh = True
            return True
        return False

    def calibration(self) -> float:
        """Accepted drafts per step over what the acceptance estimates expected, on recent steps.

        The estimates are per source and fade slowly, so right after a change of text they can be off
        for every node at once (after pasted documents, auto expected ~15 % more from chat replies than
        it got, and speculated where sequential was faster); this scales them back until they agree.
        """
        if self._expected_drafts is None or self._accepted_drafts is None or self._expected_drafts < 0.05:
            return 1.0
        ratio = self._accepted_drafts / self._expected_drafts
        return min(self.CALIBRATION_RANGE[1], max(self.CALIBRATION_RANGE[0], ratio))

    def _plan(self, tree: DraftTree, window: bool, tokens: float) -> Plan:
        size = len(tree) + (self.window_size if window else 0)
        step = self.step_ms(size)
        return Plan(tree, window, size, tokens, step, break_even=step / self.step_ms(1))

    def _head_path(self, tree: DraftTree) -> list[int]:
        """From the root, the head's likeliest child at each depth (parents first)."""
        path, node = [], 0
        while True:
            drafted = [c for c in tree.children[node].values() if _by_head(tree, c)]
            if not drafted:
                return path
            node = max(drafted, key=lambda c: (self.acceptance.node_rate(tree, c), -c))
            path.append(node)

    def _ranked_nodes(self, tree: DraftTree) -> tuple[list[int], dict[int, float]]:
        """Non-root nodes by the estimated chance that verification reaches them (parents first)."""
        reach = {0: 1.0}
        for node in range(1, len(tree)):  # parents precede children in a DraftTree
            parent = tree.parents[node]
            siblings = tree.children[parent].values()
            total = sum(self.acceptance.node_rate(tree, s) for s in siblings)
            rate = self.acceptance.node_rate(tree, node)
            reach[node] = reach[parent] * rate / max(1.0, total)
        order = sorted(range(1, len(tree)), key=lambda n: (-reach[n], n))
        return order, reach
