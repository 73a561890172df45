"""Lookahead decoding: a W×(N-1) Jacobi window that rides in every verify block, and the n-gram pool it fills.

Each step the window's last level's outputs become a new level and each column yields an N-gram for
the pool, keyed by its first token: trajectories are harvested, not only looked up.
"""

from __future__ import annotations

import random
from collections import OrderedDict
from collections.abc import Sequence


class NGramPool:
    """N-grams harvested from Jacobi trajectories: at most ``per_key`` continuations per first token."""

    def __init__(self, per_key: int = 4):
        self.per_key = per_key
        self._pool: dict[int, OrderedDict[tuple[int, ...], None]] = {}

    def add(self, ngram: Sequence[int]) -> None:
        if len(ngram) < 2:
            return
        entries = self._pool.setdefault(ngram[0], OrderedDict())
        key = tuple(ngram[1:])
        entries.pop(key, None)
        entries[key] = None  # most recent last
        while len(entries) > self.per_key:
            entries.popitem(last=False)

    def propose(self, token: int) -> list[list[int]]:
        """Continuations recorded after ``token``, most recent first."""
        return [list(key) for key in reversed(self._pool.get(token, {}))]

    def __len__(self) -> int:
        return sum(len(v) for v in self._pool.values())


class LookaheadWindow:
    """A W×(N-1) Jacobi window: ``levels[j][i]`` guesses the token at offset i + j + 1 after the root.

    In the block, the token at (level j, column i) attends to the root, level 0's columns 0..i and
    levels 1..j of column i — a chain of consecutive positions — so its output is a Jacobi update for
    offset i + j + 2. Only the last level's outputs are read; they become the newest level.
    """

    def __init__(self, width: int = 5, ngram: int = 4, seed: int = 0):
        if width < 1 or ngram < 2:
            raise ValueError("a lookahead window needs width >= 1 and n-gram size >= 2")
        self.width, self.ngram = width, ngram
        self._random = random.Random(seed)
        self.levels: list[list[int]] = []

    @property
    def size(self) -> int:
        return self.width * (self.ngram - 1)

    def ensure_filled(self, context: Sequence[int]) -> None:
        """Start (or top up) the window with tokens drawn from the conversation."""
        while len(self.levels) < self.ngram - 1:
            self.levels.insert(0, [self._random.choice(context) for _ in range(self.width)])

    def cells(self) -> list[tuple[int, int, int]]:
        """(level, column, token) in block order: level-major."""
        return [(j, i, self.levels[j][i]) for j in range(self.ngram - 1) for i in range(self.width)]

    def advance(self, last_level_outputs: Sequence[int], pool: NGramPool) -> None:
        """Harvest one N-gram per column into the pool, then shift the window by one level."""
        for i, output in enumerate(last_level_outputs):
            pool.add([self.levels[j][i] for j in range(self.ngram - 1)] + [output])
        self.levels = self.levels[1:] + [list(last_level_outputs)]
