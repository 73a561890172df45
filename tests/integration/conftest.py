"""Integration fixtures: a tiny Llama split (1, 1) exported once, and a way to start its workers."""

from __future__ import annotations

import pytest

from app.engine.source.split import SplitSpec

TINY_SPLIT = SplitSpec(1, 1)


@pytest.fixture(scope="session")
def tiny_split(tiny_models, tmp_path_factory):
    """(source, transformers model, shard folder) for the tiny Llama cut at (1, 1)."""
    from app.engine.link.export import export_worker_shard
    from app.engine.source.specs import resolve_model

    folder, model = tiny_models["llama"]
    source = resolve_model(str(folder))
    shard = tmp_path_factory.mktemp("tiny-split-shard")
    export_worker_shard(source, TINY_SPLIT, shard)
    return source, model, shard


@pytest.fixture
def start_worker():
    """Start workers for one test (options as LocalWorker's); all are stopped when it ends."""
    from app.engine.link.local_worker import LocalWorker

    started = []

    def start(shard, **options) -> LocalWorker:
        worker = LocalWorker(shard, **options)
        started.append(worker)
        worker.start()
        return worker

    yield start
    for worker in started:
        worker.stop()
