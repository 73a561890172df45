"""``bench --load 1,2 --load-rounds 2``: the session counts run in turn (1, 2, 1, 2) and each count's rows pool
its rounds, so the ratio of two counts compares them on the same machine."""

from __future__ import annotations

import re

import pytest

from app.bench.load import run_load
from tests.integration.conftest import TINY_SPLIT


def test_the_counts_run_in_turn_and_each_row_pools_its_rounds(tiny_models):
    folder, _ = tiny_models["llama"]
    said = []
    rows = run_load(
        str(folder),
        TINY_SPLIT,
        [1, 2],
        prompt=4,
        steps=3,
        log=lambda _line: None,
        progress=lambda line, _fraction=None: said.append(line),
        rounds=2,
    )
    order = [int(m.group(1)) for line in said if (m := re.search(r": (\d+) sessions? at once", line))]
    assert order == [1, 2, 1, 2]
    assert [(row.sessions, row.rounds) for row in rows] == [(1, 2), (2, 2)]
    assert all(row.aggregate_tok_per_s > 0 for row in rows)


def test_rounds_below_one_are_refused_before_a_worker_starts(tiny_models):
    folder, _ = tiny_models["llama"]
    with pytest.raises(ValueError, match="--load-rounds"):
        run_load(str(folder), TINY_SPLIT, [1], rounds=0, log=lambda _line: None)
