"""Candidate sources and the token tree they merge into."""

from __future__ import annotations

import pytest
import torch

from app.engine.decode.blocks import build_block
from app.engine.speculation.lookahead import LookaheadWindow, NGramPool
from app.engine.speculation.lookup import ContextLookup
from app.engine.speculation.tree import DraftTree


def test_context_lookup_proposes_what_followed_earlier_occurrences_longest_match_first():
    lookup = ContextLookup(max_ngram=3, max_matches=3)
    history = [1, 2, 3, 4, 5, 9, 2, 3, 7, 8, 1, 2, 3]
    lookup.sync(history)
    proposals = lookup.propose(length=3)
    assert proposals[0] == ([4, 5, 9], "lookup3")  # "1 2 3" was followed by 4 5 9
    assert ([7, 8, 1], "lookup2") in proposals  # "2 3" was also followed by 7 8 1
    lookup.sync(history + [4])  # grows incrementally
    assert lookup.propose(length=2)[0] == ([5, 9], "lookup3")


def test_context_lookup_rebuilds_when_the_history_is_rewritten():
    lookup = ContextLookup(max_ngram=2)
    lookup.sync([1, 2, 3, 1, 2])
    assert lookup.propose(1)[0][0] == [3]
    lookup.sync([5, 6, 5])
    assert lookup.propose(1)[0][0] == [6]


def test_ngram_pool_keeps_the_most_recent_per_first_token():
    pool = NGramPool(per_key=2)
    for ngram in ([1, 2, 3], [1, 4, 5], [1, 6, 7], [2, 9, 9], [1, 4, 5]):
        pool.add(ngram)
    assert pool.propose(1) == [[4, 5], [6, 7]]
    assert pool.propose(2) == [[9, 9]] and pool.propose(3) == []


def test_tree_merges_shared_prefixes_and_prunes_to_a_valid_subtree():
    tree = DraftTree.rooted_at(10)
    tree.add_path([11, 12, 13], "lookup3")
    tree.add_path([11, 14], "pool")
    tree.add_path([15], "lookup1")
    assert tree.tokens == [10, 11, 12, 13, 14, 15]
    assert tree.parents == [-1, 0, 1, 2, 1, 0]
    assert tree.depths == [0, 1, 2, 3, 2, 1]
    assert tree.sources[4] == "pool"
    pruned = tree.pruned([1, 4, 5])
    assert pruned.tokens == [10, 11, 14, 15] and pruned.parents == [-1, 0, 1, 0]
    assert pruned.children[1] == {14: 2}
    likeliest_first = tree.pruned([5, 1, 4, 2])  # the order given is kept: verification reads these first
    assert likeliest_first.tokens == [10, 15, 11, 14, 12] and likeliest_first.parents == [-1, 0, 0, 2, 2]
    with pytest.raises(ValueError, match="before its parent"):
        tree.pruned([2, 1])
    with pytest.raises(ValueError, match="without it"):
        tree.pruned([4])


def test_block_ancestry_gives_each_tree_node_its_path_and_each_window_cell_a_chain():
    tree = DraftTree.rooted_at(10)
    tree.add_path([11, 12], "lookup2")
    tree.add_path([13], "pool")
    window = LookaheadWindow(width=3, ngram=3)
    window.ensure_filled([7])
    block = build_block(tree, 50, window)
    assert block.size == 4 + 6
    assert block.positions[:4] == [50, 51, 52, 51]
    # window cell (level j, column i) sits at 50 + 1 + i + j
    assert block.positions[4:] == [51, 52, 53, 52, 53, 54]
    seen = block.ancestry
    assert seen[2].tolist()[:4] == [True, True, True, False]  # node 12 sees root, 11, itself
    assert seen[3].tolist()[:4] == [True, False, False, True]  # node 13 sees root and itself
    # the last-level cell of column 2 (row 9) sees root, level-0 columns 0..2, and itself
    visible = [r for r in range(block.size) if seen[9, r]]
    assert visible == [0, 4, 5, 6, 9]
    assert sorted(block.positions[r] for r in visible) == [50, 51, 52, 53, 54]  # consecutive: a valid chain
    assert block.window_rows == [7, 8, 9]
    assert not seen[4:, 1:4].any()  # the window never sees drafted nodes


def test_window_harvests_one_ngram_per_column_and_shifts():
    window = LookaheadWindow(width=2, ngram=3)
    window.levels = [[1, 2], [3, 4]]
    pool = NGramPool()
    window.advance([5, 6], pool)
    assert pool.propose(1) == [[3, 5]] and pool.propose(2) == [[4, 6]]
    assert window.levels == [[3, 4], [5, 6]]


def test_single_node_block_needs_no_ancestry():
    block = build_block(DraftTree.rooted_at(3), 9)
    assert block.size == 1 and block.ancestry is None and block.positions == [9]
    window = LookaheadWindow(1, 2)
    window.ensure_filled([4])
    assert torch.is_tensor(build_block(DraftTree.rooted_at(3), 9, window).ancestry)


def test_a_node_proposed_by_several_sources_credits_all_of_them():
    from app.engine.speculation.acceptance import AcceptanceModel
    from app.engine.speculation.sources import head_source
    from app.engine.speculation.tree import Verdict

    sure, unsure = head_source(0.55), head_source(0.25)
    tree = DraftTree.rooted_at(1)
    tree.add_path([2, 3], "lookup1")
    tree.add_path([2, 4], [sure, unsure])  # agrees on the first token only; one source per token
    assert tree.votes[1] == ["lookup1", sure] and tree.sources[1] == "lookup1"
    assert tree.votes[3] == [unsure] and tree.pruned([0, 1]).votes[1] == ["lookup1", sure]
    model = AcceptanceModel()
    before = model.rate(sure, 1), model.rate("lookup1", 1), model.rate(unsure, 2)
    model.observe(tree, Verdict(accepted=[0, 1], bonus=9))  # node 1 accepted, neither child of it
    assert model.rate(sure, 1) > before[0] and model.rate("lookup1", 1) > before[1]
    assert model.rate(unsure, 2) < before[2]
    assert model.node_rate(tree, 1) == max(model.rate(sure, 1), model.rate("lookup1", 1))
