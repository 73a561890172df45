"""The window as a clinician meets it: an honest banner, a calm default, the keyboard, nothing lost, and
every ending said plainly — real widgets, offscreen, against real worker processes where it matters."""

from __future__ import annotations

import asyncio
import json
from dataclasses import replace

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QMessageBox

import app.engine.chat
from app.data import credentials
from app.data.conversations import ConversationStore
from app.data.settings import AppSettings, ProviderProfile
from app.engine.decode.metrics import StepTiming
from app.engine.link.export import embedded_shard, export_worker_shard
from app.engine.source.specs import resolve_model
from app.host import StepUpdate, WorkerError
from app.model.choices import SplitSpec
from app.privacy.report import CorpusFacts, PrivacyReport, Rates, Recovery
from app.privacy.settings import PrivacySettings
from app.privacy.stats import wilson_interval
from app.ui.main_window import MainWindow
from app.ui.settings_dialog import SettingsDialog

pytestmark = pytest.mark.bundled

PROMPT = "In one sentence, what is a lease?"


def make_window(qtbot, host, tmp_path, settings: AppSettings | None = None) -> MainWindow:
    store = ConversationStore(tmp_path / "conversations.sqlite3")
    window = MainWindow(host, store, settings or AppSettings(max_new_tokens=24), owns_host=False)
    qtbot.addWidget(window)
    window.show()
    return window


@pytest.fixture(scope="module")
def worker(workers):
    """A real worker process serving the bundled model at split 2."""
    return workers(embedded_shard(resolve_model(), SplitSpec(2, 2)))


def remote(worker, **settings) -> AppSettings:
    return AppSettings(profiles=(ProviderProfile("gpu-box", worker.endpoint),), active_profile="gpu-box", **settings)


def small_report(hits: int, n: int, created: str = "2026-11-30T10:00:00Z") -> PrivacyReport:
    outcomes = [True] * hits + [False] * (n - hits)
    rates = Rates.of(outcomes, outcomes, wilson_interval)
    rows = [Recovery.measured(2, "to_worker", "public_head_search", rates)]
    rows.append(Recovery.measured(2, "from_worker", "public_tail", rates))
    corpus = CorpusFacts("a test corpus", ["a"], ["b"], 4 * n, n, 0.5, "by document")
    return PrivacyReport(
        num_layers=30,
        corpus=corpus,
        settings=PrivacySettings(depths=(2,)),
        threat_models={},
        baseline={"most_frequent": Rates.of([False] * n, [False] * n, wilson_interval)},
        results=rows,
        comparisons=[],
        elapsed_s=1.0,
        created=created,
    )


# -- 1. the banner ----------------------------------------------------------------------------------
async def test_the_banner_says_what_leaves_quotes_the_measurement_and_links_the_privacy_tab(
    qtbot, engine_host, worker, tmp_path
):
    local = make_window(qtbot, engine_host, tmp_path / "local")
    text = local.chat_pane.banner.text()
    assert "Nothing leaves this computer" in text and "small demonstration model" in text

    window = make_window(qtbot, engine_host, tmp_path / "remote", remote(worker, pseudonymise_always=False))
    window.settings = replace(window.settings, profiles=(replace(window.settings.profiles[0], pseudonymise=False),))
    window.chat_pane.update_banner()
    text = window.chat_pane.banner.text()
    assert "Nothing leaves" not in text and "stay on this computer" not in text
    assert "Only hidden states leave for “gpu-box”" in text and "can be read back" in text
    # No evaluation of this model yet: the project's own measurement, said to be that.
    assert "89–100 % of the words it receives (measured for the built-in model" in text
    assert '<a href="privacy">Privacy tab</a>' in text

    # Once the Privacy tab shows a measurement, the banner quotes it — with its size.
    window.privacy.view.show_report(small_report(188, 200), 2, True)
    text = window.chat_pane.banner.text()
    assert "about 94 % of the tokens (word pieces) it receives" in text
    assert "measured for this model at depth 2 on 200 test tokens, a quick estimate" in text
    statement = window.privacy.view.statement.text()
    assert "Evaluation of 2026-11-30, measured on 200 test tokens" in statement and "A quick estimate" in statement

    # The link brings the Privacy panel back even after the user closed it.
    window.privacy.close()
    assert not window.privacy.isVisible()
    window.chat_pane.banner.linkActivated.emit("privacy")
    assert window.privacy.isVisible()


def test_the_window_quotes_the_most_thorough_evaluation_not_the_newest(tmp_path, monkeypatch):
    """A quick run without the public-weights attack (1 % by a weak attacker) once replaced a thorough one."""
    from app.privacy.evaluation import best_report, cached_reports

    monkeypatch.setenv("SPLITCHAT_CACHE_DIR", str(tmp_path))
    folder = tmp_path / "privacy" / "0123456789abcdef"
    folder.mkdir(parents=True)
    thorough = small_report(3600, 4000, created="2026-11-01T00:00:00Z")
    quick = replace(
        small_report(1, 148, created="2026-11-30T19:15:52Z"),
        settings=PrivacySettings(attackers=("learned_mlp", "public_tail")),
    )
    bigger_but_pseudonymised = replace(
        small_report(10, 5000, created="2026-11-20T00:00:00Z"), settings=PrivacySettings(pseudonymise=True)
    )
    import os

    for age, (name, report) in enumerate((("quick", quick), ("p", bigger_but_pseudonymised), ("t", thorough))):
        path = folder / f"{name}.json"
        path.write_text(report.to_json())
        os.utime(path, (1_000_000 - age, 1_000_000 - age))
    (folder / "broken.json").write_text("{not json")
    assert [r.created[:10] for r in cached_reports("sha256:0123456789abcdef")] == [
        "2026-11-30",
        "2026-11-20",
        "2026-11-01",
    ]
    assert best_report("sha256:0123456789abcdef").created == thorough.created


# -- 2. a calm default -----------------------------------------------------------------------------
def test_live_metrics_are_hidden_at_first_explain_themselves_and_are_remembered(qtbot, engine_host, tmp_path):
    window = make_window(qtbot, engine_host, tmp_path)
    metrics = window.metrics
    assert not metrics.isVisible() and window.privacy.isVisible()
    view_menu = next(a.menu() for a in window.menuBar().actions() if a.text() == "&View")
    toggle = next(a for a in view_menu.actions() if a.text() == "&Live metrics")
    assert not toggle.isChecked()
    toggle.trigger()
    assert metrics.isVisible()
    # Before an answer: a sentence, not empty axes.
    assert metrics.pages.currentWidget() is metrics.empty and "No answer yet" in metrics.empty.text()
    timing = StepTiming("decode", 3, 2, 4.0, 6.0, 0.5, 80.0, 91.0)
    metrics.record(StepUpdate(timing, 1.4))
    metrics.redraw()
    assert metrics.pages.currentIndex() == 1 and "tok/s" in metrics.summary.text()
    window.close()

    again = make_window(qtbot, engine_host, tmp_path / "again")
    assert again.metrics.isVisible()  # the admin's choice survives a restart
    again.metrics.toggleViewAction().trigger()
    again.close()
    assert not make_window(qtbot, engine_host, tmp_path / "third").metrics.isVisible()


# -- 4. state users lose ---------------------------------------------------------------------------
def test_provider_edits_survive_adding_and_switching_and_a_locked_endpoint_keeps_the_token_editable(qtbot, engine_host):
    settings = AppSettings(profiles=(ProviderProfile("clinic", "wss://gpu.clinic.example:8765"),))
    dialog = SettingsDialog(settings, 30, None, engine_host.probe)
    qtbot.addWidget(dialog)
    dialog.provider_page.provider.setCurrentIndex(dialog.provider_page.provider.findData("clinic"))
    dialog.provider_page.endpoint.setText("wss://gpu2.clinic.example:8765")
    dialog.provider_page.token.setText("clinic-token")
    dialog.provider_page._add_profile()  # the edits to "clinic" must not be dropped
    assert (
        dialog.provider_page.provider.currentData() == "provider" and dialog.provider_page.endpoint.text() == "wss://"
    )
    dialog.provider_page.endpoint.setText("wss://other.example:9000")
    dialog.provider_page.provider.setCurrentIndex(dialog.provider_page.provider.findData("clinic"))
    assert dialog.provider_page.endpoint.text() == "wss://gpu2.clinic.example:8765"
    assert "when you save" in dialog.provider_page.token_state.text()
    assert credentials.get_token("clinic") is None  # nothing stored before Save
    chosen = dialog.result_settings()
    assert {p.name: p.endpoint for p in chosen.profiles} == {
        "clinic": "wss://gpu2.clinic.example:8765",
        "provider": "wss://other.example:9000",
    }
    assert credentials.get_token("clinic") == "clinic-token"

    locked = AppSettings(
        profiles=(ProviderProfile("clinic", "wss://gpu.clinic.example:8765"),),
        active_profile="clinic",
        locked=("profiles", "active_profile"),
    )
    dialog = SettingsDialog(locked, 30, None, engine_host.probe)
    qtbot.addWidget(dialog)
    assert (
        not dialog.provider_page.endpoint.isEnabled()
        and not dialog.provider_page.name.isEnabled()
        and not dialog.provider_page.add_profile.isEnabled()
    )
    assert dialog.provider_page.token.isEnabled() and dialog.provider_page.test_button.isEnabled()
    dialog.provider_page.token.setText("my-own-token")
    assert dialog.result_settings().provider.endpoint == "wss://gpu.clinic.example:8765"
    assert credentials.get_token("clinic") == "my-own-token"


async def test_a_provider_is_checked_at_start_and_a_new_token_applies_at_once(qtbot, engine_host, worker, tmp_path):
    credentials.set_token("gpu-box", "wrong-token")
    window = make_window(qtbot, engine_host, tmp_path, remote(worker, max_new_tokens=8))
    with pytest.raises(WorkerError) as refused:
        await window.start()
    assert refused.value.code == "unauthorized"
    await asyncio.sleep(0)
    pane = window.chat_pane
    # Said before any message was typed.
    assert pane.error.isVisible() and "refused the access token" in pane.error.text()
    assert window.store.list() == []

    credentials.set_token("gpu-box", worker.token)  # what Save in the panel does with a typed token
    window.apply_settings(window.settings)
    assert window.engine_task is not None and not window.engine_task.done()  # reconnecting now
    info = await window.engine_task
    assert info.endpoint == worker.endpoint and not pane.error.isVisible()
    assert "connected to “gpu-box”" in window.status.text()


async def test_deleting_the_open_conversation_clears_it_and_regenerate_never_leaves_send_disabled(
    qtbot, engine_host, tmp_path
):
    window = make_window(qtbot, engine_host, tmp_path)
    store, pane = window.store, window.chat_pane
    kept = store.create("A lease")
    store.add_message(kept.id, "user", "What is a lease?")
    store.add_message(kept.id, "assistant", "A contract.")
    window.conversations.refresh(select=kept.id)
    pane.open_conversation(kept.id)
    assert pane.regenerate_button.isEnabled()

    # Deleted behind the pane's back (as a second window would): Regenerate finds nothing to redo.
    store.delete(kept.id)
    pane.regenerate_clicked()
    await pane.current_task
    await asyncio.sleep(0)
    assert pane.send_button.isEnabled() and not pane.stop_button.isEnabled()

    other = store.create("Discharge")
    store.add_message(other.id, "user", "Summarise.")
    store.add_message(other.id, "assistant", "Stable.")
    window.conversations.refresh(select=other.id)
    pane.open_conversation(other.id)
    window.conversations.delete(other.id)
    assert pane.conversation_id is None and pane.chat_view.bubbles == []
    assert not pane.regenerate_button.isEnabled() and pane.send_button.isEnabled()


# -- 5. say what happened --------------------------------------------------------------------------
async def test_an_answer_cut_at_the_length_limit_says_so_and_the_status_speaks_plainly(qtbot, engine_host, tmp_path):
    window = make_window(qtbot, engine_host, tmp_path, AppSettings(max_new_tokens=6))
    await window.ensure_engine()
    pane = window.chat_pane
    answer = await pane.send_prompt(PROMPT)
    assert answer
    note = "(cut at the longest-answer limit (Settings → Decoding))"
    assert pane.chat_view.bubbles[-1].state.text() == note
    assert window.status.text().startswith("The answer reached the longest-answer limit")
    assert "tok/s" not in window.status.text() and "tokens per round trip" not in window.status.text()
    stored = window.store.messages(pane.conversation_id)[-1]
    assert (stored.complete, stored.ending) == (True, "length")


async def test_a_connection_lost_for_good_is_labelled_as_such(qtbot, engine_host, workers, tmp_path, monkeypatch):
    shard = tmp_path / "shard"
    export_worker_shard(resolve_model(), SplitSpec(2, 2), shard)
    doomed = workers(shard)
    monkeypatch.setattr(app.engine.chat, "RECONNECT_WINDOW_S", 1.0)
    credentials.set_token("doomed", doomed.token)
    settings = AppSettings(
        profiles=(ProviderProfile("doomed", doomed.endpoint),), active_profile="doomed", max_new_tokens=200
    )
    window = make_window(qtbot, engine_host, tmp_path, settings)
    await window.ensure_engine()
    pane = window.chat_pane
    pane.signals.text.connect(lambda _, text: doomed.stop() if len(text) > 10 and doomed.alive() else None)
    assert await pane.send_prompt("Write a long story about a lighthouse keeper.") is None
    bubble = pane.chat_view.bubbles[-1]
    assert bubble.text and bubble.state.text() == "(cut off: the connection to the worker was lost)"
    assert "(stopped" not in bubble.state.text()
    assert window.store.messages(pane.conversation_id)[-1].ending == "lost"
    await engine_host.close_chat()


async def test_a_long_connection_test_result_is_not_clipped(qtbot, engine_host):
    settings = AppSettings(profiles=(ProviderProfile("gone", "ws://127.0.0.1:9"),), active_profile="gone")
    dialog = SettingsDialog(settings, 30, None, engine_host.probe)
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.provider_page.token.setText("x")
    await dialog.provider_page.test_connection()
    label = dialog.provider_page.test_result
    assert "cannot be reached" in label.text() and len(label.text()) > 120
    QApplication.processEvents()
    assert label.height() >= label.heightForWidth(label.width())


# -- 6. keyboard -----------------------------------------------------------------------------------
async def test_the_keyboard_alone_is_enough(qtbot, engine_host, tmp_path):
    window = make_window(qtbot, engine_host, tmp_path, AppSettings(max_new_tokens=300))
    window.activateWindow()
    pane = window.chat_pane
    pane.input.setFocus()
    qtbot.waitUntil(pane.input.hasFocus)
    qtbot.keyClicks(pane.input, "Line one")
    qtbot.keyClick(pane.input, Qt.Key.Key_Tab, Qt.KeyboardModifier.ControlModifier)  # Ctrl+Tab types a tab
    assert pane.input.toPlainText() == "Line one\t"
    qtbot.keyClick(pane.input, Qt.Key.Key_Tab)  # Tab leaves the message box
    assert not pane.input.hasFocus() and pane.input.toPlainText() == "Line one\t"

    shortcuts = {
        a.text(): a.shortcut().toString() for menu in window.menuBar().actions() for a in menu.menu().actions()
    }
    assert shortcuts["&New conversation"] == "Ctrl+N" and shortcuts["&Preferences…"] == "Ctrl+,"
    assert not any("worker bundle" in name for name in shortcuts)  # the admin's export is in the settings panel

    # Esc stops an answer being written.
    await window.ensure_engine()
    pane.input.setPlainText("Write a long story about a lighthouse keeper.")
    pane.signals.text.connect(lambda _, text: qtbot.keyClick(pane.input, Qt.Key.Key_Escape) if len(text) > 20 else None)
    pane.send_clicked()
    await pane.current_task
    assert pane.chat_view.bubbles[-1].state.text() == "(stopped before the end)"
    assert len(pane.last_reply.tokens) < 300

    box = window.conversations.delete_confirmation("A lease")
    assert box.defaultButton() is box.button(QMessageBox.StandardButton.No)


# -- 7. clinician-first wording, 13. streaming -------------------------------------------------------
def test_a_pasted_letter_keeps_its_line_breaks_and_a_streaming_answer_is_rendered_a_few_times(
    qtbot, engine_host, tmp_path
):
    window = make_window(qtbot, engine_host, tmp_path)
    pane = window.chat_pane
    letter = "Dear Dr Smith,\nthank you for seeing\n\n  Mrs Jones.\n- not a list"
    bubble = pane.chat_view.add("user", letter)
    assert (
        "white-space: pre-wrap" in bubble.body.text() and "thank you for seeing\n\n  Mrs Jones." in bubble.body.text()
    )
    assert bubble.text == letter

    pane.answer.generation += 1
    pane.answer.bubble = pane.chat_view.add("assistant", "")
    pane.conversation_id = window.store.create("Streaming").id
    words = []
    for word in ("The " * 400).split():  # 400 updates, as fast as the engine can send them
        words.append(word)
        pane.signals.text.emit(pane.answer.generation, " ".join(words))
    qtbot.wait(400)
    assert pane.answer.bubble.text == " ".join(words)
    assert pane.answer.bubble.renders <= 4  # not once per token: Markdown re-parses the whole answer each time


# -- 3. the desktop knows the window ---------------------------------------------------------------
def test_the_window_class_icon_and_desktop_entry_agree(qapp):
    from configparser import ConfigParser

    from app.resources import CODE_ROOT
    from app.ui.app import DESKTOP_ID, configure_application

    configure_application(qapp)
    assert qapp.desktopFileName() == DESKTOP_ID and not qapp.windowIcon().isNull()
    entry = ConfigParser(interpolation=None)
    entry.optionxform = str
    entry.read(CODE_ROOT / "packaging" / "linux" / f"{DESKTOP_ID}.desktop", encoding="utf-8")
    desktop = entry["Desktop Entry"]
    assert desktop["StartupWMClass"] == DESKTOP_ID and desktop["Icon"] == DESKTOP_ID
    assert "stay on this computer" not in desktop["Comment"]  # not true of a remote provider


def test_the_depth_table_fits_the_panel_at_1366_pixels_without_a_horizontal_scrollbar(qtbot, engine_host):
    dialog = SettingsDialog(AppSettings(), 30, None, engine_host.probe)
    qtbot.addWidget(dialog)
    dialog.resize(dialog.minimumWidth(), 600)
    dialog.show()
    dialog.tabs.setCurrentIndex(1)
    QApplication.processEvents()
    table = dialog.model_page.depth_table
    assert table.horizontalScrollBar().maximum() == 0  # nothing off to the side
    header = table.horizontalHeader()
    metrics = header.fontMetrics()
    for column in range(table.columnCount()):
        title = table.horizontalHeaderItem(column).text()
        assert header.sectionSize(column) >= metrics.horizontalAdvance(title), title  # no header cut short
    assert dialog.minimumWidth() <= 1366 and dialog.sizeHint().height() <= 768 - 60  # fits a laptop screen


def test_prefill_while_typing_is_off_by_default_says_what_it_means_and_the_policy_can_lock_it(qtbot, engine_host):
    from app.ui.provider_page import PREFILL_WARNING

    provider = ProviderProfile("clinic", "wss://gpu.clinic.example:8765")
    dialog = SettingsDialog(AppSettings(profiles=(provider,), active_profile="clinic"), 30, None, engine_host.probe)
    qtbot.addWidget(dialog)
    assert not dialog.provider_page.prefill.isChecked() and dialog.provider_page.prefill.isEnabled()
    dialog.provider_page.prefill.setChecked(True)
    assert "before you press Send" in PREFILL_WARNING and not dialog.provider_page.prefill_warning.isHidden()
    chosen = dialog.result_settings()
    assert chosen.prefilling_while_typing and chosen.provider.prefill_while_typing

    # Locked by the administrator (on, through the provider profiles it sets): shown, not changeable.
    on = replace(provider, prefill_while_typing=True)
    locked = AppSettings(profiles=(on,), active_profile="clinic", locked=("profiles", "prefill_embedded"))
    dialog = SettingsDialog(locked, 30, None, engine_host.probe)
    qtbot.addWidget(dialog)
    assert dialog.provider_page.prefill.isChecked() and not dialog.provider_page.prefill.isEnabled()
    dialog.provider_page.provider.setCurrentIndex(0)  # the embedded default: its own switch, locked too
    assert not dialog.provider_page.prefill.isEnabled() and "administrator" in dialog.provider_page.prefill.toolTip()


def test_wire_compression_is_on_for_a_provider_saved_with_it_and_off_for_this_computer(qtbot, engine_host, tmp_path):
    provider = ProviderProfile("clinic", "wss://gpu.clinic.example:8765")
    dialog = SettingsDialog(AppSettings(profiles=(provider,), active_profile="clinic"), 30, None, engine_host.probe)
    qtbot.addWidget(dialog)
    assert dialog.provider_page.compress.isChecked() and dialog.provider_page.compress.isEnabled()
    assert "500 Mbit/s" in dialog.provider_page.compress.toolTip()
    dialog.provider_page.compress.setChecked(False)  # a worker on a fast office network
    chosen = dialog.result_settings()
    assert chosen.provider.compress_wire is False
    path = tmp_path / "settings.json"
    path.write_text(chosen.to_json())
    assert AppSettings.from_dict(json.loads(path.read_text())).provider.compress_wire is False
    dialog.provider_page.provider.setCurrentIndex(0)  # the embedded worker: nothing crosses a network
    assert not dialog.provider_page.compress.isChecked() and not dialog.provider_page.compress.isEnabled()
    assert "this computer" in dialog.provider_page.compress.toolTip()


def test_the_depth_tables_privacy_figures_say_what_they_mean(qtbot):
    from app.ui.model_page import DEPTH_COLUMNS
    from app.ui.settings_dialog import SettingsDialog

    async def no_probe(*_):
        raise AssertionError("not used")

    dialog = SettingsDialog(AppSettings(), 30, small_report(188, 200), no_probe)
    qtbot.addWidget(dialog)
    measured, unmeasured = (
        dialog.model_page.depth_table.item(1, 4),
        dialog.model_page.depth_table.item(0, 4),
    )  # depths 2 and 1
    assert measured.text() == "94% / 94% (public weights)"
    tip = measured.toolTip()
    assert "could read back about 94% of the words this computer sends it at depth 2" in tip
    assert "replacing identifiers before sending" in tip
    assert unmeasured.text() == "not measured at this depth" and unmeasured.toolTip() == DEPTH_COLUMNS[4][1]
    assert dialog.model_page.depth_table.item(1, 3).toolTip() == DEPTH_COLUMNS[3][1]


def test_the_models_reading_of_each_message_is_on_by_default_can_be_left_out_and_the_policy_can_lock_it(
    qtbot, engine_host, tmp_path
):
    from app.ui.provider_page import READING_TIP

    dialog = SettingsDialog(AppSettings(), 30, None, engine_host.probe)
    qtbot.addWidget(dialog)
    switch = dialog.provider_page.read_in_context
    assert switch.isChecked() and switch.isEnabled() and "350 MB" in READING_TIP
    switch.setChecked(False)  # a small workstation
    chosen = dialog.result_settings()
    assert chosen.read_in_context is False
    path = tmp_path / "settings.json"
    path.write_text(chosen.to_json())
    assert AppSettings.from_dict(json.loads(path.read_text())).read_in_context is False

    locked = AppSettings(read_in_context=True, locked=("read_in_context",))
    dialog = SettingsDialog(locked, 30, None, engine_host.probe)
    qtbot.addWidget(dialog)
    switch = dialog.provider_page.read_in_context
    assert switch.isChecked() and not switch.isEnabled() and "administrator" in switch.toolTip()
    assert dialog.result_settings().read_in_context is True
