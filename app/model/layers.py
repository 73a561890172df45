"""LayerStack: a contiguous run of decoder layers with its own rotary module and KV cache.

Used three times — local head [0, k_in), remote middle [k_in, N-k_out), local tail [N-k_out, N) —
so cache operations live here once and the two sides of the wire cannot drift apart.
"""

from __future__ import annotations

import copy
import functools
from collections.abc import Callable

import torch
from torch import nn

from app.model.batching import PerSession, Segment, SessionsCache, implementation_name
from app.model.families import (
    SLIDING,
    attention_implementation,
    family_of,
    layer_types,
    longrope_limit,
    sliding_window,
)
from app.model.kernels import own_memory, pack_linears
from app.model.kv_cache import StackCache
from app.model.masks import block_mask
from app.model.weights import InMemory, TensorSource, WeightedModel, layer_prefix, layer_tensor_names


def family_class(config, role: str) -> type[nn.Module]:
    """The transformers class for ``role`` (layer | rotary | norm) of this config's family."""
    return family_of(config).cls(role)


def compute_config(config):
    """A private copy of the config set to the family's attention kernel (wrapped to serve a batch of
    sessions: ``batching``)."""
    config = copy.deepcopy(config)
    config._attn_implementation = implementation_name(attention_implementation(config))
    return config


class LayerStack(nn.Module):
    """Decoder layers [first, last) of one model, run over blocks of hidden states."""

    def __init__(
        self,
        config,
        first: int,
        last: int,
        tensors: dict[str, torch.Tensor] | TensorSource,
        device: torch.device | str = "cpu",
        dtype: torch.dtype = torch.float32,
        convert: Callable[[nn.Module], int] = pack_linears,
    ):
        """``convert`` replaces a loaded layer's linear modules in place (prepacked by default; the draft
        head's approximate copy of the first layers takes ``int8_linears``) and returns how many."""
        super().__init__()
        if not 0 <= first < last <= config.num_hidden_layers:
            raise ValueError(f"layer range [{first}, {last}) outside a {config.num_hidden_layers}-layer model")
        source = InMemory(tensors) if isinstance(tensors, dict) else tensors
        self.config = compute_config(config)
        self.first, self.last = first, last
        family = family_of(config)
        layer_cls = family.cls("layer")
        layers = []
        # One layer at a time: its tensors are read, converted and packed, and the originals dropped,
        # before the next is read, so loading never holds more than one layer twice.
        for local, index in enumerate(range(first, last)):
            prefix = layer_prefix(index)
            loaded = source.load(layer_tensor_names(source, index, index + 1))
            state = {k[len(prefix) :]: v.to(device=device, dtype=dtype) for k, v in loaded.items()}
            del loaded
            with torch.device("meta"):
                layer = layer_cls(self.config, index)  # global index: per-layer types stay right
            layer.load_state_dict(state, strict=True, assign=True)
            del state
            layer.self_attn.layer_idx = local  # the cache is this stack's own
            if convert(layer):  # decode's few-row products are faster on prepacked CPU weights
                own_memory(layer)
            layers.append(layer)
        self.layers = nn.ModuleList(layers)
        self.layer_types = layer_types(config)[first:last]
        self.window = sliding_window(config)
        self._eager = attention_implementation(config) == "eager"
        rotary = family.cls("rotary")(self.config).to(device)
        if family.rotary_per_layer_type:
            self._rotary = {kind: functools.partial(rotary, layer_type=kind) for kind in set(self.layer_types)}
        else:
            self._rotary = {kind: rotary for kind in set(self.layer_types)}
        self.rotary = rotary
        self.longrope_limit = longrope_limit(config)
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
        return cls(source.config, first, last, source.weights(), device, dtype)

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
        long_rope: bool = False,
    ) -> torch.Tensor:
        """Run a block [1, q, hidden] at ``positions`` [q]; append its keys/values to the cache.

        ``cache`` defaults to the stack's own; the worker passes one per session over shared weights.
        """
        cache = self.cache if cache is None else cache
        hidden = hidden.to(device=self.device, dtype=self.dtype)
        block_len = hidden.shape[1]
        position_ids = positions.to(self.device).view(1, block_len)
        masks, rotaries = {}, {}
        for kind in self._rotary:
            window = self.window if kind == SLIDING else None
            masks[kind] = block_mask(
                cache.length, block_len, ancestry, self.dtype, self.device, positions, window, self._eager
            )
            rotaries[kind] = self._rotate(kind, hidden, position_ids, long_rope)
        return self._layers(hidden, masks, rotaries, position_ids, cache)

    @torch.inference_mode()
    def forward_batch(self, segments: list[Segment]) -> list[torch.Tensor]:
        """Run several sessions' blocks as one pass (``batching``); return each one's output [q, hidden].

        Each segment extends its own cache and sees only it; one segment is exactly ``forward``.
        """
        if len(segments) == 1:
            one = segments[0]
            return [self.forward(one.hidden.unsqueeze(0), one.positions, one.ancestry, one.cache, one.long_rope)[0]]
        rows = [segment.hidden.shape[0] for segment in segments]
        hidden = torch.cat([segment.hidden for segment in segments]).to(device=self.device, dtype=self.dtype)
        hidden = hidden.unsqueeze(0)
        position_ids = [segment.positions.to(self.device).view(1, -1) for segment in segments]
        masks, rotaries = {}, {}
        for kind in self._rotary:
            window = self.window if kind == SLIDING else None
            masks[kind] = PerSession(
                [
                    block_mask(s.cache.length, q, s.ancestry, self.dtype, self.device, s.positions, window, self._eager)
                    for s, q in zip(segments, rows, strict=True)
                ],
                rows,
            )
            # Per session: a rotary that depends on the largest position it is given (LongRoPE, dynamic
            # scaling) must see only this session's positions, as it would alone.
            parts = [
                self._rotate(kind, hidden, ids, s.long_rope) for s, ids in zip(segments, position_ids, strict=True)
            ]
            rotaries[kind] = (torch.cat([cos for cos, _ in parts], dim=1), torch.cat([sin for _, sin in parts], dim=1))
        caches = SessionsCache([segment.cache for segment in segments], rows)
        hidden = self._layers(hidden, masks, rotaries, torch.cat(position_ids, dim=1), caches)
        return list(hidden[0].split(rows))

    def _layers(self, hidden: torch.Tensor, masks: dict, rotaries: dict, position_ids: torch.Tensor, cache):
        """Every layer in turn, each with its layer type's mask and rotary."""
        for layer, kind in zip(self.layers, self.layer_types, strict=True):
            hidden = layer(
                hidden,
                attention_mask=masks[kind],
                position_ids=position_ids,
                cache=cache,
                position_embeddings=rotaries[kind],
            )
        return hidden

    def _rotate(self, kind: str, hidden: torch.Tensor, position_ids: torch.Tensor, long_rope: bool):
        """cos and sin for these positions; under LongRoPE, from the long factors when ``long_rope``."""
        rotary = self._rotary[kind]
        if self.longrope_limit is None or not long_rope:
            return rotary(hidden, position_ids)
        # transformers picks LongRoPE's factors by the largest position it is given: one past the trained
        # context is appended so the long ones are used, and its row dropped.
        extended = torch.cat([position_ids, position_ids.new_full((1, 1), self.longrope_limit)], dim=1)
        cos, sin = rotary(hidden, extended)
        return cos[:, :-1], sin[:, :-1]

    def crop(self, length: int) -> None:
        self.cache.crop(length)

    def keep(self, start: int, indices: list[int]) -> None:
        self.cache.keep(start, indices)

    def new_cache(self) -> StackCache:
        return StackCache(len(self.layers))

    def reset(self) -> None:
        self.cache = self.new_cache()
