"""What the desktop app starts before it imports the engine: the embedded worker process.

Importing the engine host (torch, transformers) takes seconds; this module imports neither, so the app's
first lines can launch the worker, which then imports on another core meanwhile. The engine host
adopts the process when it opens the same model and split (``app.engine.link.prelaunch``).
"""

from __future__ import annotations

from app.engine.link.prelaunch import launch_embedded_worker


def start_embedded_worker(model: str, split: str) -> bool:
    """Launch the loopback worker for this model and split if its shard is ready; whether it was."""
    return launch_embedded_worker(model, split) is not None
