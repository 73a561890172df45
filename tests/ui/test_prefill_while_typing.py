"""Prefill while typing, in the window, over a real worker behind a byte-counting link: off, nothing
leaves before Send; on, the settled draft does (pseudonymised), edits and deletions roll the worker back,
a cut link recovers, and the answer is the one a prefill at Send gives."""

from __future__ import annotations

import asyncio
from dataclasses import replace

import pytest

from app.data.conversations import ConversationStore
from app.data.settings import AppSettings, ProviderProfile
from app.engine.speculation.lookup import common_prefix
from app.host import Role, Turn
from app.ui.i18n import number
from app.ui.main_window import MainWindow
from app.ui.sending_ahead import AHEAD_AFTER_MS, SENT_AHEAD

pytestmark = pytest.mark.bundled

CLAUSE = (
    "Clause {n}. The Tenant shall keep the Premises in good repair and condition, fair wear and tear "
    "excepted, and shall not make any structural alteration without the Landlord's prior written consent. "
)
LETTER = "".join(CLAUSE.format(n=n) for n in range(1, 13))  # ~450 tokens: several chunks of frames
ROW_BYTES = 576 * 4  # one hidden state of the bundled model in float32


def window_for(qtbot, engine_host, tmp_path, proxy, prefill: bool, pseudonymise: bool = False) -> MainWindow:
    # Raw rows on the wire, so the bytes the link counts say how many rows went ahead.
    profile = ProviderProfile(
        "office",
        f"ws://127.0.0.1:{proxy.port}",
        pseudonymise=pseudonymise,
        prefill_while_typing=prefill,
        compress_wire=False,
    )
    settings = AppSettings(profiles=(profile,), active_profile="office", max_new_tokens=10, mode="sequential")
    window = MainWindow(engine_host, ConversationStore(tmp_path / "c.sqlite3"), settings, owns_host=False)
    qtbot.addWidget(window)
    window.show()
    return window


async def typed(qtbot, pane, text: str) -> None:
    """Paste ``text`` into the message box and wait for what it sets off to finish."""
    pane.input.setPlainText(text)
    await asyncio.sleep(AHEAD_AFTER_MS / 1000 + 0.2)
    while pane.sending_ahead.task is not None and not pane.sending_ahead.task.done():
        await asyncio.sleep(0.05)
    await asyncio.sleep(0.05)


async def test_typed_ahead_edited_deleted_and_sent_answers_as_a_prefill_at_send(qtbot, engine_host, link, tmp_path):
    window = window_for(qtbot, engine_host, tmp_path, link, prefill=False)
    await window.ensure_engine()
    pane, chat = window.chat_pane, engine_host.chat
    # Off (the default): nothing reaches the worker before Send — not one hidden state on the wire.
    before = link.bytes_up
    await typed(qtbot, pane, LETTER)
    assert link.bytes_up - before < ROW_BYTES and chat.session.processed == []
    assert not pane.ahead_note.isVisible()

    profile = replace(window.settings.profiles[0], prefill_while_typing=True)
    window.apply_settings(replace(window.settings, profiles=(profile,)))  # the same engine, now sending ahead
    assert pane.ahead_note.isVisible() and engine_host.chat is chat
    pane.input.clear()
    await typed(qtbot, pane, "")
    before = link.bytes_up
    await typed(qtbot, pane, LETTER)
    sent = len(chat.session.processed)
    assert sent > 400 and link.bytes_up - before > sent * ROW_BYTES  # the settled draft went ahead
    full = chat.prompt_ids([{"role": "user", "content": LETTER}])
    assert chat.session.processed == full[:sent]  # exactly the prompt's own first tokens
    assert window.status.text() == SENT_AHEAD.format(tokens=number(sent))  # the user is told it has gone

    # An edit in the middle: the worker is rolled back to the last unchanged token, not to zero.
    edited = LETTER.replace("Clause 6.", "Clause 6 (amended).")
    await typed(qtbot, pane, edited)
    edited_ids = chat.prompt_ids([{"role": "user", "content": edited}])
    assert chat.session.processed == edited_ids[: len(chat.session.processed)]
    assert len(chat.session.processed) > 400
    assert common_prefix(full, edited_ids) < len(chat.session.processed)  # rolled back, then resent

    # Deleted: the worker keeps nothing of it (a fresh session, as nothing was sent before).
    await typed(qtbot, pane, "")
    assert chat.session.processed == []

    # Typed again, then sent with a question: the answer a cold prefill at Send gives, token for token.
    question = f"{edited}\n\nWhich clause was amended?"
    await typed(qtbot, pane, question)
    assert len(chat.session.processed) > 400
    pane.send_clicked()
    await pane.current_task
    reference = await engine_host.whole_model_tokens([Turn(Role.USER, question)], 10)
    assert list(pane.last_reply.tokens) == reference
    assert pane.last_reply.steps[0].tokens_in < 40  # Send ran only what was missing

    # A second draft sent ahead, then the conversation left: the worker session holding it is closed.
    await typed(qtbot, pane, f"{LETTER}\n\nAnd clause 3?")
    assert len(chat.session.processed) > 800
    old_session = chat.session.middle.session
    window.new_conversation()
    await pane.sending_ahead.task
    assert chat.session.processed == [] and chat.session.middle.session != old_session


async def test_pseudonymised_text_is_all_that_goes_ahead_and_a_cut_link_recovers(qtbot, engine_host, link, tmp_path):
    window = window_for(qtbot, engine_host, tmp_path, link, prefill=True, pseudonymise=True)
    await window.ensure_engine()
    pane, chat = window.chat_pane, engine_host.chat
    draft = f"Letter from Dr Alice Whitcombe, St Mary's Hospital, about Mr Jonathan Pendleford.\n\n{LETTER}"
    link.cut_after(40_000)  # the link dies in the middle of the draft's frames; the session recovers
    await typed(qtbot, pane, draft)
    seen = chat.tokenizer.decode(chat.session.processed)
    assert len(chat.session.processed) > 400
    assert "Whitcombe" not in seen and "Pendleford" not in seen  # only the stand-ins went ahead
    assert any(r.original == "Whitcombe" or "Whitcombe" in r.original for r in pane.identifiers.mapping.replacements)
    pane.send_clicked()
    await pane.current_task
    assert pane.last_reply is not None and not pane.error.isVisible()
    assert "Whitcombe" not in pane.last_reply.model_prompt


async def test_an_edit_while_a_long_draft_goes_ahead_stops_the_stale_text_and_sends_the_new(
    qtbot, engine_host, link, tmp_path
):
    window = window_for(qtbot, engine_host, tmp_path, link, prefill=True)
    await window.ensure_engine()
    pane, chat = window.chat_pane, engine_host.chat
    draft = "".join(CLAUSE.format(n=n) for n in range(1, 49))  # ~1,800 tokens: seven chunks
    pane.input.setPlainText(draft)
    while pane.sending_ahead.task is None:
        await asyncio.sleep(0.02)
    stale = pane.sending_ahead.task
    edited = draft.replace("Clause 2.", "Clause 2 (amended).")
    pane.input.setPlainText(edited)  # 0.7 s later, while the first version is still going
    whole = len(chat.prompt_ids([{"role": "user", "content": draft}]))
    assert await stale < whole - 256  # it stopped: chunks of the stale text never went

    await asyncio.sleep(0.1)
    while pane.sending_ahead.again or not pane.sending_ahead.task.done():
        await asyncio.sleep(0.05)
    edited_ids = chat.prompt_ids([{"role": "user", "content": edited}])
    sent = chat.session.processed
    assert len(sent) > whole - 40 and sent == edited_ids[: len(sent)]  # the new version went, all of it


async def test_a_draft_marked_stale_before_it_reaches_the_engine_never_goes(qtbot, engine_host, link, tmp_path):
    """The mark and the text it stops may reach the engine in either order (the text can wait on the
    pseudonymiser): with a flag that the text's start cleared, a stale version went in full."""
    window = window_for(qtbot, engine_host, tmp_path, link, prefill=True)
    await window.ensure_engine()
    session = engine_host.chat.session
    held = list(session.processed)
    messages = [Turn(Role.USER, LETTER)]
    engine_host.draft_moved(7)
    assert await engine_host.prefill_ahead(messages, draft=7) == len(held) and session.processed == held
    assert await engine_host.prefill_ahead(messages, draft=8) > 300  # the next version goes
