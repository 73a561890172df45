"""The conversation as the model reads it, shown to the user: before a message is sent, and on request.

A part of ``ChatPane``. Where the provider reviews before sending, Send (and Regenerate) first shows the
message as the model will read it (``ReviewDialog``), and nothing reaches the worker until the user
confirms it. "What the model read" shows the conversation's messages as the model saw them, its stand-ins
for identifiers highlighted. The host computes both on this computer: showing them sends nothing.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from app.host import ConversationIdentifiers, ModelText, Turn
from app.ui.i18n import QT_TRANSLATE_NOOP, translate
from app.ui.i18n import number as locale_number
from app.ui.messages import explain
from app.ui.review_dialog import ReviewDialog

if TYPE_CHECKING:
    from app.ui.chat_pane import ChatPane

REVIEW_READING = QT_TRANSLATE_NOOP("ChatPane", "Reading your message as the model will, before anything is sent…")
REVIEW_CONFIRMED = QT_TRANSLATE_NOOP("ChatPane", "Sending the message as you reviewed it…")
REVIEW_CANCELLED = QT_TRANSLATE_NOOP("ChatPane", "Nothing was sent; your message is still in the box.")
REVIEW_CANCELLED_AGAIN = QT_TRANSLATE_NOOP("ChatPane", "Nothing was sent; the answer is as it was.")


class ModelView:
    """The review before sending and the "What the model read" view of the pane's conversation."""

    def __init__(self, pane: ChatPane):
        self.pane = pane
        self.review_dialog: ReviewDialog | None = None  # the message under review, while it is shown
        self.task: asyncio.Task | None = None  # the conversation being read for the view

    async def review(self, turns: list[Turn], cancelled: str = "") -> str | None:
        """The last of ``turns`` as the model will read it, once the user confirms it; None on Cancel.
        ``cancelled``: what the status line says on Cancel, when not that the message is still in the box."""
        pane = self.pane
        conversation = pane.conversation_id
        identifiers = pane.model_identifiers(pane.settings())
        pane.status.emit(translate("ChatPane", REVIEW_READING))
        try:
            shown = await self._model_text(turns, identifiers)
        except Exception as exc:  # nothing was sent: say why the review cannot be shown
            pane.show_error(exc)
            return None
        hide = keep = None
        if identifiers is not None:

            async def hide(term: str) -> ModelText:
                await pane.host.hide_in_review(identifiers, term)
                return await self._model_text(turns, identifiers)

            async def keep(stand_in: str) -> tuple[str | None, ModelText]:
                original = await pane.host.send_as_written(identifiers, stand_in)
                return original, await self._model_text(turns, identifiers)

        dialog = self.review_dialog = ReviewDialog(shown, hide, keep, pane)
        try:
            confirmed = await dialog.decision()
        finally:
            self.review_dialog = None
        dialog.deleteLater()
        if dialog.marked and conversation is not None:
            pane.keep_identifiers(conversation, identifiers)  # the user's choice holds even if not sent now
        pane.status.emit(
            translate("ChatPane", REVIEW_CONFIRMED)
            if confirmed
            else cancelled or translate("ChatPane", REVIEW_CANCELLED)
        )
        return dialog.shown if confirmed else None

    async def _model_text(self, turns: list[Turn], identifiers: ConversationIdentifiers | None) -> ModelText:
        """The last of ``turns`` as the model will read it (as written when nothing is replaced)."""
        if identifiers is None:
            return ModelText(turns[-1].text, ())
        return (await self.pane.host.model_texts(turns, identifiers))[-1]

    def toggled(self, on: bool) -> asyncio.Task | None:
        """Show the messages as the model read them (stand-ins highlighted), or as the user wrote them."""
        pane = self.pane
        if not on or pane.identifiers is None or pane.conversation_id is None:
            for bubble in pane.chat_view.bubbles:
                bubble.show_original()
            return None
        self.task = asyncio.ensure_future(self._show_model_texts())
        return self.task

    async def _show_model_texts(self) -> None:
        pane = self.pane
        history = pane.history()
        pane.status.emit(translate("ChatPane", "Reading the conversation as the model did…"))
        try:
            texts = await pane.host.model_texts(history, pane.identifiers)
        except Exception as exc:  # the view is an aid: say what failed, keep the conversation shown
            what, todo = explain(exc)
            pane.status.emit(f"{what} {todo}")
            pane.model_view_button.setChecked(False)
            return
        bubbles = pane.chat_view.bubbles
        if not pane.model_view_button.isChecked() or len(texts) != len(bubbles):
            return  # switched off, or the conversation changed while it was read
        for bubble, model_text in zip(bubbles, texts, strict=True):
            bubble.show_model_text(model_text.text, model_text.stand_ins)
        count = pane.identifiers.count
        if count == 1:
            said = translate("ChatPane", "What the model read: 1 identifier replaced by a stand-in.")
        else:
            said = translate("ChatPane", "What the model read: {count} identifiers replaced by stand-ins.")
        pane.status.emit(said.format(count=locale_number(count)))
