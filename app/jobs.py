"""Long computations report progress and stop when asked: the shared vocabulary for both."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

# (what is happening, fraction done in 0..1)
Progress = Callable[[str, float], None]


class Cancelled(Exception):
    """The caller asked a long computation to stop; nothing partial was kept."""


class CancelFlag(Protocol):
    """Anything with ``is_set()``: a ``threading.Event`` in the app, a plain flag in tests."""

    def is_set(self) -> bool: ...


def raise_if_cancelled(cancel: CancelFlag | None) -> None:
    if cancel is not None and cancel.is_set():
        raise Cancelled()
