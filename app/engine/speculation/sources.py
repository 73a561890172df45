"""Who proposed a drafted token: the source names a tree's nodes carry, and the questions asked of them.

Acceptance is measured per source, so the names encode what matters: the length of a context match
(``lookup4`` is likelier than ``lookup1``), the Jacobi window's pool, and the learned head's own
confidence bin (``head@7``: it gave the token a probability in [0.7, 0.8)).
"""

from __future__ import annotations

from collections.abc import Sequence

ROOT = "root"
POOL = "pool"
HEAD = "head@"
CONFIDENCE_BINS = 10


def lookup_source(ngram: int) -> str:
    """A context match of ``ngram`` tokens."""
    return f"lookup{ngram}"


def head_source(confidence: float) -> str:
    """A head-drafted token, by the head's own probability for it (in tenths).

    Acceptance is then measured per confidence bin: the head knows when it is sure, so a 0.9 token
    deep in a chain is worth drafting and a 0.2 one next to the root may not be.
    """
    return f"{HEAD}{min(int(confidence * CONFIDENCE_BINS), CONFIDENCE_BINS - 1)}"


def head_confidence(source: str) -> float | None:
    """The middle of a head source's confidence bin; None for other sources."""
    if not source.startswith(HEAD):
        return None
    return (int(source.removeprefix(HEAD)) + 0.5) / CONFIDENCE_BINS


def proposed_by_head(votes: Sequence[str], only: bool = False) -> bool:
    """Whether the learned head proposed a node (``only``: and no other source did)."""
    drafted = [head_confidence(source) is not None for source in votes]
    return all(drafted) if only else any(drafted)


def proposed_by_pool_only(votes: Sequence[str]) -> bool:
    """Whether only n-grams harvested by the Jacobi window proposed a node."""
    return list(votes) == [POOL]
