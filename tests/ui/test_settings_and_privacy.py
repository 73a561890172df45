"""The admin panel, the privacy view and the errors a person sees — offscreen, against real workers."""

from __future__ import annotations

import asyncio
import json
import logging

import pytest

from app.data import credentials
from app.data.conversations import ConversationStore
from app.data.settings import AppSettings, ProviderProfile, config_dir, data_dir, load_settings
from app.engine.link.export import embedded_shard
from app.model.choices import SplitSpec
from app.privacy.corpus import bundled_corpus
from app.privacy.evaluation import PrivacySettings
from app.ui.main_window import MainWindow
from app.ui.privacy_view import NO_ESTIMATE, WORKER_HERE
from app.ui.settings_dialog import SettingsDialog

pytestmark = pytest.mark.bundled


def make_window(qtbot, host, tmp_path, settings: AppSettings) -> MainWindow:
    window = MainWindow(host, ConversationStore(tmp_path / "c.sqlite3"), settings, owns_host=False)
    qtbot.addWidget(window)
    window.show()
    return window


@pytest.fixture(scope="module")
def worker(workers, tmp_path_factory):
    """A second real worker process serving the bundled split 2, with its own token."""
    from app.engine.source.specs import resolve_model

    return workers(embedded_shard(resolve_model(), SplitSpec(2, 2)))


async def test_settings_dialog_keeps_tokens_in_the_keyring_and_tests_the_connection(
    qtbot, engine_host, worker, isolated_user_state, caplog
):
    caplog.set_level(logging.DEBUG)
    settings = AppSettings(profiles=(ProviderProfile("gpu-box", worker.endpoint),), active_profile="gpu-box")
    dialog = SettingsDialog(settings, 30, None, engine_host.probe)
    qtbot.addWidget(dialog)
    assert dialog.provider_page.token_state.text() == "No token set."
    assert dialog.model_page.depth.count() == 14 and dialog.model_page.depth.currentData() == "2"
    assert "not measured yet" in dialog.model_page.depth_table.item(1, 4).text()

    # A wrong token: the handshake's 401 becomes a sentence the admin can act on.
    dialog.provider_page.token.setText("not-the-token")
    await dialog.provider_page.test_connection()
    assert "refused the access token (401)" in dialog.provider_page.test_result.text()

    dialog.provider_page.token.setText(worker.token)
    await dialog.provider_page.test_connection()
    assert dialog.provider_page.test_result.text().startswith("✓ Connected. Worker serves layers 2–27")
    assert "round trip" in dialog.provider_page.test_result.text()

    chosen = dialog.result_settings()
    assert credentials.get_token("gpu-box") == worker.token
    assert dialog.provider_page.token.text() == ""  # the field never holds a stored token
    dialog.provider_page.show_profile()
    assert dialog.provider_page.token_state.text().startswith("A token is set")
    from app.data.settings import save_settings

    save_settings(chosen)
    assert worker.token not in (config_dir() / "settings.json").read_text()
    assert load_settings().provider.endpoint == worker.endpoint

    # Renaming a profile carries its token along; removing it forgets the token.
    dialog.provider_page.name.setText("gpu-box-2")
    renamed = dialog.result_settings()
    assert [p.name for p in renamed.profiles] == ["gpu-box-2"] and renamed.active_profile == "gpu-box-2"
    assert credentials.get_token("gpu-box-2") == worker.token and credentials.get_token("gpu-box") is None
    dialog.provider_page._remove_profile()
    assert credentials.get_token("gpu-box-2") is None and dialog.result_settings().active_profile == ""

    # The token is in no file the app writes and in no log record.
    assert worker.token not in caplog.text
    for folder in (config_dir(), data_dir()):
        for path in folder.rglob("*") if folder.exists() else ():
            if path.is_file():
                assert worker.token.encode() not in path.read_bytes(), path


async def test_policy_locked_settings_are_read_only(qtbot, engine_host, monkeypatch, tmp_path):
    policy = tmp_path / "policy.json"
    policy.write_text(json.dumps({"values": {"split": "4"}, "locked": ["split", "mode"]}))
    monkeypatch.setenv("SPLITCHAT_POLICY", str(policy))
    settings = load_settings()
    dialog = SettingsDialog(settings, 30, None, engine_host.probe)
    qtbot.addWidget(dialog)
    assert (
        dialog.model_page.depth.currentData() == "4"
        and not dialog.model_page.depth.isEnabled()
        and not dialog.mode.isEnabled()
    )
    assert dialog.temperature.isEnabled()
    assert "administrator" in dialog.model_page.depth.toolTip()


async def test_remote_provider_answers_like_the_embedded_one_and_errors_are_plain(qtbot, engine_host, worker, tmp_path):
    prompt = "Say hello."
    remote = AppSettings(
        profiles=(ProviderProfile("gpu-box", worker.endpoint),), active_profile="gpu-box", max_new_tokens=12
    )
    credentials.set_token("gpu-box", "wrong-token")
    window = make_window(qtbot, engine_host, tmp_path, remote)
    pane = window.chat_pane
    assert "“gpu-box” (ws://127.0.0.1" in pane.banner.text()
    assert await pane.send_prompt(prompt) is None
    assert pane.error.isVisible() and "refused the access token" in pane.error.text()
    # The conversation is intact: the question is kept, no empty answer was stored.
    assert [m.role for m in window.store.messages(pane.conversation_id)] == ["user"]

    credentials.set_token("gpu-box", worker.token)
    window.new_conversation()
    remote_answer = await pane.send_prompt(prompt)  # the failed load is retried with the new token
    assert remote_answer and not pane.error.isVisible()

    embedded = make_window(qtbot, engine_host, tmp_path / "e", AppSettings(max_new_tokens=12))
    assert await embedded.chat_pane.send_prompt(prompt) == remote_answer

    unreachable = AppSettings(profiles=(ProviderProfile("gone", "ws://127.0.0.1:9"),), active_profile="gone")
    credentials.set_token("gone", "x")
    lost = make_window(qtbot, engine_host, tmp_path / "u", unreachable)
    assert await lost.chat_pane.send_prompt(prompt) is None
    assert "cannot be reached" in lost.chat_pane.error.text()


async def test_privacy_view_shows_no_number_until_measured_then_the_measurement(qtbot, engine_host, tmp_path):
    window = make_window(qtbot, engine_host, tmp_path, AppSettings(split="1"))
    folder = tmp_path / "docs"
    folder.mkdir()
    for document in bundled_corpus().documents[10:16]:
        (folder / f"{document.name}.txt").write_text(document.text, encoding="utf-8")
    privacy = window.privacy
    privacy.evaluation_settings = PrivacySettings(
        depths=(1, 2),
        corpus=str(folder),
        max_train_pairs=600,
        max_test_pairs=150,
        mlp_width=32,
        mlp_epochs=1,
        attackers=("learned_mlp", "public_tail", "most_frequent", "unigram_prior"),
        seed=7,
    )
    from app.engine.source.fingerprints import model_fingerprint
    from app.engine.source.specs import resolve_model
    from app.privacy.evaluation import report_path

    report_path(model_fingerprint(resolve_model()), privacy.evaluation_settings).unlink(missing_ok=True)
    view = privacy.view
    view.show_report(None, 1, True)
    assert view.statement.text() == NO_ESTIMATE and view.plot.isHidden()
    assert "published checkpoint" in view.checkpoint.text()

    # Cancel pressed while it runs: nothing is kept, and the view still shows no number.
    view.set_progress = lambda message, fraction: privacy.cancel()
    assert await privacy.run() is None
    assert "cancelled" in window.status.text() and view.statement.text() == NO_ESTIMATE
    del view.set_progress

    report = await privacy.run()
    assert report is not None and view.report is report
    assert not view.plot.isHidden()
    text = view.statement.text()
    learned = report.recovery(1, "to_worker", "learned_mlp")
    assert text.startswith("At depth 1") and f"{100 * learned.top1:.0f}%" in text
    assert view.depth_line.value() == 1
    # The built-in worker answers now: the figures are said to be about a remote worker, not this one.
    assert view.checkpoint.text().startswith(WORKER_HERE) and "published checkpoint" in view.checkpoint.text()
    # The key lists what was drawn, beside the plot rather than over its lines, and the axis counts whole layers.
    key = view.legend.text()
    drawn = ("sent · learned MLP", "returned · public weights (tail)", "returned · learned MLP", "baseline")
    assert not view.legend.isHidden() and all(label in key for label in drawn) and "head search" not in key
    assert view.plot.getPlotItem().legend is None
    assert view.plot.getAxis("bottom")._tickLevels == [[(1, "1"), (2, "2")]]


async def test_wrong_weights_missing_model_and_expired_sessions_read_plainly(
    qtbot, engine_host, worker, workers, tmp_path
):
    prompt = "Name a planet."
    credentials.set_token("gpu-box", worker.token)
    # The worker serves split 2; a workstation set to split 4 expects other weights and refuses it.
    other_split = AppSettings(
        profiles=(ProviderProfile("gpu-box", worker.endpoint),), active_profile="gpu-box", split="4"
    )
    window = make_window(qtbot, engine_host, tmp_path / "a", other_split)
    assert await window.chat_pane.send_prompt(prompt) is None
    error = window.chat_pane.error.text()
    assert "different split depth" in error and "(the worker serves layers 2–27 (split depth 2)" in error

    missing = make_window(qtbot, engine_host, tmp_path / "b", AppSettings(model=str(tmp_path / "no-such-model")))
    assert await missing.chat_pane.send_prompt(prompt) is None
    assert missing.chat_pane.error.text().startswith("The model cannot be loaded")
    assert [m.role for m in missing.store.messages(missing.chat_pane.conversation_id)] == ["user"]

    # A worker that forgets idle sessions after a second: the app re-sends the conversation silently.
    from app.engine.link.export import export_worker_shard
    from app.engine.source.specs import resolve_model

    shard = tmp_path / "ttl-shard"
    export_worker_shard(resolve_model(), SplitSpec(2, 2), shard)
    forgetful = workers(shard, session_ttl_s=1.0)
    credentials.set_token("forgetful", forgetful.token)
    settings = AppSettings(
        profiles=(ProviderProfile("forgetful", forgetful.endpoint),), active_profile="forgetful", max_new_tokens=12
    )
    chat = make_window(qtbot, engine_host, tmp_path / "c", settings)
    first = await chat.chat_pane.send_prompt(prompt)
    notices = []
    chat.chat_pane.signals.notice.connect(notices.append)
    await asyncio.sleep(2.5)  # the worker's sweeper drops the idle session
    second = await chat.chat_pane.send_prompt("And another one?")
    assert second and not chat.chat_pane.error.isVisible()
    assert (
        notices
        and notices[-1].startswith("Reconnected")
        and chat.status.text().startswith(("The answer is finished", "The answer reached"))
    )
    assert [m.role for m in chat.store.messages(chat.chat_pane.conversation_id)] == ["user", "assistant"] * 2
    assert first


async def test_closing_the_window_stops_the_embedded_worker_and_bundles_export(qtbot, tmp_path):
    from app.host import EngineHost

    window = MainWindow(EngineHost(), ConversationStore(tmp_path / "c.sqlite3"), AppSettings())
    qtbot.addWidget(window)
    window.show()
    info = await window.ensure_engine()
    process = window.host.chat.local_worker
    assert info.embedded and process.alive()
    manifest = await window.bundle_export.export(tmp_path / "bundle")
    assert (manifest.first_layer, manifest.last_layer) == (2, 28)
    assert "Worker bundle written" in window.status.text()
    window.close()
    assert not process.alive() and not window.host.thread.is_alive()


async def test_choosing_a_model_folder_checks_it_sizes_each_depth_and_exports_its_bundle(
    qtbot, engine_host, tmp_path, monkeypatch
):
    import torch
    from PySide6.QtWidgets import QFileDialog

    from app.bench.checkpoints import write_random_checkpoint
    from app.model.weights import WeightReader
    from app.wire.shard_format import Manifest
    from tests.helpers import tiny_config

    folder = write_random_checkpoint(tiny_config("qwen3"), tmp_path / "qwen3", torch.bfloat16, shard_bytes=40_000)
    window = make_window(qtbot, engine_host, tmp_path, AppSettings())
    dialog = window.open_settings()
    await dialog.model_page.inspect_task  # the configured (bundled) model is checked as the panel opens
    assert dialog.model_page.model_facts.text().startswith("✓ Llama 2/3 (also SmolLM2): 30 layers, float32")

    dialog.model_page.model.setText(str(folder))
    await dialog.model_page.start_inspection()
    reader = WeightReader(folder)
    assert dialog.model_page.model_facts.text().startswith(
        f"✓ Qwen3: 6 layers, bfloat16, 0.0 GB in {len(reader.files())} files"
    )
    assert dialog.model_page.depth.count() == 2  # six layers: one or two at each end

    def elements(*prefixes: str) -> int:
        return sum(reader.tensor(n).numel() for n in reader.names() if n.startswith(prefixes))

    edge = elements("model.embed_tokens.", "model.norm.", "lm_head.", "model.layers.0.", "model.layers.5.")
    middle = elements(*(f"model.layers.{i}." for i in range(1, 5)))
    assert dialog.model_page.depth_table.item(0, 2).text() == f"{4 * edge / 1e6:.1f} MB (float32)"
    assert (
        dialog.model_page.depth_table.item(0, 3).text()
        == f"{2 * middle / 1e6:.1f} MB (bfloat16) + each conversation's cache"
    )
    dialog.model_page.device.setCurrentText("cuda")  # a GPU workstation computes its layers in bfloat16
    assert dialog.model_page.depth_table.item(0, 2).text() == f"{2 * edge / 1e6:.1f} MB (bfloat16)"

    # The bundle is exported for the model and depth chosen in the panel, not the ones saved before.
    dialog.model_page.depth.setCurrentIndex(dialog.model_page.depth.findData("1"))
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", lambda *_: str(tmp_path / "bundle"))
    finished = asyncio.Event()
    window.bundle_export.running.connect(lambda running: finished.set() if not running else None)
    dialog.model_page.export_button.click()
    await asyncio.wait_for(finished.wait(), 120)
    manifest = Manifest.read(tmp_path / "bundle" / "shard")
    assert (manifest.first_layer, manifest.last_layer, manifest.num_layers) == (1, 5, 6)
    assert dialog.model_page.export_status.text().startswith("Worker bundle written")

    missing = sorted(folder.glob("model-*.safetensors"))[2]
    missing.unlink()
    await dialog.model_page.start_inspection()
    assert dialog.model_page.model_facts.text().startswith("✗ The model cannot be loaded")
    assert f"{missing.name}, listed in model.safetensors.index.json, is missing" in dialog.model_page.model_facts.text()
    assert dialog.model_page.depth_table.item(0, 2).text() == "choose a model to size it"


async def test_export_suggests_a_safe_name_in_the_documents_folder_and_says_the_file_is_unprotected(
    qtbot, engine_host, tmp_path, monkeypatch
):
    from PySide6.QtWidgets import QFileDialog

    from app.ui.conversation_export import export_folder

    window = make_window(qtbot, engine_host, tmp_path, AppSettings())
    conversation = window.store.create("Ward 3/bed 12: Mr Kowalski?")
    window.store.add_message(conversation.id, "user", "How is the patient?")
    window.chat_pane.open_conversation(conversation.id)
    asked = {}

    def save_dialog(parent, caption, suggested, filters):
        asked.update(caption=caption, suggested=suggested)
        return suggested, filters

    monkeypatch.setattr(QFileDialog, "getSaveFileName", save_dialog)
    monkeypatch.setattr("app.ui.chat_pane.export_folder", lambda: tmp_path / "Documents")
    (tmp_path / "Documents").mkdir()
    window.chat_pane.export_clicked()
    assert asked["suggested"] == str(tmp_path / "Documents" / "Ward 3 bed 12 Mr Kowalski.md")
    assert "not protected" in asked["caption"]
    assert "How is the patient?" in (tmp_path / "Documents" / "Ward 3 bed 12 Mr Kowalski.md").read_text()
    assert export_folder().is_absolute()
