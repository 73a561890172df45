"""Whether auto pays for an optional source this step: the learned head, and the Jacobi window.

Each gate weighs what its source has been saving — the accepted tokens only it proposed, each worth a
sequential step — against what it costs, both measured on the steps that used it. A source that does
not pay is skipped, and tried again now and then, because the text may change.

``decide`` is the one method that moves a gate forward a step (counting skips, starting a retry);
everything named as a question (``value_ms``, ``profitable``) only reads.
"""

from __future__ import annotations

from app.engine.speculation.cost import StepCost, running
from app.engine.speculation.sources import proposed_by_head, proposed_by_pool_only
from app.engine.speculation.tree import DraftTree, Verdict


class HeadGate:
    """Drafting with the learned head: on while it saves more than drafting costs, retried every
    ``RETRY`` skipped steps and at the start of each reply."""

    RETRY = 8

    def __init__(self, cost: StepCost):
        self._cost = cost
        # Measured on the steps that drafted with the head:
        self.drafting_ms: float | None = None  # the steps' drafting and planning time
        self.tokens: float | None = None  # accepted tokens that only the head proposed
        self.rows: float | None = None  # block rows that only the head proposed
        self._block_rows: float | None = None  # block size of those steps
        self.drafting = False  # this step's tree holds the head's drafts
        self.explore = False  # this step's plan verifies the head's likeliest path, whatever the estimates
        self._retrying = False  # this step's drafts are a retry: what it measures replaces the old values
        self._skipped = 0

    def value_ms(self) -> float:
        """What drafting with the head has been saving per step: the tokens only it proposed that were
        accepted, each worth a sequential step, less what its rows added to the block."""
        if self.tokens is None or self.rows is None or self._block_rows is None:
            return float("inf")
        without = max(1.0, self._block_rows - self.rows)
        added = self._cost.step_ms(round(self._block_rows)) - self._cost.step_ms(round(without))
        return self.tokens * self._cost.step_ms(1) - added

    def profitable(self) -> bool:
        """Whether the head has been saving more than drafting costs (true until measured)."""
        return self.drafting_ms is None or self.value_ms() > self.drafting_ms

    def decide(self) -> bool:
        """Whether auto drafts with the head this step; counts a skip, or starts a retry after ``RETRY``."""
        if self.drafting_ms is None:
            return self.begin(True)
        self._skipped += 1
        wanted = self.profitable()
        if wanted:
            self._skipped = 0
        elif self._skipped >= self.RETRY:
            self._skipped = 0
            self.explore = self._retrying = True
            wanted = True
        return self.begin(wanted)

    def begin(self, drafting: bool) -> bool:
        """Record whether this step drafts with the head (what ``observe`` will measure)."""
        self.drafting = drafting
        return drafting

    def new_reply(self) -> None:
        """A new reply is new text: an unprofitable head gets its retry on the first step."""
        self._skipped = max(self._skipped, self.RETRY - 1)

    def observe(self, tree: DraftTree, verdict: Verdict, block_size: int, draft_ms: float) -> None:
        if not self.drafting:
            return
        self.drafting = False
        only_head = {n for n in range(1, len(tree)) if proposed_by_head(tree.votes[n], only=True)}
        gained = sum(1 for n in verdict.accepted if n in only_head)
        # A retry measures the text as it is now: averaged in, one retry barely moved a value learned on
        # a pasted document, and the head stayed off for most of the creative reply that followed.
        fresh, self._retrying = self._retrying, False
        self.drafting_ms = running(self.drafting_ms, draft_ms)
        self.tokens = running(None if fresh else self.tokens, gained)
        self.rows = running(None if fresh else self.rows, len(only_head))
        self._block_rows = running(None if fresh else self._block_rows, block_size)


class WindowGate:
    """Running the Jacobi window: on while its harvested n-grams earn more than its rows cost; otherwise a
    ``TRIAL``-step trial after ``RETRY`` steps without, then after twice as long, up to ``RETRY_MAX``."""

    RETRY = 16
    TRIAL = 4  # steps a trial lasts: its first harvest comes from guesses, not trajectories
    RETRY_MAX = 256
    PRIOR = 0.3  # accepted tokens a step only its n-grams propose, until measured

    def __init__(self, cost: StepCost, size: int):
        self._cost = cost
        self.size = size  # the window's rows in a block
        self.tokens = self.PRIOR  # accepted tokens a step that only its n-grams proposed
        self._warm = False  # it ran last step too, so the pool holds a fresh harvest
        self._trial = 0  # steps left in a trial
        self._fresh = True  # the next measurement replaces the current value (at first, the prior)
        self._skipped = 0
        self._wait = self.RETRY

    def value_ms(self, block_size: int) -> float:
        """What running the window beside a ``block_size`` block saves per step: the accepted tokens only
        its n-grams proposed, each worth a sequential step, less what its rows add."""
        added = self._cost.step_ms(block_size + self.size) - self._cost.step_ms(block_size)
        return self.tokens * self._cost.step_ms(1) - added

    def decide(self, block_size: int) -> bool:
        """Whether auto runs the window this step; counts a skip, or starts a trial."""
        if self._trial > 0:
            self._trial -= 1
            return True
        if self.value_ms(block_size) > 0:
            self._skipped = 0
            self._wait = self.RETRY
            return True
        self._skipped += 1
        if self._skipped >= self._wait:
            self._skipped = 0
            self._wait = min(2 * self._wait, self.RETRY_MAX)
            self._trial = self.TRIAL - 1
            self._fresh = True
            return True
        return False

    def observe(self, tree: DraftTree, verdict: Verdict, ran: bool) -> None:
        """Measured only on a step after one that also ran it, so the pool holds its fresh harvest."""
        if ran and self._warm:
            gained = sum(1 for n in verdict.accepted if proposed_by_pool_only(tree.votes[n]))
            self.tokens = running(None if self._fresh else self.tokens, gained)
            self._fresh = False
        self._warm = ran
