"""``bench --load --cores-apart``: the worker process on one half of the cores, the load's clients on the other.

What is checked is where the processes were allowed to run, read from the kernel while the load ran, not
how fast they were (speed targets live in the bench, docs/BENCH.md).
"""

from __future__ import annotations

import os

import pytest

from app.bench.core_affinity import core_halves
from app.bench.load import run_load
from tests.integration.conftest import TINY_SPLIT

pytestmark = pytest.mark.skipif(
    not hasattr(os, "sched_setaffinity") or len(os.sched_getaffinity(0)) < 2, reason="needs Linux and two cores"
)


def _load(folder, **options):
    return run_load(str(folder), TINY_SPLIT, [1, 2], prompt=4, steps=3, log=lambda _line: None, **options)


def test_the_worker_and_the_clients_run_on_the_halves_asked_for_and_this_process_gets_its_cores_back(tiny_models):
    folder, _ = tiny_models["llama"]
    original = frozenset(os.sched_getaffinity(0))
    halves = core_halves()
    rows = _load(folder, cores_apart=True)
    assert [row.sessions for row in rows] == [1, 2]
    for row in rows:
        assert row.cores_apart and row.aggregate_tok_per_s > 0
        assert row.worker_cores == sorted(halves.worker)  # every thread of the worker, read while it served
        assert row.client_cores == sorted(halves.app)
    assert frozenset(os.sched_getaffinity(0)) == original


def test_without_the_option_both_keep_every_core(tiny_models):
    folder, _ = tiny_models["llama"]
    everything = sorted(os.sched_getaffinity(0))
    for row in _load(folder):
        assert not row.cores_apart
        assert row.worker_cores == everything and row.client_cores == everything


def test_cores_apart_takes_one_worker(tiny_models):
    folder, _ = tiny_models["llama"]
    with pytest.raises(ValueError, match="one worker"):
        _load(folder, cores_apart=True, replicas=2)
