"""The message view: one bubble per message, a Copy button on each.

An answer is rendered as Markdown; what the user typed is shown exactly as typed (a pasted letter keeps
its line breaks, which Markdown would join into one paragraph).
"""

from __future__ import annotations

import html

from PySide6.QtCore import Qt
from PySide6.QtGui import QTextDocument
from PySide6.QtWidgets import (
    QApplication,
    QFrame,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

ROLE_NAMES = {"user": "You", "assistant": "Assistant", "system": "System"}
ROLE_STYLE = {
    "user": "background: #e8f0fe; border-radius: 8px;",
    "assistant": "background: #f6f6f6; border-radius: 8px;",
    "system": "background: #fff8e1; border-radius: 8px;",
}


STAND_IN_COLOUR = "#ffe08a"  # a stand-in for an identifier, wherever the model's text is shown
STAND_IN_STYLE = f"background: {STAND_IN_COLOUR};"


def highlighted_html(text: str, spans: tuple[tuple[int, int], ...]) -> str:
    """``text`` as plain text with ``spans`` marked: the model's view is shown exactly, not as Markdown."""
    parts, cursor = [], 0
    for start, end in sorted(spans):
        parts += [
            html.escape(text[cursor:start]),
            f'<span style="{STAND_IN_STYLE}">{html.escape(text[start:end])}</span>',
        ]
        cursor = end
    parts.append(html.escape(text[cursor:]))
    return f'<div style="white-space: pre-wrap;">{"".join(parts)}</div>'


def plain_html(text: str) -> str:
    """``text`` exactly as typed: every line break and run of spaces kept, nothing read as markup."""
    return highlighted_html(text, ())


def markdown_html(text: str) -> str:
    """Qt's own Markdown reader (CommonMark + GitHub fences) to HTML; a model's raw HTML stays text."""
    document = QTextDocument()
    document.setMarkdown(text, QTextDocument.MarkdownFeature.MarkdownNoHTML)
    return document.toHtml()


class MessageBubble(QFrame):
    """One message: who said it, its text as Markdown (code blocks included), and Copy."""

    def __init__(self, role: str, text: str = "", note: str = ""):
        super().__init__()
        self.role = role
        self._text = ""
        self.renders = 0  # how often the body was laid out: a streaming answer must not re-render per token
        self.setObjectName(f"bubble-{role}")
        self.setStyleSheet(f"#bubble-{role} {{ {ROLE_STYLE.get(role, '')} }}")
        layout = QVBoxLayout(self)
        header = QHBoxLayout()
        self.title = QLabel(f"<b>{ROLE_NAMES.get(role, role)}</b>")
        self.state = QLabel("")
        self.state.setStyleSheet("color: #888;")
        self.copy_button = QPushButton("Copy")
        self.copy_button.setFlat(True)
        self.copy_button.setToolTip("Copy this message as Markdown")
        self.copy_button.clicked.connect(self.copy)
        header.addWidget(self.title)
        header.addWidget(self.state)
        header.addStretch(1)
        header.addWidget(self.copy_button)
        layout.addLayout(header)
        self.body = QLabel()
        self.body.setTextFormat(Qt.TextFormat.RichText)
        self.body.setWordWrap(True)
        self.body.setTextInteractionFlags(Qt.TextInteractionFlag.TextBrowserInteraction)
        self.body.setOpenExternalLinks(False)  # a link in a model's answer is shown, not followed
        layout.addWidget(self.body)
        self.set_text(text, note)

    @property
    def text(self) -> str:
        return self._text

    def set_text(self, text: str, note: str = "") -> None:
        """Show ``text``; ``note`` says why an answer ends where it does ("" for one that simply finished)."""
        if text != self._text or not self.renders:
            self._text = text
            self._render()
        self.state.setText(f"({note})" if note else "")

    def _render(self) -> None:
        self.renders += 1
        self.body.setText(plain_html(self._text) if self.role == "user" else markdown_html(self._text))

    def show_model_text(self, text: str, stand_ins: tuple[tuple[int, int], ...]) -> None:
        """Show the message as the model read or wrote it, stand-ins highlighted (Copy still copies the original)."""
        self.body.setText(highlighted_html(text, stand_ins))
        self.title.setText(f"<b>{ROLE_NAMES.get(self.role, self.role)}</b> — as the model {self._model_verb}")

    def show_original(self) -> None:
        self._render()
        self.title.setText(f"<b>{ROLE_NAMES.get(self.role, self.role)}</b>")

    @property
    def _model_verb(self) -> str:
        return "wrote it" if self.role == "assistant" else "read it"

    def set_streaming(self, streaming: bool) -> None:
        self.state.setText("writing…" if streaming else "")

    def copy(self) -> None:
        QApplication.clipboard().setText(self._text)


class ChatView(QScrollArea):
    """The conversation's messages in order; follows the newest text while it streams."""

    def __init__(self):
        super().__init__()
        self.setWidgetResizable(True)
        self._inner = QWidget()
        self._layout = QVBoxLayout(self._inner)
        self._layout.addStretch(1)
        self.setWidget(self._inner)
        self.bubbles: list[MessageBubble] = []
        # The view keeps to its end while it is there (a message added, an answer growing) and stays put
        # once the user scrolls up to read. The end is known only once the layout has grown the range.
        self._at_end = True
        bar = self.verticalScrollBar()
        bar.rangeChanged.connect(self._range_changed)
        bar.valueChanged.connect(self._moved)

    def clear(self) -> None:
        for bubble in self.bubbles:
            bubble.setParent(None)
            bubble.deleteLater()
        self.bubbles = []
        self._at_end = True

    def add(self, role: str, text: str = "", note: str = "") -> MessageBubble:
        bubble = MessageBubble(role, text, note)
        self._layout.insertWidget(self._layout.count() - 1, bubble)
        self.bubbles.append(bubble)
        self.follow()
        return bubble

    def remove_last(self) -> None:
        if self.bubbles:
            bubble = self.bubbles.pop()
            bubble.setParent(None)
            bubble.deleteLater()

    def follow(self) -> None:
        """Go to the end, and keep to it as the content grows."""
        self._at_end = True
        bar = self.verticalScrollBar()
        bar.setValue(bar.maximum())

    def _range_changed(self, _low: int, high: int) -> None:
        if self._at_end:
            self.verticalScrollBar().setValue(high)

    def _moved(self, value: int) -> None:
        self._at_end = value >= self.verticalScrollBar().maximum()
