"""Live plots of the link: throughput, tokens per round trip against break-even, where each step's time went.

The engine's callbacks only append to ring buffers; one QTimer redraws at a steady rate, so plotting
never slows generation however fast steps arrive.
"""

from __future__ import annotations

from collections import deque

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QDockWidget, QLabel, QStackedWidget, QVBoxLayout, QWidget

from app.host import StepUpdate
from app.ui.i18n import QT_TRANSLATE_NOOP, number, translate
from app.ui.palette import colours

HISTORY = 300  # steps kept on screen
PLOT_MIN_HEIGHT = 90  # four plots and their titles in the panel of a 640-pixel-high window
EMPTY_STATE = QT_TRANSLATE_NOOP(
    "MetricsDock",
    "<p><b>No answer yet.</b></p><p>While an answer is written, this panel shows its speed, how many words "
    "each round trip to the worker brings back, and where each step's time goes (network, this computer, "
    "the worker).</p>",
)
PARTS = (  # (StepTiming field, label, colour: palette.SERIES_HUES), stacked bottom to top
    ("network_ms", QT_TRANSLATE_NOOP("MetricsDock", "network"), "network"),
    ("local_compute_ms", QT_TRANSLATE_NOOP("MetricsDock", "local"), "local"),
    ("remote_compute_ms", QT_TRANSLATE_NOOP("MetricsDock", "remote"), "remote"),
    ("serialization_ms", QT_TRANSLATE_NOOP("MetricsDock", "serialization"), "serialization"),
)


class MetricsDock(QDockWidget):
    def __init__(self, refresh_ms: int = 250):
        super().__init__(translate("MetricsDock", "Live metrics"))
        self.setObjectName("metrics-dock")
        self.toggleViewAction().setText(translate("MetricsDock", "&Live metrics"))
        # No antialiasing: Qt draws it in software, and a repaint of the four plots with it took 0.2–0.3 s
        # of the GUI thread on a busy 2-core machine (a visible stall mid-answer).
        # The plots' background and axes are the palette's (app.ui.palette), each series readable on it.
        scheme = colours()
        series = {name: pair.foreground for name, pair in scheme.series.items()}
        pg.setConfigOptions(antialias=False, background=scheme.plot.background, foreground=scheme.plot.foreground)
        body = QWidget()
        layout = QVBoxLayout(body)
        self.summary = QLabel(translate("MetricsDock", "No generation yet."))
        layout.addWidget(self.summary)
        self.throughput = self._plot(translate("MetricsDock", "Throughput (tok/s)"))
        self.per_trip = self._plot(translate("MetricsDock", "Tokens per round trip"))
        self.breakdown = self._plot(translate("MetricsDock", "Step time (ms)"))
        self.rtt = self._plot(translate("MetricsDock", "Network round trip (ms)"))
        for plot in (self.throughput, self.per_trip, self.breakdown, self.rtt):
            layout.addWidget(plot)
        # Empty axes with meaningless scales before the first answer: a sentence says what will be here.
        self.empty = QLabel(translate("MetricsDock", EMPTY_STATE))
        self.empty.setWordWrap(True)
        self.empty.setAlignment(Qt.AlignmentFlag.AlignTop)
        self.empty.setMargin(12)
        self.pages = QStackedWidget()
        self.pages.addWidget(self.empty)
        self.pages.addWidget(body)
        self.setWidget(self.pages)

        self.steps: deque = deque(maxlen=HISTORY)
        self.break_even: deque = deque(maxlen=HISTORY)
        self._drawn = -1
        self._count = 0
        self.throughput_curve = self.throughput.plot(pen=pg.mkPen(series["throughput"], width=2))
        bars = QColor(series["throughput"])
        bars.setAlpha(160)
        self.per_trip_bars = pg.BarGraphItem(x=[], height=[], width=0.8, brush=bars)
        self.per_trip.addItem(self.per_trip_bars)
        self.break_even_curve = self.per_trip.plot(
            pen=pg.mkPen(series["break_even"], width=2, style=pg.QtCore.Qt.DashLine)
        )
        self.per_trip.addLegend(offset=(5, 5)).addItem(self.break_even_curve, translate("MetricsDock", "break-even a*"))
        self.breakdown.addLegend(offset=(5, 5))
        self.stack_curves = []
        self._base_curve = previous = self.breakdown.plot(pen=None)  # the zero line the stack starts from
        for _, label, hue in PARTS:
            curve = self.breakdown.plot(pen=pg.mkPen(series[hue]), name=translate("MetricsDock", label))
            fill_colour = QColor(series[hue])
            fill_colour.setAlpha(120)
            fill = pg.FillBetweenItem(previous, curve, brush=fill_colour)
            self.breakdown.addItem(fill)
            self.stack_curves.append(curve)
            previous = curve
        self.rtt_curve = self.rtt.plot(pen=pg.mkPen(series["network"], width=2))

        self.timer = QTimer(self)
        self.timer.timeout.connect(self._redraw_if_shown)
        self.timer.start(refresh_ms)
        self.visibilityChanged.connect(lambda shown: self.redraw() if shown else None)

    def _redraw_if_shown(self) -> None:
        # Painting four plots is the GUI thread's costliest work while an answer streams: a dock behind
        # another tab, or closed, is brought up to date when it is shown instead.
        if self.isVisible():
            self.redraw()

    @staticmethod
    def _plot(title: str) -> pg.PlotWidget:
        plot = pg.PlotWidget(title=title)
        plot.setAccessibleName(title)  # a canvas: a screen reader has no text of its own to read
        plot.setMinimumHeight(PLOT_MIN_HEIGHT)
        plot.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # nothing to do with the keyboard, and no focus shown
        plot.showGrid(x=True, y=True, alpha=0.3)
        plot.setMouseEnabled(x=False, y=False)
        return plot

    def record(self, update: StepUpdate) -> None:
        """Called once per round trip, on the UI thread: keep it cheap."""
        self.steps.append(update.timing)
        self.break_even.append(np.nan if update.break_even is None else update.break_even)
        self._count += 1

    def redraw(self) -> None:
        if self._count == self._drawn or not self.steps:
            return
        self._drawn = self._count
        self.pages.setCurrentIndex(1)
        steps = list(self.steps)
        x = np.arange(self._count - len(steps), self._count, dtype=float)
        total = np.array([s.total_ms for s in steps])
        out = np.array([s.tokens_out for s in steps], dtype=float)
        self.throughput_curve.setData(x, 1000 * out / np.maximum(total, 1e-6))
        self.per_trip_bars.setOpts(x=x, height=out)
        self.break_even_curve.setData(x, np.array(self.break_even), connect="finite")
        level = np.zeros(len(steps))
        self._base_curve.setData(x, level)
        for curve, (field, _, _) in zip(self.stack_curves, PARTS, strict=True):
            level = level + np.array([getattr(s, field) for s in steps])
            curve.setData(x, level)
        self.rtt_curve.setData(x, np.array([s.network_ms for s in steps]))
        recent = steps[-20:]
        elapsed = sum(s.total_ms for s in recent)
        produced = sum(s.tokens_out for s in recent)
        network = np.mean([s.network_ms for s in recent])
        self.summary.setText(
            translate(
                "MetricsDock",
                "Last {trips} round trips: {speed} tok/s, {per_trip} tokens per round trip, network {network} ms",
            ).format(
                trips=len(recent),
                speed=number(1000 * produced / max(elapsed, 1e-6), 1),
                per_trip=number(produced / len(recent), 2),
                network=number(network),
            )
        )
