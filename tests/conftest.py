"""Fixtures: tiny random models per family (fast), and the bundled model loaded once per session."""

from __future__ import annotations

from pathlib import Path

import pytest
import torch

from tests.helpers import build_tiny_model


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

    from app.engine.models import resolve_model

    source = resolve_model()
    model = AutoModelForCausalLM.from_pretrained(source.folder, dtype=torch.float32).eval()
    return source, model, source.tokenizer()


@pytest.fixture(scope="session")
def workers():
    """Start real worker processes on loopback on demand; all are stopped at the end of the session."""
    from app.engine.local_worker import LocalWorker

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
