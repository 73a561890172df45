"""Reading a model folder's config, and the figures both halves derive from a config."""

from __future__ import annotations

import copy
from pathlib import Path

import torch

from app.model.errors import ModelError
from app.model.families import family_of


def load_config(folder: Path):
    """Read and check a model folder's config: a decoder family the split runs (``families.py``)."""
    from transformers import AutoConfig

    if not (folder / "config.json").is_file():
        raise ModelError(f"{folder} has no config.json: not a Hugging Face model folder.")
    try:
        config = AutoConfig.from_pretrained(folder)
    except (ValueError, KeyError, OSError) as exc:
        raise ModelError(f"{folder / 'config.json'} cannot be read as a model config: {exc}") from None
    config = text_decoder_config(config)
    try:
        family_of(config)
    except ModelError as exc:
        raise ModelError(f"{folder / 'config.json'}: {exc}") from None
    return config


def text_decoder_config(config):
    """The config of the decoder that reads and writes text: a multimodal checkpoint's text model (Gemma 3
    with its vision tower), whose tensors the weight reader finds under their prefix; others as they are."""
    text = getattr(config, "text_config", None)
    if getattr(config, "model_type", None) == "gemma3" and text is not None:
        text = copy.deepcopy(text)
        text.tie_word_embeddings = getattr(config, "tie_word_embeddings", True)  # the wrapper decides, as in HF
        return text
    return config


def max_context(config) -> int:
    """Longest context the split runs: the model's own limit (sliding layers are masked to their window)."""
    return config.max_position_embeddings


def kv_bytes_per_position(config, layers: int, dtype: torch.dtype) -> int:
    """Key + value bytes one cached position costs across ``layers`` decoder layers."""
    heads = getattr(config, "num_key_value_heads", None) or config.num_attention_heads
    head_dim = getattr(config, "head_dim", None) or config.hidden_size // config.num_attention_heads
    return 2 * layers * heads * head_dim * torch.finfo(dtype).bits // 8
