"""Review before sending, in the window, over a real worker behind a byte-counting link: nothing reaches the
worker before the user confirms (Cancel sends nothing), what is sent is exactly what was shown, a word hidden
in review is replaced in every turn, a false stand-in is sent as written, and the policy's review_always holds."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable
from dataclasses import replace

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from app.data.conversations import ConversationStore
from app.data.settings import AppSettings, ProviderProfile, SettingsError, load_settings, save_settings
from app.host import NotAsReviewed, Role, Sampling, Turn
from app.ui.banner import REVIEW_BANNER
from app.ui.main_window import MainWindow
from app.ui.model_view import REVIEW_CANCELLED
from app.ui.provider_page import PREFILL_REVIEW_TIP, REVIEW_ALWAYS_TIP, REVIEW_EMBEDDED_TIP, REVIEW_LABEL
from app.ui.review_dialog import ReviewDialog
from app.ui.sending_ahead import AHEAD_AFTER_MS
from app.ui.settings_dialog import SettingsDialog

pytestmark = pytest.mark.bundled

ROW_BYTES = 576 * 4  # one hidden state of the bundled model in float32 (the link carries raw rows)
CLAUSE = "Clause {n}. The Tenant shall keep the Premises in good repair, fair wear and tear excepted. "
LETTER = ("Draft a short reply to this letter.\n\n" + "".join(CLAUSE.format(n=n) for n in range(1, 9))).strip()
NEIGHBOUR = "Please draft a reply: the client spoke about her neighbour, the ferryman, and his dog Biscuit."
VISIT = "Please summarise the visit: the patient walked to the Hope Street clinic with her friend Jenny."


def office(proxy, **switches) -> ProviderProfile:
    return ProviderProfile("office", f"ws://127.0.0.1:{proxy.port}", compress_wire=False, **switches)


def window_for(qtbot, engine_host, tmp_path, settings: AppSettings) -> MainWindow:
    window = MainWindow(engine_host, ConversationStore(tmp_path / "c.sqlite3"), settings, owns_host=False)
    qtbot.addWidget(window)
    window.show()
    return window


def reviewing(profile: ProviderProfile, **options) -> AppSettings:
    return AppSettings(profiles=(profile,), active_profile="office", max_new_tokens=8, mode="sequential", **options)


async def until(condition: Callable[[], object], timeout: float = 120.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.02)


async def review_of(pane) -> ReviewDialog:
    """Press Send and wait for the review to show the message."""
    pane.send_clicked()
    await until(lambda: pane.model_view.review_dialog is not None and pane.model_view.review_dialog.isVisible())
    return pane.model_view.review_dialog


async def test_nothing_leaves_before_send_in_review_cancel_sends_nothing_and_what_is_sent_is_what_was_shown(
    qtbot, engine_host, link, tmp_path
):
    # Prefill while typing is on too: review wins, the draft does not go ahead.
    settings = reviewing(office(link, review_before_sending=True, prefill_while_typing=True))
    window = window_for(qtbot, engine_host, tmp_path, settings)
    assert REVIEW_BANNER.strip() in window.chat_pane.banner.text()
    await window.ensure_engine()
    pane, chat = window.chat_pane, engine_host.chat
    before = link.bytes_up
    pane.input.setPlainText(LETTER)
    await asyncio.sleep(AHEAD_AFTER_MS / 1000 + 0.3)
    assert pane.sending_ahead.task is None and not pane.ahead_note.isVisible()  # nothing sent ahead as typed

    dialog = await review_of(pane)
    await asyncio.sleep(0.5)  # the review is up: still not one hidden state on the wire
    assert link.bytes_up - before < ROW_BYTES and chat.session.processed == []
    assert dialog.shown == LETTER and dialog.view.toPlainText() == LETTER
    qtbot.keyClick(dialog.view, Qt.Key.Key_Escape)  # Esc = Cancel
    await pane.current_task
    assert pane.input.toPlainText() == LETTER  # the draft is intact
    assert window.store.list() == [] and pane.chat_view.bubbles == []
    assert window.status.text() == REVIEW_CANCELLED
    await asyncio.sleep(0.3)
    assert link.bytes_up - before < ROW_BYTES and chat.session.processed == []

    # The engine refuses a reply that would read otherwise than what was confirmed, before sending anything.
    with pytest.raises(NotAsReviewed):
        await engine_host.reply(
            [Turn(Role.USER, LETTER)], 8, Sampling(), identifiers=pane.identifiers, reviewed="Something else"
        )
    assert link.bytes_up - before < ROW_BYTES and chat.session.processed == []

    dialog = await review_of(pane)
    shown = dialog.shown
    dialog.view.setFocus()
    qtbot.keyClick(dialog.view, Qt.Key.Key_Return)  # Enter = Send
    await pane.current_task
    reply = pane.last_reply
    assert reply is not None and not pane.error.isVisible()
    assert reply.model_prompt == shown  # the engine read exactly what was shown
    expected = chat.prompt_ids([{"role": "user", "content": shown}])
    assert chat.session.processed[: len(expected)] == expected  # and the worker received exactly that
    assert link.bytes_up - before > len(expected) * ROW_BYTES
    assert pane.input.toPlainText() == ""
    stored = [(m.role, m.content) for m in window.store.messages(pane.conversation_id)]
    assert stored[0] == ("user", LETTER) and len(stored) == 2

    # Regenerate sends the conversation again: it is reviewed too, and Cancel keeps the answer as it was.
    sent = link.bytes_up
    pane.regenerate_clicked()
    await until(lambda: pane.model_view.review_dialog is not None and pane.model_view.review_dialog.isVisible())
    assert pane.model_view.review_dialog.shown == shown
    pane.model_view.review_dialog.cancel_button.click()
    await pane.current_task
    assert [(m.role, m.content) for m in window.store.messages(pane.conversation_id)] == stored
    assert len(pane.chat_view.bubbles) == 2 and link.bytes_up - sent < ROW_BYTES


async def test_a_word_hidden_in_review_is_replaced_in_this_turn_and_the_earlier_ones(
    qtbot, engine_host, link, tmp_path
):
    window = window_for(qtbot, engine_host, tmp_path, reviewing(office(link, review_before_sending=True)))
    await window.ensure_engine()
    pane, chat = window.chat_pane, engine_host.chat
    pane.input.setPlainText(NEIGHBOUR)
    dialog = await review_of(pane)
    assert "ferryman" in dialog.shown  # an ordinary word: the detector leaves it
    dialog.send_button.click()
    await pane.current_task
    assert "ferryman" in pane.last_reply.model_prompt
    first_answer = pane.last_reply.model_text

    pane.input.setPlainText("Is the ferryman still her neighbour?")
    dialog = await review_of(pane)
    start = dialog.shown.index("ferryman")
    dialog.select(start + 1, start + 4)  # part of the word: the whole word is hidden
    assert dialog.selected_words() == "ferryman" and dialog.hide_button.isEnabled()
    dialog.hide_button.click()
    await until(lambda: dialog.busy is None)
    assert "ferryman" not in dialog.shown and "hidden from the model" in dialog.note.text()
    assert pane.identifiers.mapping.hidden == ["ferryman"]
    stand_in = next(r.surrogate for r in pane.identifiers.mapping.replacements if r.original == "ferryman")
    assert any(dialog.shown[s:e] == stand_in for s, e in dialog.model_text.stand_ins)  # highlighted
    shown = dialog.shown
    dialog.send_button.click()
    await pane.current_task
    assert pane.last_reply.model_prompt == shown
    # The conversation was read again: the first message too reached the worker with the stand-in.
    first = (await engine_host.model_texts(window.chat_pane.history(), pane.identifiers))[0].text
    assert "ferryman" not in first and stand_in in first
    read = chat.tokenizer.decode(chat.session.processed)
    assert first in read and shown in read
    # Only what the model itself wrote before the word was hidden can still hold it.
    assert read.lower().count("ferryman") == first_answer.lower().count("ferryman")
    # Kept with the conversation: after a restart the word is still hidden.
    window.store.close()
    reopened = window_for(qtbot, engine_host, tmp_path, window.settings)
    reopened.conversations.list.setCurrentRow(0)
    assert reopened.chat_pane.identifiers.mapping.hidden == ["ferryman"]


async def test_a_false_stand_in_sent_as_written_reaches_the_model_as_written(qtbot, engine_host, link, tmp_path):
    window = window_for(qtbot, engine_host, tmp_path, reviewing(office(link, review_before_sending=True)))
    await window.ensure_engine()
    pane = window.chat_pane
    pane.input.setPlainText(VISIT)
    dialog = await review_of(pane)
    friend = next(r.surrogate for r in pane.identifiers.mapping.replacements if r.original == "Jenny")
    street = next(r.surrogate for r in pane.identifiers.mapping.replacements if "Hope Street" in r.original)
    assert "Jenny" not in dialog.shown and friend in dialog.shown and street in dialog.shown
    at = dialog.shown.index(friend)
    dialog.select(at + 2, at + 2)  # the cursor in the stand-in is enough
    assert dialog.selected_stand_ins() == [friend] and not dialog.hide_button.isEnabled()
    dialog.keep_button.click()
    await until(lambda: dialog.busy is None)
    assert "Jenny" in dialog.shown and friend not in dialog.shown and street in dialog.shown  # only that one
    assert dialog.note.text() == "Sent as written from now on: “Jenny”." and pane.identifiers.mapping.kept == ["Jenny"]
    shown = dialog.shown
    dialog.send_button.click()
    await pane.current_task
    assert pane.last_reply.model_prompt == shown and "Jenny" in shown
    stored = json.loads(window.store.pseudonyms(pane.conversation_id))
    assert stored["kept"] == ["Jenny"]  # kept with the conversation's mapping


async def test_the_review_says_so_when_a_word_cannot_be_hidden_or_sent_as_written(qtbot):
    """The detector decides what it finds again: the dialog reports what the re-read text holds, not what
    was asked for."""
    from app.host import ModelText

    text = "Ask Mr Darrell Turnbull about the ferryman."
    at = text.index("Mr Darrell Turnbull")

    async def hide(term: str) -> ModelText:
        return ModelText(text, ((at, at + 19),))  # read again, the word is still there

    async def keep(stand_in: str) -> tuple[str | None, ModelText]:
        return "Mr Jonathan Pendleford", ModelText(text, ((at, at + 19),))  # and the stand-in too

    dialog = ReviewDialog(ModelText(text, ((at, at + 19),)), hide, keep)
    qtbot.addWidget(dialog)
    ferryman = text.index("ferryman")
    dialog.select(ferryman, ferryman + 8)
    await dialog.hide_clicked()
    assert "could not be hidden" in dialog.note.text()
    dialog.select(at, at + 3)
    await dialog.keep_clicked()
    assert dialog.note.text().startswith("Still replaced: “Mr Jonathan Pendleford”")
    dialog.select(at - 2, at + 4)  # across a stand-in: nothing to hide
    assert dialog.selected_words() is None and not dialog.hide_button.isEnabled()


async def test_the_policy_requires_review_the_panel_shows_it_locked_and_send_opens_the_review(
    qtbot, engine_host, link, monkeypatch, tmp_path
):
    save_settings(reviewing(office(link)))  # the provider's own switch is off
    assert not load_settings().reviewing
    policy = tmp_path / "policy.json"
    policy.write_text(json.dumps({"values": {"review_always": True}, "locked": ["review_always"]}))
    monkeypatch.setenv("SPLITCHAT_POLICY", str(policy))
    settings = load_settings()
    assert settings.review_always and settings.reviewing and not settings.provider.review_before_sending
    with pytest.raises(SettingsError, match="locked"):
        save_settings(replace(settings, review_always=False))

    dialog = SettingsDialog(settings, 30, None, engine_host.probe)
    qtbot.addWidget(dialog)
    dialog.provider_page.provider.setCurrentIndex(dialog.provider_page.provider.findData("office"))
    assert dialog.provider_page.review.text() == REVIEW_LABEL
    assert (
        dialog.provider_page.review.isChecked()
        and not dialog.provider_page.review.isEnabled()
        and dialog.provider_page.review.toolTip() == REVIEW_ALWAYS_TIP
    )
    assert not dialog.provider_page.prefill.isEnabled() and dialog.provider_page.prefill.toolTip() == PREFILL_REVIEW_TIP
    dialog.provider_page.provider.setCurrentIndex(0)  # the embedded worker: nothing leaves, nothing to review
    assert not dialog.provider_page.review.isChecked() and not dialog.provider_page.review.isEnabled()
    assert dialog.provider_page.review.toolTip() == REVIEW_EMBEDDED_TIP
    assert dialog.result_settings().review_always

    window = window_for(qtbot, engine_host, tmp_path, settings)
    await window.ensure_engine()
    pane = window.chat_pane
    before = link.bytes_up
    pane.input.setPlainText(VISIT)
    review = await review_of(pane)
    review.cancel_button.click()
    await pane.current_task
    assert pane.input.toPlainText() == VISIT and link.bytes_up - before < ROW_BYTES
    assert not replace(settings, active_profile="").reviewing  # the embedded worker never reviews


def test_the_switch_is_per_provider_off_by_default_and_review_turns_sending_ahead_off(qtbot, engine_host):
    provider = ProviderProfile("clinic", "wss://gpu.clinic.example:8765", prefill_while_typing=True)
    settings = AppSettings(profiles=(provider,), active_profile="clinic")
    dialog = SettingsDialog(settings, 30, None, engine_host.probe)
    qtbot.addWidget(dialog)
    assert (
        not dialog.provider_page.review.isChecked()
        and dialog.provider_page.review.isEnabled()
        and dialog.provider_page.prefill.isChecked()
    )
    dialog.provider_page.review.setChecked(True)
    assert not dialog.provider_page.prefill.isChecked() and not dialog.provider_page.prefill.isEnabled()  # review wins
    chosen = dialog.result_settings()
    assert chosen.provider.review_before_sending and chosen.reviewing and not chosen.prefilling_while_typing
    assert chosen.provider.prefill_while_typing  # the user's choice is kept for when review is off again
    locked = SettingsDialog(replace(chosen, locked=("profiles",)), 30, None, engine_host.probe)
    qtbot.addWidget(locked)
    assert (
        locked.provider_page.review.isChecked()
        and not locked.provider_page.review.isEnabled()
        and "administrator" in locked.provider_page.review.toolTip()
    )


async def test_the_review_fits_a_laptop_screen_and_works_by_keyboard(qtbot):
    from PySide6.QtGui import QTextCursor

    from app.host import ModelText
    from app.ui.palette import colours

    text = "Dear Mr Darrell Turnbull,\n\nThe boiler at 12 Perez Street failed 😀 again.\n"
    at = text.index("Mr Darrell Turnbull")
    dialog = ReviewDialog(ModelText(text, ((at, at + 19),)), None, None)
    qtbot.addWidget(dialog)
    decision = asyncio.ensure_future(dialog.decision())
    await until(dialog.isVisible)
    assert dialog.width() <= 1366 and dialog.height() <= 768 - 60
    assert dialog.minimumSizeHint().width() <= 1366 and dialog.minimumSizeHint().height() <= 768 - 60
    # Shown exactly (the trailing line break too), the stand-in coloured as in "What the model read".
    assert dialog.view.toPlainText() == text and QApplication.focusWidget() is dialog.view
    highlight = colours().stand_in["review"].background.name()  # the palette's stand-in colour, and underlined
    cursor = QTextCursor(dialog.view.document())
    cursor.setPosition(at + 1)
    assert cursor.charFormat().background().color().name() == highlight and cursor.charFormat().fontUnderline()
    cursor.setPosition(at)
    assert cursor.charFormat().background().color().name() != highlight
    later = text.index("again")  # after the emoji: offsets still line up with the document's positions
    dialog.select(later, later + 5)
    assert dialog.selection() == (later, later + 5) and dialog.view.textCursor().selectedText() == "again"
    # Without pseudonymisation there is nothing to hide or un-hide; the buttons say why.
    assert not dialog.hide_button.isEnabled() and "not replaced" in dialog.hide_button.toolTip()
    chain = []
    for _ in range(3):
        qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Tab)
        chain.append(QApplication.focusWidget())
    assert chain == [dialog.send_button, dialog.cancel_button, dialog.view]  # the disabled buttons are skipped
    for button in (dialog.hide_button, dialog.keep_button, dialog.send_button, dialog.cancel_button):
        assert button.text().replace("&", "") and button.toolTip()
    assert dialog.send_button.isDefault()
    qtbot.keyClick(dialog.cancel_button, Qt.Key.Key_Space)
    assert await decision is False
