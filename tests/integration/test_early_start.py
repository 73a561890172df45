"""The desktop app launches its embedded worker before importing torch; the engine adopts that process."""

from __future__ import annotations

import subprocess
import sys

import pytest

from app.engine.chat import SplitChat
from app.engine.link import prelaunch
from app.engine.link.export import embedded_shard
from app.engine.speculation.modes import Speculation
from app.model.choices import Mode, SplitSpec
from app.wire.limits import DEFAULT_MAX_FRAME

pytestmark = pytest.mark.bundled


def test_the_early_start_imports_neither_torch_nor_transformers():
    code = (
        "import sys, app.host.early_start, app.data.settings, app.ui.gc_guard\n"
        "print(sorted(m for m in ('torch', 'transformers', 'numpy') if m in sys.modules))"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"


async def test_the_engine_adopts_the_worker_launched_at_start_and_answers_exactly(bundled):
    source = bundled[0]
    shard = embedded_shard(source, SplitSpec(2, 2))  # exported once (a first start launches nothing early)
    assert prelaunch.launch_embedded_worker(source.spec, "2") == shard
    early = prelaunch.waiting(shard)
    chat = await SplitChat.open(source.spec, SplitSpec(2, 2), speculation=Speculation(mode=Mode.SEQUENTIAL))
    try:
        assert chat.local_worker is early and early.alive()
        messages = [{"role": "user", "content": "Name a planet."}]
        reply = await chat.reply(messages, max_new_tokens=12)
        assert reply.generation.tokens == await chat.whole_model_tokens(messages, 12)
    finally:
        await chat.close()
    assert not early.alive()


def test_an_early_worker_with_other_options_or_another_split_is_not_used(bundled):
    source = bundled[0]
    shard = embedded_shard(source, SplitSpec(2, 2))
    assert prelaunch.launch_embedded_worker(source.spec, "2") == shard
    early = prelaunch.waiting(shard)
    assert prelaunch.claim(shard, "cpu", "auto", DEFAULT_MAX_FRAME // 2, ()) is None
    assert not early.alive() and prelaunch.waiting(shard) is None  # stopped, not left beside the engine's own
    # A split whose shard was never exported launches nothing: exporting needs the engine.
    assert prelaunch.launch_embedded_worker(source.spec, "7") is None
    assert prelaunch.launch_embedded_worker("/no/such/model", "2") is None
