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
    dialog.provider_page.token.setText("tok-77120")
    dialog._save_clicked()
    assert "keeps passwords in a file" in dialog.error.text() and dialog.result() == 0
    assert dialog.provider_page.token_state.text().startswith("A new token was typed")
    assert not (tmp_path / "keyring_pass.cfg").exists()

    keyring.set_keyring(isolated_user_state)  # the system store is back (unlocked, installed)
    dialog._save_clicked()
    assert dialog.result() == 1 and credentials.get_token("clinic") == "tok-77120"


async def test_a_keyring_that_refuses_to_forget_keeps_the_provider_and_says_why(
    qtbot, engine_host, isolated_user_state, tmp_path
):
    from keyrings.alt.file import PlaintextKeyring

    credentials.set_token("clinic", "tok-55120")  # stored in the system store…
    settings = AppSettings(
        profiles=(ProviderProfile("clinic", "wss://gpu.clinic.example:8765"),), active_profile="clinic"
    )
    dialog = SettingsDialog(settings, 30, None, engine_host.probe)
    qtbot.addWidget(dialog)
    plaintext = PlaintextKeyring()
    plaintext.file_path = str(tmp_path / "keyring_pass.cfg")
    keyring.set_keyring(plaintext)  # …which is now gone: only a file keyring, which splitchat refuses
    dialog.provider_page._remove_profile()
    assert "keeps passwords in a file" in dialog.error.text()
    assert (
        "clinic" in dialog.provider_page.profiles and dialog.provider_page.provider.findData("clinic") >= 0
    )  # nothing removed
    dialog.provider_page._forget_token()
    assert "keeps passwords in a file" in dialog.error.text()

    keyring.set_keyring(isolated_user_state)
    dialog.provider_page._remove_profile()
    assert dialog.error.text() == "" and "clinic" not in dialog.provider_page.profiles
    assert credentials.get_token("clinic") is None


def test_settings_a_policy_locked_after_the_dialog_checked_them_are_refused_on_the_status_line(
    qtbot, engine_host, isolated_user_state, tmp_path, monkeypatch
):
    import json

    from app.data.conversations import ConversationStore
    from app.data.settings import load_settings
    from app.ui.main_window import MainWindow

    window = MainWindow(engine_host, ConversationStore(tmp_path / "c.sqlite3"), AppSettings(), owns_host=False)
    qtbot.addWidget(window)
    policy = tmp_path / "policy.json"
    policy.write_text(json.dumps({"values": {"max_new_tokens": 64}, "locked": ["max_new_tokens"]}))
    monkeypatch.setenv("SPLITCHAT_POLICY", str(policy))  # the administrator's lock arrives meanwhile
    window.apply_settings(AppSettings(max_new_tokens=900))
    assert "locked by the administrator" in window.status.text()
    assert window.settings.max_new_tokens != 900 and load_settings().max_new_tokens == 64
