"""Callbacks from other threads, delivered on the UI thread as queued Qt signals."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, Signal


class EngineSignals(QObject):
    """What the engine thread reports while it answers (queued connections to the UI thread)."""

    text = Signal(int, str)  # answer number, text so far
    # One StepUpdate: an object signal, never a bare None (a bare None crossing threads through an
    # ``object`` signal loses a reference in PySide6, which crashes the interpreter at exit).
    step = Signal(object)
    notice = Signal(str)
    progress = Signal(str, float)
    reading = Signal(int, int, int)  # answer number, tokens of the message read so far, of how many


class ThreadProgress(QObject):
    """Progress from a worker thread, delivered to a UI-thread callback."""

    changed = Signal(str, float)

    def __init__(self, callback: Callable[[str, float], None]):
        super().__init__()
        self.changed.connect(callback)

    def emit(self, message: str, fraction: float) -> None:
        self.changed.emit(message, fraction)
