"""An answer that has begun to loop is stopped there, with its own ending; up to that point it is the
whole model's greedy answer, and text that repeats on purpose is left alone."""

from __future__ import annotations

import asyncio
import random

from app.engine.decode.repetition import MIN_LOOPED_TOKENS, looping
from app.model.choices import SplitSpec
from tests.helpers import assert_greedy_matches, reference_greedy
from tests.unit.test_split_matches_unsplit import in_process_session


def test_a_span_repeated_back_to_back_is_a_loop_once_long_enough():
    sentence = list(range(100, 120))  # a 20-token sentence
    assert looping([1, 2] + sentence * 3) == 20
    assert looping([1, 2] + sentence * 2) == 0  # twice is not yet a loop
    assert looping([7] * MIN_LOOPED_TOKENS) == 1
    assert looping([7] * (MIN_LOOPED_TOKENS - 1)) == 0
    assert looping([3, 4, 5] * 16) == 3


def test_text_that_repeats_on_purpose_is_left_alone():
    table_rule = [9, 8] * 20  # "| --- | --- |…": short, and shorter than the minimum run
    assert looping(table_rule) == 0
    refrain = list(range(50, 60)) + [1] + list(range(50, 60)) + [2] + list(range(50, 60))  # not back to back
    assert looping(refrain) == 0
    noise = random.Random(0).choices(range(300), k=500)
    assert all(looping(noise[:n]) == 0 for n in range(1, 501))


def test_a_looping_greedy_answer_stops_there_and_equals_the_whole_model_up_to_it(tiny_models):
    folder, model = tiny_models["llama"]
    # [300] first: its answer shows a loop after 68 tokens (the others after 225, or not in 256).
    for prompt in ([300], [5, 7, 9, 11, 13, 200, 3], [1, 2, 3], list(range(40, 90))):
        reference = reference_greedy(model, prompt, 256)
        # A random model's answers fall into cycles; find one that does, and where the loop first shows.
        shows = next((n for n in range(1, len(reference) + 1) if looping(reference[:n])), None)
        if shows is None:
            continue
        generation = asyncio.run(in_process_session(folder, SplitSpec(2, 2)).generate(prompt, 256))
        assert generation.stop_reason == "repeating" and len(generation.tokens) < 256
        assert generation.tokens == reference[:shows]  # the whole model's answer, stopped as soon as it showed
        assert looping(generation.tokens) and not looping(generation.tokens[:-1])
        assert_greedy_matches(model, prompt, generation.tokens, reference[:shows])
        return
    raise AssertionError("none of the tiny model's answers loops: pick other prompts")


def test_the_ending_is_shown_and_exported_like_the_others(tmp_path):
    from app.data.conversations import ConversationStore
    from app.engine.decode.session import StopReason
    from app.host.engine_host import ENDING_OF_STOP
    from app.ui.streaming_answer import FINISHED_STATUS

    store = ConversationStore(tmp_path / "chats.sqlite3")
    chat = store.create("Loop")
    ending = ENDING_OF_STOP[StopReason.REPEATING]
    store.add_message(chat.id, "assistant", "The lease runs. The lease runs.", complete=True, ending=ending)
    assert store.messages(chat.id)[-1].note == "stopped: the answer was repeating itself"
    assert "_(stopped: the answer was repeating itself)_" in store.export_markdown(chat.id)
    assert FINISHED_STATUS[ending].startswith("Stopped: the answer was repeating itself")
