"""What the app keeps on the workstation: conversations in SQLite, settings and policy, tokens in the keyring."""

from __future__ import annotations

import json
import os
import sqlite3
import sys
from dataclasses import replace

import keyring
import pytest
from keyring.errors import KeyringError

from app.data import credentials
from app.data.conversations import ConversationStore
from app.data.settings import (
    AppSettings,
    PolicyError,
    ProviderProfile,
    SettingsError,
    apply_policy,
    broken_settings_notice,
    config_dir,
    load_settings,
    locked_down,
    policy_path,
    read_policy,
    save_settings,
)


def test_conversations_persist_message_by_message(tmp_path):
    path = tmp_path / "chats.sqlite3"
    store = ConversationStore(path)
    chat = store.create("Lease review")
    store.add_message(chat.id, "user", "Summarise clause 4.")
    answer = store.add_message(chat.id, "assistant", "Clause 4", complete=False)
    store.update_message(answer.id, "Clause 4 limits", complete=False)
    # A second connection (as after a crash and restart) sees every write already: nothing is pending.
    other = sqlite3.connect(path)
    assert other.execute("SELECT content, complete FROM messages ORDER BY id").fetchall() == [
        ("Summarise clause 4.", 1),
        ("Clause 4 limits", 0),
    ]
    other.close()
    store.close()
    reopened = ConversationStore(path)
    messages = reopened.messages(chat.id)
    assert [(m.role, m.content, m.complete) for m in messages] == [
        ("user", "Summarise clause 4.", True),
        ("assistant", "Clause 4 limits", False),
    ]
    markdown = reopened.export_markdown(chat.id)
    assert markdown.startswith("# Lease review")
    # Written mid-answer and never finished (a crash): the export says so.
    assert "## You\n\nSummarise clause 4." in markdown and "_(unfinished: splitchat closed before the end)_" in markdown


def test_an_answer_says_how_it_ended_and_old_files_gain_the_column(tmp_path):
    path = tmp_path / "chats.sqlite3"
    old = sqlite3.connect(path)  # the messages table as files written before endings were kept
    old.executescript(
        """CREATE TABLE conversations (id INTEGER PRIMARY KEY, title TEXT NOT NULL, created REAL NOT NULL,
               updated REAL NOT NULL, pseudonyms TEXT);
           CREATE TABLE messages (id INTEGER PRIMARY KEY, conversation_id INTEGER NOT NULL, role TEXT NOT NULL,
               content TEXT NOT NULL, complete INTEGER NOT NULL DEFAULT 1, created REAL NOT NULL);
           INSERT INTO conversations VALUES (1, 'Old', 0, 0, NULL);
           INSERT INTO messages VALUES (1, 1, 'assistant', 'An old answer.', 1, 0);"""
    )
    old.commit()
    old.close()
    store = ConversationStore(path)
    chat = store.create("Endings")
    cut = store.add_message(chat.id, "assistant", "The lease runs", complete=False)
    store.update_message(cut.id, "The lease runs until", complete=True, ending="length")
    store.add_message(chat.id, "assistant", "Clause", complete=False, ending="stopped")
    store.add_message(chat.id, "assistant", "The tenant", complete=False, ending="lost")
    notes = [m.note for m in store.messages(chat.id)]
    assert notes == [
        "cut at the longest-answer limit (Settings → Decoding)",
        "stopped before the end",
        "cut off: the connection to the worker was lost",
    ]
    assert [m.note for m in store.messages(1)] == [""]
    markdown = store.export_markdown(chat.id)
    assert "_(cut at the longest-answer limit (Settings → Decoding))_" in markdown
    assert "_(cut off: the connection to the worker was lost)_" in markdown
    with pytest.raises(ValueError, match="unknown message ending"):
        store.add_message(chat.id, "assistant", "x", ending="finished?")


def test_conversation_list_search_rename_delete_and_regenerate(tmp_path):
    store = ConversationStore(tmp_path / "chats.sqlite3")
    first = store.create("Discharge note")
    store.add_message(first.id, "user", "What dose of 50% dextrose?")
    second = store.create("Contract")
    store.add_message(second.id, "user", "Is clause 7 enforceable?")
    assert [c.id for c in store.list()] == [second.id, first.id]  # newest first
    assert [c.id for c in store.list("CLAUSE")] == [second.id]  # message text, case-insensitive
    assert [c.id for c in store.list("50%")] == [first.id]  # % is literal, not a wildcard
    assert [c.id for c in store.list("discharge")] == [first.id]
    store.rename(first.id, "  Ward 3 note ")
    assert store.get(first.id).title == "Ward 3 note"
    with pytest.raises(ValueError):
        store.rename(first.id, "   ")
    answer = store.add_message(second.id, "assistant", "Probably.")
    store.add_message(second.id, "user", "Why?")
    store.delete_from(second.id, answer.id)
    assert [m.content for m in store.messages(second.id)] == ["Is clause 7 enforceable?"]
    store.delete(second.id)
    assert [c.id for c in store.list()] == [first.id]
    assert store.messages(second.id) == []  # messages go with their conversation
    with pytest.raises(KeyError):
        store.get(second.id)


def test_settings_round_trip_and_validation():
    settings = AppSettings(
        profiles=(ProviderProfile("gpu-box", "wss://gpu.example:8765", "AB:" * 31 + "AB"),),
        active_profile="gpu-box",
        split="4",
        mode="lookup",
    )
    save_settings(settings)
    assert load_settings() == settings
    assert load_settings().provider.endpoint == "wss://gpu.example:8765"
    stored = json.loads((config_dir() / "settings.json").read_text())
    assert set(stored["profiles"][0]) == {
        "name",
        "endpoint",
        "cert_sha256",
        "pseudonymise",
        "prefill_while_typing",
        "compress_wire",
        "review_before_sending",
    }  # no token field
    assert "locked" not in stored  # the policy's locks are never written back
    for bad, message in [
        (AppSettings(profiles=(ProviderProfile("x", "http://x"),), active_profile="x"), "ws://"),
        (AppSettings(active_profile="nobody"), "no profile"),
        (AppSettings(mode="fast"), "Decoding mode"),
        (AppSettings(profiles=(ProviderProfile("x", "wss://x", "12"),)), "64 hex"),
        (AppSettings(profiles=(ProviderProfile("x", "wss://a"), ProviderProfile("x", "wss://b"))), "same name"),
        (AppSettings(profiles=(ProviderProfile("x", "wss://a", pseudonymise="yes"),)), "true or false"),
        (AppSettings(pseudonymise_always=1), "true or false"),
        (AppSettings(profiles=(ProviderProfile("x", "wss://a", review_before_sending="yes"),)), "true or false"),
        (AppSettings(review_always=1), "true or false"),
    ]:
        with pytest.raises(SettingsError, match=message):
            save_settings(bad)
    (config_dir() / "settings.json").write_text("{not json")
    assert load_settings() == AppSettings()  # moved aside (the next test says where), the defaults apply
    assert "could not be used" in broken_settings_notice()


@pytest.mark.parametrize(
    "broken",
    [
        "{not json",
        '["a list"]',
        '{"profiles": [{"name": "gpu"}]}',  # a profile without an endpoint
        '{"profiles": [{"name": "gpu", "endpoint": "wss://gpu:1", "token": "s3cret"}]}',  # a token does not belong
        '{"budget": "abc"}',
        '{"split": "two"}',
        '{"mode": "bogus"}',
        '{"profiles": {"name": "gpu"}}',
        '{"review_always": "yes"}',
        '{"profiles": [{"name": "gpu", "endpoint": "wss://gpu:1", "review_before_sending": 1}]}',
    ],
)
def test_a_broken_settings_file_is_moved_aside_and_reported_and_the_app_starts(broken):
    config_dir().mkdir(parents=True, exist_ok=True)
    (config_dir() / "settings.json").write_text(broken)
    policy_path().write_text(json.dumps({"values": {"mode": "lookup"}, "locked": ["mode"]}))
    settings = load_settings()
    assert settings.mode == "lookup" and settings.locked == ("mode",)  # the policy still holds
    notice = broken_settings_notice()
    aside = [p for p in config_dir().iterdir() if p.name.startswith("settings.broken-")]
    assert len(aside) == 1 and aside[0].read_text() == broken and str(aside[0]) in notice
    assert not (config_dir() / "settings.json").exists() and broken_settings_notice() is None


def test_a_split_is_read_by_the_one_split_parser():
    config_dir().mkdir(parents=True, exist_ok=True)
    (config_dir() / "settings.json").write_text('{"split": "2:3"}')
    assert load_settings().split == "2,3"


@pytest.mark.parametrize(
    "policy",
    [
        "{not json",
        '{"values": ["split", 4]}',
        '{"locked": "split"}',
        '{"values": {"split": "nonsense"}, "locked": ["split"]}',
        '{"values": {"profiles": [{"name": "gpu", "endpoint": "wss://gpu:1", "token": "x"}]}}',
    ],
)
def test_a_broken_policy_is_an_error_never_no_policy(policy):
    policy_path().write_text(policy)
    with pytest.raises(PolicyError):
        load_settings()
    locked = locked_down()
    assert locked.provider is None and "profiles" in locked.locked and "active_profile" in locked.locked
    with pytest.raises(SettingsError):
        save_settings(AppSettings())  # nothing is saved against a policy that cannot be read


def test_admin_policy_locks_settings():
    policy = {"values": {"split": "6"}, "locked": ["split", "mode"]}
    with open(os.environ["SPLITCHAT_POLICY"], "w", encoding="utf-8") as handle:
        json.dump(policy, handle)
    save_settings(AppSettings(split="6", mode="auto", temperature=0.7))
    settings = load_settings()
    assert settings.split == "6" and settings.mode == "auto" and settings.temperature == 0.7
    assert set(settings.locked) == {"split", "mode"}
    with pytest.raises(SettingsError, match="locked"):
        save_settings(AppSettings(split="2"))
    with pytest.raises(SettingsError, match="locked"):
        save_settings(AppSettings(split="6", mode="lookup"))  # locked at the default without a value
    with open(os.environ["SPLITCHAT_POLICY"], "w", encoding="utf-8") as handle:
        json.dump({"values": {"colour": "red"}}, handle)
    with pytest.raises(SettingsError, match="unknown settings: colour"):
        load_settings()


def test_tokens_live_in_the_keyring_only(isolated_user_state):
    assert not credentials.has_token("gpu-box")
    credentials.set_token("gpu-box", " secret-token \n")
    assert credentials.get_token("gpu-box") == "secret-token"
    assert isolated_user_state.store == {("splitchat", "provider:gpu-box"): "secret-token"}
    credentials.delete_token("gpu-box")
    credentials.delete_token("gpu-box")  # deleting twice is not an error
    assert not credentials.has_token("gpu-box")
    with pytest.raises(credentials.CredentialError, match="empty"):
        credentials.set_token("gpu-box", "  ")


def test_a_keyring_that_fails_is_a_clear_error_not_a_plaintext_fallback(monkeypatch):
    from tests.conftest import MemoryKeyring

    class LockedKeyring(MemoryKeyring, keyring.backend.KeyringBackend):
        def set_password(self, *_):
            raise KeyringError("the collection is locked")

    monkeypatch.setattr(keyring, "get_keyring", LockedKeyring)
    with pytest.raises(credentials.CredentialError, match="does not store tokens in plain text"):
        credentials.set_token("gpu-box", "secret")
    assert not any("secret" in p.read_text() for p in config_dir().parent.rglob("*") if p.is_file())


def _plaintext_file_keyring(tmp_path):
    from keyrings.alt.file import PlaintextKeyring

    backend = PlaintextKeyring()
    backend.file_path = str(tmp_path / "keyring_pass.cfg")
    return backend


def _low_priority_keyring(_):
    from tests.conftest import MemoryKeyring

    return type("GuessKeyring", (MemoryKeyring, keyring.backend.KeyringBackend), {"priority": 0.5})()


@pytest.mark.parametrize(
    "make_backend",
    [
        _plaintext_file_keyring,
        lambda _: keyring.backends.null.Keyring(),
        lambda _: keyring.backends.fail.Keyring(),
        lambda _: keyring.backends.chainer.ChainerBackend(),
        _low_priority_keyring,
    ],
    ids=["keyrings.alt plaintext", "null", "fail", "no backend at all", "priority below 1"],
)
def test_a_keyring_that_is_not_an_os_store_is_refused_with_what_to_install(make_backend, tmp_path, monkeypatch):
    import keyring.backends.chainer
    import keyring.backends.fail
    import keyring.backends.null

    backend = make_backend(tmp_path)
    monkeypatch.setattr(keyring, "get_keyring", lambda: backend)
    monkeypatch.setattr(keyring.backends.chainer.ChainerBackend, "backends", [], raising=False)
    with pytest.raises(credentials.CredentialError, match="Secret Service .* or KWallet"):
        credentials.set_token("gpu-box", "secret-token-7731")
    assert not credentials.has_token("gpu-box")
    leaked = [p for p in tmp_path.rglob("*") if p.is_file() and b"secret-token" in p.read_bytes()]
    assert not leaked and not (tmp_path / "keyring_pass.cfg").exists()


def test_a_settings_file_from_before_pseudonymisation_gets_its_defaults():
    (config_dir()).mkdir(parents=True, exist_ok=True)
    old = {"profiles": [{"name": "gpu", "endpoint": "wss://gpu:1", "cert_sha256": ""}], "active_profile": "gpu"}
    (config_dir() / "settings.json").write_text(json.dumps(old))
    settings = load_settings()
    assert settings.provider.pseudonymise and settings.pseudonymising  # remote: on
    assert not settings.pseudonymise_embedded and not AppSettings().pseudonymising  # embedded: off


def test_review_before_sending_round_trips_is_per_remote_provider_and_the_policy_can_require_it():
    remote = ProviderProfile("gpu", "wss://gpu:1", review_before_sending=True)
    settings = AppSettings(profiles=(remote, ProviderProfile("other", "wss://other:1")), active_profile="gpu")
    save_settings(settings)
    stored = json.loads((config_dir() / "settings.json").read_text())
    assert stored["profiles"][0]["review_before_sending"] is True and stored["review_always"] is False
    loaded = load_settings()
    assert loaded == settings and loaded.provider.review_before_sending and loaded.reviewing
    assert not AppSettings().reviewing and not ProviderProfile("x", "wss://x").review_before_sending  # off by default
    assert not replace(loaded, active_profile="other").reviewing  # that provider's own switch is off
    assert not replace(loaded, active_profile="", review_always=True).reviewing  # nothing leaves: nothing to review
    # Review wins over sending ahead as typed: nothing leaves before the user confirms.
    ahead = replace(remote, prefill_while_typing=True)
    assert not replace(loaded, profiles=(ahead,)).prefilling_while_typing
    assert replace(loaded, profiles=(replace(ahead, review_before_sending=False),)).prefilling_while_typing

    policy_path().write_text(json.dumps({"values": {"review_always": True}, "locked": ["review_always"]}))
    required = load_settings()
    assert required.review_always and "review_always" in required.locked
    assert replace(required, active_profile="other").reviewing  # whatever the provider's own switch says
    with pytest.raises(SettingsError, match="locked"):
        save_settings(replace(required, review_always=False))
    assert "review_always" in locked_down().locked


def test_a_conversation_keeps_its_mapping_and_an_older_file_gains_the_column(tmp_path):
    path = tmp_path / "old.sqlite3"
    with sqlite3.connect(path) as db:  # the layout before conversations kept a mapping
        db.executescript(
            "CREATE TABLE conversations (id INTEGER PRIMARY KEY, title TEXT NOT NULL, created REAL NOT NULL, "
            "updated REAL NOT NULL);"
            "INSERT INTO conversations VALUES (1, 'Old', 0, 0);"
        )
    store = ConversationStore(path)
    assert [c.title for c in store.list()] == ["Old"] and store.pseudonyms(1) is None
    store.set_pseudonyms(1, '{"format": "splitchat-pseudonyms/1"}')
    store.close()
    reopened = ConversationStore(path)
    assert reopened.pseudonyms(1) == '{"format": "splitchat-pseudonyms/1"}'
    assert reopened.get(1).title == "Old"
    reopened.delete(1)
    with pytest.raises(KeyError):
        reopened.pseudonyms(1)


def test_a_deleted_conversation_leaves_its_text_nowhere_in_the_data_folder(tmp_path):
    secret = "Kowalczyk-Zqvx-8871"
    store = ConversationStore(tmp_path / "data" / "conversations.sqlite3")
    kept = store.create("kept")
    store.add_message(kept.id, "user", "ordinary text")
    gone = store.create(f"about {secret}")
    for turn in range(20):
        store.add_message(gone.id, "user", f"{secret}, note {turn}")
        store.add_message(gone.id, "assistant", f"A reply about {secret}.")
    store.delete(gone.id)
    store.add_message(kept.id, "user", "the store stays in use after a delete")
    files = [file for file in (tmp_path / "data").rglob("*") if file.is_file()]
    assert files and not [file.name for file in files if secret.encode() in file.read_bytes()]
    store.close()
    assert not [file.name for file in files if file.exists() and secret.encode() in file.read_bytes()]


@pytest.mark.skipif(os.name != "posix", reason="POSIX modes; on Windows the profile folder's access list applies")
def test_the_data_folder_and_the_database_are_readable_by_their_owner_only(tmp_path):
    store = ConversationStore(tmp_path / "data" / "conversations.sqlite3")
    store.add_message(store.create("x").id, "user", "hello")
    assert (tmp_path / "data").stat().st_mode & 0o777 == 0o700
    for file in (tmp_path / "data").iterdir():
        assert file.stat().st_mode & 0o777 == 0o600, file.name
    store.close()


@pytest.mark.parametrize(
    "endpoint, allowed",
    [
        ("wss://gpu.example.org:8765", True),
        ("ws://127.0.0.1:8765", True),
        ("ws://localhost:8765", True),
        ("ws://[::1]:8765", True),
        ("ws://gpu.example.org:8765", False),
        ("ws://10.0.0.5:8765", False),
    ],
)
def test_hidden_states_never_cross_a_network_unencrypted_unless_the_policy_allows_it(endpoint, allowed):
    settings = AppSettings(profiles=(ProviderProfile("gpu", endpoint),), active_profile="gpu")
    if allowed:
        settings.check()
    else:
        with pytest.raises(SettingsError, match="unencrypted over the network. Use wss://"):
            settings.check()
    policy_path().write_text(json.dumps({"allow_unencrypted_endpoints": True}))
    apply_policy(settings, read_policy()).check()  # an admin may allow it (a private network)
    policy_path().write_text(json.dumps({"values": {"unencrypted_allowed": True}}))
    with pytest.raises(SettingsError, match="unknown settings"):  # nor can a policy's ordinary values
        apply_policy(settings, read_policy())
    (config_dir()).mkdir(parents=True, exist_ok=True)
    (config_dir() / "settings.json").write_text(json.dumps({"unencrypted_allowed": True}))
    policy_path().unlink()
    assert not load_settings().unencrypted_allowed  # a user's own file cannot allow it


def test_an_installed_app_reads_the_policy_only_from_the_system_location(monkeypatch, tmp_path):
    """The user sets SPLITCHAT_POLICY and XDG_CONFIG_DIRS to a permissive policy of their own; in the
    frozen bundle neither is followed (run from source, the override is how the tests point elsewhere)."""
    from app.data import policy_source

    mine = tmp_path / "xdg" / "splitchat" / "policy.json"
    mine.parent.mkdir(parents=True)
    mine.write_text(json.dumps({"values": {"mode": "lookup"}, "locked": ["mode"]}))
    monkeypatch.setenv("SPLITCHAT_POLICY", str(mine))
    monkeypatch.setenv("XDG_CONFIG_DIRS", str(tmp_path / "xdg"))
    assert load_settings().locked == ("mode",)  # from source: the override is read
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    assert policy_path() == policy_source.LINUX_POLICY
    document = policy_source.read_policy_document()
    assert document.origin == str(policy_source.LINUX_POLICY)
    if policy_source.LINUX_POLICY.exists():
        pytest.skip("this machine has a real admin policy; the rest would read it")
    assert document.text is None and load_settings().locked == ()


def test_settings_give_their_split_and_mode_typed_and_check_names_a_wrong_one_as_written():
    from app.data.settings import SettingsProblem
    from app.model.choices import Mode, SplitSpec

    chosen = AppSettings(split="2:3", mode="lookup")
    assert chosen.split_spec == SplitSpec(2, 3) and chosen.decoding_mode is Mode.LOOKUP
    wrong = AppSettings(split="two")
    with pytest.raises(ValueError):
        _ = wrong.split_spec
    with pytest.raises(SettingsError) as caught:
        wrong.check()
    assert caught.value.problem is SettingsProblem.SPLIT and caught.value.values["split"] == "two"


def test_the_models_reading_is_the_users_choice_unless_the_policy_locks_it():
    from app.data.settings import reading_in_context

    assert reading_in_context() is True  # no settings file, no policy: on
    config_dir().mkdir(parents=True, exist_ok=True)
    (config_dir() / "settings.json").write_text('{"read_in_context": false}')
    assert reading_in_context() is False
    policy_path().write_text(json.dumps({"values": {"read_in_context": True}, "locked": ["read_in_context"]}))
    assert reading_in_context() is True and load_settings().locked == ("read_in_context",)
    policy_path().write_text('{"values": {"read_in_context": "no"}, "locked": ["read_in_context"]}')
    assert reading_in_context() is True  # a policy that cannot be applied: the detector reads all it can
    with pytest.raises(SettingsError, match="read_in_context"):
        AppSettings.from_dict({"read_in_context": "off"}).check()
