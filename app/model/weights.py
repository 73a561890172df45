"""Named tensors read from a folder of safetensors files, without loading the rest."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Protocol

import torch
from safetensors import safe_open

from app.model.config import ModelError


class WeightReader:
    """Reads named tensors from a folder of safetensors files without loading the rest."""

    def __init__(self, folder: Path):
        self.folder = Path(folder)
        files = sorted(self.folder.glob("*.safetensors"))
        if not files:
            raise ModelError(f"{self.folder} holds no .safetensors weights.")
        self._file_of: dict[str, Path] = {}
        for file in files:
            with safe_open(file, framework="pt") as handle:
                for name in handle.keys():
                    self._file_of[name] = file

    def names(self) -> list[str]:
        return sorted(self._file_of)

    def __contains__(self, name: str) -> bool:
        return name in self._file_of

    def load(self, names: Iterable[str]) -> dict[str, torch.Tensor]:
        """Return the named tensors; a missing name is a ModelError."""
        wanted = list(names)
        missing = [n for n in wanted if n not in self._file_of]
        if missing:
            raise ModelError(f"{self.folder} lacks tensors: {', '.join(missing[:5])}")
        by_file: dict[Path, list[str]] = {}
        for name in wanted:
            by_file.setdefault(self._file_of[name], []).append(name)
        tensors = {}
        for file, file_names in by_file.items():
            with safe_open(file, framework="pt") as handle:
                for name in file_names:
                    tensors[name] = handle.get_tensor(name)
        return tensors


def layer_prefix(index: int) -> str:
    return f"model.layers.{index}."


def layer_tensor_names(reader: WeightReader, first: int, last: int) -> list[str]:
    """Names of all tensors of decoder layers [first, last)."""
    prefixes = tuple(layer_prefix(i) for i in range(first, last))
    return [n for n in reader.names() if n.startswith(prefixes)]


class WeightedModel(Protocol):
    """A model whose config and weights can be read (the workstation's ``ModelSource``)."""

    config: object

    def weights(self) -> WeightReader: ...
