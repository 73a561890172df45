"""Trained draft heads on disk: the file format, and finding the head trained for exactly these weights.

A head is used only for the weights whose fingerprint it records. The user's own (``splitchat
train-draft`` writes it to the cache) wins over one shipped with the app in ``app/resources/drafts``.
"""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass
from pathlib import Path

import torch
from safetensors.torch import load_file, save_file

from app.engine.source.fingerprints import model_fingerprint
from app.engine.source.specs import ModelSource, cache_root
from app.engine.speculation.early import int8_early_layers
from app.engine.speculation.head import DraftHead, HeadDrafter
from app.resources import SHIPPED_DRAFT_HEADS

FORMAT = "splitchat-draft-head/1"


@dataclass(frozen=True)
class HeadInfo:
    """What a saved head was trained for and how it did (kept in the file's metadata)."""

    model_fingerprint: str
    hidden_size: int
    inner_size: int
    vocab_size: int
    training: dict
    fuse_layer: int | None = None  # the root's feature is read after this many layers (heads before it: None)


def save_head(head: DraftHead, info: HeadInfo, path: Path) -> None:
    if info.fuse_layer != head.fuse_layer:
        raise ValueError(f"the head reads layer {head.fuse_layer}'s feature, its description says {info.fuse_layer}")
    # float16 on disk halves the file; the drafter computes in the edge's dtype.
    tensors = {k: v.detach().to(torch.float16).contiguous().cpu() for k, v in head.state_dict().items()}
    tensors["vocab"] = head.vocab.to(torch.int32).cpu()
    meta = {
        "format": FORMAT,
        "model_fingerprint": info.model_fingerprint,
        "hidden_size": str(info.hidden_size),
        "inner_size": str(info.inner_size),
        "training": json.dumps(info.training),
    }
    if info.fuse_layer is not None:
        meta["fuse_layer"] = str(info.fuse_layer)
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_suffix(".partial")
    save_file(tensors, str(partial), metadata=meta)
    partial.replace(path)


def read_info(path: Path) -> HeadInfo:
    from safetensors import safe_open

    with safe_open(str(path), framework="pt") as f:
        meta = f.metadata() or {}
        vocab_size = f.get_slice("vocab").get_shape()[0]
    if meta.get("format") != FORMAT:
        raise ValueError(f"{path} is not a splitchat draft head")
    return HeadInfo(
        meta["model_fingerprint"],
        int(meta["hidden_size"]),
        int(meta["inner_size"]),
        vocab_size,
        json.loads(meta.get("training", "{}")),
        int(meta["fuse_layer"]) if "fuse_layer" in meta else None,
    )


def load_head(path: Path) -> tuple[DraftHead, HeadInfo]:
    info = read_info(path)
    tensors = load_file(str(path))
    head = DraftHead(info.hidden_size, info.inner_size, tensors.pop("vocab"), info.fuse_layer)
    head.load_state_dict({k: v.float() for k, v in tensors.items()})
    return head.eval(), info


def cached_head_path(fingerprint: str) -> Path:
    """Where ``splitchat train-draft`` stores the head of the model with this fingerprint."""
    return cache_root() / "drafts" / f"{fingerprint.rpartition(':')[2][:32]}.safetensors"


def install_head(path: Path, fingerprint: str, force: bool = False) -> tuple[Path, HeadInfo]:
    """Copy a head trained elsewhere (``train-draft --out`` on the machine that holds the whole model) to
    where this workstation looks for it; returns where it went and what it is.

    A head trained for other weights is refused here rather than passed over in silence at load time: the
    administrator who copied the wrong file learns it now.
    """
    try:
        info = read_info(path)
    except Exception as exc:  # noqa: BLE001 - safetensors' own error, or a header that is not a head's
        raise ValueError(f"{path} is not a splitchat draft head ({exc})") from None
    if info.model_fingerprint != fingerprint:
        raise ValueError(
            f"{path} was trained for the weights {info.model_fingerprint[:23]}…, not these "
            f"({fingerprint[:23]}…): train one for this model with splitchat train-draft"
        )
    target = cached_head_path(fingerprint)
    if target.exists() and not force:
        raise FileExistsError(f"{target} exists; pass --force to replace it")
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_suffix(".partial")
    shutil.copyfile(path, partial)
    partial.replace(target)
    return target, info


def find_head(fingerprint: str) -> Path | None:
    """A trained head for exactly these weights: the user's own first, then one shipped with the app."""
    cached = cached_head_path(fingerprint)
    candidates = [
        cached,
        *sorted(cached.parent.glob("*.safetensors")),
        *sorted(SHIPPED_DRAFT_HEADS.glob("*.safetensors")),
    ]
    for path in dict.fromkeys(candidates):  # in order, once each
        if path.is_file():
            try:
                if read_info(path).model_fingerprint == fingerprint:
                    return path
            except Exception:  # noqa: BLE001 - a damaged or foreign file is passed over: drafting is optional
                continue
    return None


def load_head_drafter(
    source: ModelSource,
    embed_weight: torch.Tensor,
    lm_head_weight: torch.Tensor,
    local_layers: int = 0,
    dtype: torch.dtype = torch.float32,
) -> HeadDrafter | None:
    """The learned drafter for ``source`` beside its embedding and LM head (on their device), or None when
    no head was trained for these weights. Where the edge keeps ``local_layers`` head layers in ``dtype``
    and the head reads the root through some of them, it reads it through their int8 copy (``early.py``)."""
    path = find_head(model_fingerprint(source))
    if path is None:
        return None
    head, _ = load_head(path)
    early = int8_early_layers(source, head.fuse_layer, local_layers, embed_weight.device, dtype)
    return HeadDrafter(head, embed_weight, lm_head_weight, early_layers=early)
