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
# Config keys the worker needs to build its layers; nothing about tokens or the vocabulary.
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


def tensors_fingerprint(tensors: Iterable[tuple[str, torch.Tensor]]) -> str:
    """SHA-256 over (name, dtype, shape, bytes) of each tensor, in name order."""
    digest = hashlib.sha256()
    for name, tensor in sorted(tensors, key=lambda item: item[0]):
        flat = tensor.detach().to("cpu").contiguous().reshape(-1)
        digest.update(f"{name}|{str(tensor.dtype).removeprefix('torch.')}|{list(tensor.shape)}|".encode())
        digest.update(flat.view(torch.uint8).numpy().tobytes())
    return "sha256:" + digest.hexdigest()


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def worker_config(config_dict: dict) -> dict:
    """The subset of a model config a worker may see."""
    return {k: config_dict[k] for k in CONFIG_KEYS if k in config_dict}
