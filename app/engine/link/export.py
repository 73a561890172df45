"""Write the worker's shard: the middle layers and nothing else, with a manifest of fingerprints."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import torch
from safetensors.torch import save_file

from app.engine.source.fingerprints import remembered
from app.engine.source.specs import ModelSource, cache_root
from app.engine.source.split import SplitSpec
from app.engine.source.staging import staged_folder
from app.jobs import Progress
from app.model.weights import layer_tensor_names
from app.wire.frames import WIRE_DTYPES
from app.wire.shard_format import (
    ADMIN_README,
    CONFIG,
    MANIFEST,
    WEIGHTS,
    Manifest,
    file_sha256,
    tensors_fingerprint,
    worker_config,
)

_ADMIN_TEXT = """# splitchat worker shard

This folder holds decoder layers [{first}, {last}) of a {num_layers}-layer {family} model and
nothing else: no token embedding, no edge layers, no final norm, no LM head, no tokenizer.
The workstation keeps those, so token ids and text never reach this machine.

Files (SHA-256 in manifest.json, checked by the worker at start):
- middle.safetensors  the middle layers' weights ({dtype})
- config.json         the layer shapes the worker needs
- manifest.json       layer range and fingerprint {fingerprint}

Run it on the GPU server (see docs/DEPLOY.md in the splitchat repository):

    splitchat worker-token --token-file tokens.txt     # prints a bearer token once; give it to the admin panel
    splitchat worker --shard . --host 0.0.0.0 --port 8765 --token-file tokens.txt
"""


def export_worker_shard(
    source: ModelSource,
    split: SplitSpec,
    out: Path,
    dtype: str | None = None,
    progress: Progress | None = None,
) -> Manifest:
    """Write layers [k_in, N-k_out) of ``source`` to ``out``; return the manifest written."""
    out = Path(out)
    if out.exists() and any(out.iterdir()) and not (out / MANIFEST).is_file():
        raise FileExistsError(f"{out} is not empty and not a splitchat shard; choose an empty folder")
    first, last = split.middle(source.num_layers)
    if progress:
        progress(f"Reading layers {first}..{last - 1}", 0.1)
    tensors = middle_tensors(source, split, dtype)
    stored_dtype = str(next(iter(tensors.values())).dtype).removeprefix("torch.")
    fingerprint = tensors_fingerprint(tensors.items())
    with staged_folder(out, replace=True) as staging:
        if progress:
            progress("Writing weights", 0.5)
        save_file(tensors, staging / WEIGHTS, metadata={"format": "pt"})
        (staging / CONFIG).write_text(json.dumps(worker_config(source.config.to_dict()), indent=2, sort_keys=True))
        files = {name: file_sha256(staging / name) for name in (WEIGHTS, CONFIG)}
        manifest = Manifest(first, last, source.num_layers, fingerprint, files, stored_dtype)
        (staging / MANIFEST).write_text(manifest.to_json())
        (staging / ADMIN_README).write_text(
            _ADMIN_TEXT.format(
                first=first,
                last=last,
                num_layers=source.num_layers,
                family=source.family,
                dtype=stored_dtype,
                fingerprint=fingerprint,
            )
        )
    if progress:
        progress("Shard written", 1.0)
    return manifest


def middle_tensors(source: ModelSource, split: SplitSpec, dtype: str | None = None) -> dict[str, torch.Tensor]:
    """The worker's tensors for this split, as stored in a shard (optionally converted to ``dtype``)."""
    first, last = split.middle(source.num_layers)
    reader = source.weights()
    tensors = reader.load(layer_tensor_names(reader, first, last))
    if dtype is not None:
        tensors = {k: v.to(WIRE_DTYPES[dtype]) for k, v in tensors.items()}
    return tensors


def expected_fingerprint(source: ModelSource, split: SplitSpec, dtype: str | None = None) -> str:
    """The fingerprint a worker serving this split must report, computed from the local weights."""
    first, last = split.middle(source.num_layers)
    what = f"{first}-{last}|{dtype or 'stored'}"
    return remembered(source, what, lambda: tensors_fingerprint(middle_tensors(source, split, dtype).items()))


def embedded_shard(source: ModelSource, split: SplitSpec, progress: Progress | None = None) -> Path:
    """The shard the embedded local worker serves: exported into the cache, re-exported if stale."""
    first, last = split.middle(source.num_layers)
    where = hashlib.sha256(str(source.folder.resolve()).encode()).hexdigest()[:12]
    folder = cache_root() / "shards" / f"{source.folder.name}-{where}-layers-{first}-{last}"
    fresh = (folder / MANIFEST).is_file() and Manifest.read(folder).fingerprint == expected_fingerprint(source, split)
    if not fresh:
        export_worker_shard(source, split, folder, progress=progress)
    return folder
