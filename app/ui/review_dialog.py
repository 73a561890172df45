"""Review before sending: the message exactly as the model will read it, before any of it leaves.

The detector misses some identifiers and takes some ordinary words for names, so the person sending is
the last check: they can hide words it missed and send a false stand-in's original as written. Each change
goes to the conversation's own mapping (through the host) and the message is read again; Send sends the
text shown, and nothing else (the host refuses a reply that would read otherwise).

The text is laid out with ``setPlainText`` and coloured by position rather than through
``highlighted_html``: Qt's HTML reader drops a message's leading and trailing line breaks, and then a
selection's position is no longer the model text's.
"""

from __future__ import annotations

import asyncio
import re
from bisect import bisect_left
from collections.abc import Awaitable, Callable
from itertools import accumulate

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication, QTextCharFormat, QTextCursor
from PySide6.QtWidgets import QDialog, QHBoxLayout, QLabel, QPushButton, QTextEdit, QVBoxLayout, QWidget

from app.host import ModelText
from app.ui.i18n import QT_TRANSLATE_NOOP, translate
from app.ui.messages import explain
from app.ui.palette import colours, on_palette_change

TITLE = QT_TRANSLATE_NOOP("ReviewDialog", "Review before sending")
INTRO = QT_TRANSLATE_NOOP(
    "ReviewDialog",
    "<b>This is your message as the model will read it.</b> Nothing has been sent yet. Highlighted and "
    "underlined words are stand-ins for identifiers; the originals stay on this computer. Select words the "
    "model should not read and hide them, or select a stand-in to send the original as written. Earlier "
    "messages of this conversation are read with the same choices.",
)
HIDE_LABEL = QT_TRANSLATE_NOOP("ReviewDialog", "&Hide selected words")
HIDE_TIP = QT_TRANSLATE_NOOP(
    "ReviewDialog", "Replace the selected words by a stand-in in this message and every other of this conversation"
)
KEEP_LABEL = QT_TRANSLATE_NOOP("ReviewDialog", "Send selected stand-in as &written")
KEEP_TIP = QT_TRANSLATE_NOOP(
    "ReviewDialog", "The selected stand-in replaced words that are not an identifier: send the original words instead"
)
SEND_LABEL = QT_TRANSLATE_NOOP("ReviewDialog", "&Send")
SEND_TIP = QT_TRANSLATE_NOOP("ReviewDialog", "Send exactly the text shown (Enter)")
CANCEL_LABEL = QT_TRANSLATE_NOOP("ReviewDialog", "Cancel")
CANCEL_TIP = QT_TRANSLATE_NOOP(
    "ReviewDialog", "Back to the message box: your message stays there and nothing is sent (Esc)"
)
NOT_PSEUDONYMISED_TIP = QT_TRANSLATE_NOOP(
    "ReviewDialog",
    "Identifiers are not replaced for this provider (Settings → Provider → Pseudonymise): the message is "
    "sent as written.",
)
SELECT_WORDS = QT_TRANSLATE_NOOP("ReviewDialog", "Select the words to hide first.")
ALREADY_STAND_IN = QT_TRANSLATE_NOOP(
    "ReviewDialog", "The selection is a stand-in already: use “Send selected stand-in as written” to undo it."
)
SELECT_STAND_IN = QT_TRANSLATE_NOOP("ReviewDialog", "Select a highlighted stand-in, or put the cursor in one, first.")
# Fits a 1366×768 laptop screen with the taskbar and the window's frame.
MAX_WIDTH, MAX_HEIGHT = 900, 600
_WORD_CHARS = re.compile(r"[\w'’\-]")

HideTerm = Callable[[str], Awaitable[ModelText]]  # hide a term, then the message read again
KeepStandIn = Callable[[str], Awaitable[tuple[str | None, ModelText]]]  # (its original or None, read again)


class ReviewDialog(QDialog):
    """The last message as the model will read it; hide words, un-hide stand-ins, then Send or Cancel."""

    def __init__(
        self,
        model_text: ModelText,
        hide: HideTerm | None,
        keep: KeepStandIn | None,
        parent: QWidget | None = None,
    ):
        super().__init__(parent)
        self.setWindowTitle(translate("ReviewDialog", TITLE))
        self.model_text = model_text
        self._hide, self._keep = hide, keep  # None: the provider does not pseudonymise, nothing to mark
        self.marked = False  # the user hid or un-hid something: the mapping changed
        self.busy: asyncio.Task | None = None
        self._decision: asyncio.Future[bool] | None = None
        self._build()
        self.show_text(model_text)
        on_palette_change(self._restyle)
        self.finished.connect(self._decided)

    def _build(self) -> None:
        intro = QLabel(translate("ReviewDialog", INTRO))
        intro.setWordWrap(True)
        self.view = QTextEdit()
        self.view.setAccessibleName(translate("ReviewDialog", "Your message as the model will read it"))
        self.view.setReadOnly(True)
        self.view.setTabChangesFocus(True)  # Tab leaves for the buttons
        self.view.setAcceptRichText(False)
        # Selectable by keyboard too: Shift+arrows select words to hide without a mouse.
        self.view.setTextInteractionFlags(
            Qt.TextInteractionFlag.TextSelectableByMouse | Qt.TextInteractionFlag.TextSelectableByKeyboard
        )
        self.view.selectionChanged.connect(self._update_buttons)
        self.view.cursorPositionChanged.connect(self._update_buttons)
        self.note = QLabel("")
        self.note.setWordWrap(True)
        self.hide_button = QPushButton(translate("ReviewDialog", HIDE_LABEL))
        self.keep_button = QPushButton(translate("ReviewDialog", KEEP_LABEL))
        self.send_button = QPushButton(translate("ReviewDialog", SEND_LABEL))
        self.cancel_button = QPushButton(translate("ReviewDialog", CANCEL_LABEL))
        marking = self._hide is not None
        self.hide_button.setToolTip(translate("ReviewDialog", HIDE_TIP if marking else NOT_PSEUDONYMISED_TIP))
        self.keep_button.setToolTip(translate("ReviewDialog", KEEP_TIP if marking else NOT_PSEUDONYMISED_TIP))
        self.send_button.setToolTip(translate("ReviewDialog", SEND_TIP))
        self.cancel_button.setToolTip(translate("ReviewDialog", CANCEL_TIP))
        self.send_button.setDefault(True)  # Enter in the text sends; Enter on a focused button presses it
        self.hide_button.clicked.connect(self.hide_clicked)
        self.keep_button.clicked.connect(self.keep_clicked)
        self.send_button.clicked.connect(self.accept)
        self.cancel_button.clicked.connect(self.reject)
        buttons = QHBoxLayout()
        buttons.addWidget(self.hide_button)
        buttons.addWidget(self.keep_button)
        buttons.addStretch(1)
        buttons.addWidget(self.send_button)
        buttons.addWidget(self.cancel_button)
        column = QVBoxLayout(self)
        column.addWidget(intro)
        column.addWidget(self.view, 1)
        column.addWidget(self.note)
        column.addLayout(buttons)
        QWidget.setTabOrder(self.view, self.hide_button)
        QWidget.setTabOrder(self.hide_button, self.keep_button)
        QWidget.setTabOrder(self.keep_button, self.send_button)
        QWidget.setTabOrder(self.send_button, self.cancel_button)
        self.setMinimumSize(480, 320)
        screen = (self.screen() or QGuiApplication.primaryScreen()).availableGeometry()
        self.resize(min(MAX_WIDTH, screen.width() - 40), min(MAX_HEIGHT, screen.height() - 80))
        self.view.setFocus()

    # -- what is shown ------------------------------------------------------------------------------
    def show_text(self, model_text: ModelText) -> None:
        """Show ``model_text`` exactly, its stand-ins coloured as in "What the model read"."""
        self.model_text = model_text
        text = model_text.text
        self._offsets = _utf16_offsets(text)
        self.view.setPlainText(text)
        # Highlighted in the palette's stand-in colours and underlined: not told by colour alone.
        pair = colours().stand_in["review"]
        marked = QTextCharFormat()
        marked.setBackground(pair.background)
        marked.setForeground(pair.foreground)
        marked.setFontUnderline(True)
        cursor = QTextCursor(self.view.document())
        for start, end in model_text.stand_ins:
            cursor.setPosition(self._offsets[start])
            cursor.setPosition(self._offsets[end], QTextCursor.MoveMode.KeepAnchor)
            cursor.mergeCharFormat(marked)
        # A screen reader reads the text without its highlights: the stand-ins are listed for it.
        stand_ins = list(dict.fromkeys(text[start:end] for start, end in model_text.stand_ins))
        self.view.setAccessibleDescription(
            translate("ReviewDialog", "Stand-ins for identifiers in it: {stand_ins}").format(
                stand_ins=", ".join(f"“{s}”" for s in stand_ins)
            )
            if stand_ins
            else translate("ReviewDialog", "No identifier in it is replaced.")
        )
        self._update_buttons()

    def _restyle(self) -> None:
        self.show_text(self.model_text)  # the stand-ins in the new palette's colours

    @property
    def shown(self) -> str:
        """The text shown: what Send sends."""
        return self.model_text.text

    def select(self, start: int, end: int) -> None:
        """Select ``shown[start:end]`` (character offsets), as the user would."""
        cursor = self.view.textCursor()
        cursor.setPosition(self._offsets[start])
        cursor.setPosition(self._offsets[end], QTextCursor.MoveMode.KeepAnchor)
        self.view.setTextCursor(cursor)

    def selection(self) -> tuple[int, int]:
        """The selection as character offsets into ``shown``."""
        cursor = self.view.textCursor()
        return self._index(cursor.selectionStart()), self._index(cursor.selectionEnd())

    def selected_words(self) -> str | None:
        """The selected words, widened to whole words; None when nothing is selected or it touches a stand-in."""
        start, end = self.selection()
        text = self.shown
        while start > 0 and _WORD_CHARS.match(text[start - 1]) and _WORD_CHARS.match(text[start]):
            start -= 1
        while end < len(text) and end > 0 and _WORD_CHARS.match(text[end]) and _WORD_CHARS.match(text[end - 1]):
            end += 1
        words = text[start:end].strip()
        if not words or any(s < end and start < e for s, e in self.model_text.stand_ins):
            return None
        return words

    def selected_stand_ins(self) -> list[str]:
        """The stand-ins the selection touches (the one holding the cursor when nothing is selected)."""
        start, end = self.selection()
        spans = self.model_text.stand_ins
        touched = [(s, e) for s, e in spans if (s <= start <= e if start == end else s < end and start < e)]
        return list(dict.fromkeys(self.shown[s:e] for s, e in touched))

    def _update_buttons(self) -> None:
        idle = self.busy is None or self.busy.done()
        can_mark = idle and self._hide is not None
        self.hide_button.setEnabled(can_mark and self.selected_words() is not None)
        self.keep_button.setEnabled(can_mark and bool(self.selected_stand_ins()))
        self.send_button.setEnabled(idle)

    def _index(self, position: int) -> int:
        """A document position (UTF-16 units) as a character offset into ``shown``."""
        return min(bisect_left(self._offsets, position), len(self.shown))

    # -- changes ------------------------------------------------------------------------------------
    def hide_clicked(self) -> asyncio.Task | None:
        words = self.selected_words()
        if words is None:
            self.note.setText(
                translate("ReviewDialog", ALREADY_STAND_IN if self.selected_stand_ins() else SELECT_WORDS)
            )
            return None
        return self._start(self._hide_words(words))

    def keep_clicked(self) -> asyncio.Task | None:
        stand_ins = self.selected_stand_ins()
        if not stand_ins:
            self.note.setText(translate("ReviewDialog", SELECT_STAND_IN))
            return None
        return self._start(self._keep_stand_ins(stand_ins))

    async def _hide_words(self, words: str) -> None:
        read = await self._hide(words)
        self.marked = True
        self.show_text(read)
        if _mentions(read.text, words):
            self.note.setText(
                translate(
                    "ReviewDialog",
                    "“{words}” could not be hidden: the model would still read it. Cancel to reword the message.",
                ).format(words=words)
            )
        else:
            self.note.setText(
                translate(
                    "ReviewDialog",
                    "“{words}” is hidden from the model in this conversation, earlier messages included.",
                ).format(words=words)
            )

    async def _keep_stand_ins(self, stand_ins: list[str]) -> None:
        kept, read = [], self.model_text
        for stand_in in stand_ins:
            original, read = await self._keep(stand_in)
            if original is not None:
                kept.append(original)
        self.marked = self.marked or bool(kept)
        self.show_text(read)
        # Said as it is: the detector may find an original again (another rule, a part of a name).
        still = [k for k in kept if not _mentions(read.text, k)]
        if still:
            self.note.setText(
                translate(
                    "ReviewDialog",
                    "Still replaced: {terms} — the detector finds it again. The text shown is what is sent.",
                ).format(terms=_quoted(still))
            )
        elif kept:
            self.note.setText(
                translate("ReviewDialog", "Sent as written from now on: {terms}.").format(terms=_quoted(kept))
            )
        else:
            self.note.setText(translate("ReviewDialog", "That is not a stand-in of this conversation."))

    def _start(self, job: Awaitable[None]) -> asyncio.Task:
        self.busy = asyncio.ensure_future(self._run(job))
        self._update_buttons()
        return self.busy

    async def _run(self, job: Awaitable[None]) -> None:
        self.note.setText(translate("ReviewDialog", "Reading the message again…"))
        try:
            await job
        except Exception as exc:  # said in the dialog; what is shown is still what would be sent
            what, todo = explain(exc)
            self.note.setText(f"{what} {todo}")
        finally:
            self.busy = None
            self._update_buttons()

    # -- the decision -------------------------------------------------------------------------------
    async def decision(self) -> bool:
        """Show the dialog (window-modal, no nested event loop); True once Send is pressed, False on Cancel."""
        self._decision = decision = asyncio.get_running_loop().create_future()
        # Deleted with its window, the dialog goes without finishing: nothing is sent, and nothing is left to
        # return to, so the wait ends as cancelled.
        self.destroyed.connect(lambda *_: decision.cancel())
        self.open()
        return await decision

    def accept(self) -> None:
        if self.busy is None or self.busy.done():  # never a text being read again
            super().accept()

    def _decided(self, result: int) -> None:
        if self._decision is not None and not self._decision.done():
            self._decision.set_result(result == QDialog.DialogCode.Accepted)


def _mentions(text: str, term: str) -> bool:
    """Whether ``term`` occurs in ``text`` as whole words, in any case."""
    return re.search(rf"(?<!\w){re.escape(term)}(?!\w)", text, re.IGNORECASE) is not None


def _quoted(terms: list[str]) -> str:
    return ", ".join(f"“{term}”" for term in terms)


def _utf16_offsets(text: str) -> list[int]:
    """The document position of each character offset of ``text`` (and of its end): Qt counts UTF-16 units,
    and lays out a CR LF as one line break."""
    units = [
        0 if ch == "\r" and text[i + 1 : i + 2] == "\n" else len(ch.encode("utf-16-le")) // 2
        for i, ch in enumerate(text)
    ]
    return [0, *accumulate(units)]
