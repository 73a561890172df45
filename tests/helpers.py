"""Shared test helpers: tiny random models of each family, and exact-match checks against transformers."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import threading
from pathlib import Path

import pytest
import torch
from safetensors.torch import save_file

from app.engine.decode.repetition import looping

TINY = dict(
    vocab_size=320,
    hidden_size=64,
    intermediate_size=128,
    num_hidden_layers=6,
    num_attention_heads=4,
    num_key_value_heads=2,
    max_position_embeddings=512,
    rms_norm_eps=1e-6,
    tie_word_embeddings=False,
    initializer_range=0.1,
)


# Each family with the features that set it apart switched on, at sizes a test runs in seconds; every
# sliding window is shorter than the tests' contexts, so windowed masks are exercised, not bypassed.
FAMILY_CASES = (
    "llama",
    "mistral",
    "qwen2",
    "llama3",  # rope scaling "llama3"
    "mistral_nemo",  # head_dim 32 where hidden ÷ heads is 16; a sliding window
    "qwen3",  # q/k norms, an explicit head_dim
    "phi3",  # fused qkv and gate-up projections, LongRoPE: its trained context (56) outgrown while decoding
    "gemma2",  # scaled embedding, attention and final-logit soft caps, alternating windows, tied embeddings
    "gemma3",  # q/k norms, five sliding layers to one global with its own rotary base, tied embeddings
)


def tiny_config(family: str):
    from transformers import (
        Gemma2Config,
        Gemma3TextConfig,
        LlamaConfig,
        MistralConfig,
        Phi3Config,
        Qwen2Config,
        Qwen3Config,
    )

    if family == "llama":
        return LlamaConfig(**TINY)
    if family == "mistral":
        return MistralConfig(**TINY, sliding_window=None)
    if family == "qwen2":
        return Qwen2Config(**TINY)  # q/k/v projections carry biases
    if family == "llama3":
        scaling = dict(factor=8.0, low_freq_factor=1.0, high_freq_factor=4.0, original_max_position_embeddings=64)
        return LlamaConfig(**TINY, rope_scaling={"rope_type": "llama3", **scaling})
    if family == "mistral_nemo":
        return MistralConfig(**TINY, head_dim=32, sliding_window=12)
    if family == "qwen3":
        return Qwen3Config(**TINY, head_dim=24)
    if family == "phi3":
        half = TINY["hidden_size"] // TINY["num_attention_heads"] // 2
        longrope = {
            "type": "longrope",
            "short_factor": [1.0 + 0.25 * i for i in range(half)],
            "long_factor": [1.0 + i for i in range(half)],
        }
        return Phi3Config(
            **TINY, original_max_position_embeddings=56, rope_scaling=longrope, pad_token_id=0, eos_token_id=2
        )
    if family == "gemma2":
        return Gemma2Config(
            **TINY, head_dim=16, query_pre_attn_scalar=16, sliding_window=10, pad_token_id=0, eos_token_id=2
        )
    if family == "gemma3":
        return Gemma3TextConfig(
            **TINY, head_dim=16, query_pre_attn_scalar=16, sliding_window=10, pad_token_id=0, eos_token_id=2
        )
    if family == "gemma3_vision":  # the 4B-27B checkpoints: the text decoder inside a vision-language model
        from transformers import Gemma3Config

        text = dict(TINY, head_dim=16, query_pre_attn_scalar=16, sliding_window=10, pad_token_id=0, eos_token_id=2)
        vision = dict(hidden_size=32, intermediate_size=64, num_hidden_layers=1, num_attention_heads=2, image_size=28)
        return Gemma3Config(text_config=text, vision_config=dict(vision, patch_size=14), image_token_index=300)
    raise ValueError(family)


def build_tiny_model(family: str, folder: Path, seed: int = 0, tied: bool = False, **overrides):
    """Save a random tiny model of ``family`` as an HF folder; return the transformers model."""
    from transformers import AutoModelForCausalLM

    torch.manual_seed(seed)
    config = tiny_config(family)
    for key, value in overrides.items():
        setattr(config, key, value)
    config.tie_word_embeddings = tied or family.startswith("gemma")  # as Gemma is published
    model = AutoModelForCausalLM.from_config(config).eval()
    with torch.no_grad():  # biases start at zero; make them count so a dropped bias shows
        for name, param in model.named_parameters():
            if "bias" in name:
                param.normal_(0, 0.1)
    folder.mkdir(parents=True, exist_ok=True)
    state = {k: v.contiguous() for k, v in model.state_dict().items()}
    if config.tie_word_embeddings:
        state.pop("lm_head.weight", None)
    save_file(state, folder / "model.safetensors")
    config_dict = model.config.to_dict()
    (folder / "config.json").write_text(json.dumps(config_dict))
    return model


def reference_greedy(model, prompt: list[int], max_new_tokens: int, eos: list[int] | None = None) -> list[int]:
    """transformers' own greedy continuation of ``prompt``."""
    out = model.generate(
        torch.tensor([prompt]),
        attention_mask=torch.ones(1, len(prompt), dtype=torch.long),
        max_new_tokens=max_new_tokens,
        do_sample=False,
        eos_token_id=eos or None,
        pad_token_id=0,
    )
    return out[0, len(prompt) :].tolist()


def assert_greedy_matches(model, prompt: list[int], ours: list[int], reference: list[int], tie: float = 1e-4):
    """Equal tokens, or a first difference that is a genuine tie in the unsplit model's logits."""
    if ours == reference:
        return
    if len(ours) < len(reference) and ours == reference[: len(ours)] and looping(ours):
        return  # stopped where the answer began to loop (app/engine/decode/repetition.py); the model loops on
    index = next(
        (i for i, (a, b) in enumerate(zip(ours, reference, strict=False)) if a != b), min(len(ours), len(reference))
    )
    assert index < min(len(ours), len(reference)), f"lengths differ: {len(ours)} vs {len(reference)}"
    with torch.no_grad():
        logits = model(torch.tensor([prompt + reference[:index]])).logits[0, -1].float()
    top = logits.topk(2)
    margin = float(top.values[0] - top.values[1])
    assert margin < tie and ours[index] in top.indices.tolist(), (
        f"token {index} differs ({ours[index]} vs {reference[index]}) with an argmax margin of {margin:.2e}: not a tie"
    )


def chi_square_critical(dof: int, z: float = 3.0902) -> float:
    """Upper quantile of chi-square (Wilson-Hilferty); z = 3.09 is the one-sided 0.1 % level."""
    return dof * (1 - 2 / (9 * dof) + z * (2 / (9 * dof)) ** 0.5) ** 3


def chi_square_goodness_of_fit(counts: torch.Tensor, probs: torch.Tensor, min_expected: float = 5.0):
    """(statistic, degrees of freedom) of observed counts against probabilities; sparse cells pooled."""
    expected = probs * counts.sum()
    big = expected >= min_expected
    observed_cells = list(counts[big].tolist()) + [float(counts[~big].sum())]
    expected_cells = list(expected[big].tolist()) + [float(expected[~big].sum())]
    assert len(expected_cells) >= 3, "too few well-filled cells for a chi-square test"
    if expected_cells[-1] < min_expected:  # fold the pooled cell into the last big one
        observed_cells[-2] += observed_cells.pop()
        expected_cells[-2] += expected_cells.pop()
    statistic = sum((o - e) ** 2 / e for o, e in zip(observed_cells, expected_cells, strict=True))
    return statistic, len(observed_cells) - 1


async def open_split_session(source, split, endpoint: str, token: str, mode: str = "auto", cert_sha256=None):
    """A SplitSession over a real worker that recovers lost sessions itself; returns (session, notices)."""
    from app.engine.decode.edge import LocalEdge
    from app.engine.decode.session import SplitSession
    from app.engine.link.handshake import connect_with_retries
    from app.engine.link.worker_link import WorkerLink
    from app.engine.speculation.modes import Speculation

    link = WorkerLink.remote(source, split, endpoint, token, "float32", cert_sha256=cert_sha256)
    session = SplitSession(LocalEdge(source, split), await link.connect(), speculation=Speculation(mode=mode))
    notices: list[str] = []
    session.recovery.notice = notices.append
    session.recovery.reconnect = lambda: connect_with_retries(link.connect, 30.0, notices.append)
    return session, notices


def build_successor_model(folder: Path, seed: int = 0, layer_scale: float = 0.1):
    """A tiny Llama whose greedy next token is mostly a fixed function of the current one.

    The LM head's rows are the embedding's rows permuted, so the argmax after token x is the token whose
    row is e(x); the layers' outputs are scaled down so context nudges rather than decides. A model with
    structure a learner can find — unlike a random one, whose continuations are noise.
    """
    from transformers import AutoModelForCausalLM

    torch.manual_seed(seed)
    config = tiny_config("llama")
    model = AutoModelForCausalLM.from_config(config).eval()
    with torch.no_grad():
        embed = model.get_input_embeddings().weight
        successor = torch.randperm(config.vocab_size)
        model.get_output_embeddings().weight.copy_(embed[successor] * 10)
        for name, param in model.named_parameters():
            if name.endswith(("o_proj.weight", "down_proj.weight")):
                param.mul_(layer_scale)
    folder.mkdir(parents=True, exist_ok=True)
    save_file({k: v.contiguous() for k, v in model.state_dict().items()}, folder / "model.safetensors")
    (folder / "config.json").write_text(json.dumps(model.config.to_dict()))
    return model


def run_measuring_peak_rss(args: list[str], **options) -> tuple[subprocess.CompletedProcess, float]:
    """Run a command in a fresh parent and return (its result, its peak resident memory in MiB).

    The parent is a new interpreter so that the only child it ever waits for is the command: the peak it
    reports (``RUSAGE_CHILDREN``) is the command's own, not that of a worker an earlier test started.
    """
    wrapper = (
        "import resource, subprocess, sys; r = subprocess.run(sys.argv[1:]); "
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, file=sys.stderr); sys.exit(r.returncode)"
    )
    result = subprocess.run([sys.executable, "-c", wrapper, *args], capture_output=True, text=True, **options)
    return result, int(result.stderr.strip().splitlines()[-1]) / 1024


def network_address() -> str:
    """An address of this computer that is not loopback (the one a route out would use)."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("10.255.255.255", 1))  # UDP: no packet is sent, the kernel only picks a route
        address = probe.getsockname()[0]
    except OSError:
        address = ""
    finally:
        probe.close()
    if not address or address.startswith("127."):
        pytest.skip("this computer has no network address besides loopback")
    return address


class Listener:
    """A TCP listener that records every byte a client sends it."""

    def __init__(self, host: str):
        self.socket = socket.create_server((host, 0))
        self.socket.settimeout(0.2)
        self.endpoint = f"ws://{host}:{self.socket.getsockname()[1]}"
        self.received = b""
        self.connections = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        while not self._stop.is_set():
            try:
                client, _ = self.socket.accept()
            except OSError:
                continue
            self.connections += 1
            client.settimeout(1.0)
            try:
                self.received += client.recv(65536)
            except OSError:
                pass
            client.close()

    def close(self) -> None:
        self._stop.set()
        self._thread.join(2)
        self.socket.close()
