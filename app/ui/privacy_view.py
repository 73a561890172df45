"""Measured token recovery per split depth, from the privacy evaluation's cached report — never a guess."""

from __future__ import annotations

import html

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QEvent, QSize, Qt, Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QFrame,
    QLabel,
    QProgressBar,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from app.host import PrivacyReport, PrivacySettings, is_shipped
from app.ui.engine_text import engine_text
from app.ui.focus import RING, paint_focus_ring
from app.ui.i18n import QT_TRANSLATE_NOOP, number, short_date, translate
from app.ui.palette import colours, css, on_palette_change
from app.ui.wrapping_row import WrappingRow, button_group

# (direction, attacker, label, colour (palette.SERIES_HUES), line style, marker): the attackers differ by
# marker as well as colour, the directions by line style, so no series is told by its colour alone.
SERIES = (
    (
        "to_worker",
        "public_head_search",
        QT_TRANSLATE_NOOP("PrivacyView", "sent · public weights (head search)"),
        "public",
        Qt.SolidLine,
        "o",
    ),
    ("to_worker", "learned_mlp", QT_TRANSLATE_NOOP("PrivacyView", "sent · learned MLP"), "learned", Qt.SolidLine, "s"),
    (
        "from_worker",
        "public_tail",
        QT_TRANSLATE_NOOP("PrivacyView", "returned · public weights (tail)"),
        "public",
        Qt.DashLine,
        "o",
    ),
    (
        "from_worker",
        "learned_mlp",
        QT_TRANSLATE_NOOP("PrivacyView", "returned · learned MLP"),
        "learned",
        Qt.DashLine,
        "s",
    ),
)
MARKERS = {"o": "●", "s": "■", None: ""}  # a marker as the key writes it
PLOT_LINES = 14  # the plot's least height, in lines of the panel's text: it scales with the font
SMALL_TEST = 1000  # test tokens below which an evaluation is called a quick estimate
NO_ESTIMATE = QT_TRANSLATE_NOOP(
    "PrivacyView",
    "No privacy estimate is available for this model yet. Run the evaluation to measure how many tokens "
    "an attacker could recover from the hidden states at each split depth.",
)

BASELINE_LABEL = QT_TRANSLATE_NOOP("PrivacyView", "baseline: most frequent token")
WORKER_HERE = QT_TRANSLATE_NOOP(
    "PrivacyView",
    "Now the built-in worker on this computer answers, so nothing crosses the network: these figures are what "
    "the operator of a remote worker could read back, were one chosen in Settings.",
)


def legend_key(label: str, colour: QColor, style: Qt.PenStyle, marker: str | None = None) -> str:
    """One line of the key: the series' line style, marker and colour drawn in text, then its name."""
    stroke = "━" if style == Qt.SolidLine else "╍"
    drawn = f"{stroke}{MARKERS[marker]}{stroke}" if marker else stroke * 2
    return f'<span style="color: {css(colour)}">{drawn}</span>&nbsp;{html.escape(label)}'


def provenance(report: PrivacyReport) -> str:
    """Which evaluation measured the figures: the one shipped with the app is said to be that, with what it
    ran, so nobody takes it for a measurement made on this computer."""
    measured = translate("PrivacyView", "measured on {tokens} test tokens of {corpus}").format(
        tokens=number(report.corpus.test_pairs), corpus=engine_text(report.corpus.description)
    )
    created = short_date(report.created)
    if not is_shipped(report):
        return translate("PrivacyView", "Evaluation of {date}, {measured}.").format(date=created, measured=measured)
    if report.settings == PrivacySettings():
        settings = translate("PrivacyView", "its default settings")
    else:
        settings = translate("PrivacyView", "the settings in docs/PRIVACY.md")
    return translate(
        "PrivacyView",
        "This is the measurement shipped with splitchat for exactly these weights: splitchat privacy with "
        "{settings} (depths {depths}), run on {date} and {measured}. "
        "Run the evaluation to measure it on this computer or on your own documents.",
    ).format(settings=settings, depths=", ".join(map(str, report.depths)), date=created, measured=measured)


class RecoveryPlot(pg.PlotWidget):
    """The plot, asking for its least height (PLOT_LINES lines) and taking what room is left: pyqtgraph's own
    size hint asked for 480 pixels, and the panel scrolled in a window that had room for all of it."""

    def sizeHint(self) -> QSize:  # noqa: N802 (Qt's name)
        return QSize(super().sizeHint().width(), self.minimumHeight())


class PanelScroll(QScrollArea):
    """The panel's text and plot, scrolled where they are longer than the panel. It takes Tab (and shows that
    it has it, PageUp/PageDown then scrolling) only while there is something to scroll to."""

    def __init__(self, content: QWidget):
        super().__init__()
        self.setWidgetResizable(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)  # the labels wrap instead
        self.setViewportMargins(RING, RING, RING, RING)  # room for the focus ring
        self.setAccessibleName(translate("PrivacyView", "Privacy measurement"))
        self.setWidget(content)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.verticalScrollBar().rangeChanged.connect(self._range_changed)

    def _range_changed(self, _low: int, high: int) -> None:
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus if high > 0 else Qt.FocusPolicy.NoFocus)

    def event(self, event: QEvent) -> bool:
        handled = super().event(event)
        if event.type() == QEvent.Type.Paint and self.hasFocus():
            paint_focus_ring(self)
        elif event.type() in (QEvent.Type.FocusIn, QEvent.Type.FocusOut):
            self.update()
        return handled


class PrivacyView(QWidget):
    run_requested = Signal()
    cancel_requested = Signal()
    shown = Signal()  # a report (or none) was shown for a depth: the chat's banner quotes it

    def __init__(self):
        super().__init__()
        self.report: PrivacyReport | None = None
        self.depth = 0
        self._shown_as: tuple[bool, bool] = (True, False)  # (public_checkpoint, worker_here) last shown
        self.statement = QLabel(translate("PrivacyView", NO_ESTIMATE))
        self.statement.setWordWrap(True)
        self.checkpoint = QLabel("")
        self.checkpoint.setWordWrap(True)
        # The plot's title is a label of the panel's: pyqtgraph draws its own on one line, cut off in a narrow
        # panel (a 1024-pixel window's) and at 150 % text.
        self.heading = QLabel(translate("PrivacyView", "<b>Tokens recovered (top-1)</b> at each split depth"))
        self.heading.setWordWrap(True)
        self.plot = RecoveryPlot()
        self.plot.setAccessibleName(translate("PrivacyView", "Tokens recovered at each split depth"))
        self.plot.setLabel("left", translate("PrivacyView", "recovered"), units="%")
        self.plot.setLabel("bottom", translate("PrivacyView", "split depth"))
        self.plot.setToolTip(
            translate("PrivacyView", "Split depth: the layers kept on this computer at each end of the model")
        )
        self.plot.setYRange(0, 100, padding=0.04)
        self.plot.showGrid(x=True, y=True, alpha=0.3)
        self.plot.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # Tab went into it and showed no focus
        # The key sits below the plot, not on it: the sent series run along the top at 90-100 % and the
        # baseline along the bottom, so no corner of the plot is free whatever the model.
        self.legend = QLabel("")
        self.legend.setTextFormat(Qt.RichText)
        self.legend.setWordWrap(True)
        self.depth_line = pg.InfiniteLine(angle=90)
        self.plot.addItem(self.depth_line)
        self.run_button = QPushButton(translate("PrivacyView", "Run privacy evaluation"))
        self.run_button.setToolTip(
            translate(
                "PrivacyView",
                "Measure how much of the text the hidden states give away at each split depth (takes minutes)",
            )
        )
        self.cancel_button = QPushButton(translate("PrivacyView", "Cancel"))
        self.cancel_button.setToolTip(translate("PrivacyView", "Stop the evaluation; nothing is saved"))
        self.cancel_button.setEnabled(False)
        self.progress = QProgressBar()
        self.progress.setAccessibleName(translate("PrivacyView", "Privacy evaluation progress"))
        self.progress.setVisible(False)
        self.run_button.clicked.connect(self.run_requested.emit)
        self.cancel_button.clicked.connect(self.cancel_requested.emit)
        # What the panel says scrolls when it is longer than the panel (a 640-pixel window, 150 % text); the
        # buttons stay below it. Each label keeps the height its text needs, and the plot keeps lines' worth.
        content = QWidget()
        column = QVBoxLayout(content)
        column.setContentsMargins(0, 0, 0, 0)
        column.addWidget(self.statement)
        column.addWidget(self.heading)
        column.addWidget(self.plot, 1)
        column.addWidget(self.legend)
        column.addWidget(self.checkpoint)
        self.scroll = PanelScroll(content)
        buttons = WrappingRow()
        buttons.addWidget(button_group(self.run_button, self.cancel_button))
        layout = QVBoxLayout(self)
        layout.addWidget(self.scroll, 1)
        layout.addLayout(buttons)
        layout.addWidget(self.progress)
        self.plot.setVisible(False)
        self.heading.setVisible(False)
        self.legend.setVisible(False)
        self._fit_plot()
        self._restyle_plot()
        on_palette_change(self._restyle)

    def _fit_plot(self) -> None:
        self.plot.setMinimumHeight(PLOT_LINES * self.fontMetrics().lineSpacing())

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 (Qt's name)
        super().changeEvent(event)
        if event.type() == QEvent.Type.FontChange:
            self._fit_plot()

    def _restyle_plot(self) -> None:
        """The plot's background, axes and depth line in the palette's colours (app.ui.palette)."""
        scheme = colours()
        self.plot.setBackground(scheme.plot.background)
        for side in ("left", "bottom"):
            axis = self.plot.getAxis(side)
            axis.setPen(pg.mkPen(scheme.plot.foreground))
            axis.setTextPen(pg.mkPen(scheme.plot.foreground))
        self.depth_line.setPen(pg.mkPen(scheme.series["depth"].foreground, width=1, style=Qt.DotLine))

    def _restyle(self) -> None:
        self._restyle_plot()
        self.show_report(self.report, self.depth, *self._shown_as)  # the series in the new colours

    def show_report(
        self, report: PrivacyReport | None, depth: int, public_checkpoint: bool, worker_here: bool = False
    ) -> None:
        """Draw ``report`` (or say there is none) with the current split depth marked. ``worker_here``: the
        built-in worker on this computer answers now, so the figures describe a remote worker, not it."""
        self.report, self.depth = report, depth
        self._shown_as = (public_checkpoint, worker_here)
        self.plot.clear()
        self.plot.addItem(self.depth_line)
        self.depth_line.setValue(depth)
        if public_checkpoint:
            checkpoint = translate(
                "PrivacyView",
                "The local layers are a published checkpoint: anyone can download them, so the public-weights "
                "attacks apply.",
            )
        else:
            checkpoint = translate(
                "PrivacyView",
                "The local layers are private weights: the public-weights attacks apply only if they leak. Keeping "
                "them private is an operational duty, not a guarantee.",
            )
        here = translate("PrivacyView", WORKER_HERE)
        self.checkpoint.setText(f"{here} {checkpoint}" if worker_here else checkpoint)
        if report is None:
            self.statement.setText(translate("PrivacyView", NO_ESTIMATE))
            self.plot.setVisible(False)
            self.heading.setVisible(False)
            self.legend.setVisible(False)
            self.shown.emit()
            return
        self.plot.setVisible(True)
        self.heading.setVisible(True)
        self.legend.setVisible(True)
        scheme = colours()
        self.plot.getAxis("bottom").setTicks([[(d, str(d)) for d in report.depths]])  # depths are whole layers
        keys, read_out = [], []
        for direction, attacker, label, hue, style, marker in SERIES:
            rows = report.series(direction, attacker)
            if not rows:
                continue
            colour = scheme.series[hue].foreground
            keys.append(legend_key(translate("PrivacyView", label), scheme.legend[hue].foreground, style, marker))
            read_out.append(
                translate("PrivacyView", "{series}: {values}").format(
                    series=translate("PrivacyView", label),
                    values=", ".join(
                        translate("PrivacyView", "depth {depth} {share}%").format(
                            depth=r.depth, share=number(100 * r.top1)
                        )
                        for r in rows
                    ),
                )
            )
            x = np.array([r.depth for r in rows], dtype=float)
            y = np.array([100 * r.top1 for r in rows])
            low = y - np.array([100 * r.ci95[0] for r in rows])
            high = np.array([100 * r.ci95[1] for r in rows]) - y
            pen = pg.mkPen(colour, width=2, style=style)
            self.plot.plot(x, y, pen=pen, symbol=marker, symbolBrush=colour, symbolPen=pg.mkPen(colour))
            self.plot.addItem(pg.ErrorBarItem(x=x, y=y, top=high, bottom=low, beam=0.2, pen=pg.mkPen(colour)))
        baseline = 100 * report.baseline["most_frequent"].top1
        line = self.plot.plot(
            [min(report.depths), max(report.depths)],
            [baseline, baseline],
            pen=pg.mkPen(scheme.series["baseline"].foreground, width=1, style=Qt.DashLine),
        )
        line.setZValue(-1)
        keys.append(
            legend_key(translate("PrivacyView", BASELINE_LABEL), scheme.legend["baseline"].foreground, Qt.DashLine)
        )
        self.legend.setText("<br>".join(keys))
        # A canvas has no text of its own: a screen reader is read the figures it plots.
        read_out.append(
            translate("PrivacyView", "{series}: {share}%").format(
                series=translate("PrivacyView", BASELINE_LABEL), share=number(baseline)
            )
        )
        self.plot.setAccessibleDescription("; ".join(read_out))
        self.statement.setText(self.describe(report, depth))
        self.shown.emit()

    @staticmethod
    def describe(report: PrivacyReport, depth: int) -> str:
        """One plain sentence per direction for the current depth, from measured rows only, and which
        evaluation measured them (its date and size: a quick run must not read like a thorough one)."""
        exposure = report.exposure(depth)
        sent = exposure.sent
        if sent is None:
            return translate("PrivacyView", "Depth {depth} was not measured (measured: {depths}).").format(
                depth=depth, depths=", ".join(map(str, report.depths))
            )
        if sent.attacker != "learned_mlp":
            who = translate("PrivacyView", "an attacker holding the public weights")
        else:
            who = translate(
                "PrivacyView",
                "an attacker trained on collected activations (the public-weights attacks were not run)",
            )
        parts = [
            translate(
                "PrivacyView",
                "At depth {depth}, {who} recovers {share}% of the tokens sent to the worker (95% CI {low}–{high}%)",
            ).format(
                depth=depth,
                who=who,
                share=number(100 * sent.top1),
                low=number(100 * sent.ci95[0]),
                high=number(100 * sent.ci95[1]),
            )
        ]
        if exposure.sent_learned is not None and exposure.sent_learned is not sent:
            parts.append(
                translate("PrivacyView", "one trained on collected activations recovers {share}%").format(
                    share=number(100 * exposure.sent_learned.top1)
                )
            )
        baseline = report.baseline["most_frequent"].top1
        size = report.corpus.test_pairs
        quick = (
            " "
            + translate(
                "PrivacyView",
                "A quick estimate: only {tokens} test tokens, so the interval is wide — run the full evaluation "
                "for a firm figure.",
            ).format(tokens=number(size))
            if size < SMALL_TEST
            else ""
        )
        guess = translate("PrivacyView", "Guessing the most frequent token scores {share}%.").format(
            share=number(100 * baseline)
        )
        return "; ".join(parts) + f". {guess} {provenance(report)}{quick}"

    @staticmethod
    def exposure_words(report: PrivacyReport | None, depth: int) -> str | None:
        """How much of the text a worker can read back at ``depth``, for the chat's banner (None: unmeasured)."""
        sent = report.exposure(depth).sent if report is not None else None
        if sent is None:
            return None
        size = report.corpus.test_pairs
        if is_shipped(report):
            text = translate(
                "PrivacyView",
                "about {share} % of the tokens (word pieces) it receives — measured for this model by the splitchat "
                "project, shipped with the app, at depth {depth} on {tokens} test tokens",
            )
        else:
            text = translate(
                "PrivacyView",
                "about {share} % of the tokens (word pieces) it receives — measured for this model at depth {depth} "
                "on {tokens} test tokens",
            )
        quick = translate("PrivacyView", ", a quick estimate") if size < SMALL_TEST else ""
        return text.format(share=number(100 * sent.top1), depth=depth, tokens=number(size)) + quick

    def set_running(self, running: bool) -> None:
        self.run_button.setEnabled(not running)
        self.cancel_button.setEnabled(running)
        self.progress.setVisible(running)
        if running:
            self.progress.setValue(0)

    def set_progress(self, message: str, fraction: float) -> None:
        self.progress.setValue(int(100 * fraction))
        self.progress.setFormat(f"{engine_text(message)} — %p%")
