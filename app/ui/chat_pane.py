"""The conversation being read and written: the banner, the messages, the input, Send/Stop/Regenerate/Export.

Answers stream from the engine host; every message is written to the store as it grows, so a crash
loses at most half a second of an answer and Stop keeps what was written. When the provider pseudonymises,
the host hands the model the conversation with its identifiers replaced and streams back the answer
re-identified: the view and the store only ever hold the originals, and the conversation's mapping is
saved with it after every answer. "What the model read" shows the same messages as the model saw them.
Where the provider reviews before sending, Send (and Regenerate) first shows the message as the model will
read it (``ReviewDialog``), and nothing reaches the worker until the user confirms it.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

from PySide6.QtCore import QEvent, Qt, QTimer, Signal
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import QFileDialog, QLabel, QPlainTextEdit, QPushButton, QVBoxLayout, QWidget

from app.data.conversations import ConversationStore
from app.data.settings import AppSettings
from app.host import (
    ConversationIdentifiers,
    Ending,
    EngineHost,
    LinkErrorCode,
    LocalStepCost,
    ModelText,
    Reply,
    Role,
    Sampling,
    Turn,
    WorkerError,
)
from app.ui.banner import Banner, banner_for, banner_summary
from app.ui.bridge import EngineSignals
from app.ui.chat_view import ChatView, MessageBubble
from app.ui.conversation_export import EXPORT_CAPTION, export_folder, export_words, safe_file_name
from app.ui.focus import show_focus_frame
from app.ui.i18n import QT_TRANSLATE_NOOP, translate
from app.ui.i18n import number as locale_number  # ``number`` here names an answer
from app.ui.messages import ending_text, explain
from app.ui.palette import colours, css, on_palette_change
from app.ui.review_dialog import ReviewDialog
from app.ui.wrapping_row import WrappingRow, button_group

STORE_EVERY_S = 0.5  # a streaming answer is written to disk at least this often
# A streaming answer is laid out as Markdown at most this often: re-rendering the whole answer at every
# token made a long answer cost O(n²) of the GUI thread.
RENDER_EVERY_MS = 120
INPUT_LINES = 5  # the message box's height, in lines of text, before it scrolls
TITLE_CHARS = 48
# Prefill while typing waits this long after the last keystroke, so a paste is sent once, not per key.
AHEAD_AFTER_MS = 700
AHEAD_NOTE = QT_TRANSLATE_NOOP(
    "ChatPane", "Sent ahead as you type: what you write reaches the worker before Send (Settings → Provider)."
)
LOST_CODES = (LinkErrorCode.CONNECTION_LOST, LinkErrorCode.UNREACHABLE)


class ChatPane(QWidget):
    """One conversation at a time, answered by the engine host."""

    status = Signal(str)  # what just happened, for the status bar
    conversation_created = Signal(int)  # a first message started a new conversation
    privacy_requested = Signal()  # the banner's link to the Privacy tab

    def __init__(
        self,
        host: EngineHost,
        store: ConversationStore,
        settings: Callable[[], AppSettings],
        ensure_engine: Callable[[], Awaitable[object]],
    ):
        super().__init__()
        self.host, self.store = host, store
        self._settings, self._ensure_engine = settings, ensure_engine
        self.conversation_id: int | None = None
        self.generation = 0  # numbers each answer so late signals of an old one are ignored
        self.streaming: MessageBubble | None = None
        self.streaming_row: int | None = None
        self.last_store = 0.0
        self.stop_flag = threading.Event()
        self.current_task: asyncio.Task | None = None
        self.last_reply: Reply | None = None  # the last finished answer
        self.identifiers: ConversationIdentifiers | None = None  # the open conversation's, once it has one
        self.model_view_task: asyncio.Task | None = None
        self.review_dialog: ReviewDialog | None = None  # the message under review, while it is shown
        self.signals = EngineSignals()
        self.signals.text.connect(self._on_text)
        self.signals.reading.connect(self._on_reading)
        self.deleted: set[int] = set()  # conversations deleted while shown: an answer finishing skips them
        self.exposure: str | None = None  # the measured recovery for the current model and depth, in words
        self.pending_text: str | None = None  # the newest streamed text not yet rendered
        self.render_timer = QTimer(self)
        self.render_timer.setSingleShot(True)
        self.render_timer.setInterval(RENDER_EVERY_MS)
        self.render_timer.timeout.connect(self._render_pending)
        self.ahead_timer = QTimer(self)
        self.ahead_timer.setSingleShot(True)
        self.ahead_timer.setInterval(AHEAD_AFTER_MS)
        self.ahead_timer.timeout.connect(self._send_ahead)
        self.ahead_task: asyncio.Task | None = None
        self.ahead_sent = False  # the worker holds text of the draft (a deleted draft must be forgotten)
        self.ahead_again = False  # the draft changed while it was being sent
        self.ahead_draft = 0  # the number of the draft last sent ahead
        # What was typed and not sent, per conversation (None: a new one), so a draft never follows the user
        # into another matter's conversation.
        self.drafts: dict[int | None, str] = {}
        self._build()
        self.update_banner()

    def _build(self) -> None:
        self.banner = Banner()
        self.banner.linkActivated.connect(lambda _: self.privacy_requested.emit())
        self.chat_view = ChatView()
        self.error = QLabel("")
        self.error.setWordWrap(True)
        self.error.setVisible(False)
        self.input = QPlainTextEdit()
        self.input.setPlaceholderText(
            translate("ChatPane", "Type or paste a message — Ctrl+Enter sends, Esc stops an answer")
        )
        # The placeholder is gone once something is typed: the box is named on its own for a screen reader.
        self.input.setAccessibleName(translate("ChatPane", "Message"))
        self.input.setAccessibleDescription(
            translate("ChatPane", "Your message to the model: Ctrl+Enter sends it, Esc stops an answer")
        )
        self._fit_input()
        self.input.setTabChangesFocus(True)  # Tab moves on to the buttons; Ctrl+Tab types a tab
        show_focus_frame(self.input)  # as the search box does: a blinking caret alone is easy to miss
        self.input.textChanged.connect(self._draft_changed)
        self.ahead_note = QLabel(translate("ChatPane", AHEAD_NOTE))
        self.ahead_note.setWordWrap(True)
        self.send_button = QPushButton(translate("ChatPane", "Send"))
        self.stop_button = QPushButton(translate("ChatPane", "Stop"))
        self.regenerate_button = QPushButton(translate("ChatPane", "Regenerate"))
        self.export_button = QPushButton(translate("ChatPane", "Export…"))
        self.model_view_button = QPushButton(translate("ChatPane", "What the model read"))
        self.model_view_button.setCheckable(True)
        self.model_view_button.setToolTip(
            translate(
                "ChatPane",
                "Show the conversation as the model read and wrote it, its stand-ins for identifiers highlighted",
            )
        )
        self.model_view_button.toggled.connect(self.model_view_toggled)
        self.send_button.setToolTip(translate("ChatPane", "Send the message to the model (Ctrl+Enter)"))
        self.stop_button.setToolTip(translate("ChatPane", "Stop the answer being written; what it wrote is kept (Esc)"))
        self.regenerate_button.setToolTip(translate("ChatPane", "Write the last answer again"))
        self.export_button.setToolTip(translate("ChatPane", "Save this conversation as a Markdown file (Ctrl+E)"))
        self.send_button.clicked.connect(self.send_clicked)
        self.stop_button.clicked.connect(self.stop)
        self.regenerate_button.clicked.connect(self.regenerate_clicked)
        self.export_button.clicked.connect(self.export_clicked)
        QShortcut(QKeySequence("Ctrl+Return"), self.input, activated=self.send_clicked)
        QShortcut(QKeySequence("Ctrl+Enter"), self.input, activated=self.send_clicked)  # the keypad's Enter
        tab = QShortcut(QKeySequence("Ctrl+Tab"), self.input, activated=lambda: self.input.insertPlainText("\t"))
        tab.setContext(Qt.ShortcutContext.WidgetShortcut)
        stop = QShortcut(QKeySequence("Esc"), self, activated=self.stop)
        stop.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        # On a narrow window the view and export buttons go under Send, instead of widening the window.
        buttons = WrappingRow()
        buttons.addWidget(button_group(self.send_button, self.stop_button, self.regenerate_button))
        buttons.addWidget(button_group(self.model_view_button, self.export_button))
        column = QVBoxLayout(self)
        column.addWidget(self.banner)
        column.addWidget(self.chat_view, 1)
        column.addWidget(self.error)
        column.addWidget(self.ahead_note)
        column.addWidget(self.input)
        column.addLayout(buttons)
        self._set_generating(False)
        self._restyle()
        on_palette_change(self._restyle)

    def _restyle(self) -> None:
        """The error and warning lines in the palette's colours (app.ui.palette): again when the theme changes."""
        scheme = colours()
        self.error.setStyleSheet(f"color: {css(scheme.error.foreground)};")
        self.ahead_note.setStyleSheet(f"color: {css(scheme.warning.foreground)};")

    def _fit_input(self) -> None:
        """The message box grows to INPUT_LINES lines of the current font, then scrolls (not a pixel height: at
        150 % text a fixed one held fewer lines)."""
        margins = self.input.contentsMargins()
        document = self.input.document().documentMargin()
        height = INPUT_LINES * self.input.fontMetrics().lineSpacing() + 2 * document + margins.top() + margins.bottom()
        self.input.setMaximumHeight(round(height))

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 (Qt's name)
        super().changeEvent(event)
        if event.type() == QEvent.Type.FontChange:
            self._fit_input()

    def update_banner(self) -> None:
        self.ahead_note.setVisible(self._settings().prefilling_while_typing)
        text, kind = banner_for(self._settings(), self.exposure)
        self.banner.set_statement(banner_summary(self._settings()), text, kind)

    # -- conversations ----------------------------------------------------------------------------
    def new_conversation(self) -> None:
        if self.generating:
            return
        self._leave_ahead()
        self._switch_draft(None)
        self.conversation_id = None
        self.identifiers = None
        self.chat_view.clear()
        self._set_generating(False)
        self.input.setFocus()

    def _switch_draft(self, to: int | None) -> None:
        """Keep the draft with the conversation it was typed in, and show the one kept for ``to``."""
        draft = self.input.toPlainText()
        if draft.strip() and self.conversation_id not in self.deleted:
            self.drafts[self.conversation_id] = draft
        else:
            self.drafts.pop(self.conversation_id, None)
        self.input.blockSignals(True)  # not a change the user made: it is sent ahead only once edited
        self.input.setPlainText(self.drafts.pop(to, ""))
        self.input.blockSignals(False)

    def forget(self, conversation_id: int) -> None:
        """The conversation was deleted: stop its answer, write nothing more to it, stop showing it."""
        self.deleted.add(conversation_id)
        if conversation_id == self.conversation_id:
            self.stop()
            if not self.generating:
                self.new_conversation()

    def open_conversation(self, conversation_id: int) -> None:
        if self.generating or conversation_id == self.conversation_id:
            return
        self._leave_ahead()
        self._switch_draft(conversation_id)
        self.conversation_id = conversation_id
        mapping = self.store.pseudonyms(conversation_id)
        self.identifiers = ConversationIdentifiers.from_json(mapping) if mapping else None
        self.chat_view.clear()
        for message in self.store.messages(conversation_id):
            self.chat_view.add(message.role, message.content, ending_text(message.complete, message.ending))
        self._set_generating(False)

    def export_conversation(self, path: Path) -> None:
        if self.conversation_id is None:
            raise ValueError("there is no conversation to export")  # a caller's mistake: never shown
        Path(path).write_text(self.store.export_markdown(self.conversation_id, export_words()), encoding="utf-8")
        self.status.emit(translate("ChatPane", "Exported to {path}").format(path=path))

    def export_clicked(self) -> None:
        if self.conversation_id is None:
            return
        suggested = export_folder() / f"{safe_file_name(self.store.get(self.conversation_id).title)}.md"
        caption = translate("ChatPane", EXPORT_CAPTION)
        path, _ = QFileDialog.getSaveFileName(self, caption, str(suggested), "Markdown (*.md)")
        if path:
            self.export_conversation(Path(path))

    # -- prefill while typing ----------------------------------------------------------------------
    def _draft_changed(self) -> None:
        if self._settings().prefilling_while_typing or self.ahead_sent:
            self.ahead_timer.start()  # restarted by every keystroke

    def _history(self) -> list[Turn]:
        """The open conversation as the engine takes it (the originals: the host pseudonymises)."""
        messages = self.store.messages(self.conversation_id) if self.conversation_id is not None else []
        return [Turn(m.role, m.content) for m in messages]

    def _model_identifiers(self, settings: AppSettings) -> ConversationIdentifiers | None:
        """The conversation's identifiers when the provider pseudonymises (started on first use)."""
        if not settings.pseudonymising:
            return None
        if self.identifiers is None:
            self.identifiers = ConversationIdentifiers()
        return self.identifiers

    def _send_ahead(self) -> asyncio.Task | None:
        """Send the settled part of the draft to the worker (or, if it was deleted, make the worker forget it)."""
        if self.ahead_task is not None and not self.ahead_task.done():
            self.ahead_again = True
            self.host.draft_moved(self.ahead_draft)  # the text being sent is stale: stop it, then send this one
            return None
        if self.generating or self.host.info is None:
            return None  # an answer is being written, or the engine is not open yet: Send sends it all
        settings = self._settings()
        draft = self.input.toPlainText().strip()
        # Never under review (prefilling_while_typing is off then): the draft leaves only once confirmed.
        if draft and settings.prefilling_while_typing:
            draft_turn = Turn(Role.USER, draft)
            self.ahead_draft += 1
            job = self._sending_ahead(
                self.host.prefill_ahead(
                    [*self._history(), draft_turn], self._model_identifiers(settings), draft=self.ahead_draft
                )
            )
            self.ahead_sent = True
        elif self.ahead_sent:
            job = self.host.forget_ahead(self._history(), self._model_identifiers(settings))
            self.ahead_sent = False
        else:
            return None
        self.ahead_task = asyncio.ensure_future(job)
        self.ahead_task.add_done_callback(self._ahead_done)
        return self.ahead_task

    async def _sending_ahead(self, job) -> int:
        """Say that the draft is going ahead, and how much of it is on the worker once it stops."""
        self.status.emit(translate("ChatPane", SENDING_AHEAD))
        cached = await job
        if not self.ahead_again and not self.generating:  # not superseded by an edit or by Send
            self.status.emit(translate("ChatPane", SENT_AHEAD).format(tokens=locale_number(cached)))
        return cached

    def _ahead_done(self, task: asyncio.Task) -> None:
        if not task.cancelled() and task.exception() is not None:
            # Sending ahead is only a head start: a failure is said, and Send does the whole work as before.
            what, _ = explain(task.exception())
            self.status.emit(translate("ChatPane", "Could not send ahead as you type: {what}").format(what=what))
        if self.ahead_again:
            self.ahead_again = False
            self._send_ahead()

    def _leave_ahead(self) -> None:
        """Leaving the conversation (or starting another): the worker keeps nothing of the draft."""
        self.ahead_timer.stop()
        self.ahead_again = False
        if self.ahead_task is not None and not self.ahead_task.done():
            self.host.draft_moved(self.ahead_draft)  # stop sending it now, not after all of it has gone
        if self.ahead_sent:
            self.ahead_sent = False
            self.ahead_task = asyncio.ensure_future(self.host.forget_ahead([]))

    # -- answering --------------------------------------------------------------------------------
    @property
    def generating(self) -> bool:
        return self.current_task is not None and not self.current_task.done()

    def _set_generating(self, generating: bool) -> None:
        self.send_button.setEnabled(not generating)
        self.stop_button.setEnabled(generating)
        # Regenerate replaces the last answer, or answers a last message left without one (stopped, failed).
        self.regenerate_button.setEnabled(not generating and bool(self.chat_view.bubbles))
        if generating or self.identifiers is None:
            self.model_view_button.setChecked(False)  # a streaming answer is shown as the user reads it
        self.model_view_button.setEnabled(not generating and self.identifiers is not None)

    def send_clicked(self) -> None:
        text = self.input.toPlainText().strip()
        if not text or self.generating:
            return
        self.ahead_timer.stop()
        if self._settings().reviewing:  # the draft stays in the box until the user confirms it
            self._run(self.review_and_send(text))
            return
        self._take_draft()
        self._run(self.send_prompt(text))

    def _take_draft(self) -> None:
        """The draft becomes the message: what was sent ahead is used, not forgotten."""
        self.ahead_sent = False
        self.input.blockSignals(True)
        self.input.clear()
        self.input.blockSignals(False)

    def regenerate_clicked(self) -> None:
        if not self.generating:
            self._run(self.regenerate())

    def _run(self, job) -> asyncio.Task:
        """Start answering; whatever way the job ends (even with nothing to regenerate), the buttons follow."""
        self.current_task = asyncio.ensure_future(job)
        self._set_generating(True)
        self.current_task.add_done_callback(self._answered)
        return self.current_task

    def _answered(self, _task: asyncio.Task) -> None:
        if self.conversation_id in self.deleted:  # deleted while it was being answered
            self.new_conversation()
        self._set_generating(False)

    def stop(self) -> None:
        if self.streaming is not None:  # Esc with no answer being written does nothing
            self.stop_flag.set()
            self.status.emit(translate("ChatPane", "Stopping…"))

    def show_error(self, error: BaseException) -> None:
        """Say what failed and what to do, above the message box (and in the status bar)."""
        what, todo = explain(error)
        self.error.setText(f"{what} {todo}")
        self.error.setVisible(True)
        self.status.emit(what)

    def clear_error(self) -> None:
        self.error.setVisible(False)

    async def send_prompt(self, text: str, reviewed: str | None = None) -> str | None:
        """Store and show the user's message, then stream the answer; returns the answer's text.
        ``reviewed``: the message as the user confirmed the model would read it."""
        if self.conversation_id is None:
            title = text.splitlines()[0][:TITLE_CHARS] or translate("ChatPane", "New conversation")
            self.conversation_id = self.store.create(title).id
            self.conversation_created.emit(self.conversation_id)
        # The engine gets the message as typed; the history is written too, not read back for it.
        turns = [*self._history(), Turn(Role.USER, text)]
        self.store.add_message(self.conversation_id, "user", text)
        self.chat_view.add("user", text)
        return await self._answer(reviewed, turns)

    async def review_and_send(self, text: str) -> str | None:
        """Show ``text`` as the model will read it; send exactly that once confirmed, nothing on Cancel."""
        reviewed = await self._review([*self._history(), Turn(Role.USER, text)])
        if reviewed is None:
            self.input.setFocus()  # the draft is still there, as typed
            return None
        self._take_draft()
        return await self.send_prompt(text, reviewed)

    async def regenerate(self) -> str | None:
        """Replace the last answer with a new one, or answer the last message if it has none. Under review
        the conversation is shown first: answering again sends it again."""
        messages = self.store.messages(self.conversation_id) if self.conversation_id else []
        if not messages:
            return None
        last_answer = messages[-1] if messages[-1].role == "assistant" else None
        reviewed = None
        if self._settings().reviewing:
            asked = [Turn(m.role, m.content) for m in messages if m is not last_answer]
            reviewed = await self._review(asked, translate("ChatPane", REVIEW_CANCELLED_AGAIN))
            if reviewed is None:
                return None  # Cancel: the answer stays as it was
        if last_answer is not None:
            self.store.delete_from(self.conversation_id, last_answer.id)
            self.chat_view.remove_last()
        return await self._answer(reviewed)

    async def _review(self, turns: list[Turn], cancelled: str = "") -> str | None:
        """The last of ``turns`` as the model will read it, once the user confirms it; None on Cancel.
        Computing it sends nothing: the host reads the conversation on this computer."""
        conversation = self.conversation_id
        identifiers = self._model_identifiers(self._settings())
        self.status.emit(translate("ChatPane", REVIEW_READING))
        try:
            shown = await self._model_text(turns, identifiers)
        except Exception as exc:  # nothing was sent: say why the review cannot be shown
            self.show_error(exc)
            return None
        hide = keep = None
        if identifiers is not None:

            async def hide(term: str) -> ModelText:
                await self.host.hide_in_review(identifiers, term)
                return await self._model_text(turns, identifiers)

            async def keep(stand_in: str) -> tuple[str | None, ModelText]:
                original = await self.host.send_as_written(identifiers, stand_in)
                return original, await self._model_text(turns, identifiers)

        dialog = self.review_dialog = ReviewDialog(shown, hide, keep, self)
        try:
            confirmed = await dialog.decision()
        finally:
            self.review_dialog = None
        dialog.deleteLater()
        if dialog.marked and conversation is not None:
            self._keep_identifiers(conversation, identifiers)  # the user's choice holds even if not sent now
        self.status.emit(
            translate("ChatPane", REVIEW_CONFIRMED)
            if confirmed
            else cancelled or translate("ChatPane", REVIEW_CANCELLED)
        )
        return dialog.shown if confirmed else None

    async def _model_text(self, turns: list[Turn], identifiers: ConversationIdentifiers | None) -> ModelText:
        """The last of ``turns`` as the model will read it (as written when nothing is replaced)."""
        if identifiers is None:
            return ModelText(turns[-1].text, ())
        return (await self.host.model_texts(turns, identifiers))[-1]

    async def _answer(self, reviewed: str | None = None, turns: list[Turn] | None = None) -> str | None:
        """Stream the answer to ``turns`` (by default the conversation as stored)."""
        self._set_generating(True)
        self.error.setVisible(False)
        self.stop_flag.clear()
        self.generation += 1
        conversation = self.conversation_id
        history = self._history() if turns is None else turns
        bubble = self.streaming = self.chat_view.add("assistant", "")
        bubble.set_streaming(True)
        self.streaming_row = None
        number = self.generation
        settings = self._settings()
        identifiers = self._model_identifiers(settings)
        try:
            await self._ensure_engine()
            self.status.emit(translate("ChatPane", WRITING))
            reply = await self.host.reply(
                history,
                settings.max_new_tokens,
                Sampling(temperature=settings.temperature, top_p=settings.top_p),
                on_text=lambda text: self.signals.text.emit(number, text),
                on_step=self.signals.step.emit,
                should_stop=self.stop_flag.is_set,
                on_notice=self.signals.notice.emit,
                identifiers=identifiers,
                on_reading=lambda done, total: self.signals.reading.emit(number, done, total),
                reviewed=reviewed,
            )
        except Exception as exc:  # every failure becomes a message; the conversation stays as it was
            self._keep_identifiers(conversation, identifiers)
            lost = isinstance(exc, WorkerError) and exc.code in LOST_CODES
            ending = Ending.LOST if lost else Ending.FAILED
            self._finish(conversation, self.pending_text or bubble.text, complete=False, ending=ending)
            self.show_error(exc)
            return None
        self.last_reply = reply
        self._keep_identifiers(conversation, identifiers)
        self._finish(conversation, reply.text, complete=reply.ending is not Ending.STOPPED, ending=reply.ending)
        status = FINISHED_STATUS[reply.ending] if reply.text else STOPPED_BEFORE_ANSWER
        self.status.emit(translate("ChatPane", status))
        return reply.text

    def _finish(self, conversation: int, text: str, complete: bool, ending: Ending = Ending.COMPLETE) -> None:
        self.render_timer.stop()
        self.pending_text = None
        bubble, self.streaming = self.streaming, None
        bubble.set_streaming(False)
        if text:
            bubble.set_text(text, ending_text(complete, ending))
            self._store_answer(conversation, text, complete, ending)
        elif self.chat_view.bubbles and self.chat_view.bubbles[-1] is bubble:
            self.chat_view.remove_last()  # nothing was produced: no empty answer left behind
        self.streaming_row = None
        self._set_generating(False)  # the task's done callback sets them again once it has returned

    def _keep_identifiers(self, conversation: int, identifiers: ConversationIdentifiers | None) -> None:
        """Save the mapping as it grew: the next turn and the model view need exactly these stand-ins."""
        if identifiers is not None and conversation not in self.deleted:
            self.store.set_pseudonyms(conversation, identifiers.to_json())

    def model_view_toggled(self, on: bool) -> asyncio.Task | None:
        """Show the messages as the model read them (stand-ins highlighted), or as the user wrote them."""
        if not on or self.identifiers is None or self.conversation_id is None:
            for bubble in self.chat_view.bubbles:
                bubble.show_original()
            return None
        self.model_view_task = asyncio.ensure_future(self._show_model_texts())
        return self.model_view_task

    async def _show_model_texts(self) -> None:
        history = self._history()
        self.status.emit(translate("ChatPane", "Reading the conversation as the model did…"))
        try:
            texts = await self.host.model_texts(history, self.identifiers)
        except Exception as exc:  # the view is an aid: say what failed, keep the conversation shown
            what, todo = explain(exc)
            self.status.emit(f"{what} {todo}")
            self.model_view_button.setChecked(False)
            return
        if not self.model_view_button.isChecked() or len(texts) != len(self.chat_view.bubbles):
            return  # switched off, or the conversation changed while it was read
        for bubble, model_text in zip(self.chat_view.bubbles, texts, strict=True):
            bubble.show_model_text(model_text.text, model_text.stand_ins)
        count = self.identifiers.count
        if count == 1:
            said = translate("ChatPane", "What the model read: 1 identifier replaced by a stand-in.")
        else:
            said = translate("ChatPane", "What the model read: {count} identifiers replaced by stand-ins.")
        self.status.emit(said.format(count=locale_number(count)))

    def _on_reading(self, number: int, done: int, total: int) -> None:
        if number == self.generation and self.streaming is not None:  # not a late signal of a finished answer
            if done < total:
                self.status.emit(
                    translate("ChatPane", READING).format(done=locale_number(done), total=locale_number(total))
                )
            else:
                self.status.emit(translate("ChatPane", WRITING))

    def _on_text(self, number: int, text: str) -> None:
        if number != self.generation or self.streaming is None:
            return  # a late signal from an answer that already finished
        self.pending_text = text
        if not self.render_timer.isActive():
            self.render_timer.start()
        if time.monotonic() - self.last_store >= STORE_EVERY_S:
            self._store_answer(self.conversation_id, text, complete=False)

    def _render_pending(self) -> None:
        if self.streaming is None or self.pending_text is None:
            return
        self.streaming.set_text(self.pending_text)
        self.streaming.set_streaming(True)

    def _store_answer(self, conversation: int, text: str, complete: bool, ending: Ending = Ending.COMPLETE) -> None:
        if conversation in self.deleted:
            return
        if self.streaming_row is None:
            self.streaming_row = self.store.add_message(conversation, "assistant", text, complete, ending).id
        else:
            self.store.update_message(self.streaming_row, text, complete, ending)
        self.last_store = time.monotonic()

    def local_step_cost(self) -> LocalStepCost | None:
        """This computer's measured compute in a decode step of the last answer (None before one)."""
        return self.last_reply.local_step_cost if self.last_reply else None


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
SENDING_AHEAD = QT_TRANSLATE_NOOP("ChatPane", "Sending the draft ahead as you type…")
SENT_AHEAD = QT_TRANSLATE_NOOP(
    "ChatPane", "Sent ahead: the worker holds {tokens} tokens of this conversation; Send starts from there."
)
STOPPED_BEFORE_ANSWER = QT_TRANSLATE_NOOP(
    "ChatPane", "Stopped before the answer began; your message is kept — Regenerate answers it."
)
REVIEW_READING = QT_TRANSLATE_NOOP("ChatPane", "Reading your message as the model will, before anything is sent…")
REVIEW_CONFIRMED = QT_TRANSLATE_NOOP("ChatPane", "Sending the message as you reviewed it…")
REVIEW_CANCELLED = QT_TRANSLATE_NOOP("ChatPane", "Nothing was sent; your message is still in the box.")
REVIEW_CANCELLED_AGAIN = QT_TRANSLATE_NOOP("ChatPane", "Nothing was sent; the answer is as it was.")
