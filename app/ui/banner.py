"""The chat's banner: two lines on where the text goes, and the whole statement one click away.

In the width a laptop screen leaves the chat, the whole statement pushed the conversation down by most of
a page; the summary keeps to its headline and the one caution that matters, Details shows the rest.
"""

from __future__ import annotations

import html

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QToolButton, QVBoxLayout

from app.data.settings import AppSettings
from app.host import BUNDLED_SPEC
from app.ui.i18n import QT_TRANSLATE_NOOP, translate
from app.ui.palette import colours, css, on_palette_change, readable

NAME_CHARS = 16  # a provider's name in the summary, elided beyond this so the summary keeps to two lines
DEMO_SUMMARY = QT_TRANSLATE_NOOP("Banner", "Demonstration model: check every fact.")
SHOW_DETAILS, HIDE_DETAILS = QT_TRANSLATE_NOOP("Banner", "Details"), QT_TRANSLATE_NOOP("Banner", "Less")


def elided(name: str, chars: int = NAME_CHARS) -> str:
    """``name``, cut to ``chars`` characters with an ellipsis."""
    return name if len(name) <= chars else f"{name[: chars - 1].rstrip()}…"


def banner_summary(settings: AppSettings) -> str:
    """The banner's headline for these settings (rich text): where the text goes, and whether what leaves
    can be read back; the demonstration model's caution when it answers."""
    provider = settings.provider
    if provider is None:
        headline = translate("Banner", "<b>Nothing leaves this computer.</b>")
    else:
        name = html.escape(elided(provider.name))
        if settings.pseudonymising:
            headline = translate("Banner", "<b>Only hidden states go to “{name}”, identifiers replaced.</b>")
        else:
            headline = translate("Banner", "<b>Only hidden states go to “{name}” — and can be read back.</b>")
        headline = headline.format(name=name)
    demo = translate("Banner", DEMO_SUMMARY)
    return f"{headline} {demo}" if settings.model == BUNDLED_SPEC else headline


class Banner(QFrame):
    """The summary, a Details button, and the whole statement (shown in the summary's place on Details)."""

    linkActivated = Signal(str)  # noqa: N815 (QLabel's name: a link in the statement, e.g. the Privacy tab)

    def __init__(self):
        super().__init__()
        self.setObjectName("banner")
        self.setAccessibleName(translate("Banner", "Where your text goes"))
        self.kind = "local"  # palette.BANNER_KINDS: its colours
        self.summary = self._label()
        self.detail = self._label()
        self.detail.setVisible(False)
        self.details_button = QToolButton()  # narrower than a push button: the summary keeps the width
        self.details_button.setText(translate("Banner", SHOW_DETAILS))
        self.details_button.setCheckable(True)
        self.details_button.setToolTip(
            translate("Banner", "Show the whole statement: what leaves, who can read it back, as measured")
        )
        self.details_button.toggled.connect(self._show_detail)
        text = QVBoxLayout()
        text.setContentsMargins(0, 0, 0, 0)
        text.addWidget(self.summary)
        text.addWidget(self.detail)
        row = QHBoxLayout(self)
        row.setContentsMargins(8, 6, 6, 6)
        row.addLayout(text, 1)
        row.addWidget(self.details_button, 0, Qt.AlignmentFlag.AlignTop)
        on_palette_change(self.restyle)

    def _label(self) -> QLabel:
        label = QLabel()
        label.setWordWrap(True)
        label.setTextFormat(Qt.TextFormat.RichText)
        label.linkActivated.connect(self.linkActivated.emit)
        return label

    def set_statement(self, summary: str, detail: str, kind: str) -> None:
        """Show ``summary`` (Details keeps ``detail``, the whole statement) in the colours of ``kind`` (one of
        ``palette.BANNER_KINDS``): the words say where the text goes, the colour only repeats it."""
        self.summary.setText(summary)
        self.detail.setText(detail)
        self.kind = kind
        self.restyle()

    def restyle(self) -> None:
        """The background a tint of the palette's, the text (and the link to the Privacy tab) readable on it."""
        pair = colours().banner[self.kind]
        self.setStyleSheet(f"#banner {{ background: {css(pair.background)}; border-radius: 4px; }}")
        for label in (self.summary, self.detail):
            palette = QPalette(label.palette())
            palette.setColor(QPalette.ColorRole.WindowText, pair.foreground)
            palette.setColor(QPalette.ColorRole.Link, readable(palette.color(QPalette.ColorRole.Link), pair.background))
            label.setPalette(palette)

    def text(self) -> str:
        """The whole statement, whether or not Details shows it."""
        return self.detail.text()

    def _show_detail(self, shown: bool) -> None:
        self.summary.setVisible(not shown)
        self.detail.setVisible(shown)
        self.details_button.setText(translate("Banner", HIDE_DETAILS if shown else SHOW_DETAILS))
