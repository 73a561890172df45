"""The worker shard on disk: middle-layer weights, their config, and a manifest of fingerprints.

Shared by the exporter (workstation) and the worker, which refuses anything that is not such a shard.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import torch

SHARD_FORMAT = "splitchat-shard"
SHARD_FORMAT_VERSION = 1
MANIFEST = "manifest.json"
WEIGHTS = "middle.safetensors"
CONFIG = "config.json"
ADMIN_README = "README.md"
# The exporting app's record that it wrote the folder (app/engine/source/owned.py); a worker ignores it.
OWNER_MARKER = ".splitchat-owned"
# Config keys the worker needs to build its layers, and each family's requirements (app/model/families.py)
# so both halves derive the same attention kernel, windows and rotary from them; nothing about tokens
# or the vocabulary.
CONFIG_KEYS = (
    "model_type",
    "architectures",
    "hidden_size",
    "intermediate_size",
    "num_hidden_layers",
    "num_attention_heads",
    "num_key_value_heads",
    "head_dim",
    "hidden_act",
    "rms_norm_eps",
    "max_position_embeddings",
    "rope_parameters",
    "rope_theta",
    "rope_scaling",
    "attention_bias",
    "attention_dropout",
    "mlp_bias",
    "sliding_window",
    "use_sliding_window",
    "max_window_layers",
    "layer_types",
    "pretraining_tp",
    "hidden_activation",  # Gemma's name for hidden_act
    "query_pre_attn_scalar",
    "attn_logit_softcapping",
    "final_logit_softcapping",
    "original_max_position_embeddings",  # LongRoPE's trained context (Phi-3)
    "partial_rotary_factor",
    "rope_local_base_freq",
    "sliding_window_pattern",
    "use_bidirectional_attention",
    "resid_pdrop",
)


@dataclass(frozen=True)
class Manifest:
    """What a shard claims to hold."""

    first_layer: int
    last_layer: int
    num_layers: int
    fingerprint: str
    files: dict[str, str]  # file name -> sha256 of its bytes
    dtype: str

    def to_json(self) -> str:
        body = {"format": SHARD_FORMAT, "format_version": SHARD_FORMAT_VERSION, **self.__dict__}
        return json.dumps(body, indent=2, sort_keys=True)

    @classmethod
    def read(cls, folder: Path) -> Manifest:
        data = json.loads((folder / MANIFEST).read_text())
        if data.get("format") != SHARD_FORMAT or data.get("format_version") != SHARD_FORMAT_VERSION:
            raise ValueError(f"{folder / MANIFEST} is not a {SHARD_FORMAT} v{SHARD_FORMAT_VERSION} manifest")
        return cls(**{k: data[k] for k in cls.__dataclass_fields__})


class Fingerprint:
    """SHA-256 over (name, dtype, shape, bytes) of each tensor added, in name order.

    Incremental so that tensors can be read, hashed and dropped one at a time; a name out of order is a
    ValueError rather than a different fingerprint.
    """

    def __init__(self):
        self._digest = hashlib.sha256()
        self._previous: str | None = None

    def add(self, name: str, tensor: torch.Tensor) -> None:
        if self._previous is not None and name <= self._previous:
            raise ValueError(f"tensors must come in name order: {name!r} after {self._previous!r}")
        self._previous = name
        flat = tensor.detach().to("cpu").contiguous().reshape(-1)
        self._digest.update(f"{name}|{str(tensor.dtype).removeprefix('torch.')}|{list(tensor.shape)}|".encode())
        self._digest.update(flat.view(torch.uint8).numpy().data)

    def value(self) -> str:
        return "sha256:" + self._digest.hexdigest()


def tensors_fingerprint(tensors: Iterable[tuple[str, torch.Tensor]]) -> str:
    """The ``Fingerprint`` of (name, tensor) pairs given in name order."""
    fingerprint = Fingerprint()
    for name, tensor in tensors:
        fingerprint.add(name, tensor)
    return fingerprint.value()


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def worker_config(config_dict: dict) -> dict:
    """The subset of a model config a worker may see."""
    return {k: config_dict[k] for k in CONFIG_KEYS if k in config_dict}
