"""Python's cyclic garbage collector, run only on the GUI thread.

The collector runs in whichever thread happens to allocate. When it frees a Qt object from a cycle on
the engine thread, Qt's destructor and PySide's GIL can deadlock against the GUI thread (observed: the
engine thread destroying a window's QMenu while the GUI thread waited on the same Qt mutex). So
automatic collection is switched off while the app runs, and a timer collects on the GUI thread.

A full collection walks every tracked object: with torch, transformers and the identifier detector
loaded that is ~400,000 objects and 0.2–0.35 s on the GUI thread — a visible stall in the middle of an
answer. The automatic collector avoids most full collections with a heuristic Python does not expose;
here, once the engine has loaded, what survived is frozen (``settle``): the libraries, the model and
the window live as long as the app, and later collections only walk what came after them.
"""

from __future__ import annotations

import gc

from PySide6.QtCore import QObject, QTimer


def settle() -> None:
    """Collect once, then exempt every surviving object from later collections (call on the GUI thread,
    after a load, while the user is still waiting for it)."""
    gc.collect()
    gc.freeze()


# The youngest generation is collected at least this often whatever its count says: the count is
# allocations less frees, so a window whose layout makes and frees objects on every pass (a message's
# measuring document) holds it under the threshold while garbage waits in it.
YOUNGEST_AT_LEAST_EVERY_S = 2.0


class GuiThreadCollector(QObject):
    def __init__(self, interval_ms: int = 1000):
        super().__init__()
        self.thresholds = gc.get_threshold()
        gc.disable()
        self.timer = QTimer(self)
        self.timer.timeout.connect(self.collect_if_due)
        self.timer.start(interval_ms)
        self._ticks_per_youngest = max(1, round(YOUNGEST_AT_LEAST_EVERY_S * 1000 / interval_ms))
        self._ticks = 0

    def collect_if_due(self) -> None:
        """Collect the generations the automatic collector would have by now."""
        counts = gc.get_count()
        self._ticks += 1
        if counts[0] > self.thresholds[0] or self._ticks >= self._ticks_per_youngest:
            self._ticks = 0
            generation = 0
            if counts[1] > self.thresholds[1]:
                generation = 2 if counts[2] > self.thresholds[2] else 1
            gc.collect(generation)

    def stop(self) -> None:
        self.timer.stop()
        gc.unfreeze()  # what ``settle`` exempted is collectable again once the app is done with it
        gc.collect()
        gc.enable()
