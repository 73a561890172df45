"""How a session drafts: the sizes of what each decoding mode (``app.model.choices.Mode``) draws on."""

from __future__ import annotations

from dataclasses import dataclass

from app.model.choices import Mode


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
