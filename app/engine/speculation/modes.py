"""The decoding modes and the sizes of what each drafts: the one list every front end offers.

No torch here: the settings file and the command line validate modes without loading the model.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Mode(StrEnum):
    """How a session speculates; every mode's greedy output is the model's own."""

    AUTO = "auto"  # every source, the tree sized each step from live measurements
    LEARNED = "learned"  # the learned draft head plus context lookup, a fixed budget
    LOOKAHEAD = "lookahead"  # the Jacobi window's n-grams plus context lookup, a fixed budget
    LOOKUP = "lookup"  # n-grams of the conversation only
    SEQUENTIAL = "sequential"  # one token per round trip

    @classmethod
    def parse(cls, name: str | Mode) -> Mode:
        """The mode called ``name``; ValueError naming the choices otherwise."""
        try:
            return cls(name)
        except ValueError:
            raise ValueError(f"decoding mode must be one of {', '.join(cls)}") from None

    @property
    def speculates(self) -> bool:
        return self is not Mode.SEQUENTIAL

    @property
    def drafts_with_head(self) -> bool:
        """Whether the learned draft head may propose (when the model has one)."""
        return self in (Mode.AUTO, Mode.LEARNED)

    @property
    def runs_window(self) -> bool:
        """Whether the Jacobi window may ride in the block and feed the n-gram pool."""
        return self in (Mode.AUTO, Mode.LOOKAHEAD)

    @property
    def adaptive(self) -> bool:
        """Whether the tree, the window and the head are chosen each step from measured costs."""
        return self is Mode.AUTO


MODE_NAMES: tuple[str, ...] = tuple(mode.value for mode in Mode)


@dataclass(frozen=True)
class Speculation:
    """How a session drafts: the mode and the sizes of its sources."""

    mode: Mode = Mode.AUTO
    max_nodes: int = 48  # drafted nodes per step at most (the root not counted)
    lookup_length: int = 10  # tokens proposed after a context match
    lookup_matches: int = 4  # distinct matches merged into the tree
    window_width: int = 5  # W: Jacobi window columns
    window_ngram: int = 4  # N: n-gram size harvested (the window has N-1 levels)
    pool_per_key: int = 4  # G: n-grams kept per first token
    head_depth: int = 6  # how far after the root the learned draft head drafts
    head_nodes: int = 20  # the most probable of its drafted tokens that join the tree
    head_width: int = 4  # paths it grows at each depth, and tokens it tries after each

    def __post_init__(self) -> None:
        object.__setattr__(self, "mode", Mode.parse(self.mode))
