"""Privacy attackers on tiny models: wired to the right tensors, right when they must be, at chance otherwise."""

from __future__ import annotations

import threading

import pytest
import torch

from app.engine.source.specs import resolve_model
from app.jobs import Cancelled
from app.privacy.activations import WholeModel, boundaries_for, capture
from app.privacy.attacks import (
    codebook,
    head_search,
    hits,
    learned_inversion,
    most_frequent,
    nearest_rows,
)
from app.privacy.corpus import TokenDocument, split_by_document
from app.privacy.evaluation import PrivacySettings, evaluate
from app.privacy.report import PrivacyReport
from app.privacy.stats import wilson_interval


def _model(tiny_models, identity_layers: int = 0) -> WholeModel:
    """The tiny Llama; its first ``identity_layers`` layers made the identity (residual branches zeroed)."""
    source = resolve_model(str(tiny_models["llama"][0]))
    reader = source.weights()
    tensors = reader.load(reader.names())
    for i in range(identity_layers):
        tensors[f"model.layers.{i}.self_attn.o_proj.weight"].zero_()
        tensors[f"model.layers.{i}.mlp.down_proj.weight"].zero_()
    return WholeModel(source.config, tensors)


def _documents(count: int, length: int, vocab: int, seed: int = 0) -> list[TokenDocument]:
    generator = torch.Generator().manual_seed(seed)
    return [
        TokenDocument(f"doc{i}", tuple(torch.randint(0, vocab, (length,), generator=generator).tolist()))
        for i in range(count)
    ]


def test_captured_taps_are_the_unsplit_models_hidden_states(tiny_models):
    model = _model(tiny_models)
    reference = tiny_models["llama"][1]
    documents = _documents(2, 40, model.config.vocab_size)
    acts = capture(model, documents, [1, 2, 5], chunk_tokens=16)
    assert acts.chunk_starts == [0, 16, 32, 40, 56, 72]
    for start, end in acts.chunks():
        ids = acts.targets[start:end].view(1, -1)
        with torch.no_grad():
            out = reference(ids, output_hidden_states=True)
        for boundary in (1, 2, 5):
            torch.testing.assert_close(acts.taps[boundary][start:end], out.hidden_states[boundary][0])
        # The public tail's guess for position t is the full model's top-5 read at t - 1.
        top = out.logits[0].topk(5, dim=-1).indices
        assert torch.equal(acts.predicted[start + 1 : end], top[:-1])
        assert (acts.predicted[start] == -1).all()
    assert acts.scored.sum() == len(acts.targets) - len(acts.chunk_starts)


def test_public_weights_attacker_recovers_all_tokens_through_identity_layers(tiny_models):
    depth = 2
    model = _model(tiny_models, identity_layers=depth)
    vocab = model.config.vocab_size
    acts = capture(model, _documents(4, 128, vocab, seed=1), [depth])
    observed, targets = acts.taps[depth], acts.targets
    torch.testing.assert_close(observed, model.embed[targets])  # the layers really are the identity
    for guesses in (nearest_rows(observed, model.embed), nearest_rows(observed, codebook(model, depth, [7]))):
        top1, _ = hits(guesses, targets)
        assert sum(top1) / len(top1) > 0.99

    # On hidden states unrelated to the text, the same attacker is at chance (1 / vocabulary).
    unrelated = torch.randn(observed.shape, generator=torch.Generator().manual_seed(5))
    top1, _ = hits(nearest_rows(unrelated, model.embed), targets)
    low, high = wilson_interval(sum(top1), len(top1))
    assert low <= 1 / vocab <= high or sum(top1) / len(top1) < 3 / vocab


def test_head_search_inverts_real_layers_exactly(tiny_models):
    model = _model(tiny_models)  # unmodified random layers: the codebook alone is not enough
    depth = 2
    acts = capture(model, _documents(2, 48, model.config.vocab_size, seed=2), [depth])
    observed, targets = acts.taps[depth], acts.targets
    rows = codebook(model, depth, [3])
    shortlist = nearest_rows(observed, rows, k=model.config.vocab_size)  # every token a candidate
    guesses = head_search(model, depth, observed, shortlist, acts.chunks())
    top1, _ = hits(guesses, targets)
    assert sum(top1) == len(top1)


def test_learned_inversion_beats_the_frequency_baseline_and_can_be_cancelled(tiny_models):
    model = _model(tiny_models)
    vocab = model.config.vocab_size
    # A skewed token distribution, like text: the baseline is not trivially low.
    generator = torch.Generator().manual_seed(4)
    weights = 1.0 / torch.arange(1, vocab + 1).float()
    docs = [
        TokenDocument(f"d{i}", tuple(torch.multinomial(weights, 200, True, generator=generator).tolist()))
        for i in range(30)
    ]
    split = split_by_document(docs, test_share=0.2)
    train, test = capture(model, split.train, [1]), capture(model, split.test, [1])
    guesses = learned_inversion(train.taps[1], train.targets, test.taps[1], width=128, epochs=8)
    learned, _ = hits(guesses, test.targets)
    baseline, _ = hits(most_frequent(train.targets, len(test.targets)), test.targets)
    assert sum(learned) / len(learned) > sum(baseline) / len(baseline) + 0.2

    stop = threading.Event()
    stop.set()
    with pytest.raises(Cancelled):
        learned_inversion(train.taps[1], train.targets, test.taps[1], width=16, epochs=1, cancel=stop)


def test_depths_must_leave_middle_layers(tiny_models):
    assert boundaries_for([1, 2], 6) == {
        (1, "to_worker"): 1,
        (1, "from_worker"): 5,
        (2, "to_worker"): 2,
        (2, "from_worker"): 4,
    }
    with pytest.raises(ValueError, match="no middle layers"):
        boundaries_for([3], 6)
    with pytest.raises(ValueError, match="no middle layers"):
        boundaries_for([0], 6)


def test_evaluation_report_rows_statistics_and_split(tiny_models):
    model = _model(tiny_models)
    documents = _documents(12, 90, model.config.vocab_size, seed=6)
    split = split_by_document(documents, test_share=0.25)
    settings = PrivacySettings(depths=(1, 2), mlp_width=32, mlp_epochs=2, search_candidates=8)
    seen = []
    report = evaluate(model, split, settings, "twelve random documents", lambda m, f: seen.append(f))
    assert seen and seen == sorted(seen) and seen[-1] == pytest.approx(1.0)
    assert not set(report.corpus.train_documents) & set(report.corpus.test_documents)
    n_test = report.corpus.test_pairs
    assert n_test == split.test_tokens - len(split.test) * ((90 + 511) // 512)
    rows = report.results
    expected = {
        (d, "to_worker", a)
        for d in (1, 2)
        for a in ("learned_mlp", "public_embedding", "public_codebook", "public_head_search")
    }
    expected |= {(d, "from_worker", a) for d in (1, 2) for a in ("learned_mlp", "public_embedding", "public_tail")}
    expected |= {
        (d, w, b) for d in (1, 2) for w in ("to_worker", "from_worker") for b in ("most_frequent", "unigram_prior")
    }
    assert {(r.depth, r.direction, r.attacker) for r in rows} == expected
    for row in rows:
        assert row.n_test == n_test == len(row.outcomes_top1) == len(row.outcomes_top5)
        assert row.top1 == pytest.approx(row.outcomes_top1.count("1") / n_test)
        assert row.top1 <= row.top5
        assert row.ci95[0] <= row.top1 <= row.ci95[1]
    # One McNemar test per (direction, non-baseline attacker) between depths 1 and 2.
    assert len(report.comparisons) == 7
    for test in report.comparisons:
        assert test.depths == (1, 2) and 0.0 <= test.p_value <= 1.0
    assert set(report.threat_models) >= {"learned_mlp", "public_tail", "most_frequent"}
    # What is written is what is read back: the report survives its file format.
    assert PrivacyReport.from_json(report.to_json()) == report


def test_the_attackers_whole_model_embeds_as_the_family_does(tmp_path):
    """Gemma scales its embedding by √hidden: the attackers' reference must send what the split sends."""
    from tests.helpers import build_tiny_model

    model = build_tiny_model("gemma2", tmp_path / "gemma2")
    source = resolve_model(str(tmp_path / "gemma2"))
    whole = WholeModel.from_source(source)
    ids = torch.tensor([[5, 7, 9, 11]])
    with torch.no_grad():
        entering = model(ids, output_hidden_states=True).hidden_states[0]
    torch.testing.assert_close(whole.embed_ids(ids), entering)
