"""A token the keyring refuses is kept as typed, for another try once a store is there."""

from __future__ import annotations

import keyring

from app.data import credentials
from app.data.settings import AppSettings, ProviderProfile
from app.ui.settings_dialog import SettingsDialog


async def test_a_refused_save_keeps_the_typed_token_and_a_later_one_stores_it(
    qtbot, engine_host, isolated_user_state, tmp_path
):
    from keyrings.alt.file import PlaintextKeyring

    plaintext = PlaintextKeyring()
    plaintext.file_path = str(tmp_path / "keyring_pass.cfg")
    keyring.set_keyring(plaintext)  # a file keyring, which splitchat refuses to trust with a token
    settings = AppSettings(
        profiles=(ProviderProfile("clinic", "wss://gpu.clinic.example:8765"),), active_profile="clinic"
    )
    dialog = SettingsDialog(settings, 30, None, engine_host.probe)
    qtbot.addWidget(dialog)
    dialog.token.setText("tok-77120")
    dialog._save_clicked()
    assert "keeps passwords in a file" in dialog.error.text() and dialog.result() == 0
    assert dialog.token_state.text().startswith("A new token was typed")
    assert not (tmp_path / "keyring_pass.cfg").exists()

    keyring.set_keyring(isolated_user_state)  # the system store is back (unlocked, installed)
    dialog._save_clicked()
    assert dialog.result() == 1 and credentials.get_token("clinic") == "tok-77120"
