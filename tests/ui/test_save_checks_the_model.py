"""Save refuses a model the panel's own check refuses, and keeps the last good one."""

from __future__ import annotations

from app.data.settings import AppSettings, load_settings, save_settings
from app.ui.settings_dialog import SettingsDialog


async def test_save_refuses_a_folder_that_is_not_a_model_and_keeps_the_saved_one(qtbot, engine_host, tmp_path):
    save_settings(AppSettings())
    notes = tmp_path / "my-notes"
    notes.mkdir()
    (notes / "letter.txt").write_text("Dear Sir")
    dialog = SettingsDialog(AppSettings(), 30, None, engine_host.probe, inspect=engine_host.inspect_model)
    qtbot.addWidget(dialog)
    await dialog.model_page.inspect_task
    dialog.model_page.model.setText(str(notes))
    dialog._save_clicked()  # pressed at once, before the field's own check ran
    await dialog.save_task
    assert dialog.result() == 0 and "Not saved" in dialog.error.text() and "config.json" in dialog.error.text()
    assert load_settings().model == "smollm2-135m-instruct"
    assert dialog.model_page.model.text() == str(notes)  # what was typed stays, to correct

    dialog.model_page.model.setText("smollm2-135m-instruct")
    dialog._save_clicked()
    assert dialog.result() == 1 and dialog.chosen.model == "smollm2-135m-instruct"
