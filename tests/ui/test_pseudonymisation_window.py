"""Pseudonymisation in the window: the model reads stand-ins, the person reads and keeps the originals, the
conversation keeps its stand-ins across turns and restarts, and the admin's policy can force it on."""

from __future__ import annotations

import json
import logging
import re
from dataclasses import replace
from pathlib import Path

import pytest

from app.data.conversations import ConversationStore
from app.data.settings import AppSettings, ProviderProfile, SettingsError, load_settings, save_settings
from app.host import ConversationIdentifiers
from app.identifiers.pseudonyms import Pseudonyms
from app.ui.banner import banner_for
from app.ui.chat_view import STAND_IN_STYLE
from app.ui.main_window import MainWindow
from app.ui.provider_page import ALWAYS_TIP, PSEUDONYMISE_TIP
from app.ui.settings_dialog import SettingsDialog

pytestmark = pytest.mark.bundled

NOTE = (
    "Patient: Mrs Henrietta Okonkwo, MRN 84729163, admitted 14/03/2024 to St Aldhelm's Infirmary. "
    "Repeat the patient's full name and the admission date."
)


def held_out_ranges() -> dict[str, str]:
    """The word recall docs/PRIVACY.md's results table gives for the sources by authors who never saw the
    detector (every held-out source but the project's own templates), per language, as the app words it:
    "90–94" for figures from 89.6 to 94.4 %."""
    privacy = (Path(__file__).resolve().parents[2] / "docs" / "PRIVACY.md").read_text(encoding="utf-8")
    table = privacy[privacy.index("**Detection, every source on its own**") :]
    figures: dict[str, list[float]] = {}
    for source, language, recall in re.findall(
        r"^\| ([\w-]+) \| held out \| (en|es) \| [\d,]+ \| [\d,]+ \| ([\d.]+) %", table, re.M
    ):
        if source != "templates-held-out":
            figures.setdefault(language, []).append(float(recall))
    return {language: f"{round(min(v))}–{round(max(v))}" for language, v in figures.items()}


def make_window(qtbot, host, tmp_path, settings: AppSettings) -> MainWindow:
    window = MainWindow(host, ConversationStore(tmp_path / "c.sqlite3"), settings, owns_host=False)
    qtbot.addWidget(window)
    window.show()
    return window


def words_of(text: str) -> set[str]:
    return set(re.findall(r"[^\W_]+", text.lower()))


async def test_the_model_reads_stand_ins_while_the_person_reads_and_keeps_the_originals(
    qtbot, engine_host, tmp_path, caplog
):
    caplog.set_level(logging.DEBUG)
    settings = AppSettings(max_new_tokens=24, pseudonymise_embedded=True)
    window = make_window(qtbot, engine_host, tmp_path, settings)
    pane = window.chat_pane
    assert "Nothing leaves this computer" in pane.banner.text() and "stand-ins" in pane.banner.text()
    assert not pane.model_view_button.isEnabled()  # nothing to show before the first message
    pane.identifiers = ConversationIdentifiers(Pseudonyms(seed=7))  # stand-ins the answer is cut inside of at 24 tokens
    streamed: list[str] = []
    pane.signals.text.connect(lambda _, text: streamed.append(text))
    answer = await pane.send_prompt(NOTE)
    reply = pane.last_reply

    mapping = Pseudonyms.from_json(window.store.pseudonyms(pane.conversation_id))
    by_original = {r.original: r.surrogate for r in mapping.replacements}
    assert {"Mrs Henrietta Okonkwo", "84729163", "14/03/2024"} <= set(by_original)
    surname = by_original["Mrs Henrietta Okonkwo"].split()[-1]  # the stand-in for "Okonkwo"
    for original, surrogate in by_original.items():
        assert original not in reply.model_prompt and surrogate in reply.model_prompt
    # The model wrote stand-ins; the person saw, and the store kept, the originals only.
    assert "Okonkwo" in answer and surname in reply.model_text
    stand_in_words = set().union(*(words_of(s) for s in by_original.values())) - words_of(NOTE)
    for text in streamed:
        assert not words_of(text) & stand_in_words, text  # no stand-in flashes on screen
        assert answer.startswith(text.rstrip()), text  # nothing shown is taken back
    stored = window.store.messages(pane.conversation_id)
    assert [(m.role, m.content) for m in stored] == [("user", NOTE), ("assistant", answer)]
    assert answer == pane.chat_view.bubbles[-1].text
    # The mapping is on disk with the conversation, and in no log record.
    for original, surrogate in by_original.items():
        assert original not in caplog.text and surrogate not in caplog.text

    # What the model read: the same messages with the stand-ins, highlighted; then back.
    pane.model_view_button.click()
    await pane.model_view.task
    user, assistant = pane.chat_view.bubbles
    assert "as the model read it" in user.title.text() and "as the model wrote it" in assistant.title.text()
    assert by_original["84729163"] in user.body.text() and "84729163" not in user.body.text()
    assert STAND_IN_STYLE in user.body.text() and STAND_IN_STYLE in assistant.body.text()
    assert user.text == NOTE  # Copy still copies what the person wrote
    pane.model_view_button.click()
    assert "84729163" in user.body.text() and STAND_IN_STYLE not in user.body.text()
    window.store.close()

    # After a restart the conversation keeps its stand-ins: the next turn reads the same ones.
    reopened = make_window(qtbot, engine_host, tmp_path, settings)
    reopened.conversations.list.setCurrentRow(0)
    later = "Mrs Okonkwo asks whether record 84729163 can be sent to her GP."
    await reopened.chat_pane.send_prompt(later)
    second = reopened.chat_pane.last_reply.model_prompt
    assert by_original["84729163"] in second and surname in second
    assert "Okonkwo" not in second and "84729163" not in second
    assert reopened.store.messages(reopened.chat_pane.conversation_id)[2].content == later


async def test_policy_forces_pseudonymisation_on_and_the_panel_shows_it_locked(
    qtbot, engine_host, monkeypatch, tmp_path
):
    remote = ProviderProfile("gpu-box", "wss://gpu.example.org:8765")
    save_settings(AppSettings(profiles=(remote,), active_profile=""))
    settings = load_settings()
    assert not settings.pseudonymising  # the embedded default: nothing leaves, off unless asked
    assert replace(settings, active_profile="gpu-box").pseudonymising  # on by default for a remote provider

    dialog = SettingsDialog(settings, 30, None, engine_host.probe)
    qtbot.addWidget(dialog)
    assert not dialog.provider_page.pseudonymise.isChecked() and dialog.provider_page.pseudonymise.isEnabled()
    dialog.provider_page.provider.setCurrentIndex(dialog.provider_page.provider.findData("gpu-box"))
    assert dialog.provider_page.pseudonymise.isChecked()
    dialog.provider_page.pseudonymise.setChecked(False)
    chosen = dialog.result_settings()
    assert chosen.profiles[0].pseudonymise is False and chosen.pseudonymise_embedded is False
    assert not chosen.pseudonymising and "pseudonymisation is off" in banner_for(chosen)[0]
    save_settings(chosen)

    policy = tmp_path / "policy.json"
    policy.write_text(json.dumps({"values": {"pseudonymise_always": True}, "locked": ["pseudonymise_always"]}))
    monkeypatch.setenv("SPLITCHAT_POLICY", str(policy))
    locked = load_settings()  # the user's switch is off; the policy overrides it
    assert locked.pseudonymising and replace(locked, active_profile="gpu-box").pseudonymising
    with pytest.raises(SettingsError, match="locked"):
        save_settings(replace(locked, pseudonymise_always=False))
    dialog = SettingsDialog(locked, 30, None, engine_host.probe)
    qtbot.addWidget(dialog)
    for index in range(dialog.provider_page.provider.count()):
        dialog.provider_page.provider.setCurrentIndex(index)
        assert dialog.provider_page.pseudonymise.isChecked() and not dialog.provider_page.pseudonymise.isEnabled()
        assert dialog.provider_page.pseudonymise.toolTip() == ALWAYS_TIP
    banner = banner_for(replace(locked, active_profile="gpu-box"))[0]
    assert "with identifiers replaced" in banner
    # the banner quotes the detection measured on text it was not tuned on, and never promises all of it
    ranges = held_out_ranges()
    assert set(ranges) == {"en", "es"}
    for words in (banner, PSEUDONYMISE_TIP):
        assert f"{ranges['en']} % in English" in words or f"{ranges['en']} % of identifier words in English" in words
        assert f"{ranges['es']} % in Spanish" in words
    assert "the rest reach it as written" in banner
    assert "only as stand-ins" not in banner
