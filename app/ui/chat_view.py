"""The message view: one bubble per message, Markdown rendered, a Copy button on each."""

from __future__ import annotations

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


def markdown_html(text: str) -> str:
    """Qt's own Markdown reader (CommonMark + GitHub fences) to HTML; a model's raw HTML stays text."""
    document = QTextDocument()
    document.setMarkdown(text, QTextDocument.MarkdownFeature.MarkdownNoHTML)
    return document.toHtml()


class MessageBubble(QFrame):
    """One message: who said it, its text as Markdown (code blocks included), and Copy."""

    def __init__(self, role: str, text: str = "", complete: bool = True):
        super().__init__()
        self.role = role
        self._text = ""
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
        self.set_text(text, complete)

    @property
    def text(self) -> str:
        return self._text

    def set_text(self, text: str, complete: bool = True) -> None:
        if text != self._text:
            self._text = text
            self.body.setText(markdown_html(text))
        self.state.setText("" if complete else "(stopped)")

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

    def clear(self) -> None:
        for bubble in self.bubbles:
            bubble.setParent(None)
            bubble.deleteLater()
        self.bubbles = []

    def add(self, role: str, text: str = "", complete: bool = True) -> MessageBubble:
        bubble = MessageBubble(role, text, complete)
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
        bar = self.verticalScrollBar()
        bar.setValue(bar.maximum())
