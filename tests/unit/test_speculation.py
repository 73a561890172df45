"""Speculative decoding is lossless: greedy is token-identical, caches hold exactly the accepted path,
and sampling under speculation has the distribution of plain sampling."""

from __future__ import annotations

import asyncio

import pytest
import torch

import app.engine.decode.verification as verification
from app.engine.decode.edge import LocalEdge
from app.engine.decode.sampling import Sampling, TokenPicker
from app.engine.decode.session import SplitSession
from app.engine.link.link_codes import WorkerError
from app.engine.link.middle import LocalMiddle
from app.engine.source.specs import resolve_model
from app.engine.speculation.modes import Speculation
from app.engine.speculation.tree import DraftTree
from app.model.choices import SplitSpec
from app.model.layers import LayerStack
from tests.helpers import (
    assert_greedy_matches,
    build_tiny_model,
    chi_square_critical,
    chi_square_goodness_of_fit,
    reference_greedy,
)

MODES = ["lookup", "lookahead", "auto"]
REPETITIVE = [7, 8, 9, 10, 11, 7, 8, 9, 10, 11, 7, 8, 9, 10, 11, 7, 8]


def session(folder, mode: str, split=SplitSpec(2, 2), draft_tree=None) -> SplitSession:
    source = resolve_model(str(folder))
    middle = LayerStack.from_source(source, *split.middle(source.num_layers))
    return SplitSession(LocalEdge(source, split), LocalMiddle(middle), (), Speculation(mode=mode), draft_tree)


@pytest.mark.parametrize("family", ["llama", "qwen2"])
@pytest.mark.parametrize("mode", MODES)
def test_speculative_greedy_equals_sequential_and_unsplit_generate(tiny_models, family, mode):
    folder, model = tiny_models[family]
    for prompt in (REPETITIVE, [3, 1, 4, 1, 5, 9, 2, 6]):
        generation = asyncio.run(session(folder, mode).generate(prompt, 40))
        sequential = asyncio.run(session(folder, "sequential").generate(prompt, 40))
        assert generation.tokens == sequential.tokens
        assert_greedy_matches(model, prompt, generation.tokens, reference_greedy(model, prompt, 40))
    if mode != "auto":  # auto may rightly judge speculation not worth it on an in-process middle
        assert generation.stats.round_trips < len(generation.tokens)  # it did speculate


def _cache_tensors(stack: LayerStack) -> list[torch.Tensor]:
    return [t for layer in stack.cache.snapshot() for t in layer]


def test_rejected_speculation_leaves_every_cache_as_if_only_accepted_tokens_were_sent(tiny_models):
    folder, _ = tiny_models["llama"]
    wrong_guesses = {"n": 0}

    def drafter(history):  # a tree with a plausible branch and a branch that is always wrong
        tree = DraftTree.rooted_at(history[-1])
        tree.add_path(history[-5:-1], "lookup3")
        tree.add_path([(history[-1] + 1) % 320, 1, 2], "pool")
        wrong_guesses["n"] += 1
        return tree

    speculative = session(folder, "lookahead", draft_tree=drafter)
    generation = asyncio.run(speculative.generate(REPETITIVE, 30))
    rejected = sum(len(p.tree) - 1 for p in generation.plans) - sum(s.tokens_out - 1 for s in generation.stats.steps)
    assert rejected > 0 and wrong_guesses["n"] > 0
    start, rows = speculative.pending_keep
    speculative.middle.stack.keep(start, rows)  # what the next request would tell the worker

    sequential = session(folder, "sequential")
    asyncio.run(sequential.generate(speculative.processed + [0], 1))  # feed exactly the committed tokens
    sequential.edge.crop(len(speculative.processed))
    sequential.middle.stack.crop(len(speculative.processed))
    for ours, theirs in [
        (speculative.edge.head, sequential.edge.head),
        (speculative.middle.stack, sequential.middle.stack),
        (speculative.edge.tail, sequential.edge.tail),
    ]:
        assert ours.length == theirs.length == len(speculative.processed)
        for a, b in zip(_cache_tensors(ours), _cache_tensors(theirs), strict=True):
            torch.testing.assert_close(a, b, atol=1e-5, rtol=1e-5)


class _RefusesFirstStream(LocalMiddle):
    """The middle of a worker that refuses a streamed prefill's first block (its memory is full): a refused
    request leaves the session's cache as it was, the pending commit not applied."""

    refused = False

    async def stream(self, blocks, depth=1):
        if not self.refused:
            self.refused = True
            await anext(blocks)  # the block is made and goes
            raise WorkerError("memory_limit", "no room for this session's cache", refused=True)
        async for reply in super().stream(blocks, depth):
            yield reply


class _FailsAfterTakingTheCommit(LocalMiddle):
    """The middle of a worker whose pass fails after it applied the first block's cache edit (an internal
    error, say out of GPU memory): the pending commit was applied once, and must not go again."""

    failed = False

    async def stream(self, blocks, depth=1):
        if not self.failed:
            self.failed = True
            block = await anext(blocks)
            block.edit.apply(self.stack.cache)
            raise WorkerError("internal", "OutOfMemoryError: CUDA out of memory")
        async for reply in super().stream(blocks, depth):
            yield reply


def _ended_on_a_gathering_commit(folder) -> SplitSession:
    """A session whose last reply ended on a step whose accepted path skips rows: its pending commit is a
    gather, not a crop."""

    def drafter(history):  # an always-wrong branch laid out first, so an accepted path skips rows
        tree = DraftTree.rooted_at(history[-1])
        tree.add_path([(history[-1] + 1) % 320, 1, 2], "pool")
        tree.add_path(history[-5:-1], "lookup3")
        return tree

    for length in range(4, 40):
        ours = session(folder, "lookahead", draft_tree=drafter)
        asyncio.run(ours.generate(REPETITIVE, length))
        _, rows = ours.pending_keep
        if rows != list(range(len(rows))):
            return ours
    pytest.fail("no reply ended on a step whose accepted path skips rows")


def test_a_refused_first_block_keeps_the_last_replys_commit_pending(tiny_models):
    """The commit of a reply's last step rides with the next request; when that was a long prefill's first
    block and the worker refused it, the commit used to be dropped, and the worker kept rejected rows."""
    folder, _ = tiny_models["llama"]
    ours = _ended_on_a_gathering_commit(folder)
    start, rows = ours.pending_keep
    ours.middle = _RefusesFirstStream(ours.middle.stack)
    follow = ours.processed + [(7 * i) % 300 + 3 for i in range(160)]  # long enough to stream
    with pytest.raises(WorkerError):
        asyncio.run(ours.generate(follow, 8))
    assert ours.pending_keep == (start, rows)
    answer = asyncio.run(ours.generate(follow, 8)).tokens
    assert answer == asyncio.run(session(folder, "sequential").generate(follow, 8)).tokens


def test_a_block_that_failed_after_taking_the_commit_does_not_send_it_twice(tiny_models):
    """Sent again, a commit the worker already applied is refused ("keep indices out of range") on this and
    every later request: the conversation was stuck until the app reconnected. Its side now starts afresh."""
    folder, _ = tiny_models["llama"]
    ours = _ended_on_a_gathering_commit(folder)
    ours.middle = _FailsAfterTakingTheCommit(ours.middle.stack)
    follow = ours.processed + [(7 * i) % 300 + 3 for i in range(160)]  # long enough to stream
    with pytest.raises(WorkerError, match="out of memory"):
        asyncio.run(ours.generate(follow, 8))
    assert ours.pending_keep is None and ours.processed == []
    answer = asyncio.run(ours.generate(follow, 8)).tokens
    assert answer == asyncio.run(session(folder, "sequential").generate(follow, 8)).tokens


@pytest.fixture(scope="module")
def small_vocab_model(tmp_path_factory):
    folder = tmp_path_factory.mktemp("vocab16")
    return folder, build_tiny_model("llama", folder, seed=3, vocab_size=16, initializer_range=0.1)


def _node_logits(model, prefix: list[int], tree: DraftTree) -> torch.Tensor:
    rows = []
    with torch.no_grad():
        for node in range(len(tree)):
            path = [tree.tokens[n] for n in reversed(tree.ancestors(node))]
            rows.append(model(torch.tensor([prefix + path])).logits[0, -1])
    return torch.stack(rows)


def _first_two_emitted(tree, logits, picker, draws: int) -> tuple[torch.Tensor, torch.Tensor, int]:
    first, second = torch.zeros(16), torch.zeros(16)
    favourite = tree.tokens[1]
    for _ in range(draws):
        emitted = verification.verify(tree, logits, picker).emitted(tree)
        first[emitted[0]] += 1
        if emitted[0] == favourite and len(emitted) > 1:
            second[emitted[1]] += 1
    return first, second, favourite


@pytest.mark.parametrize("top_p", [1.0, 0.8])
def test_sampling_verification_reproduces_the_model_distribution(small_vocab_model, top_p):
    _, model = small_vocab_model
    prefix = [1, 5, 9]
    with torch.no_grad():
        root_probs = torch.softmax(model(torch.tensor([prefix + [4]])).logits[0, -1], -1)
    ranked = root_probs.argsort(descending=True).tolist()
    tree = DraftTree.rooted_at(4)
    tree.add_path([ranked[0], 2], "lookup2")  # the favourite, with a drafted grandchild
    tree.add_path([ranked[3]], "pool")  # siblings tried in turn
    tree.add_path([ranked[1]], "pool")
    logits = _node_logits(model, prefix, tree)
    picker = TokenPicker(Sampling(temperature=1.0, top_p=top_p, seed=11))
    first, second, favourite = _first_two_emitted(tree, logits, picker, draws=4000)

    target_first = picker.distribution(logits[0])
    statistic, dof = chi_square_goodness_of_fit(first, target_first)
    assert statistic < chi_square_critical(dof), f"first token: chi2 {statistic:.1f} on {dof} dof"
    target_second = picker.distribution(logits[1])  # node 1 is the favourite
    statistic, dof = chi_square_goodness_of_fit(second, target_second)
    assert second.sum() > 500 and statistic < chi_square_critical(dof), f"second: chi2 {statistic:.1f}"


def test_a_wrong_acceptance_rule_is_caught(small_vocab_model, monkeypatch):
    """Forgetting to remove a rejected draft from p over-samples it: the same test must fail."""
    _, model = small_vocab_model
    prefix = [1, 5, 9]
    with torch.no_grad():
        ranked = model(torch.tensor([prefix + [4]])).logits[0, -1].argsort(descending=True).tolist()
    tree = DraftTree.rooted_at(4)
    tree.add_path([ranked[0], 2], "lookup2")
    tree.add_path([ranked[3]], "pool")
    logits = _node_logits(model, prefix, tree)
    monkeypatch.setattr(verification, "remove_and_renormalise", lambda probs, token: probs)
    picker = TokenPicker(Sampling(temperature=1.0, seed=11))
    first, _, _ = _first_two_emitted(tree, logits, picker, draws=4000)
    statistic, dof = chi_square_goodness_of_fit(first, picker.distribution(logits[0]))
    assert statistic > 3 * chi_square_critical(dof), f"chi2 {statistic:.1f} on {dof} dof"


@pytest.mark.slow  # 2,400 generations: most of a minute on two cores, so it is left out of the fast tier
def test_speculative_sampling_end_to_end_matches_plain_sampling(small_vocab_model):
    folder, _ = small_vocab_model

    def drafter(history):  # always offer the same two continuations: some accepted, some not
        tree = DraftTree.rooted_at(history[-1])
        tree.add_path([3, 3], "lookup2")
        tree.add_path([7], "pool")
        return tree

    def second_tokens(mode: str, seed: int) -> torch.Tensor:
        counts = torch.zeros(16)
        runner = session(folder, mode, draft_tree=drafter if mode != "sequential" else None)
        for draw in range(1200):
            sampling = Sampling(temperature=1.0, seed=seed * 100_000 + draw)
            tokens = asyncio.run(runner.generate([1, 5, 9, 4], 2, sampling)).tokens
            counts[tokens[1]] += 1
        return counts

    speculative, plain = second_tokens("lookup", 5), second_tokens("sequential", 6)
    pooled = (speculative + plain) / (speculative.sum() + plain.sum())
    statistic = 0.0
    for counts in (speculative, plain):
        expected = pooled * counts.sum()
        statistic += float(((counts - expected) ** 2 / expected.clamp(min=1e-9))[expected > 0].sum())
    dof = int((pooled > 0).sum()) - 1
    assert statistic < chi_square_critical(dof), f"homogeneity chi2 {statistic:.1f} on {dof} dof"


def test_speculation_near_the_end_of_the_context_finishes_one_token_at_a_time(tiny_models):
    folder, model = tiny_models["llama"]
    prompt = (REPETITIVE * 30)[:500]  # the tiny models hold 512 positions
    generation = asyncio.run(session(folder, "lookahead").generate(prompt, 40))
    assert len(generation.tokens) == 12  # every position up to the context's end, none beyond
    assert_greedy_matches(model, prompt, generation.tokens, reference_greedy(model, prompt, 12))


def test_every_step_accounts_for_all_of_its_time(tiny_models):
    folder, _ = tiny_models["llama"]
    generation = asyncio.run(session(folder, "lookahead").generate(REPETITIVE, 20))
    prefill, *decode = generation.stats.steps
    assert prefill.kind == "prefill" and prefill.draft_ms == prefill.layout_ms == 0 and prefill.tokens_out == 1
    assert decode and all(step.kind == "decode" for step in decode)
    for step in generation.stats.steps:
        parts = step.local_compute_ms + step.remote_compute_ms + step.serialization_ms + step.network_ms
        assert parts == pytest.approx(step.total_ms, rel=1e-9)
        assert 0 <= step.draft_ms + step.layout_ms + step.layers_ms <= step.local_compute_ms
        assert step.layers_ms > 0  # every step here, the prefill too, runs as one block
        running = step.total_ms - step.draft_ms - step.layout_ms - step.network_ms
        assert step.compute_ms == pytest.approx(running, rel=1e-9)
    assert sum(step.tokens_out for step in generation.stats.steps) == len(generation.tokens) == 20
    # The local part of a step, split into what the split depth scales (2 + 2 layers here) and the rest.
    cost = generation.stats.local_step_cost(local_layers=4)
    mean_local = sum(step.local_compute_ms for step in decode) / len(decode)
    assert cost.per_layer_ms > 0 and cost.other_ms > 0 and cost.at(4) == pytest.approx(mean_local, rel=1e-9)
    assert cost.at(6) - cost.at(4) == pytest.approx(2 * cost.per_layer_ms)


def test_a_streamed_prefill_tells_the_controller_nothing_about_the_round_trip(tiny_models):
    """A long prefill's wall time less the worker's is its transfers and this computer's layers between
    replies; taken as the round trip it made the first decode steps plan for a link seconds long."""
    folder, _ = tiny_models["llama"]
    short, long = session(folder, "auto"), session(folder, "auto")
    asyncio.run(short.generate(REPETITIVE[:40], 1))
    asyncio.run(long.generate([(7 * i) % 300 + 3 for i in range(300)], 1))  # streams: 300 rows
    assert short.controller.cost.rtt_ms is not None and long.controller.cost.rtt_ms is None


def test_stop_during_a_long_prefill_ends_it_between_blocks_and_the_next_reply_goes_on_from_there(tiny_models):
    """Stop used to wait for the whole prefill (minutes for a long document on a CPU worker)."""
    folder, _ = tiny_models["llama"]
    ours = session(folder, "sequential")
    prompt = [(7 * i) % 300 + 3 for i in range(300)]
    stopped = asyncio.run(ours.generate(prompt, 8, should_stop=lambda: len(ours.processed) >= 128))
    assert stopped.tokens == [] and stopped.stop_reason == "cancelled"
    assert 128 <= len(ours.processed) < len(prompt) and ours.processed == prompt[: len(ours.processed)]
    reading = []
    answer = asyncio.run(ours.generate(prompt, 8, on_reading=lambda done, total: reading.append((done, total)))).tokens
    assert answer == asyncio.run(session(folder, "sequential").generate(prompt, 8)).tokens
    # The rest is read block by block, and each block is reported as it comes through.
    dones = [done for done, _ in reading]
    assert len(reading) > 1 and dones == sorted(dones) and reading[-1][0] == reading[-1][1]
