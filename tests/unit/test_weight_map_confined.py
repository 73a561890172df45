"""A model index may only name weight files inside its folder (finding 10b): an absolute path, ``..`` or a
symbolic link leading out is refused with an error naming the entry, and nothing outside is read."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
import torch
from safetensors.torch import save_file

from app.model.errors import ModelError
from app.model.weights import INDEX, WeightReader


@pytest.fixture
def folders(tmp_path) -> tuple[Path, Path]:
    """(a model folder with one shard of its own, a safetensors file outside it that someone wants read)."""
    model = tmp_path / "model"
    model.mkdir()
    save_file({"model.norm.weight": torch.ones(4)}, model / "model-00001-of-00002.safetensors")
    outside = tmp_path / "elsewhere" / "private.safetensors"
    outside.parent.mkdir()
    save_file({"model.embed_tokens.weight": torch.zeros(2, 4)}, outside)
    return model, outside


def _index(model: Path, entry: str) -> None:
    weight_map = {"model.norm.weight": "model-00001-of-00002.safetensors", "model.embed_tokens.weight": entry}
    (model / INDEX).write_text(json.dumps({"metadata": {}, "weight_map": weight_map}))


@pytest.mark.parametrize("how", ["parent", "absolute", "nested parent"])
def test_an_index_entry_written_to_leave_the_folder_is_refused_naming_it(folders, how):
    model, outside = folders
    entry = {
        "parent": "../elsewhere/private.safetensors",
        "absolute": str(outside),
        "nested parent": "sub/../../elsewhere/private.safetensors",
    }[how]
    _index(model, entry)
    with pytest.raises(ModelError, match="outside") as refused:
        WeightReader(model)
    assert refused.value.entry == entry and refused.value.tensor == "model.embed_tokens.weight"
    assert entry in str(refused.value)


@pytest.mark.skipif(os.name != "posix", reason="symbolic links need privileges on Windows")
def test_an_index_entry_that_is_a_link_leading_out_of_the_folder_is_refused(folders):
    model, outside = folders
    (model / "model-00002-of-00002.safetensors").symlink_to(outside)
    _index(model, "model-00002-of-00002.safetensors")
    with pytest.raises(ModelError, match="outside") as refused:
        WeightReader(model)
    assert refused.value.entry == "model-00002-of-00002.safetensors"


def test_an_index_naming_files_inside_the_folder_is_read_as_before(folders):
    model, _ = folders
    (model / "weights").mkdir()
    save_file({"model.embed_tokens.weight": torch.zeros(2, 4)}, model / "weights" / "part.safetensors")
    _index(model, "weights/part.safetensors")
    reader = WeightReader(model)
    assert reader.names() == ["model.embed_tokens.weight", "model.norm.weight"]
