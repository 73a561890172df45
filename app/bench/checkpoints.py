"""Published model shapes, and checkpoints of random weights in them, for measuring memory and speed.

Nothing is downloaded: the shapes below are the published ``config.json`` values of each model, and a
checkpoint is written the way the published ones are — bfloat16 safetensors shards of a few hundred MB
to a few GB with a ``model.safetensors.index.json`` — holding random values. Tensor names and shapes come
from transformers' own model class, built on the meta device (no memory), so the files are exactly what
loading code meets in a real folder; only the numbers are noise.
"""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import torch
from safetensors.torch import save_file

from app.engine.source.owned import record
from app.engine.source.staging import staged_folder

_LLAMA3_ROPE = {"rope_type": "llama3", "low_freq_factor": 1.0, "high_freq_factor": 4.0}
PUBLISHED: dict[str, dict] = {
    "llama-3.2-1b": dict(
        model_type="llama",
        hidden_size=2048,
        intermediate_size=8192,
        num_hidden_layers=16,
        num_attention_heads=32,
        num_key_value_heads=8,
        head_dim=64,
        vocab_size=128256,
        max_position_embeddings=131072,
        rms_norm_eps=1e-5,
        rope_theta=500000.0,
        rope_scaling={**_LLAMA3_ROPE, "factor": 32.0, "original_max_position_embeddings": 8192},
        tie_word_embeddings=True,
    ),
    "qwen2.5-1.5b": dict(
        model_type="qwen2",
        hidden_size=1536,
        intermediate_size=8960,
        num_hidden_layers=28,
        num_attention_heads=12,
        num_key_value_heads=2,
        vocab_size=151936,
        max_position_embeddings=32768,
        rms_norm_eps=1e-6,
        rope_theta=1000000.0,
        use_sliding_window=False,
        tie_word_embeddings=True,
    ),
    "llama-3.1-8b": dict(
        model_type="llama",
        hidden_size=4096,
        intermediate_size=14336,
        num_hidden_layers=32,
        num_attention_heads=32,
        num_key_value_heads=8,
        vocab_size=128256,
        max_position_embeddings=131072,
        rms_norm_eps=1e-5,
        rope_theta=500000.0,
        rope_scaling={**_LLAMA3_ROPE, "factor": 8.0, "original_max_position_embeddings": 8192},
        tie_word_embeddings=False,
    ),
    "mistral-nemo-12b": dict(
        model_type="mistral",
        hidden_size=5120,
        intermediate_size=14336,
        num_hidden_layers=40,
        num_attention_heads=32,
        num_key_value_heads=8,
        head_dim=128,
        vocab_size=131072,
        max_position_embeddings=1024000,
        rms_norm_eps=1e-5,
        rope_theta=1000000.0,
        sliding_window=None,
        tie_word_embeddings=False,
    ),
    "llama-3.1-70b": dict(
        model_type="llama",
        hidden_size=8192,
        intermediate_size=28672,
        num_hidden_layers=80,
        num_attention_heads=64,
        num_key_value_heads=8,
        vocab_size=128256,
        max_position_embeddings=131072,
        rms_norm_eps=1e-5,
        rope_theta=500000.0,
        rope_scaling={**_LLAMA3_ROPE, "factor": 8.0, "original_max_position_embeddings": 8192},
        tie_word_embeddings=False,
    ),
}
MARKER = "splitchat-random-checkpoint.json"
RANDOM_WRITER = "splitchat bench (random-weight checkpoint)"


def published_config(name: str):
    """The transformers config of a published model's shape."""
    from transformers import AutoConfig

    if name not in PUBLISHED:
        raise ValueError(f"unknown shape {name!r}: one of {', '.join(PUBLISHED)}")
    values = dict(PUBLISHED[name])
    return AutoConfig.for_model(values.pop("model_type"), **values)


@dataclass(frozen=True)
class TensorShape:
    name: str
    shape: tuple[int, ...]

    @property
    def elements(self) -> int:
        count = 1
        for size in self.shape:
            count *= size
        return count


def tensor_shapes(config, keep: Callable[[str], bool] = lambda _: True) -> list[TensorShape]:
    """Every tensor a checkpoint of ``config`` holds (names and shapes from transformers' class)."""
    from transformers import AutoModelForCausalLM

    with torch.device("meta"):
        model = AutoModelForCausalLM.from_config(config)
    state = model.state_dict()
    if getattr(config, "tie_word_embeddings", False):
        state.pop("lm_head.weight", None)
    return [TensorShape(name, tuple(t.shape)) for name, t in state.items() if keep(name)]


def write_random_checkpoint(
    config,
    folder: Path,
    dtype: torch.dtype = torch.bfloat16,
    shard_bytes: int = 400 << 20,
    keep: Callable[[str], bool] = lambda _: True,
    tokenizer_from: Path | None = None,
    seed: int = 0,
) -> Path:
    """Write ``config``'s tensors (those ``keep`` accepts) with random values as a sharded checkpoint.

    Reuses a folder already written with the same arguments. Values are small normals for matrices and
    ones (plus noise) for norm weights, so activations stay finite through many layers.
    """
    folder = Path(folder)
    shapes = tensor_shapes(config, keep)
    element = torch.finfo(dtype).bits // 8
    signature = {
        "config": config.to_dict(),
        "dtype": str(dtype),
        "tensors": [[s.name, list(s.shape)] for s in shapes],
        "seed": seed,
    }
    marker = folder / MARKER
    if marker.is_file() and json.loads(marker.read_text()) == json.loads(json.dumps(signature, default=str)):
        copied = _copy_tokenizer(tokenizer_from, folder, overwrite=False)
        if copied:
            record(folder, RANDOM_WRITER, copied, _legacy_random)
        return folder
    # Another checkpoint of this writer's is replaced file by file; any other folder is refused.
    with staged_folder(folder, replace=True, writer=RANDOM_WRITER, legacy=_legacy_random) as staging:
        _write_random_weights(staging, shapes, dtype, shard_bytes, seed, element)
        config_dict = config.to_dict()
        config_dict["torch_dtype"] = str(dtype).removeprefix("torch.")
        (staging / "config.json").write_text(json.dumps(config_dict, indent=2))
        (staging / MARKER).write_text(json.dumps(signature, default=str))
        _copy_tokenizer(tokenizer_from, staging)
    return folder


def _write_random_weights(
    folder: Path, shapes: list[TensorShape], dtype: torch.dtype, shard_bytes: int, seed: int, element: int
) -> None:
    generator = torch.Generator().manual_seed(seed)
    groups: list[list[TensorShape]] = [[]]
    size = 0
    for item in shapes:
        if groups[-1] and size + item.elements * element > shard_bytes:
            groups.append([])
            size = 0
        groups[-1].append(item)
        size += item.elements * element
    weight_map, total = {}, 0
    for number, group in enumerate(groups, start=1):
        file = f"model-{number:05d}-of-{len(groups):05d}.safetensors"
        tensors = {}
        for item in group:
            values = torch.randn(item.shape, generator=generator, dtype=torch.float32)
            values = 1.0 + 0.05 * values if len(item.shape) == 1 and "norm" in item.name else 0.02 * values
            tensors[item.name] = values.to(dtype)
            weight_map[item.name] = file
            total += item.elements * element
        save_file(tensors, folder / file, metadata={"format": "pt"})
        del tensors
    index = {"metadata": {"total_size": total}, "weight_map": weight_map}
    (folder / "model.safetensors.index.json").write_text(json.dumps(index, indent=2))


_TOKENIZER_FILES = ("tokenizer", "special_tokens", "generation_config", "chat_template")
_WRITTEN = re.compile(r"model-\d{5}-of-\d{5}\.safetensors|model\.safetensors\.index\.json|config\.json")


def _copy_tokenizer(source: Path | None, folder: Path, overwrite: bool = True) -> list[str]:
    """A random model still needs a tokenizer to be driven like a real one; any whose ids fit will do.
    Returns the names copied (without ``overwrite``, a file already there is left as it is)."""
    if source is None:
        return []
    copied = []
    for file in Path(source).iterdir():
        if file.name.startswith(_TOKENIZER_FILES) and (overwrite or not (folder / file.name).exists()):
            shutil.copy(file, folder / file.name)
            copied.append(file.name)
    return copied


def _legacy_random(folder: Path) -> frozenset[str] | None:
    """A random checkpoint written before ownership markers: its own marker, and only files it writes."""
    entries = list(folder.iterdir())
    names = frozenset(entry.name for entry in entries)
    ours = all(
        entry.is_file()
        and (entry.name == MARKER or _WRITTEN.fullmatch(entry.name) or entry.name.startswith(_TOKENIZER_FILES))
        for entry in entries
    )
    return names if MARKER in names and ours else None
