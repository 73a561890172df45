"""The one error a model folder, a checkpoint or a shard raises when it cannot be used: its own module, so
the config reader and the family table import it without importing each other."""

from __future__ import annotations


class ModelError(Exception):
    """A model that cannot be used, with a message a person can act on."""
