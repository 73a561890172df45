"""The split (all three stacks in this process) equals the unsplit transformers model, per family."""

from __future__ import annotations

import asyncio

import pytest
import torch

from app.engine.decode.edge import LocalEdge
from app.engine.decode.sampling import Sampling
from app.engine.decode.session import SplitSession
from app.engine.link.middle import LocalMiddle
from app.engine.source.specs import resolve_model
from app.model.choices import SplitSpec
from app.model.config import load_config
from app.model.errors import ModelError
from app.model.layers import LayerStack
from tests.helpers import assert_greedy_matches, build_tiny_model, reference_greedy

PROMPTS = [[5, 7, 9, 11, 13, 200, 3], [1, 2, 3], list(range(40, 90)), [300]]


def in_process_session(folder, split: SplitSpec) -> SplitSession:
    source = resolve_model(str(folder))
    middle = LayerStack.from_source(source, *split.middle(source.num_layers))
    return SplitSession(LocalEdge(source, split), LocalMiddle(middle))


@pytest.fixture(scope="module")
def references(tiny_models) -> dict:
    """(family, prompt) -> transformers' greedy 24 tokens: generated once, compared with every split."""
    return {
        (family, tuple(prompt)): reference_greedy(tiny_models[family][1], prompt, 24)
        for family in ("llama", "mistral", "qwen2")
        for prompt in PROMPTS
    }


@pytest.mark.parametrize("family", ["llama", "mistral", "qwen2"])
@pytest.mark.parametrize("split", ["1", "2", "1,3"])
def test_split_greedy_matches_unsplit_generate(tiny_models, references, family, split):
    folder, model = tiny_models[family]
    for prompt in PROMPTS:
        session = in_process_session(folder, SplitSpec.parse(split))
        ours = asyncio.run(session.generate(prompt, 24)).tokens
        assert_greedy_matches(model, prompt, ours, references[family, tuple(prompt)])


@pytest.mark.parametrize("family", ["llama", "qwen2"])
def test_split_logits_equal_unsplit_forward(tiny_models, family):
    folder, model = tiny_models[family]
    session = in_process_session(folder, SplitSpec(2, 2))
    prompt = list(range(3, 60))
    positions = torch.arange(len(prompt))
    hidden = session.edge.run_head(torch.tensor(prompt), positions)
    hidden = session.middle.stack(hidden, positions)
    ours = session.edge.run_tail(hidden, positions)
    with torch.no_grad():
        reference = model(torch.tensor([prompt])).logits[0]
    torch.testing.assert_close(ours, reference, atol=1e-5, rtol=1e-5)


def test_tied_embeddings_use_the_embedding_as_lm_head(tmp_path):
    model = build_tiny_model("llama", tmp_path / "tied", tied=True)
    session = in_process_session(tmp_path / "tied", SplitSpec(2, 2))
    assert session.edge.lm_head_weight is session.edge.embed_weight
    ours = asyncio.run(session.generate([4, 8, 15, 16, 23, 42], 16)).tokens
    assert_greedy_matches(model, [4, 8, 15, 16, 23, 42], ours, reference_greedy(model, [4, 8, 15, 16, 23, 42], 16))


def test_second_turn_reuses_the_cache_and_matches_a_fresh_session(tiny_models):
    folder, _ = tiny_models["llama"]
    session = in_process_session(folder, SplitSpec(2, 2))
    first = asyncio.run(session.generate([10, 20, 30, 40], 8))
    conversation = [10, 20, 30, 40, *first.tokens, 7, 77, 177]
    second = asyncio.run(session.generate(conversation, 8))
    assert second.stats.steps[0].tokens_in == len(conversation) - 4 - len(first.tokens) + 1  # only the new part
    fresh = asyncio.run(in_process_session(folder, SplitSpec(2, 2)).generate(conversation, 8))
    assert second.tokens == fresh.tokens


def test_seeded_sampling_replays_and_differs_by_seed(tiny_models):
    folder, _ = tiny_models["qwen2"]

    def sample(seed):
        session = in_process_session(folder, SplitSpec(2, 2))
        return asyncio.run(session.generate([3, 1, 4, 1, 5], 20, Sampling(temperature=1.0, top_p=0.95, seed=seed)))

    assert sample(7).tokens == sample(7).tokens
    assert sample(7).tokens != sample(8).tokens


def test_unsupported_architecture_is_refused_with_a_clear_message(tmp_path):
    from transformers import GPT2Config

    GPT2Config(n_layer=2).save_pretrained(tmp_path)
    named = r"config.json: Model architecture 'gpt2' is not supported: its decoder layer .*\(llama\).*\(gemma3_text\)"
    with pytest.raises(ModelError, match=named):
        load_config(tmp_path)


def test_a_known_architecture_the_split_lacks_is_refused_naming_what_it_lacks(tmp_path):
    from transformers import Qwen2MoeConfig

    Qwen2MoeConfig(num_hidden_layers=2).save_pretrained(tmp_path)
    with pytest.raises(ModelError, match="'qwen2_moe' is not supported: mixture-of-experts layers"):
        load_config(tmp_path)


def test_unknown_model_spec_is_refused(tmp_path):
    with pytest.raises(ModelError, match="Unknown model"):
        resolve_model(str(tmp_path / "nowhere"))


@pytest.mark.parametrize("text, expected", [("2", (2, 2)), ("1,3", (1, 3)), ("4:2", (4, 2))])
def test_split_spec_parses(text, expected):
    spec = SplitSpec.parse(text)
    assert (spec.k_in, spec.k_out) == expected
    assert spec.middle(30) == (expected[0], 30 - expected[1])


@pytest.mark.parametrize("text", ["0", "3,3", "x", "1,2,3"])
def test_split_spec_refuses_bad_splits(text):
    with pytest.raises(ValueError):
        SplitSpec.parse(text).check(6)


def test_prefetched_logit_rows_equal_rows_projected_one_by_one(tiny_models):
    folder, _ = tiny_models["llama"]
    session = in_process_session(folder, SplitSpec(2, 2))
    features = torch.randn(9, session.edge.hidden_size)
    singly = session.edge.lazy_logits(features)
    expected = torch.stack([singly[row] for row in range(9)])
    batched = session.edge.lazy_logits(features)
    batched.prefetch([4, 0, 2, 4, 7, 1])  # five distinct rows: padded to eight in the product, kept as five
    assert batched.computed == 5
    torch.testing.assert_close(torch.stack([batched[row] for row in range(9)]), expected, atol=1e-5, rtol=1e-5)
    assert batched.computed == 9
    torch.testing.assert_close(session.edge.lazy_logits(features).rows(3, 6), expected[3:6], atol=1e-5, rtol=1e-5)
