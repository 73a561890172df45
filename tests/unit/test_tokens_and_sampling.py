"""Worker tokens are stored hashed; sampling is seeded and honours top-p."""

from __future__ import annotations

import hashlib

import pytest
import torch

from app.engine.decode.sampling import Sampling, TokenPicker
from app.remote_worker.tokens import TokenFile
from app.wire.worker_tokens import issue_token


def test_token_file_holds_only_the_hash(tmp_path):
    path = tmp_path / "tokens.txt"
    token = issue_token(path)
    text = path.read_text()
    assert token not in text
    assert text == f"sha256:{hashlib.sha256(token.encode()).hexdigest()}\n"
    tokens = TokenFile(path)
    assert tokens.verify(token) == text.strip()
    assert tokens.verify(token + "x") is None
    assert tokens.verify(None) is None


def test_token_file_reloads_when_a_token_is_added(tmp_path):
    path = tmp_path / "tokens.txt"
    first = issue_token(path)
    tokens = TokenFile(path)
    second = issue_token(path)
    assert tokens.verify(first) and tokens.verify(second)


def test_a_raw_token_in_the_file_is_refused(tmp_path):
    path = tmp_path / "tokens.txt"
    path.write_text("my-secret-token\n")
    with pytest.raises(ValueError, match="sha256"):
        TokenFile(path)


def test_a_token_file_caught_mid_edit_keeps_the_last_good_tokens_and_says_so_once(tmp_path, caplog):
    path = tmp_path / "tokens.txt"
    first, second = issue_token(path), issue_token(path)
    tokens = TokenFile(path)
    good = path.read_text()
    for broken in ("", good + "my-raw-token\n"):  # an editor halfway through saving; a malformed line
        path.write_text(broken)
        caplog.clear()
        for _ in range(20):
            assert tokens.verify(first) and tokens.still_valid(tokens.verify(second))
        warnings = [r for r in caplog.records if "last good tokens stay in force" in r.getMessage()]
        assert len(warnings) == 1
    path.write_text(good.splitlines()[1] + "\n")  # the first token's line deleted: revoked
    assert tokens.verify(first) is None and tokens.verify(second)
    assert not list(tmp_path.glob(".*.tmp"))  # issuing writes beside the file and renames


def test_greedy_takes_the_argmax_and_sampling_replays_with_a_seed():
    logits = torch.tensor([0.1, 3.0, 2.9, -1.0])
    assert TokenPicker(Sampling()).pick(logits) == 1
    picker_a, picker_b = TokenPicker(Sampling(1.0, 1.0, 5)), TokenPicker(Sampling(1.0, 1.0, 5))
    assert [picker_a.pick(logits) for _ in range(30)] == [picker_b.pick(logits) for _ in range(30)]
    picker_c = TokenPicker(Sampling(1.0, 1.0, 6))
    assert [picker_a.pick(logits) for _ in range(30)] != [picker_c.pick(logits) for _ in range(30)]


def test_top_p_keeps_the_smallest_set_reaching_the_mass():
    picker = TokenPicker(Sampling(temperature=1.0, top_p=0.5, seed=0))
    probs = picker.distribution(torch.log(torch.tensor([0.45, 0.3, 0.2, 0.05])))
    assert probs[2:].sum() == 0
    torch.testing.assert_close(probs[:2], torch.tensor([0.6, 0.4]))


@pytest.mark.parametrize("kwargs", [{"temperature": -1}, {"top_p": 0}, {"top_p": 1.5}])
def test_bad_sampling_settings_are_refused(kwargs):
    with pytest.raises(ValueError):
        Sampling(**kwargs)
