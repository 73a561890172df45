"""``bench --cores-apart``: the worker and the app on separate halves of the cores, as two machines."""

from __future__ import annotations

import os
import subprocess
import sys
import threading

import pytest
import torch

from app.bench.core_affinity import core_halves, pin_this_process

pytestmark = pytest.mark.skipif(
    not hasattr(os, "sched_setaffinity") or len(os.sched_getaffinity(0)) < 2, reason="needs Linux and two cores"
)


def test_the_halves_split_the_cores_and_each_process_keeps_to_its_own():
    original, threads = frozenset(os.sched_getaffinity(0)), torch.get_num_threads()
    halves = core_halves()
    assert halves.app.isdisjoint(halves.worker) and halves.app | halves.worker == original

    waiting = threading.Event()
    earlier = threading.Thread(target=waiting.wait)  # a thread that exists before the pinning, like torch's pool
    earlier.start()
    try:
        pin_this_process(halves.worker)
        probe = "import os, torch; print(sorted(os.sched_getaffinity(0)), torch.get_num_threads())"
        unset = {k: v for k, v in os.environ.items() if k != "OMP_NUM_THREADS"}  # the suite's one thread (conftest)
        child = subprocess.run(
            [sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, check=True, env=unset
        )
        # A worker started now inherits the worker's half, and starts one thread a core of it.
        assert child.stdout.strip() == f"{sorted(halves.worker)} {len(halves.worker)}"

        pin_this_process(halves.app)
        assert os.sched_getaffinity(0) == halves.app and torch.get_num_threads() == len(halves.app)
        assert os.sched_getaffinity(earlier.native_id) == halves.app  # moved too, not only the calling thread
    finally:
        pin_this_process(original)
        torch.set_num_threads(threads)
        waiting.set()
        earlier.join()
