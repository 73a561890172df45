"""The message view: one bubble per message, a Copy button on each.

An answer is rendered as Markdown; what the user typed is shown exactly as typed (a pasted letter keeps
its line breaks, which Markdown would join into one paragraph). Text wraps anywhere a line must break —
an identifier or a link longer than the bubble included — so no message widens the conversation.
"""

from __future__ import annotations

import html
import math

from PySide6.QtCore import QEvent, QSize, Qt
from PySide6.QtGui import QTextBlockFormat, QTextCursor, QTextDocument, QTextOption
from PySide6.QtWidgets import (
    QApplication,
    QFrame,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from app.ui.focus import RING, paint_focus_ring
from app.ui.i18n import QT_TRANSLATE_NOOP, translate
from app.ui.palette import Pair, colours, css, on_palette_change

ROLE_NAMES = {
    "user": QT_TRANSLATE_NOOP("ChatView", "You"),
    "assistant": QT_TRANSLATE_NOOP("ChatView", "Assistant"),
    "system": QT_TRANSLATE_NOOP("ChatView", "System"),
}


def role_name(role: str) -> str:
    return translate("ChatView", ROLE_NAMES[role]) if role in ROLE_NAMES else role


# A flat button draws nothing when it has the keyboard focus: this one draws a ring then. Its colours are
# the bubble's (``MessageBubble.restyle``).
COPY_STYLE = (
    "QPushButton {{ border: 2px solid transparent; border-radius: 4px; padding: 2px 8px; background: transparent;"
    " color: {text}; }}"
    "QPushButton:hover {{ background: rgba(0, 0, 0, 0.06); }}"
    "QPushButton:focus {{ border-color: {focus}; }}"
)

# What marks a stand-in for an identifier in a message's HTML, wherever the model's text is shown: its own
# text and highlight colours (app.ui.palette), and an underline, so it is not told by colour alone.
STAND_IN_STYLE = 'class="stand-in"'


def stand_in_style(pair: Pair) -> str:
    return f"background: {css(pair.background)}; color: {css(pair.foreground)}; text-decoration: underline;"


def highlighted_html(text: str, spans: tuple[tuple[int, int], ...], pair: Pair | None = None) -> str:
    """``text`` as plain text with ``spans`` marked (in ``pair``'s colours, an assistant bubble's by
    default): the model's view is shown exactly, not as Markdown."""
    parts, cursor = [], 0
    style = stand_in_style(pair or colours().stand_in["assistant"]) if spans else ""
    for start, end in sorted(spans):
        parts += [
            html.escape(text[cursor:start]),
            f'<span {STAND_IN_STYLE} style="{style}">{html.escape(text[start:end])}</span>',
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


def wrap_preformatted(document: QTextDocument) -> None:
    """Let code blocks wrap too: a line of code wider than the bubble would otherwise be cut off."""
    breakable = QTextBlockFormat()
    breakable.setNonBreakableLines(False)
    block = document.begin()
    while block.isValid():
        if block.blockFormat().nonBreakableLines():
            QTextCursor(block).mergeBlockFormat(breakable)
        block = block.next()


class MessageText(QTextBrowser):
    """A message's text, as tall as it needs at the bubble's width: a run with no space in it (an identifier,
    a link) breaks where the line ends. A QLabel breaks only at spaces, and one long run widened every
    bubble of the conversation; spaces inserted for display would have reached what the user copies."""

    def __init__(self):
        super().__init__()
        self._html = ""
        self._measured: tuple[int, int, int] | None = None  # (text width, document revision, height)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setWordWrapMode(QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)
        self.setOpenLinks(False)  # a link in a model's answer is shown, not followed
        # Selected with the mouse (then Ctrl+C); Tab goes to the bubble's Copy instead, which shows its focus.
        self.setFocusPolicy(Qt.FocusPolicy.ClickFocus)
        # Its height follows from its width, as a word-wrapped QLabel's does: the layout asks both in one pass.
        policy = QSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Preferred)
        policy.setHeightForWidth(True)
        self.setSizePolicy(policy)
        self.viewport().setAutoFillBackground(False)
        self.setStyleSheet("QTextBrowser { background: transparent; }")
        self.document().setDocumentMargin(0)
        self.document().documentLayout().documentSizeChanged.connect(self.updateGeometry)

    def text(self) -> str:
        """The HTML shown (as QLabel.text() gave it)."""
        return self._html

    def setText(self, html: str) -> None:  # noqa: N802 (QLabel's name, which the bubble used)
        self._html = html
        self.setHtml(html)
        wrap_preformatted(self.document())
        self.updateGeometry()

    def hasHeightForWidth(self) -> bool:  # noqa: N802 (Qt's names, here and below)
        return True

    def heightForWidth(self, width: int) -> int:
        text_width = max(width - 2 * self.frameWidth(), 1)
        revision = self.document().revision()
        if self._measured is None or self._measured[:2] != (text_width, revision):
            self._measured = (text_width, revision, self._height_at(text_width))
        return self._measured[2] + 2 * self.frameWidth()

    def _height_at(self, text_width: int) -> int:
        document = self.document()
        if document.textWidth() != text_width:
            # A copy: laid out at another width, the shown document would be drawn at that width.
            document = document.clone()
            document.setTextWidth(text_width)
        return math.ceil(document.size().height())

    def sizeHint(self) -> QSize:
        return QSize(0, self.heightForWidth(self.width()))

    def minimumSizeHint(self) -> QSize:
        return QSize(0, 0)  # it wraps to any width; its height is heightForWidth's


class MessageBubble(QFrame):
    """One message: who said it, its text as Markdown (code blocks included), and Copy.

    A screen reader reads it as one piece, who wrote it first: its accessible name is "You: …" or
    "Assistant (stopped): …", the text as shown (Markdown as words, a stand-in named as one)."""

    def __init__(self, role: str, text: str = "", note: str = ""):
        super().__init__()
        self.role = role
        self._text = ""
        self._model_text: tuple[str, tuple[tuple[int, int], ...]] | None = None  # shown as the model read it
        self.renders = 0  # how often the body was laid out: a streaming answer must not re-render per token
        self.setObjectName(f"bubble-{role}")
        layout = QVBoxLayout(self)
        header = QHBoxLayout()
        self.title = QLabel(f"<b>{role_name(role)}</b>")
        self.state = QLabel("")
        self.copy_button = QPushButton(translate("ChatView", "Copy"))
        self.copy_button.setFocusPolicy(Qt.FocusPolicy.TabFocus)  # a click copies and leaves no ring behind
        self.copy_button.setToolTip(translate("ChatView", "Copy this message as Markdown"))
        # Said with whose message it is: a screen reader hears one "Copy" per message.
        self.copy_button.setAccessibleDescription(
            translate("ChatView", "Copy the message from {who} as Markdown").format(who=role_name(role))
        )
        self.copy_button.clicked.connect(self.copy)
        header.addWidget(self.title)
        header.addWidget(self.state)
        header.addStretch(1)
        header.addWidget(self.copy_button)
        layout.addLayout(header)
        self.body = MessageText()
        self.body.setAccessibleName(translate("ChatView", "Message from {who}").format(who=role_name(role)))
        layout.addWidget(self.body)
        self.restyle()
        on_palette_change(self.restyle)
        self.set_text(text, note)

    def restyle(self) -> None:
        """Its colours, from the application's palette (app.ui.palette): again when the theme changes."""
        scheme = colours()
        pair, muted = scheme.bubble.get(self.role, scheme.bubble["assistant"]), scheme.muted.get(self.role)
        self.setStyleSheet(f"#bubble-{self.role} {{ background: {css(pair.background)}; border-radius: 8px; }}")
        self.title.setStyleSheet(f"color: {css(pair.foreground)};")
        self.state.setStyleSheet(f"color: {css((muted or pair).foreground)};")
        self.copy_button.setStyleSheet(COPY_STYLE.format(text=css(pair.foreground), focus=css(scheme.focus.foreground)))
        self.body.setStyleSheet(f"QTextBrowser {{ background: transparent; color: {css(pair.foreground)}; }}")
        if self._model_text is not None:
            self.show_model_text(*self._model_text)

    @property
    def text(self) -> str:
        return self._text

    def set_text(self, text: str, note: str = "") -> None:
        """Show ``text``; ``note`` says why an answer ends where it does ("" for one that simply finished)."""
        if text != self._text or not self.renders:
            self._text = text
            self._render()
        self.state.setText(f"({note})" if note else "")
        self._name()

    def _render(self) -> None:
        self.renders += 1
        self.body.setText(plain_html(self._text) if self.role == "user" else markdown_html(self._text))

    def show_model_text(self, text: str, stand_ins: tuple[tuple[int, int], ...]) -> None:
        """Show the message as the model read or wrote it, stand-ins highlighted and underlined (Copy still copies
        the original)."""
        self._model_text = (text, stand_ins)
        scheme = colours()
        self.body.setText(highlighted_html(text, stand_ins, scheme.stand_in.get(self.role)))
        self.title.setText(f"<b>{role_name(self.role)}</b> — {self._as_the_model}")
        self._name()

    def show_original(self) -> None:
        self._model_text = None
        self._render()
        self.title.setText(f"<b>{role_name(self.role)}</b>")
        self._name()

    @property
    def _as_the_model(self) -> str:
        if self.role == "assistant":
            return translate("ChatView", "as the model wrote it")
        return translate("ChatView", "as the model read it")

    def set_streaming(self, streaming: bool) -> None:
        self.state.setText(translate("ChatView", "writing…") if streaming else "")
        self._name()

    def _name(self) -> None:
        """The accessible name: who wrote it, how it stands (writing, an ending, as the model read it), the text."""
        if self._model_text is not None:
            text, spans = self._model_text
            parts, cursor = [], 0
            for start, end in sorted(spans):
                stand_in = translate("ChatView", "stand-in “{text}”").format(text=text[start:end])
                parts += [text[cursor:start], stand_in]
                cursor = end
            shown = "".join([*parts, text[cursor:]])
            state = self._as_the_model
        else:
            shown = self.body.document().toPlainText()
            state = self.state.text().strip("()")
        who = role_name(self.role)
        if state:
            name = translate("ChatView", "{who} ({state}): {text}").format(who=who, state=state, text=shown)
        else:
            name = translate("ChatView", "{who}: {text}").format(who=who, text=shown)
        if name != self.accessibleName():
            self.setAccessibleName(name)

    def copy(self) -> None:
        QApplication.clipboard().setText(self._text)


class ChatView(QScrollArea):
    """The conversation's messages in order; follows the newest text while it streams."""

    def __init__(self):
        super().__init__()
        self.setWidgetResizable(True)
        # It takes the keyboard (PageUp/PageDown read the conversation), so it shows when it has it: a ring
        # painted in the room these margins leave inside the frame.
        self.setViewportMargins(RING - 1, RING - 1, RING - 1, RING - 1)
        self.setAccessibleName(translate("ChatView", "Conversation"))
        self.setAccessibleDescription(
            translate("ChatView", "The messages in order, each with who wrote it; Page Up and Page Down scroll")
        )
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

    def event(self, event: QEvent) -> bool:
        handled = super().event(event)
        if event.type() == QEvent.Type.Paint and self.hasFocus():
            paint_focus_ring(self)  # after the frame (the scroll area paints it here, not in paintEvent)
        return handled

    def clear(self) -> None:
        for bubble in self.bubbles:
            bubble.setParent(None)
            bubble.deleteLater()
        self.bubbles = []
        self._at_end = True

    def add(self, role: str, text: str = "", note: str = "") -> MessageBubble:
        bubble = MessageBubble(role, text, note)
        self._layout.insertWidget(self._layout.count() - 1, bubble)
        # A new widget joins the end of the window's Tab order (after the Privacy panel): put its Copy
        # after the one before it, where the reader meets it.
        QWidget.setTabOrder(self.bubbles[-1].copy_button if self.bubbles else self, bubble.copy_button)
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
