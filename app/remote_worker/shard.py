"""Load a worker shard — and refuse anything that is not exactly one."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

import torch

from app.model.errors import ModelError
from app.model.families import family_of
from app.model.layers import LayerStack
from app.model.weights import WeightReader
from app.wire.frames import WIRE_DTYPES
from app.wire.shard_format import (
    ADMIN_README,
    CONFIG,
    MANIFEST,
    OWNER_MARKER,
    WEIGHTS,
    Manifest,
    file_sha256,
    tensors_fingerprint,
)

_LAYER_TENSOR = re.compile(r"^model\.layers\.(\d+)\.")
_ALLOWED_FILES = {MANIFEST, WEIGHTS, CONFIG, ADMIN_README, OWNER_MARKER}


class ShardError(Exception):
    """The folder is not a valid splitchat shard; the worker will not serve it."""


@dataclass
class Shard:
    manifest: Manifest
    stack: LayerStack
    config: object


def load_shard(folder: Path, device: str = "cpu", dtype: torch.dtype | None = None) -> Shard:
    """Verify and load a shard; the compute dtype defaults to the stored one."""
    from transformers import AutoConfig

    folder = Path(folder)
    if not (folder / MANIFEST).is_file():
        raise ShardError(f"{folder} has no {MANIFEST}: export one with `splitchat export-worker`")
    try:
        manifest = Manifest.read(folder)
    except (ValueError, KeyError, TypeError, json.JSONDecodeError) as exc:
        raise ShardError(f"unreadable manifest: {exc}") from None
    strays = sorted(p.name for p in folder.iterdir() if p.name not in _ALLOWED_FILES)
    if strays:
        raise ShardError(f"{folder} holds files a shard never has: {', '.join(strays)}")
    if set(manifest.files) != {WEIGHTS, CONFIG}:
        raise ShardError(f"manifest must list exactly {WEIGHTS} and {CONFIG}")
    for name, digest in manifest.files.items():
        if not (folder / name).is_file() or file_sha256(folder / name) != digest:
            raise ShardError(f"{name} does not match the SHA-256 in the manifest")
    try:
        weights = WeightReader(folder)  # headers only: tensors are read one at a time below
    except ModelError as exc:
        raise ShardError(str(exc)) from None
    layers_seen = set()
    for name in weights.names():
        match = _LAYER_TENSOR.match(name)
        if not match or not manifest.first_layer <= int(match.group(1)) < manifest.last_layer:
            raise ShardError(f"tensor {name!r} is outside layers [{manifest.first_layer}, {manifest.last_layer})")
        layers_seen.add(int(match.group(1)))
    if layers_seen != set(range(manifest.first_layer, manifest.last_layer)):
        raise ShardError("the weights do not cover every layer the manifest names")
    if tensors_fingerprint(weights.iterate(weights.names())) != manifest.fingerprint:
        raise ShardError("the weights' fingerprint does not match the manifest")
    config_dict = json.loads((folder / CONFIG).read_text())
    family = config_dict.pop("model_type", None)
    try:
        config = AutoConfig.for_model(family, **config_dict)
    except ValueError as exc:
        raise ShardError(f"bad config: {exc}") from None
    if config.num_hidden_layers != manifest.num_layers:
        raise ShardError("config and manifest disagree on the number of layers")
    compute_dtype = dtype or WIRE_DTYPES[manifest.dtype]
    try:
        family_of(config)
    except ModelError as exc:
        raise ShardError(str(exc)) from None
    stack = LayerStack(config, manifest.first_layer, manifest.last_layer, weights, device, compute_dtype)
    return Shard(manifest=manifest, stack=stack, config=config)
