"""The learned draft head: it learns a model's own continuations, round-trips through its file, is found
only for the weights it was trained on, and speculation with it stays token-identical."""

from __future__ import annotations

import asyncio
import json
from collections import Counter
from dataclasses import replace

import pytest
import torch

from app.bench.prompts import load_prompt_sets
from app.engine.decode.edge import LocalEdge
from app.engine.decode.session import SplitSession
from app.engine.link.middle import LocalMiddle
from app.engine.source.specs import resolve_model
from app.engine.speculation.acceptance import AcceptanceModel
from app.engine.speculation.controller import Controller
from app.engine.speculation.early import int8_early_layers
from app.engine.speculation.gates import HeadGate
from app.engine.speculation.head import DTYPE_ENV, DraftArithmetic, DraftHead, HeadDrafter
from app.engine.speculation.head_file import HeadInfo, cached_head_path, find_head, load_head, save_head
from app.engine.speculation.modes import Speculation
from app.engine.speculation.sources import head_confidence, head_source
from app.engine.speculation.training import (
    Answer,
    TrainConfig,
    answer_batch,
    chain_accuracy,
    draft_vocabulary,
    make_pairs,
    train_head,
)
from app.engine.speculation.tree import DraftTree, Verdict
from app.model.choices import SplitSpec
from app.model.kernels import Int8Linear, int8_available
from app.model.layers import LayerStack
from app.resources import DRAFT_PROMPTS
from tests.helpers import assert_greedy_matches, build_successor_model, reference_greedy

CONFIG = TrainConfig(inner_size=128, vocab_size=320, epochs=12, unroll=2, batch_size=64, learning_rate=3e-3)
NEW_TOKENS = 24


def _answers(model, prompts: int, seed: int, stop_ids: frozenset[int] = frozenset()) -> list[Answer]:
    """Greedy answers of the tiny model to random prompts, made as the recipe's answering step makes them."""
    generator = torch.Generator().manual_seed(seed)
    batch = torch.randint(3, 300, (prompts, 6), generator=generator)
    config = replace(CONFIG, new_tokens=NEW_TOKENS)
    return answer_batch(model, batch, torch.ones_like(batch), config, set(stop_ids), 0, sampled=False)


def test_answering_keeps_the_features_a_full_pass_over_each_answer_gives(tmp_path):
    """Features recorded while generating (the prompt in one call, then a token a call, left-padded rows)
    must be those of one forward pass over the finished answer: they replace that second pass."""
    model = build_successor_model(tmp_path / "m")
    generator = torch.Generator().manual_seed(5)
    prompts = torch.randint(3, 300, (3, 7), generator=generator)
    mask = torch.ones_like(prompts)
    prompts[0, :3], mask[0, :3] = 0, 0  # one row left-padded, as batches of unequal prompts are
    greedy = answer_batch(model, prompts, mask, replace(CONFIG, new_tokens=9), set(), 0, sampled=False)
    assert [a.prompt_len for a in greedy] == [4, 7, 7]
    for answer in greedy:
        assert len(answer.ids) == answer.prompt_len + 8  # the ninth token is never run, so it has no feature
        with torch.inference_mode():
            out = model(torch.tensor([answer.ids]), output_hidden_states=True)
        torch.testing.assert_close(answer.features, out.hidden_states[-1][0], atol=1e-4, rtol=1e-4)
        torch.testing.assert_close(answer.early, out.hidden_states[CONFIG.fuse_layer][0], atol=1e-4, rtol=1e-4)
        assert answer.argmax.tolist() == out.logits[0].argmax(-1).tolist()
        assert answer.argmax[answer.prompt_len - 1 : -1].tolist() == answer.ids[answer.prompt_len :]  # greedy
    stop = greedy[1].ids[7 + 2]  # the third answer token of one row ends it there, and only there
    cut = answer_batch(model, prompts, mask, replace(CONFIG, new_tokens=9), {stop}, 0, sampled=False)
    assert cut[1].ids == greedy[1].ids[: 7 + 3] and len(cut[1].features) == 7 + 3
    sampled = answer_batch(model, prompts, mask, replace(CONFIG, new_tokens=9, fuse_layer=None), set(), 0, True)
    assert all(a.sampled and a.early is None and len(a.features) == len(a.ids) for a in sampled)


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    """A head trained on a tiny model's answers, with held-out answers it never saw.

    The model has structure to learn (its next token is mostly a function of the current one): a random
    model's continuations are noise that no small head predicts.
    """
    folder = tmp_path_factory.mktemp("successor")
    model = build_successor_model(folder)
    train, held = _answers(model, 96, seed=1), _answers(model, 12, seed=2)
    embed, lm_head = model.get_input_embeddings().weight.detach(), model.get_output_embeddings().weight.detach()
    vocab = draft_vocabulary(train, CONFIG.vocab_size)
    untrained = DraftHead(embed.shape[1], CONFIG.inner_size, vocab)
    head, losses = train_head(make_pairs(train, CONFIG.unroll), embed, lm_head, vocab, CONFIG, lambda *_: None)
    return folder, model, head, untrained, held, losses


def test_the_head_learns_the_models_continuations_on_answers_it_never_saw(trained):
    folder, model, head, untrained, held, losses = trained
    embed, lm_head = model.get_input_embeddings().weight.detach(), model.get_output_embeddings().weight.detach()
    assert losses[-1] < 0.1 * losses[0]
    before = chain_accuracy(untrained, held, embed, lm_head)
    after = chain_accuracy(head, held, embed, lm_head)
    # Untrained, the head repeats the LM head's guess for the root's own position — the root itself,
    # which this model never repeats; trained, it must predict the token after the root.
    assert before["depth1"] < 0.05, before
    assert after["depth1"] > 0.8 and after["depth2"] > 0.7, after


def test_chain_accuracy_counts_answer_positions_only_and_skips_sampled_answers(trained):
    _, model, head, _, held, _ = trained
    embed, lm_head = model.get_input_embeddings().weight.detach(), model.get_output_embeddings().weight.detach()
    sampled = [Answer(a.ids, a.prompt_len, True, a.features, a.argmax) for a in held]
    assert chain_accuracy(head, sampled, embed, lm_head) == {f"depth{d}": 0.0 for d in range(1, 5)}


def test_the_drafter_grows_a_tree_of_its_likeliest_paths_from_its_vocabulary(trained):
    _, model, head, _, held, _ = trained
    embed, lm_head = model.get_input_embeddings().weight.detach(), model.get_output_embeddings().weight.detach()
    drafter = HeadDrafter(head, embed, lm_head, DraftArithmetic.FLOAT32)
    answer = held[0]
    t = answer.prompt_len - 1  # the prompt's last position chose the answer's first token
    proposals = drafter.propose(answer.features[t], answer.ids[t + 1], depth=4, nodes=10, width=3, beam_floor=0.0)
    paths = [tuple(path) for path, _ in proposals]
    assert len(paths) == 10 and len(set(paths)) == 10
    assert all(path[:-1] in paths for path in paths if len(path) > 1)  # closed under parents: a tree
    assert all(paths.index(path[:-1]) < paths.index(path) for path in paths if len(path) > 1)
    assert max(map(len, paths)) > 1 and len({p for p in paths if len(p) == 1}) <= 3  # the beam's width
    vocab = set(head.vocab.tolist())
    assert all(token in vocab for path in paths for token in path)
    with torch.inference_mode():  # the first path is the head's own best guess, with its probability's bin
        feature = head(answer.features[t : t + 1], embed[[answer.ids[t + 1]]])
        probs = torch.softmax(feature @ lm_head[head.vocab].T, -1)[0]
    assert proposals[0] == ([int(head.vocab[probs.argmax()])], [head_source(float(probs.max()))])
    assert all(len(sources) == len(path) for path, sources in proposals)
    assert isinstance(HeadDrafter(head, embed, lm_head).arithmetic, DraftArithmetic)  # calibrated


@pytest.mark.skipif(not int8_available(), reason="this torch build has no fbgemm int8 linear")
@pytest.mark.parametrize(
    "arithmetic", [DraftArithmetic.BFLOAT16, DraftArithmetic.INT8_ROWS, DraftArithmetic.BFLOAT16_INT8_ROWS]
)
def test_each_narrower_arithmetic_proposes_what_the_float32_drafter_does(trained, arithmetic):
    _, model, head, _, held, _ = trained
    embed, lm_head = model.get_input_embeddings().weight.detach(), model.get_output_embeddings().weight.detach()
    exact, rounded = (
        HeadDrafter(head, embed, lm_head, DraftArithmetic.FLOAT32),
        HeadDrafter(head, embed, lm_head, arithmetic),
    )
    assert rounded.arithmetic == arithmetic
    same = total = 0
    for answer in held[:8]:
        for t in range(answer.prompt_len - 1, len(answer.ids) - 1):
            a = exact.propose(answer.features[t], answer.ids[t + 1], depth=3, nodes=6)
            b = rounded.propose(answer.features[t], answer.ids[t + 1], depth=3, nodes=6)
            same += a[0][0] == b[0][0]
            total += 1
    assert total > 50 and same >= 0.95 * total, (same, total)


@pytest.mark.skipif(not int8_available(), reason="this torch build has no fbgemm int8 linear")
def test_the_bench_forces_an_arithmetic_and_a_wrong_one_is_named(trained, monkeypatch):
    _, model, head, *_ = trained
    embed, lm_head = model.get_input_embeddings().weight.detach(), model.get_output_embeddings().weight.detach()
    monkeypatch.setenv(DTYPE_ENV, "bfloat16+int8")
    assert HeadDrafter(head, embed, lm_head).arithmetic == DraftArithmetic.BFLOAT16_INT8_ROWS
    monkeypatch.setenv(DTYPE_ENV, "int8")
    assert HeadDrafter(head, embed, lm_head).arithmetic == DraftArithmetic.INT8_ROWS
    monkeypatch.setenv("SPLITCHAT_KERNELS", "plain")  # no int8 here: forcing it says so, not a torch error
    int8_available.cache_clear()
    with pytest.raises(ValueError, match="needs fbgemm's int8 linear on the CPU"):
        HeadDrafter(head, embed, lm_head)
    monkeypatch.delenv("SPLITCHAT_KERNELS")
    int8_available.cache_clear()
    monkeypatch.setenv(DTYPE_ENV, "fp8")
    with pytest.raises(
        ValueError, match=r"SPLITCHAT_DRAFT_DTYPE='fp8': expected one of float32, bfloat16, int8, bfloat16\+int8"
    ):
        HeadDrafter(head, embed, lm_head)


def test_the_beam_stops_once_its_paths_hold_less_than_the_floor(trained):
    _, model, head, _, held, _ = trained
    embed, lm_head = model.get_input_embeddings().weight.detach(), model.get_output_embeddings().weight.detach()
    drafter = HeadDrafter(head, embed, lm_head, DraftArithmetic.FLOAT32)
    stopped = 0
    for answer in held[:6]:
        for t in range(answer.prompt_len - 1, len(answer.ids) - 1):
            feature, root = answer.features[t], answer.ids[t + 1]
            every = drafter.propose(feature, root, depth=5, nodes=200, width=3, beam_floor=0.0)
            floored = drafter.propose(feature, root, depth=5, nodes=200, width=3, beam_floor=0.5)
            # The beam is the likeliest ``width`` paths of each depth; the drafting stops after the first
            # depth whose beam holds less than the floor.
            by_depth = {}
            for path, _ in every:
                by_depth.setdefault(len(path), []).append(path)
            beam_mass = [1.0]
            for d in range(1, 6):
                probs = sorted((_product(drafter, feature, root, path) for path in by_depth[d]), reverse=True)
                beam_mass.append(sum(probs[:3]))
            ran = next((d for d in range(5) if beam_mass[d] < 0.5), 5)
            assert max(len(path) for path, _ in floored) == ran
            assert [p for p in every if len(p[0]) <= ran] == floored  # the same paths, in the same order
            stopped += ran < 5
    assert stopped > 0


def _product(drafter: HeadDrafter, feature: torch.Tensor, root: int, path: list[int]) -> float:
    """The head's probability of ``path`` after ``root``, token by token."""
    head = drafter.head
    with torch.inference_mode():
        f, token, product = feature.view(1, -1), root, 1.0
        for nxt in path:
            f = head(f, drafter._embed[[token]])
            probs = torch.softmax(f @ drafter._lm_rows.T, -1)[0]
            product *= float(probs[int((drafter.vocab == nxt).nonzero()[0, 0])])
            token = nxt
        return product


def test_head_tokens_are_rated_by_their_confidence_bin():
    assert head_source(0.0) == "head@0" and head_source(0.95) == "head@9" and head_source(1.0) == "head@9"
    assert head_confidence("head@9") == pytest.approx(0.95) and head_confidence("lookup2") is None
    model = AcceptanceModel()
    assert model.rate(head_source(0.95), 1) > model.rate(head_source(0.5), 1) > model.rate(head_source(0.1), 1)
    tree = DraftTree.rooted_at(1)
    tree.add_path([2, 3], [head_source(0.9), head_source(0.9)])
    before = model.rate(head_source(0.9), 1)
    model.observe(tree, Verdict(accepted=[0], bonus=7))  # the model disagreed at once
    assert model.rate(head_source(0.9), 1) < before
    assert model.rate(head_source(0.9), 1) == model.rate(head_source(0.9), 5)  # one rate per bin, any depth


def test_a_saved_head_round_trips_and_is_found_only_for_its_own_weights(trained, tmp_path, monkeypatch):
    monkeypatch.setenv("SPLITCHAT_CACHE_DIR", str(tmp_path))  # not the user's cache
    _, model, head, _, held, _ = trained
    fingerprint = "sha256:" + "ab" * 32
    info = HeadInfo(fingerprint, head.hidden_size, head.inner_size, len(head.vocab), {"answers": 48}, 2)
    with pytest.raises(ValueError, match="reads layer 2's feature, its description says None"):
        save_head(head, replace(info, fuse_layer=None), tmp_path / "wrong.safetensors")
    path = cached_head_path(fingerprint)
    assert path.parent == tmp_path / "drafts" and ":" not in path.name  # a file name Windows accepts
    save_head(head, info, path)
    loaded, read = load_head(path)
    assert read == info and loaded.fuse_layer == 2
    assert torch.equal(loaded.vocab, head.vocab)
    f, e = held[0].features[:5], model.get_input_embeddings().weight.detach()[held[0].ids[1:6]]
    r = held[0].early[1:6]
    with torch.inference_mode():  # stored as float16
        torch.testing.assert_close(loaded(loaded.start(f, r), e), head(head.start(f, r), e), atol=2e-2, rtol=2e-2)
    assert find_head(fingerprint) == path
    assert find_head("sha256:" + "cd" * 32) is None
    damaged = path.with_name("0-damaged.safetensors")  # sorts first among the folder's files
    damaged.write_bytes(b"not a safetensors file")
    other = path.with_name("1-mine.safetensors")  # a head saved under its own name is found too
    path.rename(other)
    assert find_head(fingerprint) == other  # the damaged file is passed over


def test_the_roots_early_feature_is_the_models_own_and_leaves_the_caches_as_they_were(trained):
    folder, model, *_ = trained
    edge = LocalEdge(resolve_model(str(folder)), SplitSpec(3, 2))
    prompt, root = [5, 17, 42, 9, 33], 71
    edge.run_head(torch.tensor(prompt), torch.arange(len(prompt)))
    with torch.inference_mode():
        expected = model(torch.tensor([prompt + [root]]), output_hidden_states=True).hidden_states
    for layers in (1, 2, 3):  # hidden_states[i] is the output of the first i layers
        got = edge.early_feature(root, len(prompt), layers)
        torch.testing.assert_close(got, expected[layers][0, -1], atol=1e-4, rtol=1e-4)
        assert edge.head.length == len(prompt)
    assert edge.early_feature(root, len(prompt), 4) is None  # only three layers are local
    after = edge.run_head(torch.tensor([root]), torch.tensor([len(prompt)]))  # as if it had never run
    torch.testing.assert_close(after[0, -1], expected[3][0, -1], atol=1e-4, rtol=1e-4)


@pytest.mark.skipif(not int8_available(), reason="this torch build has no fbgemm int8 linear")
def test_the_int8_copy_of_the_first_layers_gives_nearly_the_early_feature_and_leaves_the_caches(trained, monkeypatch):
    folder, model, *_ = trained
    source = resolve_model(str(folder))
    edge = LocalEdge(source, SplitSpec(3, 2))
    prompt, root = [5, 17, 42, 9, 33], 71
    edge.run_head(torch.tensor(prompt), torch.arange(len(prompt)))
    with torch.inference_mode():
        expected = model(torch.tensor([prompt + [root]]), output_hidden_states=True).hidden_states
    copy = int8_early_layers(source, 2, 3, "cpu", torch.float32)
    assert any(isinstance(m, Int8Linear) for m in copy.modules())
    assert not any(isinstance(m, torch.nn.Linear) for m in copy.modules())
    got = edge.early_feature(root, len(prompt), 2, stand_in=copy)
    want = expected[2][0, -1]
    exact = edge.early_feature(root, len(prompt), 2)
    assert (got - exact).abs().max() > 1e-3  # int8, not the exact layers
    assert torch.nn.functional.cosine_similarity(got, want, dim=0) > 0.99
    assert edge.head.length == len(prompt)
    after = edge.run_head(torch.tensor([root]), torch.tensor([len(prompt)]))  # as if it had never run
    torch.testing.assert_close(after[0, -1], expected[3][0, -1], atol=1e-4, rtol=1e-4)
    with pytest.raises(ValueError, match="a stand-in for 1 layers has 2"):
        edge.early_feature(root, len(prompt), 1, stand_in=copy)
    assert int8_early_layers(source, 4, 3, "cpu", torch.float32) is None  # not local: no early feature at all
    assert int8_early_layers(source, None, 3, "cpu", torch.float32) is None  # the head reads none
    assert int8_early_layers(source, 2, 3, "cpu", torch.bfloat16) is None  # its float32 rows would meet bf16 caches
    monkeypatch.setenv(DTYPE_ENV, "float32")  # the bench's exact drafter: the exact layers too
    assert int8_early_layers(source, 2, 3, "cpu", torch.float32) is None


@pytest.mark.parametrize("mode", ["learned", "auto"])
def test_speculation_with_the_head_is_token_identical_and_commits_several_tokens(trained, mode):
    folder, model, head, _, held, _ = trained
    source = resolve_model(str(folder))
    split = SplitSpec(2, 2)
    edge = LocalEdge(source, split)
    early = int8_early_layers(source, 2, split.k_in, "cpu", torch.float32)  # None without fbgemm
    drafter = HeadDrafter(head, edge.embed_weight, edge.lm_head_weight, early_layers=early)
    assert drafter.fuse_layer == 2  # the session feeds it the root's feature after its two head layers
    middle = LocalMiddle(LayerStack.from_source(source, *split.middle(source.num_layers)))
    session = SplitSession(edge, middle, (), Speculation(mode=mode), draft_head=drafter)
    prompt = held[1].ids[: held[1].prompt_len]
    ran: list[int] = []
    if early is not None:
        early.layers[0].register_forward_hook(lambda *_: ran.append(1))
    generation = asyncio.run(session.generate(prompt, 32))
    assert_greedy_matches(model, prompt, generation.tokens, reference_greedy(model, prompt, 32))
    if mode == "learned":  # auto's trees depend on this machine's timings; learned always drafts
        assert early is None or ran, "the root's early feature did not come from the int8 copy"
        head_nodes = [s for plan in generation.plans for s in plan.tree.sources if s.startswith("head")]
        assert head_nodes, "the head proposed nothing"
        assert generation.stats.tokens_per_round_trip > 1.5


def _head_step(controller: Controller, accepted_head_tokens: int, draft_ms: float, ask: bool = True) -> None:
    """One measured step whose tree held a 3-token chain that only the head proposed."""
    if ask:
        assert controller.decide_head()
    tree = DraftTree.rooted_at(1)
    tree.add_path([2, 3, 4], [head_source(0.9)] * 3)
    verdict = Verdict(accepted=list(range(accepted_head_tokens + 1)), bonus=9)
    controller.observe_step(4, 40.0, 0.0, tree, verdict, draft_ms)


def test_auto_drafts_with_the_head_while_it_saves_more_than_it_costs_and_retries_later():
    controller = Controller("auto")
    controller.cost.rtt_ms = 0.0
    controller.cost.compute.observe(1, 40.0)
    head = controller.head
    _head_step(controller, accepted_head_tokens=2, draft_ms=5.0)  # nothing measured yet: it tries the head
    assert head.tokens == 2 and head.rows == 3
    assert head.value_ms() > head.drafting_ms and head.profitable()
    steps = 0
    while head.profitable():  # then the head stops being right: auto soon stops drafting with it
        _head_step(controller, accepted_head_tokens=0, draft_ms=5.0)
        steps += 1
    assert 0 < steps < 20 and head.value_ms() < head.drafting_ms
    assert not head.profitable() and not head.profitable()  # asking twice changes nothing
    decisions = [controller.decide_head() for _ in range(HeadGate.RETRY)]
    assert decisions == [False] * (HeadGate.RETRY - 1) + [True]
    _head_step(controller, accepted_head_tokens=3, draft_ms=5.0, ask=False)  # the retry finds a head worth it
    assert head.tokens == 3  # a fresh measurement of the text as it is now, not averaged in
    assert head.profitable()
    while head.profitable():
        _head_step(controller, accepted_head_tokens=0, draft_ms=5.0)
    controller.new_reply()  # new text: the head gets its retry at once
    assert controller.decide_head() and head.explore
    assert Controller("learned").decide_head() and not Controller("lookahead").decide_head()


def test_training_prompts_share_no_passage_with_either_bench_set():
    prompts = json.loads(DRAFT_PROMPTS.read_text())["prompts"]
    categories = Counter(p["category"] for p in prompts)
    assert len(prompts) >= 1300 and categories["clinical"] >= 100 and categories["legal"] >= 100
    measured = [m["content"] for p in load_prompt_sets("both") for m in p.messages]

    def shingles(text: str, n: int = 8) -> set[tuple[str, ...]]:
        words = text.lower().split()
        return {tuple(words[i : i + n]) for i in range(len(words) - n + 1)}

    seen = set().union(*(shingles(text) for text in measured))
    assert [p["content"][:60] for p in prompts if shingles(p["content"]) & seen] == []


def test_a_retry_verifies_the_heads_likeliest_path_even_when_its_estimates_are_low():
    controller = Controller("auto")
    controller.cost.rtt_ms = 0.0
    controller.cost.compute.observe(1, 40.0)
    for source in (head_source(0.9), head_source(0.3)):  # estimates so low no head node would be kept
        controller.acceptance._counts[(source, 0)] = [0.0, 50.0]
    tree = DraftTree.rooted_at(1)
    tree.add_path([2, 3, 4], [head_source(0.9)] * 3)
    tree.add_path([5, 6], [head_source(0.3)] * 2)
    _head_step(controller, accepted_head_tokens=0, draft_ms=5.0)
    assert len(controller.plan(tree).tree) == 1  # sequential
    decisions = [controller.decide_head() for _ in range(HeadGate.RETRY)]
    assert decisions[-1] and not any(decisions[:-1])
    explored = controller.plan(tree)
    assert explored.tree.tokens == [1, 2, 3, 4]  # the retry verifies its likeliest path, so estimates can move
    assert len(controller.plan(tree).tree) == 1  # once


def test_a_head_trained_elsewhere_installs_for_its_own_weights_only(trained, tmp_path, monkeypatch, capsys):
    from app.cli import main
    from app.cli_parser import EXIT_FAILED, EXIT_USAGE
    from app.engine.source.fingerprints import model_fingerprint

    monkeypatch.setenv("SPLITCHAT_CACHE_DIR", str(tmp_path / "cache"))  # not the user's cache
    folder, _, head, *_ = trained
    fingerprint = model_fingerprint(resolve_model(str(folder)))
    mine, theirs, junk = tmp_path / "mine.safetensors", tmp_path / "theirs.safetensors", tmp_path / "junk.bin"
    save_head(head, HeadInfo(fingerprint, head.hidden_size, head.inner_size, len(head.vocab), {}, 2), mine)
    other = "sha256:" + "cd" * 32
    save_head(head, HeadInfo(other, head.hidden_size, head.inner_size, len(head.vocab), {}, 2), theirs)
    junk.write_bytes(b"\x00" * 64)

    assert main(["install-draft", str(theirs), "--model", str(folder)]) == EXIT_USAGE
    assert "was trained for the weights sha256:cdcdcdcd" in capsys.readouterr().err
    assert main(["install-draft", str(junk), "--model", str(folder)]) == EXIT_USAGE
    assert "is not a splitchat draft head" in capsys.readouterr().err
    assert find_head(fingerprint) is None  # nothing was copied by either

    assert main(["install-draft", str(mine), "--model", str(folder)]) == 0
    assert "reads the drafted-from token after 2 layers" in capsys.readouterr().out
    installed = find_head(fingerprint)
    assert installed == cached_head_path(fingerprint) and installed.read_bytes() == mine.read_bytes()
    assert main(["install-draft", str(mine), "--model", str(folder)]) == EXIT_FAILED  # not over one in place
    assert "pass --force" in capsys.readouterr().err
    assert main(["install-draft", str(mine), "--model", str(folder), "--force"]) == 0
