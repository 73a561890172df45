"""Phi-3's LongRoPE past its trained context: the split switches factors exactly where transformers does.

transformers rotates with the short factors while a sequence fits the trained context (56 positions in
the tiny model) and, at the step the sequence outgrows it, recomputes the whole cache with the long
ones; a prompt already past it is rotated with the long ones from its first token.
"""

from __future__ import annotations

import asyncio

import pytest

from app.engine.decode.session import SplitSession
from app.engine.speculation.modes import Speculation
from app.model.choices import Mode, SplitSpec
from tests.helpers import assert_greedy_matches, build_tiny_model, reference_greedy
from tests.unit.test_split_matches_unsplit import in_process_session

CROSSES = list(range(40, 80))  # 40 tokens: the 17th generated one is the first past the trained context
BEYOND = list(range(100, 160))  # 60 tokens: past it before decoding starts


@pytest.fixture(scope="module")
def phi3(tmp_path_factory):
    folder = tmp_path_factory.mktemp("phi3") / "model"
    model = build_tiny_model("phi3", folder)
    assert model.config.original_max_position_embeddings == 56
    return folder, model


def _session(folder, mode: Mode = Mode.SEQUENTIAL) -> SplitSession:
    plain = in_process_session(folder, SplitSpec(2, 2))
    return SplitSession(plain.edge, plain.middle, speculation=Speculation(mode=mode))


@pytest.mark.parametrize("mode", [Mode.SEQUENTIAL, Mode.LOOKAHEAD])
@pytest.mark.parametrize("prompt", [CROSSES, BEYOND], ids=["crosses", "beyond"])
def test_generation_matches_transformers_across_the_switch(phi3, mode, prompt):
    folder, model = phi3
    session = _session(folder, mode)
    ours = asyncio.run(session.generate(prompt, 24)).tokens
    assert session.long_rope
    assert_greedy_matches(model, prompt, ours, reference_greedy(model, prompt, 24))


def test_a_second_turn_that_outgrows_the_context_is_recomputed_with_the_long_factors(phi3):
    folder, model = phi3
    session = _session(folder)
    first = [5, 7, 9, 11, 13]
    reply = asyncio.run(session.generate(first, 10)).tokens
    assert not session.long_rope
    second = first + reply + list(range(200, 250))  # 65 tokens: the cached prefix was rotated short
    ours = asyncio.run(session.generate(second, 12)).tokens
    assert session.long_rope
    assert_greedy_matches(model, second, ours, reference_greedy(model, second, 12))


def test_without_the_switch_the_answer_parts_from_transformers(phi3, monkeypatch):
    """The test above can fail: rotate on with the short factors past the trained context and the tokens
    differ from transformers'."""
    folder, model = phi3
    session = _session(folder)
    monkeypatch.setattr(session, "longrope_limit", None)
    ours = asyncio.run(session.generate(CROSSES, 24)).tokens
    assert ours != reference_greedy(model, CROSSES, 24)
