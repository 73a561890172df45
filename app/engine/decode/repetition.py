"""When an answer has begun to loop: the same span of tokens over and over at its end.

A small model decoding greedily can fall into a cycle it never leaves ("three sentences" answered with one
sentence until the length limit, ~80 s on a CPU). Greedy decoding is deterministic, so once the last
tokens repeat a span several times the model is almost always in a cycle; the answer is stopped there,
with its own ending, and every token emitted so far is the whole model's.

The rule is deliberately strict so that text which repeats on purpose — a table's separators, a list of
zeros, a refrain — is left alone: a span must recur at least ``MIN_REPEATS`` times back to back and the
repeated run must be at least ``MIN_LOOPED_TOKENS`` long (a 1-token span 48 times; a 20-token sentence
three times). The check costs one comparison per candidate span length for almost every token.
"""

from __future__ import annotations

from collections.abc import Sequence

MIN_REPEATS = 3
MIN_LOOPED_TOKENS = 48
MAX_SPAN = 96  # longer cycles (a paragraph) are rare and cost more to look for than they save


def looping(tokens: Sequence[int], max_span: int = MAX_SPAN) -> int:
    """The length of the span repeating at the end of ``tokens``, or 0 when they do not loop."""
    n = len(tokens)
    last = tokens[-1] if n else None
    for span in range(1, min(max_span, n // MIN_REPEATS) + 1):
        if tokens[n - 1 - span] != last:  # the cheap test that rules out nearly every span
            continue
        repeats = max(MIN_REPEATS, -(-MIN_LOOPED_TOKENS // span))
        if repeats * span > n:
            continue
        tail = tokens[n - span :]
        if all(tokens[n - (k + 1) * span : n - k * span] == tail for k in range(1, repeats)):
            return span
    return 0


class RepetitionGuard:
    """Watches a reply's tokens as they are emitted; ``tripped`` once they loop."""

    def __init__(self, enabled: bool = True):
        self.enabled = enabled
        self.tripped = False
        self.span = 0

    def observe(self, tokens: list[int]) -> bool:
        """Whether ``tokens`` (the reply so far, the newest last) now loop."""
        if self.enabled and not self.tripped:
            self.span = looping(tokens)
            self.tripped = self.span > 0
        return self.tripped
