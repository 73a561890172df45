"""Fixtures: tiny random models per family (fast), and the bundled model loaded once per session."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import torch

from tests.helpers import build_tiny_model

# No display in CI: Qt renders offscreen; qasync must pick the PySide6 binding.
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("QT_API", "pyside6")


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
