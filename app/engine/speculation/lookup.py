"""Context lookup: n-grams matched against the whole conversation (prompt, earlier turns, generated text).

The big win when a person asks about a pasted clause or note: the answer quotes it.
"""

from __future__ import annotations

from collections.abc import Sequence

from app.engine.speculation.sources import lookup_source


def common_prefix(a: Sequence[int], b: Sequence[int]) -> int:
    """Length of the longest common prefix of two token sequences."""
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n


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
