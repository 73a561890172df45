"""The adaptive controller speculates when it pays and falls back to sequential when it does not."""

from __future__ import annotations

import pytest

from app.engine.speculation.acceptance import AcceptanceModel, Calibration
from app.engine.speculation.controller import Controller
from app.engine.speculation.cost import LinearCost
from app.engine.speculation.gates import WindowGate
from app.engine.speculation.sources import head_source
from app.engine.speculation.tree import DraftTree, Verdict


def test_linear_cost_recovers_intercept_and_slope():
    cost = LinearCost(prior_a=0.0, prior_b=0.0)
    for q in (1, 4, 16, 32, 1, 8):
        cost.observe(q, 30.0 + 0.5 * q)
    a, b = cost.coefficients()
    assert a == pytest.approx(30.0) and b == pytest.approx(0.5)


def test_one_block_size_keeps_the_prior_slope():
    cost = LinearCost(prior_a=10.0, prior_b=2.0)
    for _ in range(5):
        cost.observe(1, 40.0)
    assert cost.predict(1) == pytest.approx(40.0) and cost.predict(11) == pytest.approx(60.0)


def _chain(length: int, source: str = "lookup3") -> DraftTree:
    tree = DraftTree.rooted_at(0)
    tree.add_path(list(range(1, length + 1)), source)
    return tree


def _train(controller: Controller, rtt: float, base: float, per_token: float, accept_all: bool) -> None:
    for q in (1, 9, 1, 17, 1, 9) * 4:
        tree = _chain(q - 1)
        verdict = Verdict(list(range(q)) if accept_all else [0], bonus=0)
        controller.observe_step(q, base + per_token * q, rtt, tree, verdict)


def test_high_rtt_and_good_drafts_mean_a_big_tree():
    controller = Controller("auto")
    _train(controller, rtt=80.0, base=40.0, per_token=0.5, accept_all=True)
    plan = controller.plan(_chain(12))
    assert len(plan.tree) == 13 and not plan.sequential
    assert plan.expected_tokens > 3
    assert plan.break_even == pytest.approx(controller.cost.step_ms(13) / controller.cost.step_ms(1))


def test_no_rtt_expensive_blocks_and_rejected_drafts_mean_sequential():
    controller = Controller("auto", window_size=15)
    _train(controller, rtt=0.0, base=40.0, per_token=10.0, accept_all=False)
    plan = controller.plan(_chain(12))
    assert plan.sequential and plan.block_size == 1 and not plan.window


def _window_step(controller: Controller, tree: DraftTree, accepted: list[int]) -> None:
    controller.observe_step(len(tree) + controller.window.size, 50.0, 80.0, tree, Verdict(accepted, bonus=0))


def test_the_window_runs_while_its_ngrams_earn_more_than_its_rows_cost():
    cheap = Controller("auto", window_size=15)
    _train(cheap, rtt=150.0, base=40.0, per_token=0.3, accept_all=True)
    assert cheap.plan(_chain(4)).window  # its prior share of accepted tokens is worth far more than 15 rows
    dear = Controller("auto", window_size=15)
    _train(dear, rtt=0.0, base=20.0, per_token=3.0, accept_all=True)
    assert not dear.plan(_chain(4)).window

    earning = Controller("auto", window_size=15)
    _train(earning, rtt=150.0, base=40.0, per_token=0.3, accept_all=True)
    pooled = _chain(3, source="pool")
    for _ in range(6):  # it ran twice in a row before: what the pool proposes now is its harvest
        _window_step(earning, pooled, [0, 1, 2, 3])
    assert earning.window.tokens > 2.5 and earning.plan(_chain(4)).window


def test_a_window_that_earns_nothing_is_dropped_and_retried_ever_more_rarely():
    controller = Controller("auto", window_size=15)
    _train(controller, rtt=80.0, base=40.0, per_token=1.0, accept_all=True)
    tree = _chain(3)  # what it accepts came from context lookup, not from the window's n-grams
    for _ in range(3):
        _window_step(controller, tree, [0, 1, 2, 3])
    assert controller.window.tokens == 0.0

    def runs(steps: int) -> list[int]:
        return [step for step in range(steps) if controller.plan(_chain(3)).window]

    retry, trial = WindowGate.RETRY, WindowGate.TRIAL
    assert runs(retry - 1 + trial) == list(range(retry - 1, retry - 1 + trial))  # a trial, unobserved here
    assert runs(2 * retry - 1 + trial) == list(range(2 * retry - 1, 2 * retry - 1 + trial))  # waits twice as long


def test_measured_block_sizes_correct_the_line():
    controller = Controller("auto")
    controller.cost.rtt_ms = 0.0
    for _ in range(6):  # as on the bench CPU: 2 rows cost more than 6
        controller.cost.compute.observe(1, 30.0)
        controller.cost.compute.observe(2, 45.0)
        controller.cost.compute.observe(6, 38.0)
        controller.cost.compute.observe(16, 50.0)
    assert controller.cost.compute.predict(2) > controller.cost.compute.predict(6)
    assert controller.cost.compute.predict(2) == pytest.approx(45.0, abs=3.0)
    sure = DraftTree.rooted_at(0)
    sure.add_path([1], "lookup4")
    for _ in range(30):
        controller.acceptance.observe(sure, Verdict([0, 1], bonus=0))
    tree = _chain(5, source="lookup1")
    tree.add_path([1], "lookup4")  # a likely first token, then four doubtful ones
    plan = controller.plan(tree)
    assert plan.block_size == 6  # filling the block to a size that measured cheaper than two rows


def test_a_block_that_measured_faster_than_one_row_never_costs_less_than_one_row():
    controller = Controller("auto")
    controller.cost.rtt_ms = 5.0
    for _ in range(6):  # noise: the 6-row steps happened to run faster than the single rows
        controller.cost.compute.observe(1, 30.0)
        controller.cost.compute.observe(6, 26.0)
        controller.cost.compute.observe(12, 27.0)
    assert controller.cost.compute.predict(6) >= controller.cost.compute.predict(1)
    tree = _chain(5, source="lookup4")
    assert controller.plan(tree).break_even >= 1.0


def test_fixed_modes_ignore_costs():
    controller = Controller("lookup", max_nodes=5)
    _train(controller, rtt=0.0, base=40.0, per_token=50.0, accept_all=False)
    assert len(controller.plan(_chain(12)).tree) == 6
    assert Controller("sequential").plan(_chain(12)).sequential


def test_acceptance_is_counted_per_source_and_depth():
    model = AcceptanceModel()
    tree = DraftTree.rooted_at(0)
    tree.add_path([1, 2], "lookup3")
    tree.add_path([5], "pool")
    before = model.rate("pool", 1)
    for _ in range(20):
        model.observe(tree, Verdict([0, 1, 2], bonus=9))
    assert model.rate("lookup3", 1) > 0.9 and model.rate("lookup3", 2) > 0.9
    assert model.rate("pool", 1) < before


def test_reach_is_each_nodes_share_of_its_parents_reach_among_its_siblings():
    model = AcceptanceModel()
    tree = DraftTree.rooted_at(0)
    tree.add_path([1, 2, 3], "lookup4")
    tree.add_path([1, 4], "pool")
    tree.add_path([1, 5, 6], "lookup2")
    tree.add_path([7, 8], [head_source(0.95), head_source(0.35)])  # rated by their confidence bins
    tree.add_path([1, 2], "lookup1")  # a second vote on nodes 1 and 2
    for _ in range(5):
        model.observe(tree, Verdict([0, 1, 2], bonus=9))
    reach = model.reach(tree)
    rate = {n: max(model.rate(s, tree.depths[n]) for s in tree.votes[n]) for n in range(1, len(tree))}
    for node in range(1, len(tree)):
        parent = tree.parents[node]
        siblings = sum(rate[c] for c in tree.children[parent].values())
        above = 1.0 if parent == 0 else reach[parent]
        assert reach[node] == pytest.approx(above * rate[node] / max(1.0, siblings), rel=1e-12)
    assert reach[0] == 1.0 and set(reach) == set(range(len(tree)))
    # node 1's three children share its reach: each gets less than it would alone
    assert reach[tree.children[1][2]] < reach[1] * rate[tree.children[1][2]]


def test_unknown_mode_is_refused():
    with pytest.raises(ValueError, match="auto, learned, lookahead, lookup, sequential"):
        Controller("turbo")


def test_a_fitted_line_below_zero_never_makes_a_step_free():
    controller = Controller("auto")
    controller.cost.rtt_ms = 0.0
    for q, ms in ((40, 2.0), (48, 20.0)):  # steep slope through two sizes: the intercept is far below zero
        controller.cost.compute.observe(q, ms)
    assert controller.cost.compute.predict(2) <= 0  # what the fit alone says
    assert controller.cost.step_ms(1) > 0 and controller.cost.step_ms(2) > 0
    tree = DraftTree.rooted_at(1)
    tree.add_path([2, 3], "lookup4")
    assert controller.plan(tree).expected_ms > 0


def test_calibration_scales_estimates_to_what_recent_steps_accepted():
    controller = Controller("auto")
    assert controller.calibration.factor() == 1.0
    doubtful = _chain(4, source="lookup1")  # the prior expects ~0.25 of its first node
    for _ in range(10):  # yet every drafted token is accepted
        controller.observe_step(5, 50.0, 80.0, doubtful, Verdict([0, 1, 2, 3, 4], bonus=0))
    assert controller.calibration.factor() == Calibration.RANGE[1]
    for _ in range(30):  # then none is, although the counts now trust lookup1
        controller.observe_step(5, 50.0, 80.0, doubtful, Verdict([0], bonus=0))
    assert controller.calibration.factor() == Calibration.RANGE[0]
    likely = _chain(4, source="lookup4")  # still at its prior: 0.6 a node
    _, reach = controller.pruner.ranked(likely)
    plan = controller.plan(likely)
    assert len(plan.tree) == 5 and plan.expected_tokens == pytest.approx(1 + 0.5 * (sum(reach.values()) - 1))
