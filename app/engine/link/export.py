"""Write the worker's shard: the middle layers and nothing else, with a manifest of fingerprints."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import torch

from app.engine.link.stream_writer import Planned, write_safetensors
from app.engine.source.fingerprints import remembered
from app.engine.source.locations import shard_folder
from app.engine.source.owned import ownership
from app.engine.source.specs import ModelSource
from app.engine.source.staging import staged_folder
from app.jobs import Progress
from app.model.choices import SplitSpec
from app.model.weights import layer_tensor_names
from app.wire.frames import WIRE_DTYPES
from app.wire.shard_format import (
    ADMIN_README,
    CONFIG,
    MANIFEST,
    WEIGHTS,
    Fingerprint,
    Manifest,
    file_sha256,
    tensors_fingerprint,
    worker_config,
)

SHARD_WRITER = "splitchat export-worker (shard)"
_SHARD_FILES = frozenset({WEIGHTS, CONFIG, MANIFEST, ADMIN_README})

_ADMIN_TEXT = """# splitchat worker shard

This folder holds decoder layers [{first}, {last}) of a {num_layers}-layer {family} model and
nothing else: no token embedding, no edge layers, no final norm, no LM head, no tokenizer.
The workstation keeps those, so token ids and text never reach this machine.

Files (SHA-256 in manifest.json, checked by the worker at start):
- middle.safetensors  the middle layers' weights ({dtype})
- config.json         the layer shapes the worker needs
- manifest.json       layer range and fingerprint {fingerprint}
- .splitchat-owned    the files splitchat wrote here: exporting again replaces those and nothing else

Run it on the GPU server (see docs/DEPLOY.md in the splitchat repository). The token file stays
outside this folder: the worker serves a folder holding exactly the files above.

    splitchat worker-token --token-file ../tokens.txt   # prints a bearer token once; give it to the admin panel
    splitchat worker --shard . --host 0.0.0.0 --port 8765 --token-file ../tokens.txt
"""


def export_worker_shard(
    source: ModelSource,
    split: SplitSpec,
    out: Path,
    dtype: str | None = None,
    progress: Progress | None = None,
) -> Manifest:
    """Write layers [k_in, N-k_out) of ``source`` to ``out``; return the manifest written.

    Tensors are read, converted, hashed and written one at a time, so exporting a model of any size
    holds about one tensor in memory.
    """
    out = Path(out)
    ownership(out, legacy_shard)  # a folder that is not the app's is refused before any work
    first, last = split.middle(source.num_layers)
    reader = source.weights()
    names = layer_tensor_names(reader, first, last)  # in name order: the fingerprint's order
    target = WIRE_DTYPES[dtype] if dtype is not None else None
    planned = [Planned(n, target or reader.info(n).dtype, reader.info(n).shape) for n in names]
    total = sum(item.nbytes for item in planned) or 1
    fingerprint = Fingerprint()

    def converted():
        written = 0
        for name, tensor in reader.iterate(names):
            tensor = tensor.to(target) if target is not None else tensor
            fingerprint.add(name, tensor)
            yield name, tensor
            written += tensor.numel() * tensor.element_size()
            if progress:
                progress(f"Writing layers {first}..{last - 1}", 0.95 * written / total)

    with staged_folder(out, replace=True, writer=SHARD_WRITER, legacy=legacy_shard, last=(MANIFEST,)) as staging:
        if progress:
            progress(f"Writing layers {first}..{last - 1}", 0.0)
        write_safetensors(staging / WEIGHTS, planned, converted(), metadata={"format": "pt"})
        stored_dtype = str(planned[0].dtype).removeprefix("torch.")
        (staging / CONFIG).write_text(json.dumps(worker_config(source.config.to_dict()), indent=2, sort_keys=True))
        files = {name: file_sha256(staging / name) for name in (WEIGHTS, CONFIG)}
        manifest = Manifest(first, last, source.num_layers, fingerprint.value(), files, stored_dtype)
        (staging / MANIFEST).write_text(manifest.to_json())
        (staging / ADMIN_README).write_text(
            _ADMIN_TEXT.format(
                first=first,
                last=last,
                num_layers=source.num_layers,
                family=source.family,
                dtype=stored_dtype,
                fingerprint=manifest.fingerprint,
            )
        )
    if progress:
        progress("Shard written", 1.0)
    return manifest


def legacy_shard(folder: Path) -> frozenset[str] | None:
    """A shard exported before ownership markers: exactly its four files, with a manifest that reads."""
    names = frozenset(path.name for path in folder.iterdir())
    if names != _SHARD_FILES or any((folder / name).is_symlink() or not (folder / name).is_file() for name in names):
        return None
    try:
        Manifest.read(folder)
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return names


def middle_tensors(
    source: ModelSource, split: SplitSpec, dtype: str | None = None
) -> Iterator[tuple[str, torch.Tensor]]:
    """The worker's tensors for this split in name order, one at a time, as a shard stores them
    (optionally converted to ``dtype``)."""
    first, last = split.middle(source.num_layers)
    reader = source.weights()
    for name, tensor in reader.iterate(layer_tensor_names(reader, first, last)):
        yield name, (tensor.to(WIRE_DTYPES[dtype]) if dtype is not None else tensor)


def expected_fingerprint(source: ModelSource, split: SplitSpec, dtype: str | None = None) -> str:
    """The fingerprint a worker serving this split must report, computed from the local weights."""
    first, last = split.middle(source.num_layers)
    what = f"{first}-{last}|{dtype or 'stored'}"
    return remembered(source, what, lambda: tensors_fingerprint(middle_tensors(source, split, dtype)))


def embedded_shard(source: ModelSource, split: SplitSpec, progress: Progress | None = None) -> Path:
    """The shard the embedded local worker serves: exported into the cache, re-exported if stale."""
    folder = shard_folder(source.folder, *split.middle(source.num_layers))
    fresh = (folder / MANIFEST).is_file() and Manifest.read(folder).fingerprint == expected_fingerprint(source, split)
    if not fresh:
        export_worker_shard(source, split, folder, progress=progress)
    return folder
