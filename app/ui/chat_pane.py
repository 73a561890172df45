"""The conversation being read and written: the banner, the messages, the input, Send/Stop/Regenerate/Export.

The pane is the widget and what the window asks of it: which conversation is open, a draft kept per
conversation, the buttons and what they start, errors. Three parts do the longer jobs, each owned by the
pane and reading the conversation through it: ``StreamingAnswer`` (the answer as it streams into its
bubble and the store), ``SendingAhead`` (the draft sent to the worker as it is typed) and ``ModelView``
(the review before sending, and "What the model read"). When the provider pseudonymises, the host hands
the model the conversation with its identifiers replaced: the view and the store only ever hold the
originals, and the conversation's mapping, which the pane holds, is saved with it after every answer.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Awaitable, Callable
from pathlib import Path

from PySide6.QtCore import QEvent, Qt, Signal
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import QFileDialog, QLabel, QPlainTextEdit, QPushButton, QVBoxLayout, QWidget

from app.data.conversations import ConversationStore
from app.data.settings import AppSettings
from app.host import ConversationIdentifiers, EngineHost, LocalStepCost, Reply, Role, Turn
from app.ui.banner import Banner, banner_for, banner_summary
from app.ui.bridge import EngineSignals
from app.ui.chat_view import ChatView
from app.ui.conversation_export import EXPORT_CAPTION, export_folder, export_words, safe_file_name
from app.ui.focus import show_focus_frame
from app.ui.i18n import translate
from app.ui.messages import ending_text, explain
from app.ui.model_view import REVIEW_CANCELLED_AGAIN, ModelView
from app.ui.palette import colours, css, on_palette_change
from app.ui.sending_ahead import AHEAD_NOTE, SendingAhead
from app.ui.streaming_answer import StreamingAnswer
from app.ui.wrapping_row import WrappingRow, button_group

INPUT_LINES = 5  # the message box's height, in lines of text, before it scrolls
TITLE_CHARS = 48


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
        self.settings, self.ensure_engine = settings, ensure_engine  # the window's, read when needed
        self.conversation_id: int | None = None
        self.stop_flag = threading.Event()
        self.current_task: asyncio.Task | None = None
        self.last_reply: Reply | None = None  # the last finished answer
        self.identifiers: ConversationIdentifiers | None = None  # the open conversation's, once it has one
        self.signals = EngineSignals()
        self.deleted: set[int] = set()  # conversations deleted while shown: an answer finishing skips them
        self.exposure: str | None = None  # the measured recovery for the current model and depth, in words
        self.answer = StreamingAnswer(self)
        self.sending_ahead = SendingAhead(self)
        self.model_view = ModelView(self)
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
        self.input.textChanged.connect(self.sending_ahead.draft_changed)
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
        self.set_generating(False)
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
        self.ahead_note.setVisible(self.settings().prefilling_while_typing)
        text, kind = banner_for(self.settings(), self.exposure)
        self.banner.set_statement(banner_summary(self.settings()), text, kind)

    # -- conversations ----------------------------------------------------------------------------
    def new_conversation(self) -> None:
        if self.generating:
            return
        self.sending_ahead.leave()
        self._switch_draft(None)
        self.conversation_id = None
        self.identifiers = None
        self.chat_view.clear()
        self.set_generating(False)
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
        self.sending_ahead.leave()
        self._switch_draft(conversation_id)
        self.conversation_id = conversation_id
        mapping = self.store.pseudonyms(conversation_id)
        self.identifiers = ConversationIdentifiers.from_json(mapping) if mapping else None
        self.chat_view.clear()
        for message in self.store.messages(conversation_id):
            self.chat_view.add(message.role, message.content, ending_text(message.complete, message.ending))
        self.set_generating(False)

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

    # -- the open conversation, as the engine takes it (the parts read it here too) ---------------
    def history(self) -> list[Turn]:
        """The open conversation as the engine takes it (the originals: the host pseudonymises)."""
        messages = self.store.messages(self.conversation_id) if self.conversation_id is not None else []
        return [Turn(m.role, m.content) for m in messages]

    def model_identifiers(self, settings: AppSettings) -> ConversationIdentifiers | None:
        """The conversation's identifiers when the provider pseudonymises (started on first use)."""
        if not settings.pseudonymising:
            return None
        if self.identifiers is None:
            self.identifiers = ConversationIdentifiers()
        return self.identifiers

    def keep_identifiers(self, conversation: int, identifiers: ConversationIdentifiers | None) -> None:
        """Save the mapping as it grew: the next turn and the model view need exactly these stand-ins."""
        if identifiers is not None and conversation not in self.deleted:
            self.store.set_pseudonyms(conversation, identifiers.to_json())

    # -- answering --------------------------------------------------------------------------------
    @property
    def generating(self) -> bool:
        return self.current_task is not None and not self.current_task.done()

    def set_generating(self, generating: bool) -> None:
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
        self.sending_ahead.timer.stop()
        if self.settings().reviewing:  # the draft stays in the box until the user confirms it
            self._run(self.review_and_send(text))
            return
        self._take_draft()
        self._run(self.send_prompt(text))

    def _take_draft(self) -> None:
        """The draft becomes the message: what was sent ahead is used, not forgotten."""
        self.sending_ahead.sent = False
        self.input.blockSignals(True)
        self.input.clear()
        self.input.blockSignals(False)

    def regenerate_clicked(self) -> None:
        if not self.generating:
            self._run(self.regenerate())

    def _run(self, job) -> asyncio.Task:
        """Start answering; whatever way the job ends (even with nothing to regenerate), the buttons follow."""
        self.current_task = asyncio.ensure_future(job)
        self.set_generating(True)
        self.current_task.add_done_callback(self._answered)
        return self.current_task

    def _answered(self, _task: asyncio.Task) -> None:
        if self.conversation_id in self.deleted:  # deleted while it was being answered
            self.new_conversation()
        self.set_generating(False)

    def stop(self) -> None:
        if self.answer.bubble is not None:  # Esc with no answer being written does nothing
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
        turns = [*self.history(), Turn(Role.USER, text)]
        self.store.add_message(self.conversation_id, "user", text)
        self.chat_view.add("user", text)
        return await self.answer.write(reviewed, turns)

    async def review_and_send(self, text: str) -> str | None:
        """Show ``text`` as the model will read it; send exactly that once confirmed, nothing on Cancel."""
        reviewed = await self.model_view.review([*self.history(), Turn(Role.USER, text)])
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
        if self.settings().reviewing:
            asked = [Turn(m.role, m.content) for m in messages if m is not last_answer]
            reviewed = await self.model_view.review(asked, translate("ChatPane", REVIEW_CANCELLED_AGAIN))
            if reviewed is None:
                return None  # Cancel: the answer stays as it was
        if last_answer is not None:
            self.store.delete_from(self.conversation_id, last_answer.id)
            self.chat_view.remove_last()
        return await self.answer.write(reviewed)

    def model_view_toggled(self, on: bool) -> asyncio.Task | None:
        """Show the messages as the model read them (stand-ins highlighted), or as the user wrote them."""
        return self.model_view.toggled(on)

    def local_step_cost(self) -> LocalStepCost | None:
        """This computer's measured compute in a decode step of the last answer (None before one)."""
        return self.last_reply.local_step_cost if self.last_reply else None
