"""Lay a draft tree (and optionally the lookahead window) out as one verify block.

A block is what one round trip carries: token ids (embedded locally), positions, a q×q ancestry
matrix, and which rows need logits. Rows 0..len(tree)-1 are the tree (row 0 the root); the window's
cells follow, level-major.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch

from app.engine.drafting import DraftTree, LookaheadWindow


@dataclass
class VerifyBlock:
    tokens: list[int]
    positions: list[int]
    ancestry: torch.Tensor | None  # None: a single row
    tree: DraftTree
    window_rows: list[int]  # rows of the window's last level, column order
    start: int  # position of the root = committed length

    @property
    def size(self) -> int:
        return len(self.tokens)

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
        return VerifyBlock(tokens, positions, None, tree, [], start)
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
    return VerifyBlock(tokens, positions, ancestry, tree, window_rows, start)
