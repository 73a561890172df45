"""Python's cyclic garbage collector, run only on the GUI thread.

The collector runs in whichever thread happens to allocate. When it frees a Qt object from a cycle on
the engine thread, Qt's destructor and PySide's GIL can deadlock against the GUI thread (observed: the
engine thread destroying a window's QMenu while the GUI thread waited on the same Qt mutex). So
automatic collection is switched off while the app runs, and a timer collects on the GUI thread.
"""

from __future__ import annotations

import gc

from PySide6.QtCore import QObject, QTimer


class GuiThreadCollector(QObject):
    def __init__(self, interval_ms: int = 1000):
        super().__init__()
        self.thresholds = gc.get_threshold()
        gc.disable()
        self.timer = QTimer(self)
        self.timer.timeout.connect(self.collect_if_due)
        self.timer.start(interval_ms)

    def collect_if_due(self) -> None:
        """Collect the generations the automatic collector would have by now."""
        counts = gc.get_count()
        if counts[0] > self.thresholds[0]:
            generation = 0
            if counts[1] > self.thresholds[1]:
                generation = 2 if counts[2] > self.thresholds[2] else 1
            gc.collect(generation)

    def stop(self) -> None:
        self.timer.stop()
        gc.collect()
        gc.enable()
