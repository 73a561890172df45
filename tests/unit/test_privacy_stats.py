"""The statistics behind every privacy figure, against textbook values."""

from __future__ import annotations

import math

import pytest

from app.privacy.stats import discordant, mcnemar_exact, wilson_interval


@pytest.mark.parametrize(
    ("successes", "n", "low", "high"),
    [
        # Newcombe (1998), Statistics in Medicine 17:857, Table I, method 3 (Wilson score, no correction).
        (81, 263, 0.2553, 0.3662),
        (15, 148, 0.0624, 0.1605),
        (0, 20, 0.0000, 0.1611),
        (1, 29, 0.0061, 0.1718),
    ],
)
def test_wilson_interval_matches_newcombe(successes, n, low, high):
    got_low, got_high = wilson_interval(successes, n)
    assert got_low == pytest.approx(low, abs=1e-4)
    assert got_high == pytest.approx(high, abs=1e-4)


def test_wilson_interval_edges():
    assert wilson_interval(0, 0) == (0.0, 1.0)
    low, high = wilson_interval(50, 50)
    assert high == 1.0 and 0.92 < low < 0.94
    with pytest.raises(ValueError):
        wilson_interval(5, 4)


@pytest.mark.parametrize(
    ("b", "c", "p"),
    [
        (0, 5, 2 / 32),  # 2 · P[Bin(5, ½) = 0]
        (3, 11, 2 * (1 + 14 + 91 + 364) / 2**14),  # 2 · P[Bin(14, ½) ≤ 3] = 0.05737
        (11, 3, 2 * (1 + 14 + 91 + 364) / 2**14),  # symmetric in b and c
        (5, 5, 1.0),  # capped at 1
        (0, 0, 1.0),  # no discordant pairs: no evidence
    ],
)
def test_mcnemar_exact_matches_binomial_by_hand(b, c, p):
    assert mcnemar_exact(b, c) == pytest.approx(p, rel=1e-9)


def test_mcnemar_exact_agrees_with_normal_approximation_at_large_counts():
    # Far past where 0.5**n underflows a float: the log-space sum must still be right.
    b, c = 4000, 4200
    z = (abs(b - c) - 1) / math.sqrt(b + c)
    assert mcnemar_exact(b, c) == pytest.approx(math.erfc(z / math.sqrt(2)), rel=0.05)
    assert mcnemar_exact(4000, 4000) == 1.0


def test_discordant_counts_pairs():
    assert discordant([True, True, False, False], [True, False, True, True]) == (1, 2)
    with pytest.raises(ValueError):
        discordant([True], [True, False])
