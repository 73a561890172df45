"""The desktop app, offscreen, against a real embedded worker process: what a person sees and keeps."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import subprocess
import sys
import threading
import time

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication

from app.data.conversations import ConversationStore
from app.data.settings import AppSettings
from app.ui.main_window import MainWindow
from app.ui.streaming_answer import STOPPED_BEFORE_ANSWER

pytestmark = pytest.mark.bundled

PROMPT = "In one sentence, what is a lease?"
SHORT = 24


def make_window(qtbot, host, tmp_path, **settings) -> MainWindow:
    store = ConversationStore(tmp_path / "conversations.sqlite3")
    window = MainWindow(host, store, AppSettings(max_new_tokens=SHORT, **settings), owns_host=False)
    qtbot.addWidget(window)
    window.show()
    return window


def ask(prompt: str, max_new_tokens: int) -> dict:
    result = subprocess.run(
        [sys.executable, "-m", "app", "ask", prompt, "--json", "--max-new-tokens", str(max_new_tokens)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


async def test_typed_prompt_streams_the_same_answer_as_splitchat_ask(qtbot, engine_host, tmp_path):
    window = make_window(qtbot, engine_host, tmp_path)
    await window.ensure_engine()
    streamed, on_disk = [], []

    def watch(_, text: str) -> None:
        streamed.append(text)
        if len(streamed) == 2:  # mid-answer: what a crash now would leave on disk
            with sqlite3.connect(tmp_path / "conversations.sqlite3") as db:
                on_disk.extend(db.execute("SELECT role, content, complete FROM messages ORDER BY id").fetchall())

    window.chat_pane.signals.text.connect(watch)
    qtbot.keyClicks(window.chat_pane.input, PROMPT)
    qtbot.mouseClick(window.chat_pane.send_button, Qt.MouseButton.LeftButton)
    pane = window.chat_pane
    assert pane.generating and not pane.send_button.isEnabled() and pane.stop_button.isEnabled()
    answer = await pane.current_task

    expected = ask(PROMPT, SHORT)["text"]
    assert answer == expected
    assert pane.chat_view.bubbles[-1].text == expected
    assert len(streamed) > 3 and streamed[-1] == expected  # it streamed, token by token
    messages = window.store.messages(pane.conversation_id)
    rows = [(m.role, m.content, m.complete) for m in messages]
    assert rows == [("user", PROMPT, True), ("assistant", expected, True)]
    assert window.store.get(pane.conversation_id).title == PROMPT
    assert pane.regenerate_button.isEnabled()
    assert on_disk[0] == ("user", PROMPT, 1)
    assert on_disk[1][0] == "assistant" and on_disk[1][2] == 0 and expected.startswith(on_disk[1][1])

    # The plots were fed the engine's own per-step figures, not a separate computation.
    steps = pane.last_reply.steps
    assert tuple(window.metrics.steps) == steps and all(
        a is b for a, b in zip(window.metrics.steps, steps, strict=True)
    )
    window.metrics.redraw()
    x, y = window.metrics.throughput_curve.getData()
    assert len(y) == len(steps) and y[-1] == pytest.approx(1000 * steps[-1].tokens_out / steps[-1].total_ms)
    assert list(window.metrics.per_trip_bars.opts["height"]) == [s.tokens_out for s in steps]

    pane.chat_view.bubbles[-1].copy_button.click()
    assert QApplication.clipboard().text() == expected

    # The depth table prices each depth with this computer's measured costs: per local layer, plus what
    # every step costs whatever the depth (the LM head above all). At the current depth it is what was measured.
    dialog = window.open_settings()
    cost = window.local_step_cost()
    steps = pane.last_reply.decode_steps
    assert cost.at(window.host.info.local_layers) == pytest.approx(sum(s.local_compute_ms for s in steps) / len(steps))
    for row in range(dialog.model_page.depth_table.rowCount()):
        depth = int(dialog.model_page.depth_table.item(row, 0).text())
        assert f"≈{cost.at(2 * depth):.0f} ms a step here" in dialog.model_page.depth_table.item(row, 1).text()
    dialog.close()

    # Regenerate replaces the answer (greedy: the same one), leaving one assistant message.
    again = await pane.regenerate()
    assert again == expected
    assert [m.role for m in window.store.messages(pane.conversation_id)] == ["user", "assistant"]

    out = tmp_path / "chat.md"
    pane.export_conversation(out)
    text = out.read_text(encoding="utf-8")
    assert f"## You\n\n{PROMPT}" in text and expected.strip() in text


async def test_ui_thread_stays_responsive_while_tokens_are_computed(qtbot, engine_host, tmp_path):
    window = make_window(qtbot, engine_host, tmp_path)
    await window.ensure_engine()
    # A long pasted note: its prefill alone takes over a second of model compute on this CPU.
    note = " ".join(f"Day {i}: patient stable, vitals normal, no new complaints." for i in range(40))
    ticks: list[float] = []
    timer = QTimer()
    timer.timeout.connect(lambda: ticks.append(time.perf_counter()))
    timer.start(10)
    callback_threads = set()
    window.chat_pane.signals.step.connect(lambda *_: callback_threads.add(threading.current_thread().name))
    engine_threads = set()
    window.host.chat.session.edge.head.register_forward_pre_hook(
        lambda *_: engine_threads.add(threading.current_thread().name)
    )
    started = time.perf_counter()
    await window.chat_pane.send_prompt(f"{note}\n\nSummarise the note in one sentence.")
    elapsed = time.perf_counter() - started
    timer.stop()
    gaps = [b - a for a, b in zip(ticks, ticks[1:], strict=False)]
    assert elapsed > 1.0 and len(ticks) > 20
    assert max(gaps) < 0.3, f"the UI thread stalled for {max(gaps):.2f} s"
    assert engine_threads == {"splitchat-engine"}  # model compute ran on the engine thread only
    assert callback_threads == {threading.main_thread().name}  # results arrive on the UI thread


async def test_stop_keeps_what_was_produced(qtbot, engine_host, tmp_path):
    window = make_window(qtbot, engine_host, tmp_path)
    window.settings = AppSettings(max_new_tokens=400)
    await window.ensure_engine()
    pane = window.chat_pane
    pane.signals.text.connect(lambda _, text: pane.stop() if len(text) > 20 else None)
    answer = await pane.send_prompt("Write a long story about a lighthouse keeper.")
    assert answer and len(answer) > 20
    bubble = pane.chat_view.bubbles[-1]
    assert bubble.text == answer and bubble.state.text() == "(stopped before the end)"
    stored = window.store.messages(pane.conversation_id)[-1]
    assert (stored.role, stored.content, stored.complete) == ("assistant", answer, False)
    assert pane.send_button.isEnabled() and not pane.stop_button.isEnabled()
    assert len(pane.last_reply.tokens) < 400
    window.store.close()

    # Reopening the app shows the conversation, the partial answer marked as stopped.
    reopened = make_window(qtbot, engine_host, tmp_path)
    reopened.conversations.list.setCurrentRow(0)
    assert reopened.chat_pane.chat_view.bubbles[-1].text == answer
    assert reopened.chat_pane.chat_view.bubbles[-1].state.text() == "(stopped before the end)"


def test_markdown_and_code_blocks_render_and_raw_html_stays_text(qtbot):
    from app.ui.chat_view import MessageBubble

    bubble = MessageBubble("assistant", "Use **this**:\n\n```python\nprint(1)\n```\n\n<b>not bold</b>")
    qtbot.addWidget(bubble)
    html = bubble.body.text()
    assert 'font-weight:700;">this</span>' in html
    assert "<pre" in html and "monospace" in html and "print(1)" in html
    assert "&lt;b&gt;not bold&lt;/b&gt;" in html
    assert bubble.text.startswith("Use **this**")  # Copy gives the Markdown, not the HTML


async def test_conversations_survive_a_restart_and_can_be_searched(qtbot, engine_host, tmp_path):
    window = make_window(qtbot, engine_host, tmp_path)
    await window.ensure_engine()
    first = await window.chat_pane.send_prompt("Name a colour.")
    window.new_conversation()
    await window.chat_pane.send_prompt("Name a fruit.")
    assert window.conversations.list.count() == 2
    window.store.close()

    reopened = make_window(qtbot, engine_host, tmp_path)
    panel = reopened.conversations
    assert [panel.list.item(i).text() for i in range(panel.list.count())] == ["Name a fruit.", "Name a colour."]
    panel.list.setCurrentRow(1)
    assert [b.text for b in reopened.chat_pane.chat_view.bubbles] == ["Name a colour.", first]
    panel.search.setText("fruit")
    assert panel.list.count() == 1
    panel.search.setText("")
    conversation = reopened.chat_pane.conversation_id
    panel.rename(conversation, "Colours")
    assert reopened.store.get(conversation).title == "Colours"
    panel.delete(conversation)
    assert panel.list.count() == 1


async def test_stop_before_the_first_word_keeps_the_message_and_regenerate_answers_it(qtbot, engine_host, tmp_path):
    """Stop is heard between a long message's blocks; with nothing written, the message stays, the status
    says so, and Regenerate answers the message (it used to need an answer to replace)."""
    window = make_window(qtbot, engine_host, tmp_path)
    await window.ensure_engine()
    pane = window.chat_pane
    session = engine_host.chat.session
    held = len(session.processed)
    long_message = " ".join(f"Clause {n}: the Tenant shall keep the Premises in good repair." for n in range(60))

    def stop_once_a_block_is_in(_timing) -> None:  # the step signal carries one StepTiming
        raise AssertionError("no step should finish: Stop came during the prefill")

    pane.signals.step.connect(stop_once_a_block_is_in)
    said = []
    pane.status.connect(said.append)
    task = pane._run(pane.send_prompt(long_message))
    while len(session.processed) <= held + 64:  # the first blocks are through every layer
        await asyncio.sleep(0.01)
    pane.stop()
    assert not await task  # nothing was written
    pane.signals.step.disconnect(stop_once_a_block_is_in)
    reading = [line for line in said if line.startswith("Reading your message: ")]
    assert reading and reading[0].endswith(" tokens…")  # the wait before the first word is shown as it goes
    assert [b.role for b in pane.chat_view.bubbles] == ["user"]
    assert [m.role for m in window.store.messages(pane.conversation_id)] == ["user"]
    assert window.status.text() == STOPPED_BEFORE_ANSWER and pane.regenerate_button.isEnabled()
    answer = await pane.regenerate()
    assert answer and [b.role for b in pane.chat_view.bubbles] == ["user", "assistant"]
    assert [m.role for m in window.store.messages(pane.conversation_id)] == ["user", "assistant"]


def test_a_draft_stays_with_its_conversation_and_the_view_opens_at_the_end(qtbot, engine_host, tmp_path):
    window = make_window(qtbot, engine_host, tmp_path)
    store, pane = window.store, window.chat_pane
    long_one, other = store.create("Lease, 40 messages"), store.create("Referral")
    for n in range(20):
        store.add_message(long_one.id, "user", f"Question {n} about clause {n}.\n" * 6)
        store.add_message(long_one.id, "assistant", f"Answer {n}.\n" * 6)
    pane.open_conversation(long_one.id)
    QApplication.processEvents()
    bar = pane.chat_view.verticalScrollBar()
    assert bar.maximum() > 0 and bar.value() == bar.maximum()  # the newest message is in view

    pane.input.setPlainText("Draft about the lease: is clause 7 enforceable?")
    pane.open_conversation(other.id)
    assert pane.input.toPlainText() == ""  # the lease draft does not follow into the referral
    pane.input.setPlainText("Referral draft")
    pane.new_conversation()
    assert pane.input.toPlainText() == ""
    pane.open_conversation(long_one.id)
    assert pane.input.toPlainText() == "Draft about the lease: is clause 7 enforceable?"
    pane.open_conversation(other.id)
    assert pane.input.toPlainText() == "Referral draft"
