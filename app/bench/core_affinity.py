"""Two machines on one for the bench: the worker on one half of this computer's cores, the app on the other.

A worker on its own server never takes the workstation's cores, but on the one machine a bench has, the
two processes share them, and a prefill that overlaps the app's layers with the worker's only moves work
from one to the other. Giving each process half of the cores (and as many threads) shows what separate
machines do, each at half this one's speed. Linux only (``os.sched_setaffinity``), as the worker is.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import torch


@dataclass(frozen=True)
class CoreHalves:
    """Which cores each process may use."""

    app: frozenset[int]
    worker: frozenset[int]


def core_halves() -> CoreHalves:
    """This process's cores cut in two; ValueError where that cannot be done."""
    if not hasattr(os, "sched_setaffinity"):
        raise ValueError("--cores-apart needs Linux (it sets which cores each process may use)")
    cores = sorted(os.sched_getaffinity(0))
    if len(cores) < 2:
        raise ValueError("--cores-apart needs at least two cores")
    middle = len(cores) // 2
    return CoreHalves(app=frozenset(cores[:middle]), worker=frozenset(cores[middle:]))


def pin_this_process(cores: frozenset[int]) -> None:
    """Move every thread of this process onto ``cores``, and size torch's pool to them.

    Affinity belongs to each thread on Linux, and torch's pool threads exist already; processes started
    afterwards inherit it, and their OpenMP starts one thread per core it allows.
    """
    for task in Path("/proc/self/task").iterdir():
        try:
            os.sched_setaffinity(int(task.name), cores)
        except ProcessLookupError:
            pass  # a thread that ended meanwhile
    torch.set_num_threads(len(cores))


def process_cores(pid: int) -> list[int]:
    """The cores any thread of process ``pid`` may run on (Linux); empty where that cannot be read."""
    if not hasattr(os, "sched_getaffinity"):
        return []
    cores: set[int] = set()
    try:
        tasks = [int(task.name) for task in Path(f"/proc/{pid}/task").iterdir()]
    except OSError:
        tasks = [pid]
    for task in tasks:
        try:
            cores |= os.sched_getaffinity(task)
        except OSError:
            pass  # a thread that ended meanwhile
    return sorted(cores)
