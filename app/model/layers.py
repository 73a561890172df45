"""LayerStack: a contiguous run of decoder layers with its own rotary module and KV cache.

Used three times — local head [0, k_in), remote middle [k_in, N-k_out), local tail [N-k_out, N) —
so cache operations live here once and the two sides of the wire cannot drift apart.
"""

from __future__ import annotations

import copy
import importlib

import torch
from torch import nn

from app.model.config import check_family
from app.model.kernels import own_memory, pack_linears
from app.model.kv_cache import StackCache
from app.model.masks import block_mask
from app.model.weights import WeightedModel, layer_prefix, layer_tensor_names

# family -> (module, decoder layer, rotary embedding, RMS norm) class names in transformers.
_FAMILY_CLASSES = {
    "llama": ("llama", "LlamaDecoderLayer", "LlamaRotaryEmbedding", "LlamaRMSNorm"),
    "mistral": ("mistral", "MistralDecoderLayer", "MistralRotaryEmbedding", "MistralRMSNorm"),
    "qwen2": ("qwen2", "Qwen2DecoderLayer", "Qwen2RotaryEmbedding", "Qwen2RMSNorm"),
}


def family_class(config, role: str) -> type[nn.Module]:
    """The transformers class for ``role`` (layer | rotary | norm) of this config's family."""
    check_family(config)
    module_name, layer, rotary, norm = _FAMILY_CLASSES[config.model_type]
    module = importlib.import_module(f"transformers.models.{module_name}.modeling_{module_name}")
    return getattr(module, {"layer": layer, "rotary": rotary, "norm": norm}[role])


def compute_config(config):
    """A private copy of the config set to SDPA attention (the kernel transformers uses itself)."""
    config = copy.deepcopy(config)
    config._attn_implementation = "sdpa"
    return config


class LayerStack(nn.Module):
    """Decoder layers [first, last) of one model, run over blocks of hidden states."""

    def __init__(
        self,
        config,
        first: int,
        last: int,
        tensors: dict[str, torch.Tensor],
        device: torch.device | str = "cpu",
        dtype: torch.dtype = torch.float32,
    ):
        super().__init__()
        if not 0 <= first < last <= config.num_hidden_layers:
            raise ValueError(f"layer range [{first}, {last}) outside a {config.num_hidden_layers}-layer model")
        self.config = compute_config(config)
        self.first, self.last = first, last
        layer_cls = family_class(config, "layer")
        layers = []
        for local, index in enumerate(range(first, last)):
            prefix = layer_prefix(index)
            state = {k[len(prefix) :]: v for k, v in tensors.items() if k.startswith(prefix)}
            with torch.device("meta"):
                layer = layer_cls(self.config, index)  # global index: per-layer types stay right
            layer.load_state_dict(state, strict=True, assign=True)
            layer.self_attn.layer_idx = local  # the cache is this stack's own
            layer = layer.to(device=device, dtype=dtype)
            if pack_linears(layer):  # decode's few-row products are faster on prepacked CPU weights
                own_memory(layer)
            layers.append(layer)
        self.layers = nn.ModuleList(layers)
        self.rotary = family_class(config, "rotary")(self.config).to(device)
        self.cache = StackCache(len(layers))
        self.device, self.dtype = torch.device(device), dtype
        self.eval()

    @classmethod
    def from_source(
        cls,
        source: WeightedModel,
        first: int,
        last: int,
        device: torch.device | str = "cpu",
        dtype: torch.dtype = torch.float32,
    ) -> LayerStack:
        """Layers [first, last) of a model, reading only their tensors."""
        reader = source.weights()
        return cls(source.config, first, last, reader.load(layer_tensor_names(reader, first, last)), device, dtype)

    @property
    def length(self) -> int:
        """Positions held in this stack's cache."""
        return self.cache.length

    @torch.inference_mode()
    def forward(
        self,
        hidden: torch.Tensor,
        positions: torch.Tensor,
        ancestry: torch.Tensor | None = None,
        cache: StackCache | None = None,
    ) -> torch.Tensor:
        """Run a block [1, q, hidden] at ``positions`` [q]; append its keys/values to the cache.

        ``cache`` defaults to the stack's own; the worker passes one per session over shared weights.
        """
        cache = self.cache if cache is None else cache
        hidden = hidden.to(device=self.device, dtype=self.dtype)
        block_len = hidden.shape[1]
        mask = block_mask(cache.length, block_len, ancestry, self.dtype, self.device)
        position_ids = positions.to(self.device).view(1, block_len)
        rotary = self.rotary(hidden, position_ids)
        for layer in self.layers:
            hidden = layer(
                hidden,
                attention_mask=mask,
                position_ids=position_ids,
                cache=cache,
                position_embeddings=rotary,
            )
        return hidden

    def crop(self, length: int) -> None:
        self.cache.crop(length)

    def keep(self, start: int, indices: list[int]) -> None:
        self.cache.keep(start, indices)

    def new_cache(self) -> StackCache:
        return StackCache(len(self.layers))

    def reset(self) -> None:
        self.cache = self.new_cache()
