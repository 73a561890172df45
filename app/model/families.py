"""The decoder families the split runs, and what each one asks of the code around its layers.

Both halves build transformers' own decoder layer, rotary embedding and norm for the family, so the
arithmetic inside a layer is the library's. What lives outside the layers differs by family and is
decided here from the config alone — the worker sees only the whitelisted config, so both halves reach
the same answers:

- the attention kernel: SDPA, except where scores are soft-capped (Gemma 2), which SDPA cannot do;
- which layers attend through a sliding window (Gemma 2 and 3 alternate; Mistral, Qwen2 and Phi-3 may
  window every layer), and how wide it is;
- one rotary embedding, or one per layer type (Gemma 3: local and global bases);
- the embedding's scale (Gemma multiplies by √hidden) and the final logits' soft cap (Gemma 2).
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass

from torch import nn

from app.model.errors import ModelError

FULL = "full_attention"
SLIDING = "sliding_attention"


@dataclass(frozen=True)
class Family:
    """One architecture: where transformers keeps its classes, and what differs around its layers."""

    model_type: str
    module: str  # transformers.models.<module>.modeling_<module>
    prefix: str  # its classes are <prefix>DecoderLayer, <prefix>RotaryEmbedding, <prefix>RMSNorm
    label: str  # what a person calls it
    rotary_per_layer_type: bool = False
    scaled_embedding: bool = False

    def cls(self, role: str) -> type[nn.Module]:
        """transformers' class for ``role``: layer | rotary | norm."""
        module = importlib.import_module(f"transformers.models.{self.module}.modeling_{self.module}")
        suffix = {"layer": "DecoderLayer", "rotary": "RotaryEmbedding", "norm": "RMSNorm"}[role]
        return getattr(module, f"{self.prefix}{suffix}")


FAMILIES = {
    family.model_type: family
    for family in (
        Family("llama", "llama", "Llama", "Llama 2/3 (also SmolLM2)"),
        Family("mistral", "mistral", "Mistral", "Mistral and Mistral NeMo"),
        Family("qwen2", "qwen2", "Qwen2", "Qwen2 and Qwen2.5"),
        Family("qwen3", "qwen3", "Qwen3", "Qwen3"),
        Family("phi3", "phi3", "Phi3", "Phi-3 and Phi-3.5"),
        Family("gemma2", "gemma2", "Gemma2", "Gemma 2", scaled_embedding=True),
        # Gemma 3 with its vision tower reads text through this same decoder (config.text_config).
        Family("gemma3_text", "gemma3", "Gemma3", "Gemma 3", rotary_per_layer_type=True, scaled_embedding=True),
    )
}
# Known architectures that are not decoders of this shape, with what they lack.
_NOT_SPLIT = {
    "llama4": "Llama 4 mixes experts and chunked attention, which the split does not implement",
    "mixtral": "mixture-of-experts layers are not implemented by the split",
    "qwen2_moe": "mixture-of-experts layers are not implemented by the split",
    "qwen3_moe": "mixture-of-experts layers are not implemented by the split",
    "phi3small": "Phi-3-small's blocksparse attention is not implemented by the split",
    "phimoe": "mixture-of-experts layers are not implemented by the split",
}


def family_of(config) -> Family:
    """This config's family, or a ModelError naming what is missing."""
    model_type = getattr(config, "model_type", None)
    family = FAMILIES.get(model_type)
    if family is None:
        why = _NOT_SPLIT.get(model_type, "its decoder layer is not one splitchat knows")
        supported = ", ".join(f"{f.label} ({f.model_type})" for f in FAMILIES.values())
        raise ModelError(f"Model architecture {model_type!r} is not supported: {why}. Supported: {supported}.")
    unknown = sorted(set(layer_types(config)) - {FULL, SLIDING})
    if unknown:
        raise ModelError(f"{family.label}: layer types {', '.join(unknown)} are not implemented by the split.")
    if getattr(config, "use_bidirectional_attention", False):
        raise ModelError(f"{family.label}: bidirectional attention (an encoder's) is not a decoder the split runs.")
    return family


def layer_types(config) -> list[str]:
    """Each layer's attention: ``full_attention`` or ``sliding_attention``."""
    declared = getattr(config, "layer_types", None)
    if declared:
        return list(declared)
    windowed = bool(getattr(config, "sliding_window", None)) and getattr(config, "use_sliding_window", True)
    return [SLIDING if windowed else FULL] * config.num_hidden_layers


def sliding_window(config) -> int | None:
    """How many positions a sliding layer sees (itself included), or None when no layer slides."""
    return getattr(config, "sliding_window", None) if SLIDING in layer_types(config) else None


def attention_implementation(config) -> str:
    """SDPA, the kernel transformers itself uses; eager where scores are soft-capped (SDPA cannot)."""
    return "eager" if getattr(config, "attn_logit_softcapping", None) else "sdpa"


def embedding_scale(config) -> float | None:
    """What the embedding is multiplied by before the first layer (Gemma: √hidden), or None."""
    return config.hidden_size**0.5 if family_of(config).scaled_embedding else None


def longrope_limit(config) -> int | None:
    """The trained context of a LongRoPE model (Phi-3 and 3.5 with 128k contexts), or None.

    transformers rotates with the short factors while a sequence fits it and, once the sequence outgrows
    it, recomputes the whole cache with the long ones; the session does the same (``SplitSession``), and
    every block says which factors it was computed with.
    """
    rope = getattr(config, "rope_parameters", None) or {}
    if rope.get("rope_type") == "longrope" and rope.get("original_max_position_embeddings"):
        return int(rope["original_max_position_embeddings"])
    return None


def final_softcap(config) -> float | None:
    """The cap of ``cap · tanh(logits / cap)`` on the final logits (Gemma 2), or None."""
    return getattr(config, "final_logit_softcapping", None)
