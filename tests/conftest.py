"""Fixtures: tiny random models per family (fast), and the bundled model loaded once per session."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import torch

from tests.helpers import build_tiny_model, reference_greedy

# No display in CI: Qt renders offscreen; qasync must pick the PySide6 binding.
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("QT_API", "pyside6")

# Torch computes on one thread, in this process and in every worker and command it starts (they inherit
# OMP_NUM_THREADS). The models here are tiny or the 135M bundled one, run a row or a few at a time, and on
# a two-core machine that other work keeps busy, two OpenMP threads spend most of each product waiting for
# each other (as test_hostile_sessions_worker.py's `single_threaded` found): with the load average at 6-10,
# a tiny model's speculation case took 30-40 s on two threads against 3 s on one, the bundled model's
# generate 3-4x as long, a bundled worker's 32 tokens 38-46 s against 6-7, and the 4,000-token prefill test
# 247 s against 108. No claim depends on the count (both sides of a comparison run under the same
# setting); OMP_NUM_THREADS=2 make test runs on two.
os.environ.setdefault("OMP_NUM_THREADS", "1")
torch.set_num_threads(int(os.environ["OMP_NUM_THREADS"]))


@pytest.fixture(scope="session")
def tiny_models(tmp_path_factory) -> dict:
    """family -> (folder, transformers model), built once."""
    root = tmp_path_factory.mktemp("tiny")
    return {
        family: (root / family, build_tiny_model(family, root / family)) for family in ("llama", "mistral", "qwen2")
    }


@pytest.fixture(scope="session")
def bundled():
    """The bundled SmolLM2: its resolved source, the unsplit transformers model and the tokenizer."""
    from transformers import AutoModelForCausalLM

    from app.engine.source.specs import resolve_model

    source = resolve_model()
    model = AutoModelForCausalLM.from_pretrained(source.folder, dtype=torch.float32).eval()
    return source, model, source.tokenizer()


@pytest.fixture(scope="session")
def bundled_reference(bundled):
    """``reference_greedy`` on the unsplit bundled model, each (prompt, length, stop ids) generated once a
    session: the tests that compare several split depths or modes with the same prompts share it. The
    model is never changed after loading, so the answer kept is the one transformers gives again."""
    _, model, _ = bundled
    answers: dict[tuple, list[int]] = {}

    def reference(prompt: list[int], max_new_tokens: int, eos: list[int] | None = None) -> list[int]:
        key = (tuple(prompt), max_new_tokens, tuple(eos or ()))
        if key not in answers:
            answers[key] = reference_greedy(model, list(prompt), max_new_tokens, eos)
        return list(answers[key])

    return reference


@pytest.fixture(scope="session")
def workers():
    """Start real worker processes on loopback on demand; all are stopped at the end of the session."""
    from app.engine.link.local_worker import LocalWorker

    started: dict[Path, LocalWorker] = {}

    def start(shard: Path, **options) -> LocalWorker:
        key = Path(shard)
        if key not in started or not started[key].alive():
            worker = LocalWorker(shard, **options)
            worker.start()
            started[key] = worker
        return started[key]

    yield start
    for worker in started.values():
        worker.stop()


class MemoryKeyring:
    """A keyring backend that keeps passwords in a dict: tests never touch the developer's real keyring."""

    priority = 1

    def __init__(self):
        self.store: dict[tuple[str, str], str] = {}

    def get_password(self, service: str, username: str) -> str | None:
        return self.store.get((service, username))

    def set_password(self, service: str, username: str, password: str) -> None:
        self.store[(service, username)] = password

    def delete_password(self, service: str, username: str) -> None:
        from keyring.errors import PasswordDeleteError

        if self.store.pop((service, username), None) is None:
            raise PasswordDeleteError(username)


@pytest.fixture(autouse=True)
def isolated_user_state(tmp_path_factory, monkeypatch):
    """Every test gets its own settings, data and policy locations and an in-memory keyring."""
    import keyring
    from keyring.backend import KeyringBackend

    root = tmp_path_factory.mktemp("user")
    monkeypatch.setenv("SPLITCHAT_CONFIG_DIR", str(root / "config"))
    monkeypatch.setenv("SPLITCHAT_DATA_DIR", str(root / "data"))
    monkeypatch.setenv("SPLITCHAT_POLICY", str(root / "policy.json"))
    backend = type("TestKeyring", (MemoryKeyring, KeyringBackend), {})()
    previous = keyring.get_keyring()
    keyring.set_keyring(backend)
    yield backend
    keyring.set_keyring(previous)
