"""Speculation on the bundled model: every mode token-identical to sequential split decoding and to
transformers' unsplit generate, over an equivalence corpus, at k = 1 (in process) and k = 2 (real worker)."""

from __future__ import annotations

import asyncio

import pytest

from app.engine.chat import stop_token_ids
from app.engine.decode.edge import LocalEdge
from app.engine.decode.session import SplitSession
from app.engine.link.export import embedded_shard, expected_fingerprint
from app.engine.link.middle import LocalMiddle
from app.engine.link.transport import RemoteMiddle
from app.engine.speculation.head_file import load_head_drafter
from app.engine.speculation.modes import Speculation
from app.model.choices import SplitSpec
from app.model.layers import LayerStack
from tests.helpers import assert_greedy_matches

pytestmark = pytest.mark.bundled
NEW_TOKENS = 64  # long enough for every source to draft many times; the suite's costliest test
PASSAGE = (
    "The Supplier shall deliver the Goods to the Premises on the Delivery Date. Risk in the Goods passes to the "
    "Customer on delivery. Title to the Goods passes to the Customer when the Supplier has received payment in "
    "full. If the Supplier fails to deliver the Goods on the Delivery Date, the Customer may terminate the contract."
)
CORPUS = {
    "repetitive": [{"role": "user", "content": "Write the word 'data' twenty times, separated by commas."}],
    "code": [{"role": "user", "content": "Write a Python class Stack with push, pop and peek methods."}],
    "document_qa": [{"role": "user", "content": f"{PASSAGE}\n\nWhen does title to the Goods pass? Quote the text."}],
    "factual": [{"role": "user", "content": "Explain how vaccines train the immune system."}],
    "creative": [{"role": "user", "content": "Write a short story about a lighthouse keeper and a storm."}],
    "list": [{"role": "user", "content": "List ten fruits and one fact about each."}],
    "json": [{"role": "user", "content": "Give a JSON object describing a book with title, author, year, tags."}],
    "multi_turn": [
        {"role": "user", "content": "What is a contract?"},
        {"role": "assistant", "content": "A contract is a legally binding agreement between two or more parties."},
        {"role": "user", "content": "What makes a contract valid? Answer in detail."},
    ],
}


@pytest.fixture(scope="module")
def references(bundled, bundled_reference):
    source, _, tokenizer = bundled
    stops = stop_token_ids(source, tokenizer)
    out = {}
    for name, messages in CORPUS.items():
        ids = list(
            tokenizer.apply_chat_template(messages, add_generation_prompt=True, tokenize=True, return_dict=False)
        )
        out[name] = (ids, bundled_reference(ids, NEW_TOKENS, stops))
    return out


async def _middle_for(source, split: SplitSpec, worker):
    if worker is None:
        return LocalMiddle(LayerStack.from_source(source, *split.middle(source.num_layers)))
    fingerprint = expected_fingerprint(source, split)
    # Compressed as a remote provider's link is: prompts of 30+ tokens go as compressed frames.
    return await RemoteMiddle.connect(
        worker.endpoint, worker.token, expected_fingerprint=fingerprint, wire_dtype="float32", compress=True
    )


@pytest.mark.parametrize("k, over_the_wire", [(1, False), (2, True)])
def test_every_mode_is_token_identical_on_the_equivalence_corpus(bundled, workers, references, k, over_the_wire):
    source, model, tokenizer = bundled
    split = SplitSpec(k, k)
    worker = workers(embedded_shard(source, split)) if over_the_wire else None
    stops = stop_token_ids(source, tokenizer)

    edge = LocalEdge(source, split)
    drafter = load_head_drafter(source, edge.embed_weight, edge.lm_head_weight, split.k_in, edge.dtype)
    assert drafter is not None, "the bundled model ships with a trained draft head"

    async def run(mode: str) -> dict[str, list[int]]:
        middle = await _middle_for(source, split, worker)
        session = SplitSession(edge, middle, stops, Speculation(mode=mode), draft_head=drafter)
        outputs = {}
        for name, (ids, _) in references.items():
            outputs[name] = (await session.generate(ids, NEW_TOKENS)).tokens
        await session.close()
        return outputs

    # Sequential decoding at k = 1 is test_bundled_model's; at k = 2 over a real worker it is only here.
    # auto drafts from every source (context lookup, the head, Jacobi windows); lookahead alone is kept
    # over the wire for its window rows, which change the block's layout most. Each source alone is
    # compared with unsplit generate per family in tests/unit/test_speculation.py.
    modes = ("sequential", "lookahead", "auto") if over_the_wire else ("learned", "auto")
    for mode in modes:
        outputs = asyncio.run(run(mode))
        for name, (ids, reference) in references.items():
            assert_greedy_matches(model, ids, outputs[name], reference)
