"""The facade's own values: every way an answer ends has its word, settings arrive typed, and importing the
facade (or its values) loads no torch."""

from __future__ import annotations

import subprocess
import sys

import pytest

from app.engine.decode.session import StopReason
from app.host.engine_host import ENDING_OF_STOP
from app.host.values import Ending, EngineConfig, Role, Turn, as_messages
from app.model.choices import Mode, SplitSpec


def test_every_way_the_engine_ends_an_answer_has_an_ending_the_window_words():
    assert set(ENDING_OF_STOP) == set(StopReason)
    assert ENDING_OF_STOP[StopReason.CANCELLED] is Ending.STOPPED
    # The history stores the ending's value: these strings are in users' databases already.
    assert [e.value for e in Ending] == ["", "length", "stopped", "repeating", "lost", "failed"]


def test_a_config_reads_the_settings_text_as_typed_values_and_refuses_a_wrong_one():
    config = EngineConfig(split="2,3", mode="sequential")
    assert config.split == SplitSpec(2, 3) and config.mode is Mode.SEQUENTIAL
    assert EngineConfig(split="2") == EngineConfig()  # equal configs share one open engine
    with pytest.raises(ValueError, match="decoding mode"):
        EngineConfig(mode="fast")
    with pytest.raises(ValueError, match="split"):
        EngineConfig(split="two")


def test_a_turn_is_one_of_the_roles_a_chat_template_takes():
    assert as_messages([Turn("user", "Hola"), Turn(Role.ASSISTANT, "¿Sí?")]) == [
        {"role": "user", "content": "Hola"},
        {"role": "assistant", "content": "¿Sí?"},
    ]
    with pytest.raises(ValueError):
        Turn("tool", "{}")


def test_the_facade_and_its_values_import_without_torch():
    code = (
        "import sys, app.host, app.host.values, app.host.early_start\n"
        "from app.host import Turn, Reply, Ending, EngineConfig, BUNDLED_SPEC, Cancelled, LinkErrorCode\n"
        "print(sorted(m for m in ('torch', 'transformers', 'numpy') if m in sys.modules))"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"
