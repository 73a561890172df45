"""Every candidate continuation of the root, from every source a mode uses, merged into one tree."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import torch

from app.engine.speculation.head import HeadDrafter
from app.engine.speculation.lookahead import LookaheadWindow, NGramPool
from app.engine.speculation.lookup import ContextLookup
from app.engine.speculation.modes import Speculation
from app.engine.speculation.sources import POOL
from app.engine.speculation.tree import DraftTree


class Drafter:
    """The draft sources of one session: context lookup, the Jacobi window and its pool, the learned head."""

    def __init__(self, speculation: Speculation, head: HeadDrafter | None = None):
        self.speculation = speculation
        mode = speculation.mode
        self.lookup = ContextLookup(max_matches=speculation.lookup_matches)
        self.pool = NGramPool(speculation.pool_per_key)
        width = speculation.window_width
        self.window = LookaheadWindow(width, speculation.window_ngram) if width and mode.runs_window else None
        self.head = head if mode.drafts_with_head else None

    def draft(
        self,
        history: Sequence[int],
        feature: torch.Tensor | None,
        with_head: bool,
        root_feature: Callable[[int], torch.Tensor | None] | None = None,
    ) -> DraftTree:
        """The tree rooted at ``history[-1]``; the head drafts from ``feature`` (the one that chose the root)
        when ``with_head``, and from the root's early feature where it reads one: ``root_feature(layers)``
        computes it only then (None where this split keeps fewer layers local)."""
        spec = self.speculation
        tree = DraftTree.rooted_at(history[-1])
        if not spec.mode.speculates:
            return tree
        self.lookup.sync(history)
        for continuation, source in self.lookup.propose(spec.lookup_length):
            tree.add_path(continuation, source)
        if spec.mode.runs_window:
            for continuation in self.pool.propose(history[-1]):
                tree.add_path(continuation, POOL)
        if with_head and self.head is not None and feature is not None:
            layers = self.head.fuse_layer
            early = root_feature(layers) if layers is not None and root_feature is not None else None
            for path, sources in self.head.propose(
                feature, history[-1], spec.head_depth, spec.head_nodes, spec.head_width, early
            ):
                tree.add_path(path, sources)
        return tree
