"""A streaming answer is decoded a few tokens at a time, and shows exactly what decoding it whole shows."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
from transformers import PreTrainedTokenizerFast

from app.engine.decode.streaming_text import StreamingText

CORPUS = [
    "The patient was admitted on 3 March with pneumonia of the right lower lobe.",
    "Clause 4.2 limits the landlord's liability; the tenant's remedies are in clause 9.",
    "Café, naïve, São Paulo, Zürich — 10 µg of digoxin ✓ 😀 🏥 résumé",
    "Ein Vertrag über 12 Monate, kündbar zum Quartalsende.",
] * 20
# Characters a byte-level vocabulary of this size has not merged: they arrive split across tokens.
TEXTS = st.text(alphabet=st.sampled_from(list("ab cdeé.,ü😀🏥\n-0123µ✓Zß")), max_size=60)


def _trained(pre_tokenizer, decoder, alphabet) -> PreTrainedTokenizerFast:
    tokenizer = Tokenizer(models.BPE(unk_token="<unk>" if alphabet is None else None))
    tokenizer.pre_tokenizer = pre_tokenizer
    tokenizer.decoder = decoder
    trainer = trainers.BpeTrainer(
        vocab_size=320, special_tokens=["<unk>", "<|end|>"], initial_alphabet=alphabet or [], show_progress=False
    )
    tokenizer.train_from_iterator(CORPUS, trainer)
    return PreTrainedTokenizerFast(tokenizer_object=tokenizer, eos_token="<|end|>", unk_token="<unk>")


@pytest.fixture(scope="module")
def byte_level() -> PreTrainedTokenizerFast:
    """GPT-2 style: every byte a symbol, so one emoji can take four tokens."""
    return _trained(pre_tokenizers.ByteLevel(add_prefix_space=False), decoders.ByteLevel(), _bytes())


@pytest.fixture(scope="module")
def metaspace() -> PreTrainedTokenizerFast:
    """SentencePiece style: a word's leading space is part of its token and dropped at the very start."""
    return _trained(pre_tokenizers.Metaspace(), decoders.Metaspace(), None)


def _bytes() -> list[str]:
    return pre_tokenizers.ByteLevel.alphabet()


def _stream(tokenizer, ids: list[int]) -> tuple[list[str], str]:
    text = StreamingText(tokenizer)
    shown = [text.add(token) for token in ids]
    return shown, text.finish()


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(TEXTS)
def test_streamed_text_is_always_a_prefix_and_ends_exactly_as_whole_decoding(byte_level, text):
    ids = byte_level(text, add_special_tokens=False)["input_ids"]
    shown, finished = _stream(byte_level, ids)
    whole = byte_level.decode(ids, skip_special_tokens=True)
    assert finished == whole
    for step, partial in enumerate(shown, 1):
        assert whole.startswith(partial), (step, partial)
        assert "\ufffd" not in partial  # never half a character on screen
    assert shown[-1] == whole if ids else True  # nothing held back once the last character is whole


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.text(alphabet=st.sampled_from(list("abcde lo.,;\n")), max_size=60))
def test_leading_spaces_of_sentencepiece_words_survive_streaming(metaspace, text):
    ids = metaspace(text, add_special_tokens=False)["input_ids"]
    shown, finished = _stream(metaspace, ids)
    whole = metaspace.decode(ids, skip_special_tokens=True)
    assert finished == whole
    assert (shown[-1] if ids else "") == whole


def test_special_tokens_are_left_out_as_in_whole_decoding(byte_level):
    ids = byte_level("Clause 4.2 😀", add_special_tokens=False)["input_ids"] + [byte_level.eos_token_id]
    shown, finished = _stream(byte_level, ids)
    assert shown[-1] == finished == "Clause 4.2 😀"


def test_a_long_answer_costs_linear_decoding(byte_level):
    """Each token decodes a few tokens, not the whole answer so far (which made a long answer O(n²))."""
    decoded = []

    class Counting:
        def decode(self, tokens, skip_special_tokens):
            decoded.append(len(tokens))
            return byte_level.decode(tokens, skip_special_tokens=skip_special_tokens)

    ids = byte_level(" ".join(CORPUS), add_special_tokens=False)["input_ids"]
    text = StreamingText(Counting())
    for token in ids:
        text.add(token)
    assert len(ids) > 1000
    assert text.text == byte_level.decode(ids)
    assert sum(decoded) < 6 * len(ids)  # whole decoding at each token would be ~len(ids)² / 2
