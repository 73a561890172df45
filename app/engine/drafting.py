"""Candidate sources for speculation, merged into one token tree.

- ``ContextLookup``: n-grams matched against the whole conversation (prompt, earlier turns, generated
  text) — the big win when a person asks about a pasted clause or note.
- ``LookaheadWindow`` + ``NGramPool``: a W×(N-1) Jacobi window that rides in every verify block; each step
  its last level's outputs become a new level and each column yields an N-gram for the pool, keyed by
  its first token. This is lookahead decoding proper: trajectories are harvested, not only looked up.

A ``DraftTree`` is a trie rooted at the last sampled (not yet processed) token.
"""

from __future__ import annotations

import random
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field

ROOT = "root"
POOL = "pool"


def common_prefix(a: Sequence[int], b: Sequence[int]) -> int:
    """Length of the longest common prefix of two token sequences."""
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n


def lookup_source(ngram: int) -> str:
    return f"lookup{ngram}"


@dataclass
class DraftTree:
    """Node 0 is the root; every other node has a parent, a depth and the sources that proposed it.

    ``sources[n]`` is the first source to propose node n; ``votes[n]`` lists every source that did. Each
    of them is credited when the node is accepted: crediting only the first would make a source that
    often agrees with another (the head with a context match) look worse than it is.
    """

    tokens: list[int]
    parents: list[int] = field(default_factory=lambda: [-1])
    depths: list[int] = field(default_factory=lambda: [0])
    sources: list[str] = field(default_factory=lambda: [ROOT])
    children: list[dict[int, int]] = field(default_factory=lambda: [{}])
    votes: list[list[str]] = field(default_factory=lambda: [[ROOT]])

    @classmethod
    def rooted_at(cls, token: int) -> DraftTree:
        return cls(tokens=[token])

    def __len__(self) -> int:
        return len(self.tokens)

    def add_path(self, path: Sequence[int], source: str | Sequence[str]) -> None:
        """Merge a continuation of the root into the trie; shared prefixes share nodes.

        ``source`` names who proposed the path, or each of its tokens (the head tags every token).
        """
        node = 0
        sources = [source] * len(path) if isinstance(source, str) else list(source)
        for token, source in zip(path, sources, strict=True):
            child = self.children[node].get(token)
            if child is None:
                child = len(self.tokens)
                self.tokens.append(token)
                self.parents.append(node)
                self.depths.append(self.depths[node] + 1)
                self.sources.append(source)
                self.votes.append([source])
                self.children.append({})
                self.children[node][token] = child
            elif source not in self.votes[child]:
                self.votes[child].append(source)
            node = child

    def ancestors(self, node: int) -> list[int]:
        """The node and all its ancestors up to the root."""
        chain = []
        while node != -1:
            chain.append(node)
            node = self.parents[node]
        return chain

    def pruned(self, keep: Sequence[int]) -> DraftTree:
        """The sub-tree of the given nodes, renumbered in the order given after the root.

        Each node's parent must come before it (or be the root). The controller lists nodes likeliest
        first, so the pruned tree's first nodes are the ones verification most likely reads.
        """
        keep = list(dict.fromkeys([0, *keep]))
        index = {old: new for new, old in enumerate(keep)}
        tree = DraftTree.rooted_at(self.tokens[0])
        for old in keep[1:]:
            if self.parents[old] not in index or index[self.parents[old]] >= index[old]:
                raise ValueError(f"node {old} is kept before its parent, or without it")
            parent = index[self.parents[old]]
            tree.tokens.append(self.tokens[old])
            tree.parents.append(parent)
            tree.depths.append(self.depths[old])
            tree.sources.append(self.sources[old])
            tree.votes.append(list(self.votes[old]))
            tree.children.append({})
            tree.children[parent][self.tokens[old]] = len(tree.tokens) - 1
        return tree


class ContextLookup:
    """Finds earlier occurrences of the conversation's last n tokens and proposes what followed them."""

    def __init__(self, max_ngram: int = 4, min_ngram: int = 1, max_matches: int = 4):
        self.max_ngram, self.min_ngram, self.max_matches = max_ngram, min_ngram, max_matches
        self._history: list[int] = []
        self._ends: dict[tuple[int, ...], list[int]] = {}  # n-gram -> positions just after its occurrences

    def sync(self, history: Sequence[int]) -> None:
        """Make the index describe ``history`` (extending it cheaply when it only grew)."""
        common = common_prefix(history, self._history)
        if common < len(self._history):
            self._history, self._ends = [], {}
            common = 0
        for token in history[common:]:
            self._history.append(token)
            end = len(self._history)
            for n in range(self.min_ngram, self.max_ngram + 1):
                if end >= n:
                    self._ends.setdefault(tuple(self._history[end - n : end]), []).append(end)

    def propose(self, length: int) -> list[tuple[list[int], str]]:
        """Up to ``max_matches`` distinct continuations of the history's tail, longest match first."""
        history, end = self._history, len(self._history)
        proposals: list[tuple[list[int], str]] = []
        seen: set[tuple[int, ...]] = set()
        for n in range(min(self.max_ngram, end), self.min_ngram - 1, -1):
            for start in reversed(self._ends.get(tuple(history[end - n :]), [])):
                if start >= end:
                    continue  # the tail itself: nothing follows it yet
                continuation = history[start : start + length]
                key = tuple(continuation)
                if continuation and not any(prev[: len(key)] == key for prev in seen):
                    seen.add(key)
                    proposals.append((continuation, lookup_source(n)))
                    if len(proposals) >= self.max_matches:
                        return proposals
        return proposals


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
