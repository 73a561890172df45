"""Explicit block masks and cache commits: a tree block plus keep() equals feeding the kept path alone."""

from __future__ import annotations

import pytest
import torch

from app.engine.source.specs import resolve_model
from app.model.kv_cache import CacheEdit, StackCache
from app.model.layers import LayerStack
from app.model.masks import block_mask, causal_ancestry


def test_block_mask_shows_the_past_to_all_and_ancestry_inside_the_block():
    ancestry = torch.tensor([[1, 0, 0], [1, 1, 0], [1, 0, 1]], dtype=torch.bool)  # 0 is the root of 1 and 2
    mask = block_mask(4, 3, ancestry, torch.float32, "cpu")[0, 0]
    assert mask.shape == (3, 7)
    assert (mask[:, :4] == 0).all()
    visible = mask[:, 4:] == 0
    assert visible.tolist() == ancestry.tolist()
    assert mask[2, 5] == torch.finfo(torch.float32).min


def test_single_queries_and_fresh_causal_runs_need_no_mask():
    assert block_mask(100, 1, None, torch.float32, "cpu") is None
    assert block_mask(0, 50, None, torch.float32, "cpu") is None
    causal = block_mask(3, 2, None, torch.float32, "cpu")[0, 0] == 0
    assert causal.tolist() == [[True, True, True, True, False], [True, True, True, True, True]]


def test_block_mask_refuses_a_wrong_sized_ancestry():
    with pytest.raises(ValueError, match="3x3"):
        block_mask(0, 3, causal_ancestry(2), torch.float32, "cpu")


@pytest.fixture()
def stack(tiny_models):
    folder, _ = tiny_models["llama"]
    source = resolve_model(str(folder))
    return LayerStack.from_source(source, 0, 6)


def test_tree_block_then_keep_equals_the_kept_path_fed_alone(stack):
    torch.manual_seed(1)
    prefix, tail = torch.randn(1, 5, 64), torch.randn(1, 4, 64)
    # Block: [a, b1, b2, c] where b1 and b2 are siblings after a, and c follows b2.
    ancestry = torch.tensor([[1, 0, 0, 0], [1, 1, 0, 0], [1, 0, 1, 0], [1, 0, 1, 1]], dtype=torch.bool)
    positions = torch.tensor([5, 6, 6, 7])
    stack(prefix, torch.arange(5))
    tree_out = stack(tail, positions, ancestry)
    stack.keep(5, [0, 2, 3])  # accept a, b2, c
    probe = torch.randn(1, 1, 64)
    after_tree = stack(probe, torch.tensor([8]))

    stack.reset()
    stack(prefix, torch.arange(5))
    path_out = stack(tail[:, [0, 2, 3]], torch.arange(5, 8))
    after_path = stack(probe, torch.tensor([8]))
    torch.testing.assert_close(tree_out[:, [0, 2, 3]], path_out, atol=1e-5, rtol=1e-5)
    torch.testing.assert_close(after_tree, after_path, atol=1e-5, rtol=1e-5)


def test_crop_then_refeed_gives_the_same_output(stack):
    torch.manual_seed(2)
    block = torch.randn(1, 6, 64)
    first = stack(block, torch.arange(6))
    stack.crop(3)
    again = stack(block[:, 3:], torch.arange(3, 6))
    torch.testing.assert_close(first[:, 3:], again, atol=1e-5, rtol=1e-5)


def test_cache_grows_past_its_first_capacity_and_refuses_bad_edits():
    cache = StackCache(1)
    for step in range(100):
        k = torch.full((1, 2, 1, 4), float(step))
        keys, _ = cache.update(k, k, 0)
    assert cache.length == 100 and keys[0, 0, :, 0].tolist() == [float(i) for i in range(100)]
    cache.keep(90, [1, 5])
    keys, _ = cache.update(torch.zeros(1, 2, 1, 4), torch.zeros(1, 2, 1, 4), 0)
    assert keys[0, 0, 88:, 0].tolist() == [88.0, 89.0, 91.0, 95.0, 0.0]
    with pytest.raises(ValueError):
        cache.crop(500)
    with pytest.raises(ValueError):
        cache.keep(90, [7])


@pytest.mark.parametrize(
    "edit",
    [
        CacheEdit(),
        CacheEdit(crop=5),
        CacheEdit(keep_start=6, keep_indices=(0, 2, 3)),
        CacheEdit(crop=7, keep_start=6, keep_indices=(0, 2, 3)),  # keep first, so the crop cuts the kept path
        CacheEdit(crop=4, keep_start=6, keep_indices=(1,)),
    ],
)
def test_a_cache_edit_keeps_then_crops_and_predicts_the_length_it_leaves(edit):
    cache = StackCache(1)
    cache.update(torch.arange(10.0).view(1, 1, 10, 1), -torch.arange(10.0).view(1, 1, 10, 1), 0)
    predicted = edit.length_after(cache.length)
    edit.apply(cache)
    assert cache.length == predicted
    kept = list(range(6)) + [6 + i for i in edit.keep_indices] if edit.keep_start is not None else list(range(10))
    expected = kept[: edit.crop] if edit.crop is not None else kept
    keys, _ = cache.snapshot()[0]
    assert keys.flatten().tolist() == [float(i) for i in expected]


def test_a_cache_edit_beyond_what_the_cache_holds_is_refused():
    cache = StackCache(1)
    cache.update(torch.zeros(1, 1, 3, 1), torch.zeros(1, 1, 3, 1), 0)
    with pytest.raises(ValueError):
        CacheEdit(crop=4).apply(cache)
    with pytest.raises(ValueError):
        CacheEdit(keep_start=1, keep_indices=(5,)).apply(cache)


@pytest.mark.parametrize("prompt", [1, 63, 64, 100, 128])
def test_a_grown_cache_has_room_for_the_next_position(prompt):
    # A buffer made to the prompt's exact size was reallocated and copied at the first decode step.
    cache = StackCache(1)
    cache.update(torch.zeros(1, 2, prompt, 4), torch.zeros(1, 2, prompt, 4), 0)
    before = cache.capacity
    keys, _ = cache.update(torch.ones(1, 2, 1, 4), torch.ones(1, 2, 1, 4), 0)
    assert before > prompt and cache.capacity == before
    assert keys.shape[-2] == prompt + 1 and keys[0, 0, -1, 0] == 1.0


def test_a_capped_cache_grows_to_its_cap_and_never_below_what_it_must_hold():
    cache = StackCache(1)
    cache.max_capacity = 80
    assert cache.capacity_for(64) == 80 and cache.capacity_for(90) == 90
