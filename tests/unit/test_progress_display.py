"""Progress on the command line: a tqdm bar on a terminal, a few plain lines elsewhere; and the bundled
model's conversion reporting each tensor."""

from __future__ import annotations

import io
import re

import numpy as np
import pytest

from app.progress_display import TerminalProgress, phase_of

ESCAPE = re.compile(r"\x1b\[")
PLAIN = re.compile(r"^\[ *\d+%\] \S")


class FakeTerminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def conversion_calls(tensors: int = 272) -> list[tuple[str, float]]:
    """What resolving the bundled model on first use reports, then a second job (the evaluation)."""
    calls = [("Converting the bundled model (first start only)", 0.0), ("reading the GGUF metadata", 0.0)]
    calls += [(f"converting tensor {i + 1}/{tensors} blk.{i // 9}.w", 0.05 + 0.9 * i / tensors) for i in range(tensors)]
    calls += [("writing model.safetensors", 0.95), ("Model ready", 1.0)]
    calls += [(f"Codebook at depth 1 ({n}/500 tokens)", n / 500) for n in range(10, 501, 10)]
    return calls


def test_plain_lines_when_not_a_terminal_are_few_and_end_at_100_percent():
    out = io.StringIO()
    display = TerminalProgress(out, clock=lambda: 0.0)
    calls = conversion_calls()
    for message, fraction in calls:
        display(message, fraction)
    display.close()
    text = out.getvalue()
    lines = text.splitlines()
    assert "\r" not in text and not ESCAPE.search(text)
    assert all(PLAIN.match(line) for line in lines), lines
    assert len(lines) <= 30 < len(calls)  # 324 calls: each phase's first, every 10 points, the ends
    assert "[100%] Model ready" in lines
    assert lines[-1] == "[100%] Codebook at depth 1 (500/500 tokens)"
    tensor_lines = [line for line in lines if "converting tensor" in line]
    assert 5 <= len(tensor_lines) <= 11  # 0.05 → 0.95 in steps of at least 10 points


def test_plain_lines_have_a_heartbeat_and_follow_phases():
    out, now = io.StringIO(), [0.0]
    display = TerminalProgress(out, clock=lambda: now[0], heartbeat_s=30.0)
    display("training the draft head (epoch 1/3)", 0.01)
    now[0] = 10.0
    display("training the draft head (epoch 1/3)", 0.02)  # too soon, too little: no line
    now[0] = 45.0
    display("training the draft head (epoch 1/3)", 0.03)  # 35 s without a line: a heartbeat
    display("answering training prompts", 0.04)  # a new phase
    display("answering training prompts", 0.02)  # going back: a new job, whose first call is shown
    assert out.getvalue().splitlines() == [
        "[  1%] training the draft head (epoch 1/3)",
        "[  3%] training the draft head (epoch 1/3)",
        "[  4%] answering training prompts",
        "[  2%] answering training prompts",
    ]


def test_phase_is_the_words_before_the_first_number():
    assert phase_of("converting tensor 57/272 blk.6.attn_q.weight") == "converting tensor"
    assert phase_of("Model ready") == "Model ready"


def test_a_terminal_gets_one_tqdm_line_redrawn_per_job():
    out = FakeTerminal()
    display = TerminalProgress(out)
    updates = 200
    for i in range(updates):
        display(f"converting tensor {i + 1}/{updates}", (i + 1) / updates)  # reaches 1.0: the bar closes
    display("Codebook at depth 1", 0.5)
    display.write("a log line")
    display.close()
    text = out.getvalue()
    assert "\r" in text and "100%|" in text
    # Redrawn in place: two finished bars and the log line, not a line per update.
    assert text.count("\n") <= 4
    assert "a log line\n" in text
    assert text.rstrip("\n").splitlines()[-1].lstrip("\r").startswith(" 50%|")


def test_the_command_line_progress_writes_plain_lines_under_pytest(capsys):
    from app.cli import _progress

    _progress("step 1/2", 0.5)
    _progress("step 2/2", 1.0)
    err = capsys.readouterr().err
    assert err.splitlines() == ["[ 50%] step 1/2", "[100%] step 2/2"]


def write_tiny_gguf(path, layers: int = 2, hidden: int = 16, heads: int = 4, kv_heads: int = 2, ffn: int = 32):
    """A llama GGUF of random float32 weights and a byte-level tokenizer of 96 tokens, written with ``gguf``."""
    gguf = pytest.importorskip("gguf")
    rng = np.random.default_rng(0)
    tokens = [chr(b) for b in range(33, 127)] + ["he", "<|endoftext|>"]
    writer = gguf.GGUFWriter(str(path), "llama")
    writer.add_name("tiny")
    writer.add_context_length(64)
    writer.add_embedding_length(hidden)
    writer.add_block_count(layers)
    writer.add_feed_forward_length(ffn)
    writer.add_head_count(heads)
    writer.add_head_count_kv(kv_heads)
    writer.add_layer_norm_rms_eps(1e-5)
    writer.add_rope_freq_base(10000.0)
    writer.add_vocab_size(len(tokens))
    writer.add_tokenizer_model("gpt2")
    writer.add_tokenizer_pre("default")
    writer.add_token_list(tokens)
    writer.add_token_types([1] * (len(tokens) - 1) + [3])
    writer.add_token_merges(["h e"])
    writer.add_bos_token_id(len(tokens) - 1)
    writer.add_eos_token_id(len(tokens) - 1)
    kv = kv_heads * hidden // heads
    shapes = {"token_embd.weight": (len(tokens), hidden), "output_norm.weight": (hidden,)}
    for i in range(layers):
        shapes |= {
            f"blk.{i}.attn_norm.weight": (hidden,),
            f"blk.{i}.attn_q.weight": (hidden, hidden),
            f"blk.{i}.attn_k.weight": (kv, hidden),
            f"blk.{i}.attn_v.weight": (kv, hidden),
            f"blk.{i}.attn_output.weight": (hidden, hidden),
            f"blk.{i}.ffn_norm.weight": (hidden,),
            f"blk.{i}.ffn_gate.weight": (ffn, hidden),
            f"blk.{i}.ffn_up.weight": (ffn, hidden),
            f"blk.{i}.ffn_down.weight": (hidden, ffn),
        }
    for name, shape in shapes.items():
        writer.add_tensor(name, rng.standard_normal(shape).astype(np.float32))
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    return list(shapes)


def test_conversion_reports_every_tensor_and_matches_from_pretrained(tmp_path):
    import torch
    from safetensors.torch import load_file
    from transformers import AutoModelForCausalLM

    from app.engine.source.gguf import convert_gguf

    gguf_path = tmp_path / "tiny.gguf"
    names = write_tiny_gguf(gguf_path)
    out = tmp_path / "converted"
    out.mkdir()
    calls: list[tuple[str, float]] = []
    convert_gguf(gguf_path, out, lambda message, fraction: calls.append((message, fraction)))

    steps = [m for m, _ in calls if m.startswith("converting tensor ")]
    assert len(steps) == len(set(steps)) == len(names) == 20
    assert [s.split()[-1] for s in steps] == names
    assert steps[0] == f"converting tensor 1/{len(names)} token_embd.weight"
    fractions = [f for _, f in calls]
    assert all(a < b for a, b in zip(fractions, fractions[1:], strict=False)) and 0 <= fractions[0] < fractions[-1] < 1

    # The per-tensor loop writes what transformers' own GGUF loading gives (q/k un-permuted, tied head).
    ours = load_file(out / "model.safetensors")
    model = AutoModelForCausalLM.from_pretrained(tmp_path, gguf_file=gguf_path.name, dtype=torch.float32)
    reference = {k: v for k, v in model.state_dict().items() if k != "lm_head.weight"}
    assert set(ours) == set(reference)
    for key, tensor in reference.items():
        assert torch.equal(ours[key], tensor), key
    assert (out / "config.json").is_file() and (out / "tokenizer.json").is_file()
