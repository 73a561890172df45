"""Named tensors of a checkpoint, read one at a time: neither half ever holds a whole model.

A published checkpoint is a folder of safetensors shards, several gigabytes each, listed by
``model.safetensors.index.json``; a small one is a single ``model.safetensors``. Only the headers are
read up front (names, dtypes, shapes). A tensor is read when asked for, through a mapping of its file
that is closed straight after: pages of a mapping count as the process's memory while it is open, so
one held open over a 5 GB shard would cost 5 GB however little of it is used.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path, PurePosixPath, PureWindowsPath
from typing import Protocol

import torch
from safetensors import SafetensorError, safe_open

from app.model.errors import ModelError

INDEX = "model.safetensors.index.json"
# Checkpoints that wrap a text decoder in a larger model (Gemma 3 with its vision tower) keep the
# decoder's tensors under a prefix: as transformers saves them, and as the published files name them.
WRAPPED_PREFIXES = (
    ("model.language_model.", "model."),
    ("language_model.model.", "model."),
    ("language_model.lm_head.", "lm_head."),
)
# safetensors' dtype codes for the dtypes a checkpoint may hold; quantised formats are refused by name.
STORED_DTYPES = {"F32": torch.float32, "BF16": torch.bfloat16, "F16": torch.float16}


@dataclass(frozen=True)
class TensorInfo:
    """Where a tensor is and what it is, from its file's header."""

    name: str
    file: Path
    dtype: torch.dtype
    shape: tuple[int, ...]
    stored_as: str | None = None  # its name in the file, where that differs (a wrapped text decoder)

    @property
    def key(self) -> str:
        return self.stored_as or self.name

    @property
    def nbytes(self) -> int:
        return tensor_bytes(self.shape, self.dtype)


def tensor_bytes(shape: tuple[int, ...], dtype: torch.dtype) -> int:
    """Bytes a tensor of this shape and dtype holds."""
    count = 1
    for size in shape:
        count *= size
    return count * dtype.itemsize


class TensorSource(Protocol):
    """Something that hands out named tensors: a checkpoint on disk, or tensors already in memory."""

    def names(self) -> list[str]: ...

    def load(self, names: Iterable[str]) -> dict[str, torch.Tensor]: ...


class InMemory:
    """Tensors already loaded, as a ``TensorSource``."""

    def __init__(self, tensors: dict[str, torch.Tensor]):
        self._tensors = tensors

    def names(self) -> list[str]:
        return sorted(self._tensors)

    def __contains__(self, name: str) -> bool:
        return name in self._tensors

    def load(self, names: Iterable[str]) -> dict[str, torch.Tensor]:
        wanted = list(names)
        missing = [n for n in wanted if n not in self._tensors]
        if missing:
            raise ModelError(f"missing tensors: {', '.join(missing[:5])}")
        return {n: self._tensors[n] for n in wanted}


class WeightReader:
    """A checkpoint folder's tensors: headers read once, each tensor read from disk when asked for."""

    def __init__(self, folder: Path):
        self.folder = Path(folder)
        self._info: dict[str, TensorInfo] = {}
        index = self.folder / INDEX
        if index.is_file():
            self._read_index(index)
        else:
            files = sorted(self.folder.glob("*.safetensors"))
            if not files:
                raise ModelError(f"{self.folder} holds no .safetensors weights.")
            for file in files:
                for info in _header(file):
                    self._info[info.name] = info
        self._unwrap()

    def _unwrap(self) -> None:
        """Name a wrapped decoder's tensors as a plain one's; what is outside it (a vision tower) is left out."""
        if "model.embed_tokens.weight" in self._info:
            return
        unwrapped = {}
        for name, info in self._info.items():
            if name.startswith("lm_head."):
                unwrapped[name] = info
            for prefix, plain in WRAPPED_PREFIXES:
                if name.startswith(prefix):
                    canonical = plain + name[len(prefix) :]
                    unwrapped[canonical] = replace(info, name=canonical, stored_as=name)
        if unwrapped:
            self._info = unwrapped

    def _read_index(self, index: Path) -> None:
        try:
            weight_map = json.loads(index.read_text())["weight_map"]
            listed = {name: self.folder / file for name, file in weight_map.items()}
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            raise ModelError(f"{index} is not a safetensors index (a 'weight_map' of tensor -> file): {exc}") from None
        for name, file in weight_map.items():
            _check_inside(self.folder, index, name, file)
        for file in sorted(set(listed.values())):
            if not file.is_file():
                raise ModelError(f"{file.name}, listed in {index.name}, is missing from {self.folder}.")
            held = {info.name: info for info in _header(file)}
            wrong = sorted(name for name, where in listed.items() if where == file and name not in held)
            if wrong:
                raise ModelError(
                    f"{index.name} does not match {file.name}: it lists {', '.join(wrong[:3])}"
                    f"{' …' if len(wrong) > 3 else ''}, which {file.name} does not hold."
                )
            self._info.update((name, held[name]) for name, where in listed.items() if where == file)

    def names(self) -> list[str]:
        return sorted(self._info)

    def __contains__(self, name: str) -> bool:
        return name in self._info

    def info(self, name: str) -> TensorInfo:
        self._require([name])
        return self._info[name]

    def dtypes(self) -> set[torch.dtype]:
        return {info.dtype for info in self._info.values()}

    def files(self) -> list[Path]:
        return sorted({info.file for info in self._info.values()})

    def load(self, names: Iterable[str]) -> dict[str, torch.Tensor]:
        """The named tensors (each read on its own; a missing name is a ModelError)."""
        return dict(self.iterate(names))

    def iterate(self, names: Iterable[str]) -> Iterator[tuple[str, torch.Tensor]]:
        """The named tensors one by one, in the order given; each read only when the caller asks for it."""
        wanted = list(names)
        self._require(wanted)
        for name in wanted:
            yield name, self.tensor(name)

    def tensor(self, name: str) -> torch.Tensor:
        info = self.info(name)
        try:
            with safe_open(info.file, framework="pt") as handle:  # closed at once: see the module's note
                return handle.get_tensor(info.key)
        except (SafetensorError, OSError) as exc:
            raise ModelError(f"cannot read {name} from {info.file.name}: {exc}") from None

    def rows(self, name: str, start: int, stop: int) -> torch.Tensor:
        """Rows [start, stop) of a tensor, read without the rest of it."""
        info = self.info(name)
        try:
            with safe_open(info.file, framework="pt") as handle:
                return handle.get_slice(info.key)[start:stop]
        except (SafetensorError, OSError) as exc:
            raise ModelError(f"cannot read {name} from {info.file.name}: {exc}") from None

    def _require(self, names: list[str]) -> None:
        missing = [n for n in names if n not in self._info]
        if missing:
            raise ModelError(f"{self.folder} lacks tensors: {', '.join(missing[:5])}")


class IndexEntryOutside(ModelError):
    """A model index names a weight file outside the model's folder (an absolute path, ``..``, or a link
    leading out): a downloaded folder could otherwise make the app read any file it can, and a worker
    export ship it."""

    def __init__(self, index: Path, tensor: str, entry: str):
        super().__init__(
            f"{index.name} lists {entry!r} for {tensor}, which is outside {index.parent}: "
            "a model's index may only name files inside its folder."
        )
        self.tensor, self.entry = tensor, entry


def _check_inside(folder: Path, index: Path, tensor: str, entry: str) -> None:
    """Refuse an index entry that leaves ``folder``, written as a path or through a symbolic link."""
    parts = entry.replace("\\", "/").split("/")
    if PurePosixPath(entry).is_absolute() or PureWindowsPath(entry).drive or entry.startswith("\\") or ".." in parts:
        raise IndexEntryOutside(index, tensor, entry)
    if not (folder / entry).resolve().is_relative_to(folder.resolve()):
        raise IndexEntryOutside(index, tensor, entry)


def _header(file: Path) -> list[TensorInfo]:
    """Every tensor a safetensors file holds, from its header; a file that is not one is a ModelError."""
    try:
        with safe_open(file, framework="pt") as handle:
            found = []
            for name in handle.keys():
                part = handle.get_slice(name)
                code = part.get_dtype()
                if code not in STORED_DTYPES:
                    raise ModelError(
                        f"{file.name} stores {name} as {code}; splitchat reads float32, bfloat16 and float16 "
                        "checkpoints (quantised weights are not supported)."
                    )
                found.append(TensorInfo(name, file, STORED_DTYPES[code], tuple(part.get_shape())))
            return found
    except (SafetensorError, OSError) as exc:
        raise ModelError(f"{file} is not a readable safetensors file: {exc}") from None


def layer_prefix(index: int) -> str:
    return f"model.layers.{index}."


def layer_tensor_names(reader: TensorSource, first: int, last: int) -> list[str]:
    """Names of all tensors of decoder layers [first, last)."""
    prefixes = tuple(layer_prefix(i) for i in range(first, last))
    return [n for n in reader.names() if n.startswith(prefixes)]


class WeightedModel(Protocol):
    """A model whose config and weights can be read (the workstation's ``ModelSource``)."""

    config: object

    def weights(self) -> WeightReader: ...
