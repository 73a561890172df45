"""Measured token recovery per split depth, from the privacy evaluation's cached report — never a guess."""

from __future__ import annotations

import html

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QProgressBar, QPushButton, QVBoxLayout, QWidget

from app.host import PrivacyReport, PrivacySettings, is_shipped

SERIES = (  # (direction, attacker, label, colour, line style)
    ("to_worker", "public_head_search", "sent · public weights (head search)", (128, 0, 128), Qt.SolidLine),
    ("to_worker", "learned_mlp", "sent · learned MLP", (214, 39, 40), Qt.SolidLine),
    ("from_worker", "public_tail", "returned · public weights (tail)", (128, 0, 128), Qt.DashLine),
    ("from_worker", "learned_mlp", "returned · learned MLP", (214, 39, 40), Qt.DashLine),
)
SMALL_TEST = 1000  # test tokens below which an evaluation is called a quick estimate
NO_ESTIMATE = (
    "No privacy estimate is available for this model yet. Run the evaluation to measure how many tokens "
    "an attacker could recover from the hidden states at each split depth."
)

BASELINE_LABEL = "baseline: most frequent token"
WORKER_HERE = (
    "Now the built-in worker on this computer answers, so nothing crosses the network: these figures are what "
    "the operator of a remote worker could read back, were one chosen in Settings."
)


def legend_key(label: str, colour: tuple[int, int, int], style: Qt.PenStyle) -> str:
    """One line of the key: the series' colour and line style drawn in text, then its name."""
    stroke = "━━" if style == Qt.SolidLine else "╍╍"
    red, green, blue = colour
    return f'<span style="color: rgb({red},{green},{blue})">{stroke}</span>&nbsp;{html.escape(label)}'


def provenance(report: PrivacyReport) -> str:
    """Which evaluation measured the figures: the one shipped with the app is said to be that, with what it
    ran, so nobody takes it for a measurement made on this computer."""
    measured = f"measured on {report.corpus.test_pairs} test tokens of {report.corpus.description}"
    if not is_shipped(report):
        return f"Evaluation of {report.created[:10]}, {measured}."
    settings = "its default settings" if report.settings == PrivacySettings() else "the settings in docs/PRIVACY.md"
    return (
        f"This is the measurement shipped with splitchat for exactly these weights: splitchat privacy with "
        f"{settings} (depths {', '.join(map(str, report.depths))}), run on {report.created[:10]} and {measured}. "
        "Run the evaluation to measure it on this computer or on your own documents."
    )


class PrivacyView(QWidget):
    run_requested = Signal()
    cancel_requested = Signal()
    shown = Signal()  # a report (or none) was shown for a depth: the chat's banner quotes it

    def __init__(self):
        super().__init__()
        self.report: PrivacyReport | None = None
        self.depth = 0
        layout = QVBoxLayout(self)
        self.statement = QLabel(NO_ESTIMATE)
        self.statement.setWordWrap(True)
        self.checkpoint = QLabel("")
        self.checkpoint.setWordWrap(True)
        self.plot = pg.PlotWidget(title="Tokens recovered (top-1)")
        self.plot.setLabel("left", "recovered", units="%")
        self.plot.setLabel("bottom", "split depth (layers kept local on each side)")
        self.plot.setYRange(0, 100, padding=0.04)
        self.plot.showGrid(x=True, y=True, alpha=0.3)
        self.plot.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # Tab went into it and showed no focus
        # The key sits below the plot, not on it: the sent series run along the top at 90-100 % and the
        # baseline along the bottom, so no corner of the plot is free whatever the model.
        self.legend = QLabel("")
        self.legend.setTextFormat(Qt.RichText)
        self.legend.setWordWrap(True)
        self.depth_line = pg.InfiniteLine(angle=90, pen=pg.mkPen((0, 0, 0), width=1, style=Qt.DotLine))
        self.plot.addItem(self.depth_line)
        buttons = QHBoxLayout()
        self.run_button = QPushButton("Run privacy evaluation")
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.setEnabled(False)
        self.progress = QProgressBar()
        self.progress.setVisible(False)
        self.run_button.clicked.connect(self.run_requested.emit)
        self.cancel_button.clicked.connect(self.cancel_requested.emit)
        buttons.addWidget(self.run_button)
        buttons.addWidget(self.cancel_button)
        buttons.addWidget(self.progress, 1)
        layout.addWidget(self.statement)
        layout.addWidget(self.checkpoint)
        layout.addWidget(self.plot, 1)
        layout.addWidget(self.legend)
        layout.addLayout(buttons)
        self.plot.setVisible(False)
        self.legend.setVisible(False)

    def show_report(
        self, report: PrivacyReport | None, depth: int, public_checkpoint: bool, worker_here: bool = False
    ) -> None:
        """Draw ``report`` (or say there is none) with the current split depth marked. ``worker_here``: the
        built-in worker on this computer answers now, so the figures describe a remote worker, not it."""
        self.report, self.depth = report, depth
        self.plot.clear()
        self.plot.addItem(self.depth_line)
        self.depth_line.setValue(depth)
        if public_checkpoint:
            checkpoint = (
                "The local layers are a published checkpoint: anyone can download them, so the public-weights "
                "attacks apply."
            )
        else:
            checkpoint = (
                "The local layers are private weights: the public-weights attacks apply only if they leak. Keeping "
                "them private is an operational duty, not a guarantee."
            )
        self.checkpoint.setText(f"{WORKER_HERE} {checkpoint}" if worker_here else checkpoint)
        if report is None:
            self.statement.setText(NO_ESTIMATE)
            self.plot.setVisible(False)
            self.legend.setVisible(False)
            self.shown.emit()
            return
        self.plot.setVisible(True)
        self.legend.setVisible(True)
        self.plot.getAxis("bottom").setTicks([[(d, str(d)) for d in report.depths]])  # depths are whole layers
        keys = []
        for direction, attacker, label, colour, style in SERIES:
            rows = report.series(direction, attacker)
            if not rows:
                continue
            keys.append(legend_key(label, colour, style))
            x = np.array([r.depth for r in rows], dtype=float)
            y = np.array([100 * r.top1 for r in rows])
            low = y - np.array([100 * r.ci95[0] for r in rows])
            high = np.array([100 * r.ci95[1] for r in rows]) - y
            pen = pg.mkPen(colour, width=2, style=style)
            self.plot.plot(x, y, pen=pen, symbol="o", symbolBrush=colour)
            self.plot.addItem(pg.ErrorBarItem(x=x, y=y, top=high, bottom=low, beam=0.2, pen=pg.mkPen(colour)))
        baseline = 100 * report.baseline["most_frequent"].top1
        line = self.plot.plot(
            [min(report.depths), max(report.depths)],
            [baseline, baseline],
            pen=pg.mkPen((90, 90, 90), width=1, style=Qt.DashLine),
        )
        line.setZValue(-1)
        keys.append(legend_key(BASELINE_LABEL, (90, 90, 90), Qt.DashLine))
        self.legend.setText("<br>".join(keys))
        self.statement.setText(self.describe(report, depth))
        self.shown.emit()

    @staticmethod
    def describe(report: PrivacyReport, depth: int) -> str:
        """One plain sentence per direction for the current depth, from measured rows only, and which
        evaluation measured them (its date and size: a quick run must not read like a thorough one)."""
        exposure = report.exposure(depth)
        sent = exposure.sent
        if sent is None:
            return f"Depth {depth} was not measured (measured: {', '.join(map(str, report.depths))})."
        who = (
            "an attacker holding the public weights"
            if sent.attacker != "learned_mlp"
            else "an attacker trained on collected activations (the public-weights attacks were not run)"
        )
        parts = [
            f"At depth {depth}, {who} recovers {100 * sent.top1:.0f}% of the tokens sent to the worker "
            f"(95% CI {100 * sent.ci95[0]:.0f}–{100 * sent.ci95[1]:.0f}%)"
        ]
        if exposure.sent_learned is not None and exposure.sent_learned is not sent:
            parts.append(f"one trained on collected activations recovers {100 * exposure.sent_learned.top1:.0f}%")
        baseline = 100 * report.baseline["most_frequent"].top1
        size = report.corpus.test_pairs
        quick = (
            f" A quick estimate: only {size} test tokens, so the interval is wide — run the full evaluation for a "
            "firm figure."
            if size < SMALL_TEST
            else ""
        )
        return (
            "; ".join(parts) + f". Guessing the most frequent token scores {baseline:.0f}%. {provenance(report)}{quick}"
        )

    @staticmethod
    def exposure_words(report: PrivacyReport | None, depth: int) -> str | None:
        """How much of the text a worker can read back at ``depth``, for the chat's banner (None: unmeasured)."""
        sent = report.exposure(depth).sent if report is not None else None
        if sent is None:
            return None
        size = report.corpus.test_pairs
        by = " by the splitchat project, shipped with the app," if is_shipped(report) else ""
        return (
            f"about {100 * sent.top1:.0f} % of the tokens (word pieces) it receives — measured for this model{by} at "
            f"depth {depth} on {size} test tokens{', a quick estimate' if size < SMALL_TEST else ''}"
        )

    def set_running(self, running: bool) -> None:
        self.run_button.setEnabled(not running)
        self.cancel_button.setEnabled(running)
        self.progress.setVisible(running)
        if running:
            self.progress.setValue(0)

    def set_progress(self, message: str, fraction: float) -> None:
        self.progress.setValue(int(100 * fraction))
        self.progress.setFormat(f"{message} — %p%")
