"""What one round trip runs through the three stacks: a run of prompt tokens, or a verify block.

A block is token ids (embedded locally), their positions and a q×q ancestry matrix (None: causal). A
verify block lays out a draft tree — rows 0..len(tree)-1, row 0 the root — and the lookahead window's
cells after it, level-major, and says which rows need logits.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch

from app.engine.speculation.lookahead import LookaheadWindow
from app.engine.speculation.tree import DraftTree


@dataclass(frozen=True)
class Block:
    """Tokens at positions, each seeing the committed context and its ancestors in the block."""

    tokens: list[int]
    positions: list[int]
    ancestry: torch.Tensor | None  # None: causal (each row sees every earlier one)
    start: int  # the committed length the block follows

    @property
    def size(self) -> int:
        return len(self.tokens)

    @classmethod
    def consecutive(cls, tokens: list[int], start: int) -> Block:
        """Consecutive tokens after ``start`` committed ones: a prefill, or a re-prefill after recovery."""
        return cls(list(tokens), list(range(start, start + len(tokens))), None, start)


@dataclass(frozen=True)
class VerifyBlock(Block):
    """A draft tree rooted at the last sampled token, and perhaps the lookahead window's cells."""

    tree: DraftTree
    window_rows: list[int]  # rows of the window's last level, column order

    @property
    def logit_rows(self) -> list[int]:
        """Rows whose logits the step reads: every tree node, and the window's last level."""
        return list(range(len(self.tree))) + self.window_rows


def build_block(tree: DraftTree, start: int, window: LookaheadWindow | None = None) -> VerifyBlock:
    """The block for ``tree`` rooted at position ``start``, with the window's cells after it."""
    tree_size = len(tree)
    cells = window.cells() if window is not None else []
    size = tree_size + len(cells)
    tokens = list(tree.tokens) + [token for _, _, token in cells]
    positions = [start + depth for depth in tree.depths]
    if size == 1:
        return VerifyBlock(tokens, positions, None, start, tree, [])
    ancestry = torch.zeros(size, size, dtype=torch.bool)
    for node in range(tree_size):
        ancestry[node, tree.ancestors(node)] = True
    window_rows: list[int] = []
    if cells:
        width = window.width
        row_of = {(j, i): tree_size + j * width + i for j, i, _ in cells}
        for j, i, _ in cells:
            row = row_of[(j, i)]
            positions.append(start + 1 + i + j)
            ancestry[row, 0] = True  # the root
            ancestry[row, [row_of[(0, c)] for c in range(i + 1)]] = True  # level 0 up to this column
            ancestry[row, [row_of[(level, i)] for level in range(1, j + 1)]] = True  # this column's levels
        last = window.ngram - 2
        window_rows = [row_of[(last, i)] for i in range(width)]
    return VerifyBlock(tokens, positions, ancestry, start, tree, window_rows)
