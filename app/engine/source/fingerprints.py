"""Weight fingerprints, remembered per model folder so a start does not re-hash hundreds of MB.

A remembered value is keyed by the folder, what is hashed, and each weight file's size and mtime: a
changed file changes the key, so a stale fingerprint is never returned.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable

from app.engine.source.specs import ModelSource, cache_root
from app.wire.shard_format import tensors_fingerprint

STORE = "fingerprints.json"


def remembered(source: ModelSource, what: str, compute: Callable[[], str]) -> str:
    """Return the fingerprint ``what`` of ``source``'s weights, computing it only when unknown."""
    weights = sorted(source.folder.glob("*.safetensors")) + sorted(source.folder.glob("*.safetensors.index.json"))
    key = "|".join(
        [str(source.folder.resolve()), what] + [f"{w.name}:{w.stat().st_size}:{w.stat().st_mtime_ns}" for w in weights]
    )
    store = cache_root() / STORE
    known = json.loads(store.read_text()) if store.is_file() else {}
    if key in known:
        return known[key]
    fingerprint = compute()
    # Entries of folders that are gone (a deleted checkout, a test's temporary model) are dropped as a new
    # one is written, so the store does not grow with every folder ever fingerprinted.
    known = {k: v for k, v in known.items() if os.path.isdir(k.split("|", 1)[0])}
    known[key] = fingerprint
    store.parent.mkdir(parents=True, exist_ok=True)
    partial = store.with_suffix(f".{os.getpid()}.tmp")
    partial.write_text(json.dumps(known, indent=1))
    os.replace(partial, store)  # readers never see a half-written store
    return fingerprint


def model_fingerprint(source: ModelSource) -> str:
    """SHA-256 over every tensor of the model: names what a privacy evaluation was measured on."""

    def compute() -> str:
        reader = source.weights()
        return tensors_fingerprint(reader.iterate(reader.names()))  # one tensor in memory at a time

    return remembered(source, "all", compute)
