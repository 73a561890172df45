"""Checkpoints as published: sharded safetensors with an index, read one tensor at a time; a broken
folder is refused with an error that names the file."""

from __future__ import annotations

import asyncio
import json

import pytest
import torch
from safetensors.torch import save_file

from app.bench.checkpoints import write_random_checkpoint
from app.engine.decode.edge import LocalEdge
from app.engine.link.export import export_worker_shard
from app.engine.link.stream_writer import Planned, write_safetensors
from app.engine.source.specs import resolve_model
from app.model.choices import SplitSpec
from app.model.errors import ModelError
from app.model.weights import INDEX, WeightReader
from app.remote_worker.shard import load_shard
from tests.helpers import reference_greedy, tiny_config
from tests.unit.test_split_matches_unsplit import in_process_session


@pytest.fixture
def sharded(tmp_path):
    """A tiny Llama written as a published checkpoint is: bfloat16, several shards, an index."""
    config = tiny_config("llama")
    return write_random_checkpoint(config, tmp_path / "model", torch.bfloat16, shard_bytes=40_000)


def test_a_sharded_checkpoint_is_read_through_its_index_one_tensor_at_a_time(sharded):
    reader = WeightReader(sharded)
    index = json.loads((sharded / INDEX).read_text())["weight_map"]
    assert len(set(index.values())) >= 4 and sorted(index) == reader.names()
    assert reader.dtypes() == {torch.bfloat16}
    name = "model.layers.3.mlp.down_proj.weight"
    assert reader.info(name).file.name == index[name]
    assert torch.equal(reader.rows(name, 2, 5), reader.tensor(name)[2:5])


def test_the_split_of_a_sharded_bfloat16_checkpoint_matches_transformers_reading_the_same_folder(sharded, tmp_path):
    from transformers import AutoModelForCausalLM

    model = AutoModelForCausalLM.from_pretrained(sharded, dtype=torch.float32).eval()
    session = in_process_session(sharded, SplitSpec(2, 2))
    prompt = [5, 7, 9, 11]
    assert session.edge.embed_weight.dtype == torch.bfloat16  # kept as stored: lookups convert their rows
    assert asyncio.run(session.generate(prompt, 16)).tokens == reference_greedy(model, prompt, 16)


def test_the_streamed_shard_is_a_safetensors_file_the_worker_loads(sharded, tmp_path):
    source = resolve_model(str(sharded))
    manifest = export_worker_shard(source, SplitSpec(2, 2), tmp_path / "shard", dtype="float32")
    shard = load_shard(tmp_path / "shard")
    assert manifest.dtype == "float32" and shard.stack.dtype == torch.float32
    assert (shard.manifest.first_layer, shard.manifest.last_layer) == (2, 4)


def test_the_stream_writer_refuses_a_tensor_that_is_not_the_one_planned(tmp_path):
    planned = [Planned("a", torch.float32, (2, 3))]
    with pytest.raises(ValueError, match="does not match the planned tensor"):
        write_safetensors(tmp_path / "x.safetensors", planned, [("a", torch.zeros(3, 2))], {})


def test_a_missing_shard_is_refused_naming_it(sharded):
    missing = sorted(sharded.glob("model-*.safetensors"))[1]
    missing.unlink()
    with pytest.raises(ModelError, match=f"{missing.name}, listed in {INDEX}, is missing"):
        resolve_model(str(sharded)).weights()


def test_an_index_that_does_not_match_its_shards_is_refused_naming_the_file(sharded):
    index = json.loads((sharded / INDEX).read_text())
    first, second = sorted(set(index["weight_map"].values()))[:2]
    moved = next(name for name, file in index["weight_map"].items() if file == first)
    index["weight_map"][moved] = second
    (sharded / INDEX).write_text(json.dumps(index))
    with pytest.raises(ModelError, match=f"{INDEX} does not match {second}: it lists {moved}"):
        WeightReader(sharded)


def test_a_quantised_checkpoint_is_refused_naming_the_file_and_the_dtype(tmp_path):
    folder = tmp_path / "quantised"
    folder.mkdir()
    save_file({"model.embed_tokens.weight": torch.zeros(4, 4, dtype=torch.int8)}, folder / "model.safetensors")
    with pytest.raises(ModelError, match="model.safetensors stores model.embed_tokens.weight as I8"):
        WeightReader(folder)


def test_a_file_that_is_not_safetensors_is_refused_naming_it(tmp_path):
    (tmp_path / "model.safetensors").write_bytes(b"not a checkpoint")
    with pytest.raises(ModelError, match="model.safetensors is not a readable safetensors file"):
        WeightReader(tmp_path)


def test_an_untied_model_without_its_lm_head_is_refused(sharded):
    config = json.loads((sharded / "config.json").read_text())
    assert config["tie_word_embeddings"] is False
    index = json.loads((sharded / INDEX).read_text())
    del index["weight_map"]["lm_head.weight"]
    (sharded / INDEX).write_text(json.dumps(index))
    with pytest.raises(ModelError, match="has no lm_head.weight and its config does not tie it"):
        LocalEdge(resolve_model(str(sharded)), SplitSpec(2, 2))


@pytest.mark.parametrize("published_names", [False, True])
def test_gemma_3_with_its_vision_tower_splits_its_text_decoder(tmp_path, published_names):
    """The 4B-27B Gemma 3 checkpoints hold the decoder under a prefix beside a vision tower: the split reads
    the decoder alone, under transformers' names or the published files' ("language_model.model.")."""
    from safetensors import safe_open

    from tests.helpers import build_tiny_model

    folder = tmp_path / "gemma3-vision"
    model = build_tiny_model("gemma3_vision", folder)
    if published_names:
        with safe_open(folder / "model.safetensors", framework="pt") as handle:
            state = {name: handle.get_tensor(name) for name in handle.keys()}
        renamed = {name.replace("model.language_model.", "language_model.model."): t for name, t in state.items()}
        save_file(renamed, folder / "model.safetensors")
    reader = WeightReader(folder)
    assert "model.layers.0.self_attn.q_proj.weight" in reader
    assert not any("vision" in name for name in reader.names())
    source = resolve_model(str(folder))
    assert source.config.model_type == "gemma3_text"
    prompt = [5, 7, 9, 11, 13, 200, 3]
    session = in_process_session(folder, SplitSpec(2, 2))
    assert asyncio.run(session.generate(prompt, 16)).tokens == reference_greedy(model, prompt, 16)
    export_worker_shard(source, SplitSpec(2, 2), tmp_path / "shard")
    assert not any("vision" in n or "language_model" in n for n in WeightReader(tmp_path / "shard").names())
