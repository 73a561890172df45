"""Which model configs the split runs, and the figures both halves derive from a config."""

from __future__ import annotations

from pathlib import Path

import torch

# Families whose decoder layer has the Llama shape (pre-norm attention + gated MLP, rotary).
SUPPORTED_FAMILIES = ("llama", "mistral", "qwen2")


class ModelError(Exception):
    """A model that cannot be used, with a message a person can act on."""


def load_config(folder: Path):
    """Read and check a model folder's config: Llama-family decoders only."""
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


def kv_bytes_per_position(config, layers: int, dtype: torch.dtype) -> int:
    """Key + value bytes one cached position costs across ``layers`` decoder layers."""
    heads = getattr(config, "num_key_value_heads", None) or config.num_attention_heads
    head_dim = getattr(config, "head_dim", None) or config.hidden_size // config.num_attention_heads
    return 2 * layers * heads * head_dim * torch.finfo(dtype).bits // 8
