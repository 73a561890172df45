"""The embedded worker, started before the workstation's own imports finish.

The app's imports (torch, transformers) take seconds, and the worker process makes the same imports
before it listens: launched before the app's imports, the worker imports on a second core while the app
imports on the first (docs/ARCHITECTURE.md, "Start-up", has the measured start). Only a shard already exported into the
cache is launched this way (exporting needs torch); ``WorkerLink.embedded`` claims the process when it
reaches the same shard with the same options — the shard is checked there as before, the worker checks
its manifest's hashes at start, and the client checks the fingerprint on connecting — and otherwise
stops it and starts its own.
"""

from __future__ import annotations

import threading
from pathlib import Path

from app.engine.link.local_worker import LocalWorker
from app.engine.source.locations import SHARD_MANIFEST, layer_count, ready_model_folder, shard_folder
from app.model.choices import SplitSpec

_lock = threading.Lock()
_waiting: dict[Path, LocalWorker] = {}  # launched, not yet claimed, by shard folder


def launch_embedded_worker(spec: str, split: str) -> Path | None:
    """Launch the worker for ``spec`` cut at ``split`` if its shard is in the cache; the shard, or None."""
    folder = ready_model_folder(spec)
    layers = layer_count(folder) if folder is not None else None
    if layers is None:
        return None
    try:
        first, last = SplitSpec.parse(split).middle(layers)
    except ValueError:
        return None  # the engine reports a bad split when it opens
    shard = shard_folder(folder, first, last)
    if not (shard / SHARD_MANIFEST).is_file():
        return None
    worker = LocalWorker(shard)
    worker.launch()
    with _lock:
        previous = _waiting.pop(shard.resolve(), None)
        _waiting[shard.resolve()] = worker
    if previous is not None:
        previous.stop()
    return shard


def waiting(shard: Path) -> LocalWorker | None:
    """The worker launched early for ``shard`` and not claimed yet."""
    with _lock:
        return _waiting.get(Path(shard).resolve())


def claim(shard: Path, device: str, dtype: str, max_frame: int, extra_args: tuple[str, ...]) -> LocalWorker | None:
    """The worker launched early for ``shard`` when it runs with exactly these options; else None (an
    early worker for the shard with other options is stopped)."""
    with _lock:
        worker = _waiting.pop(Path(shard).resolve(), None)
    if worker is None:
        return None
    wanted = (device, dtype, max_frame, tuple(extra_args))
    if (worker.device, worker.dtype, worker.max_frame, worker.extra_args) == wanted and worker.alive():
        return worker
    worker.stop()
    return None


def stop_unclaimed() -> None:
    """Stop early workers nothing claimed (the settings named a remote provider after all)."""
    with _lock:
        waiting = list(_waiting.values())
        _waiting.clear()
    for worker in waiting:
        worker.stop()
