"""The bundled SmolLM2 split across a real worker process equals transformers' own greedy output."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys

import pytest
from safetensors import safe_open

from app.engine.chat import SplitChat, stop_token_ids
from app.engine.decode.edge import LocalEdge
from app.engine.decode.session import SplitSession
from app.engine.link.export import embedded_shard, expected_fingerprint
from app.engine.link.transport import RemoteMiddle
from app.model.choices import SplitSpec
from app.wire.shard_format import WEIGHTS
from tests.helpers import assert_greedy_matches, reference_greedy

pytestmark = pytest.mark.bundled

PROMPTS = [
    "What is the capital of France?",
    "Write a Python function that checks whether a number is prime.",
    "Summarise: The tenant shall keep the premises in good repair and return them in the same condition.",
    "List three symptoms of dehydration.",
    "Translate 'good morning, how are you?' into Spanish.",
    "Write a haiku about autumn leaves.",
]
NEW_TOKENS = 64


def chat_ids(tokenizer, messages: list[dict]) -> list[int]:
    return list(tokenizer.apply_chat_template(messages, add_generation_prompt=True, tokenize=True, return_dict=False))


async def open_session(source, split: SplitSpec, worker, wire_dtype="float32") -> SplitSession:
    middle = await RemoteMiddle.connect(
        worker.endpoint,
        worker.token,
        expected_fingerprint=expected_fingerprint(source, split),
        expected_layers=split.middle(source.num_layers),
        wire_dtype=wire_dtype,
    )
    return SplitSession(LocalEdge(source, split), middle, stop_token_ids(source, source.tokenizer()))


# k = 2 over a real worker is the equivalence corpus's sequential run (test_speculative_bundled.py).
@pytest.mark.parametrize("k", [1, 4])
def test_greedy_is_token_identical_to_unsplit_generate(bundled, bundled_reference, workers, k):
    source, model, tokenizer = bundled
    split = SplitSpec(k, k)
    worker = workers(embedded_shard(source, split))
    stops = stop_token_ids(source, tokenizer)

    async def run_all():
        session = await open_session(source, split, worker)
        outputs = []
        for text in PROMPTS:
            session.processed = []  # a fresh conversation on the same worker session
            outputs.append(
                (await session.generate(chat_ids(tokenizer, [{"role": "user", "content": text}]), NEW_TOKENS)).tokens
            )
        await session.close()
        return outputs

    for text, ours in zip(PROMPTS, asyncio.run(run_all()), strict=False):
        prompt = chat_ids(tokenizer, [{"role": "user", "content": text}])
        # The reference of each prompt is generated once for both depths (conftest's bundled_reference).
        assert_greedy_matches(model, prompt, ours, bundled_reference(prompt, NEW_TOKENS, stops))


def test_second_turn_equals_a_fresh_session_fed_the_whole_conversation(bundled, workers):
    source, _, tokenizer = bundled
    split = SplitSpec(2, 2)
    worker = workers(embedded_shard(source, split))
    turn1 = [{"role": "user", "content": "Name a large city in Japan."}]

    async def run():
        chat = await SplitChat.open(split=split, endpoint=worker.endpoint, token=worker.token, dtype="float32")
        first = await chat.reply(turn1, 24)
        conversation = turn1 + [
            {"role": "assistant", "content": first.text},
            {"role": "user", "content": "What is it famous for?"},
        ]
        ids = chat.prompt_ids(conversation)
        held = len(chat.session.processed)
        second = await chat.reply(conversation, 32)
        await chat.close()
        fresh_session = await open_session(source, split, worker)
        fresh = await fresh_session.generate(ids, 32)
        await fresh_session.close()
        return ids, held, first, second, fresh

    ids, held, first, second, fresh = asyncio.run(run())
    assert ids[: held + 1] == chat_ids(tokenizer, turn1) + first.generation.tokens  # the reply's own ids, kept
    assert second.generation.tokens == fresh.tokens
    assert second.generation.stats.steps[0].tokens_in == len(ids) - held  # turn 2 sent only its new tokens
    assert fresh.stats.steps[0].tokens_in == len(ids)


def test_4000_token_prompt_prefills_through_1_mib_frames(bundled, workers):
    source, model, tokenizer = bundled
    split = SplitSpec(2, 2)
    worker = workers(embedded_shard(source, split))
    words = " ".join(f"clause {i} applies to party {i % 7}." for i in range(700))
    prompt = tokenizer(words)["input_ids"][:4000]
    assert len(prompt) == 4000

    async def run():
        session = await open_session(source, split, worker)
        generation = await session.generate(prompt, 4)
        await session.close()
        return generation

    generation = asyncio.run(run())
    assert worker.max_frame == 1 << 20
    assert generation.stats.steps[0].frames >= 9  # 4000 x 576 float32 = 9.2 MB
    assert_greedy_matches(model, prompt, generation.tokens, reference_greedy(model, prompt, 4))


def test_bundled_shard_holds_no_embedding_edge_norm_or_head(bundled):
    source, _, _ = bundled
    shard = embedded_shard(source, SplitSpec(2, 2))
    with safe_open(shard / WEIGHTS, framework="pt") as handle:
        layers = {int(name.split(".")[2]) for name in handle.keys()}
        assert all(name.startswith("model.layers.") for name in handle.keys())
    assert layers == set(range(2, 28))


def test_ask_json_runs_the_embedded_default_end_to_end(bundled):
    _, model, tokenizer = bundled
    env = {k: v for k, v in os.environ.items() if k != "SPLITCHAT_TOKEN"}
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "app",
            "ask",
            "What is 2 + 2?",
            "--json",
            "--max-new-tokens",
            "24",
            "--dtype",
            "float32",
        ],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
    )
    assert result.returncode == 0, result.stderr
    reply = json.loads(result.stdout)
    assert {"text", "tokens", "round_trips", "tok_per_s", "split", "model"} <= reply.keys()
    assert reply["split"] == "2" and reply["model"] == "smollm2-135m-instruct"
    assert 1 <= reply["round_trips"] <= len(reply["tokens"])  # auto may verify several tokens per trip
    assert reply["mode"] == "auto" and reply["break_even"] >= 1.0
    prompt = chat_ids(tokenizer, [{"role": "user", "content": "What is 2 + 2?"}])
    reference = reference_greedy(model, prompt, 24, stop_token_ids_for(bundled))
    assert_greedy_matches(model, prompt, reply["tokens"], reference)
    assert reply["text"] == tokenizer.decode(reply["tokens"], skip_special_tokens=True)


def stop_token_ids_for(bundled) -> list[int]:
    source, _, tokenizer = bundled
    return stop_token_ids(source, tokenizer)


def test_ask_with_an_endpoint_needs_the_token_from_the_environment():
    env = {k: v for k, v in os.environ.items() if k != "SPLITCHAT_TOKEN"}
    result = subprocess.run(
        [sys.executable, "-m", "app", "ask", "hi", "--endpoint", "ws://127.0.0.1:9"],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
    )
    assert result.returncode == 2 and "SPLITCHAT_TOKEN" in result.stderr


def test_closing_while_a_draft_goes_ahead_stops_it_and_closes_cleanly(bundled, workers):
    """Closing (a provider changed in settings, say) used to read the connection while the prefill-ahead's
    stream was reading it: websockets refused the second reader, and the error escaped close()."""
    source, _, tokenizer = bundled
    split = SplitSpec(2, 2)
    worker = workers(embedded_shard(source, split))
    draft = " ".join(f"Clause {i}: the Tenant shall keep the Premises in good repair." for i in range(150))

    async def run():
        chat = await SplitChat.open(split=split, endpoint=worker.endpoint, token=worker.token, dtype="float32")
        ahead = asyncio.ensure_future(chat.prefill_ahead([{"role": "user", "content": draft}]))
        while not chat.session.processed:  # the first chunk is back; more are on their way
            await asyncio.sleep(0.01)
        await chat.close()
        return await ahead, len(chat.prompt_ids([{"role": "user", "content": draft}]))

    cached, whole = asyncio.run(run())
    assert 0 < cached < whole - 256  # it stopped: the rest never went
