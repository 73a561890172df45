"""Sending ahead as the user types: the settled draft reaches the worker before Send, so the answer starts sooner.

A part of ``ChatPane``: it reads the pane's draft and conversation, and says what it does in the pane's
status line. What it sent is the user's text on the worker, so a draft deleted, or left for another
conversation, is forgotten there too.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QTimer

from app.host import Role, Turn
from app.ui.i18n import QT_TRANSLATE_NOOP, translate
from app.ui.i18n import number as locale_number
from app.ui.messages import explain

if TYPE_CHECKING:
    from app.ui.chat_pane import ChatPane

# Waits this long after the last keystroke, so a paste is sent once, not per key.
AHEAD_AFTER_MS = 700
AHEAD_NOTE = QT_TRANSLATE_NOOP(
    "ChatPane", "Sent ahead as you type: what you write reaches the worker before Send (Settings → Provider)."
)
SENDING_AHEAD = QT_TRANSLATE_NOOP("ChatPane", "Sending the draft ahead as you type…")
SENT_AHEAD = QT_TRANSLATE_NOOP(
    "ChatPane", "Sent ahead: the worker holds {tokens} tokens of this conversation; Send starts from there."
)


class SendingAhead(QObject):
    """The pane's draft, sent ahead once it settles; a QObject child of the pane, so its timer goes with it."""

    def __init__(self, pane: ChatPane):
        super().__init__(pane)
        self.pane = pane
        self.timer = QTimer(self)
        self.timer.setSingleShot(True)
        self.timer.setInterval(AHEAD_AFTER_MS)
        self.timer.timeout.connect(self.send)
        self.task: asyncio.Task | None = None
        self.sent = False  # the worker holds text of the draft (a deleted draft must be forgotten)
        self.again = False  # the draft changed while it was being sent
        self.draft_number = 0  # the number of the draft last sent ahead

    def draft_changed(self) -> None:
        if self.pane.settings().prefilling_while_typing or self.sent:
            self.timer.start()  # restarted by every keystroke

    def send(self) -> asyncio.Task | None:
        """Send the settled part of the draft to the worker (or, if it was deleted, make the worker forget it)."""
        pane, host = self.pane, self.pane.host
        if self.task is not None and not self.task.done():
            self.again = True
            host.draft_moved(self.draft_number)  # the text being sent is stale: stop it, then send this one
            return None
        if pane.generating or host.info is None:
            return None  # an answer is being written, or the engine is not open yet: Send sends it all
        settings = pane.settings()
        draft = pane.input.toPlainText().strip()
        # Never under review (prefilling_while_typing is off then): the draft leaves only once confirmed.
        if draft and settings.prefilling_while_typing:
            draft_turn = Turn(Role.USER, draft)
            self.draft_number += 1
            job = self._saying_how_far(
                host.prefill_ahead(
                    [*pane.history(), draft_turn], pane.model_identifiers(settings), draft=self.draft_number
                )
            )
            self.sent = True
        elif self.sent:
            job = host.forget_ahead(pane.history(), pane.model_identifiers(settings))
            self.sent = False
        else:
            return None
        self.task = asyncio.ensure_future(job)
        self.task.add_done_callback(self._done)
        return self.task

    async def _saying_how_far(self, job: Awaitable[int]) -> int:
        """Say that the draft is going ahead, and how much of it is on the worker once it stops."""
        self.pane.status.emit(translate("ChatPane", SENDING_AHEAD))
        cached = await job
        if not self.again and not self.pane.generating:  # not superseded by an edit or by Send
            self.pane.status.emit(translate("ChatPane", SENT_AHEAD).format(tokens=locale_number(cached)))
        return cached

    def _done(self, task: asyncio.Task) -> None:
        if not task.cancelled() and task.exception() is not None:
            # Sending ahead is only a head start: a failure is said, and Send does the whole work as before.
            what, _ = explain(task.exception())
            self.pane.status.emit(translate("ChatPane", "Could not send ahead as you type: {what}").format(what=what))
        if self.again:
            self.again = False
            self.send()

    def leave(self) -> None:
        """Leaving the conversation (or starting another): the worker keeps nothing of the draft."""
        self.timer.stop()
        self.again = False
        if self.task is not None and not self.task.done():
            self.pane.host.draft_moved(self.draft_number)  # stop sending it now, not after all of it has gone
        if self.sent:
            self.sent = False
            self.task = asyncio.ensure_future(self.pane.host.forget_ahead([]))
