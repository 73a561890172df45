"""The answer being written: streamed from the engine host into its bubble and the store as it grows.

A part of ``ChatPane``: it writes into the pane's view and conversation, and says in the pane's status
line how far the answer has got and how it ended. The answer is written to the store as it grows, so a
crash loses at most half a second of it and Stop keeps what was written. When the provider pseudonymises,
the host streams it back re-identified: the bubble and the store only ever hold the originals.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QTimer

from app.host import Ending, LinkErrorCode, Sampling, Turn, WorkerError
from app.ui.chat_view import MessageBubble
from app.ui.i18n import QT_TRANSLATE_NOOP, translate
from app.ui.i18n import number as locale_number  # ``number`` here names an answer
from app.ui.messages import ending_text

if TYPE_CHECKING:
    from app.ui.chat_pane import ChatPane

STORE_EVERY_S = 0.5  # a streaming answer is written to disk at least this often
# A streaming answer is laid out as Markdown at most this often: re-rendering the whole answer at every
# token made a long answer cost O(n²) of the GUI thread.
RENDER_EVERY_MS = 120
LOST_CODES = (LinkErrorCode.CONNECTION_LOST, LinkErrorCode.UNREACHABLE)

FINISHED_STATUS = {
    Ending.COMPLETE: QT_TRANSLATE_NOOP("ChatPane", "The answer is finished."),
    Ending.LENGTH: QT_TRANSLATE_NOOP(
        "ChatPane", "The answer reached the longest-answer limit and was cut there (Settings → Decoding)."
    ),
    Ending.STOPPED: QT_TRANSLATE_NOOP("ChatPane", "Stopped; what was written so far is kept."),
    Ending.REPEATING: QT_TRANSLATE_NOOP(
        "ChatPane", "Stopped: the answer was repeating itself. Regenerate, or ask again in other words."
    ),
}
WRITING = QT_TRANSLATE_NOOP("ChatPane", "Writing…")
# {done} and {total} arrive written in the user's locale (i18n.number): 1,234 or 1.234.
READING = QT_TRANSLATE_NOOP("ChatPane", "Reading your message: {done} of {total} tokens…")
STOPPED_BEFORE_ANSWER = QT_TRANSLATE_NOOP(
    "ChatPane", "Stopped before the answer began; your message is kept — Regenerate answers it."
)


class StreamingAnswer(QObject):
    """One answer at a time. A QObject child of the pane, so the engine's queued signals stop reaching it
    once the pane is gone."""

    def __init__(self, pane: ChatPane):
        super().__init__(pane)
        self.pane = pane
        self.generation = 0  # numbers each answer so late signals of an old one are ignored
        self.bubble: MessageBubble | None = None  # the answer being written; None between answers
        self.row: int | None = None  # its message in the store, once written there
        self.last_store = 0.0
        self.pending_text: str | None = None  # the newest streamed text not yet rendered
        self.render_timer = QTimer(self)
        self.render_timer.setSingleShot(True)
        self.render_timer.setInterval(RENDER_EVERY_MS)
        self.render_timer.timeout.connect(self._render_pending)
        pane.signals.text.connect(self._on_text)
        pane.signals.reading.connect(self._on_reading)

    async def write(self, reviewed: str | None = None, turns: list[Turn] | None = None) -> str | None:
        """Stream the answer to ``turns`` (by default the conversation as stored); returns its text, or
        None when it failed (the failure is shown). ``reviewed``: the message as the user confirmed it."""
        pane = self.pane
        pane.set_generating(True)
        pane.error.setVisible(False)
        pane.stop_flag.clear()
        self.generation += 1
        conversation = pane.conversation_id
        history = pane.history() if turns is None else turns
        bubble = self.bubble = pane.chat_view.add("assistant", "")
        bubble.set_streaming(True)
        self.row = None
        number = self.generation
        settings = pane.settings()
        identifiers = pane.model_identifiers(settings)
        signals = pane.signals
        try:
            await pane.ensure_engine()
            pane.status.emit(translate("ChatPane", WRITING))
            reply = await pane.host.reply(
                history,
                settings.max_new_tokens,
                Sampling(temperature=settings.temperature, top_p=settings.top_p),
                on_text=lambda text: signals.text.emit(number, text),
                on_step=signals.step.emit,
                should_stop=pane.stop_flag.is_set,
                on_notice=signals.notice.emit,
                identifiers=identifiers,
                on_reading=lambda done, total: signals.reading.emit(number, done, total),
                reviewed=reviewed,
            )
        except Exception as exc:  # every failure becomes a message; the conversation stays as it was
            pane.keep_identifiers(conversation, identifiers)
            lost = isinstance(exc, WorkerError) and exc.code in LOST_CODES
            ending = Ending.LOST if lost else Ending.FAILED
            self._finish(conversation, self.pending_text or bubble.text, complete=False, ending=ending)
            pane.show_error(exc)
            return None
        pane.last_reply = reply
        pane.keep_identifiers(conversation, identifiers)
        self._finish(conversation, reply.text, complete=reply.ending is not Ending.STOPPED, ending=reply.ending)
        status = FINISHED_STATUS[reply.ending] if reply.text else STOPPED_BEFORE_ANSWER
        pane.status.emit(translate("ChatPane", status))
        return reply.text

    def _finish(self, conversation: int, text: str, complete: bool, ending: Ending = Ending.COMPLETE) -> None:
        self.render_timer.stop()
        self.pending_text = None
        bubble, self.bubble = self.bubble, None
        bubble.set_streaming(False)
        chat_view = self.pane.chat_view
        if text:
            bubble.set_text(text, ending_text(complete, ending))
            self._store(conversation, text, complete, ending)
        elif chat_view.bubbles and chat_view.bubbles[-1] is bubble:
            chat_view.remove_last()  # nothing was produced: no empty answer left behind
        self.row = None
        self.pane.set_generating(False)  # the task's done callback sets them again once it has returned

    def _on_reading(self, number: int, done: int, total: int) -> None:
        if number == self.generation and self.bubble is not None:  # not a late signal of a finished answer
            if done < total:
                self.pane.status.emit(
                    translate("ChatPane", READING).format(done=locale_number(done), total=locale_number(total))
                )
            else:
                self.pane.status.emit(translate("ChatPane", WRITING))

    def _on_text(self, number: int, text: str) -> None:
        if number != self.generation or self.bubble is None:
            return  # a late signal from an answer that already finished
        self.pending_text = text
        if not self.render_timer.isActive():
            self.render_timer.start()
        if time.monotonic() - self.last_store >= STORE_EVERY_S:
            self._store(self.pane.conversation_id, text, complete=False)

    def _render_pending(self) -> None:
        if self.bubble is None or self.pending_text is None:
            return
        self.bubble.set_text(self.pending_text)
        self.bubble.set_streaming(True)

    def _store(self, conversation: int, text: str, complete: bool, ending: Ending = Ending.COMPLETE) -> None:
        if conversation in self.pane.deleted:
            return
        store = self.pane.store
        if self.row is None:
            self.row = store.add_message(conversation, "assistant", text, complete, ending).id
        else:
            store.update_message(self.row, text, complete, ending)
        self.last_store = time.monotonic()
