"""The administrator's policy and the rule on unencrypted endpoints hold on every path that connects: the
command line as the app, Test connection as Save, the transport whoever calls it. A real listener on this
computer's network address stands for a worker that is not this computer, and counts what reaches it."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys

import pytest

from app.data.command_policy import CommandFlags, LockedByPolicy, bind_to_policy
from app.engine.link.link_codes import WorkerError
from app.engine.link.transport import RemoteMiddle
from tests.helpers import Listener, network_address


@pytest.fixture
def listener():
    heard = Listener(network_address())
    yield heard
    heard.close()


def test_the_transport_sends_nothing_to_an_unencrypted_endpoint_beyond_this_computer(listener):
    with pytest.raises(WorkerError) as refused:
        asyncio.run(RemoteMiddle.connect(listener.endpoint, "s3cret-token", open_timeout=2))
    assert refused.value.code == "unencrypted" and "Nothing was sent" in str(refused.value)
    assert listener.connections == 0 and listener.received == b""
    # Allowed by the policy, the same call reaches the listener (so the check above is what stopped it).
    with pytest.raises(WorkerError):
        asyncio.run(RemoteMiddle.connect(listener.endpoint, "s3cret-token", open_timeout=2, allow_unencrypted=True))
    assert b"Bearer s3cret-token" in listener.received


def ask(*args: str, policy: dict | None = None) -> subprocess.CompletedProcess:
    if policy is not None:
        with open(os.environ["SPLITCHAT_POLICY"], "w", encoding="utf-8") as handle:
            json.dump(policy, handle)
    env = {**os.environ, "SPLITCHAT_TOKEN": "s3cret-token"}
    return subprocess.run(
        [sys.executable, "-m", "app", "ask", *args], capture_output=True, text=True, timeout=300, env=env
    )


def test_ask_refuses_an_unencrypted_endpoint_before_sending_anything(listener):
    refused = ask("hello", "--endpoint", listener.endpoint)
    assert refused.returncode == 2, refused.stderr
    assert "unencrypted" in refused.stderr and "Traceback" not in refused.stderr
    assert listener.connections == 0


def test_ask_refuses_flags_the_policy_locks():
    locked = {"values": {"split": "4", "mode": "lookup"}, "locked": ["split", "mode"]}
    split = ask("hello", "--split", "3", policy=locked)
    assert split.returncode == 2 and "administrator has locked 'split'" in split.stderr, split.stderr
    review = {"values": {"review_always": True}, "locked": ["review_always"]}
    reviewed = ask("hello", "--endpoint", "ws://127.0.0.1:9", policy=review)
    assert reviewed.returncode == 2 and "review" in reviewed.stderr, reviewed.stderr


def test_the_policy_binds_what_a_flag_leaves_unsaid():
    policy = {"values": {"split": "4", "pseudonymise_always": True}, "locked": ["split", "pseudonymise_always"]}
    bound = bind_to_policy(CommandFlags(), policy)
    assert bound.settings.split == "4" and bound.endpoint is None and bound.pseudonymise  # embedded, yet forced
    assert bind_to_policy(CommandFlags(split="4", pseudonymise=True), policy).settings.split == "4"
    with pytest.raises(LockedByPolicy, match="--no-pseudonymise"):
        bind_to_policy(CommandFlags(pseudonymise=False), policy)
    # By default: on where the model runs elsewhere, off for the embedded worker.
    assert bind_to_policy(CommandFlags(endpoint="wss://gpu.example:8765"), {}).pseudonymise
    assert not bind_to_policy(CommandFlags(), {}).pseudonymise
    # ws:// beyond this computer only where the policy allows it
    with pytest.raises(LockedByPolicy, match="ws://"):
        bind_to_policy(CommandFlags(endpoint="ws://gpu.example:8765"), {})
    allowed = bind_to_policy(CommandFlags(endpoint="ws://gpu.example:8765"), {"allow_unencrypted_endpoints": True})
    assert allowed.allow_unencrypted and allowed.endpoint == "ws://gpu.example:8765"


def test_an_administrators_provider_is_the_only_one_a_command_reaches():
    provider = {"name": "clinic", "endpoint": "wss://gpu.clinic.example:8765", "pseudonymise": True}
    policy = {"values": {"profiles": [provider], "active_profile": "clinic"}, "locked": ["profiles", "active_profile"]}
    bound = bind_to_policy(CommandFlags(), policy)
    assert bound.endpoint == "wss://gpu.clinic.example:8765" and bound.pseudonymise
    assert bind_to_policy(CommandFlags(endpoint=provider["endpoint"]), policy).endpoint == provider["endpoint"]
    with pytest.raises(LockedByPolicy, match="active_profile"):
        bind_to_policy(CommandFlags(endpoint="wss://elsewhere.example:8765"), policy)
    with pytest.raises(LockedByPolicy, match="profiles"):
        bind_to_policy(CommandFlags(pseudonymise=False), policy)


def test_ask_with_the_embedded_worker_pseudonymises_where_the_policy_forces_it():
    forced = {"values": {"pseudonymise_always": True}, "locked": ["pseudonymise_always"]}
    note = "Summarise: Mrs Henrietta Okonkwo-Baptiste, NHS number 943 476 5919, seen on 3 March 2024."
    answer = ask(note, "--json", "--max-new-tokens", "1", "--dtype", "float32", policy=forced)
    assert answer.returncode == 0, answer.stderr
    reply = json.loads(answer.stdout)
    assert reply["endpoint"] == "embedded" and reply["pseudonymised"] is True
    for original in ("Okonkwo-Baptiste", "943 476 5919", "3 March 2024"):
        assert original not in reply["model_prompt"]


def test_the_models_reading_is_left_out_of_the_command_where_the_policy_says_so(tmp_path):
    """A care home's log signs a row with "Precious", which only the bundled model's reading finds: the
    command replaces it by default, and keeps it where the administrator's policy leaves the reading out."""
    note = tmp_path / "log.txt"
    note.write_text("11:20 | lounge | Edna P + Stan (Rm 9) | Stan pushed Edna's chair | Precious | DX-25-0042\n")

    def pseudonymised(policy: dict) -> str:
        with open(os.environ["SPLITCHAT_POLICY"], "w", encoding="utf-8") as handle:
            json.dump(policy, handle)
        done = subprocess.run(
            [sys.executable, "-m", "app", "pseudonymise", str(note)], capture_output=True, text=True, timeout=300
        )
        assert done.returncode == 0, done.stderr
        return done.stdout

    assert "Precious" not in pseudonymised({})
    left_out = {"values": {"read_in_context": False}, "locked": ["read_in_context"]}
    kept = pseudonymised(left_out)
    assert "Precious" in kept and "DX-25-0042" not in kept  # the other stages still replace what they find


def test_the_apps_warm_up_leaves_the_models_layers_unloaded_where_the_policy_leaves_the_reading_out():
    """On a workstation too small for the reading, the app's warm-up must not load the model's layers it
    would then never use (hundreds of megabytes)."""
    probe = (
        "import asyncio\n"
        "from app.host.engine_host import EngineHost\n"
        "from app.identifiers import contextual_tagger\n"
        "asyncio.run(EngineHost().prepare_pseudonymisation())\n"
        "print(contextual_tagger.shipped_backbone.cache_info().currsize)\n"
    )
    counts = []
    for policy in ({"values": {"read_in_context": False}, "locked": ["read_in_context"]}, {}):
        with open(os.environ["SPLITCHAT_POLICY"], "w", encoding="utf-8") as handle:
            json.dump(policy, handle)
        done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr
        counts.append(done.stdout.split()[-1])
    assert counts == ["0", "1"]  # left out: nothing loaded; by default the warm-up loads it once
