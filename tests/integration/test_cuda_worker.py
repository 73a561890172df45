"""The worker on a CUDA GPU in bfloat16 answers as the CPU does in float32 (up to bfloat16's ties).

Skipped where PyTorch sees no GPU (CI and the project's machine); ``scripts/gpu_check.sh`` runs these on
a machine with one, then times the middle layers.
"""

from __future__ import annotations

import asyncio
import json

import pytest
import torch

from app.engine.decode.edge import LocalEdge
from app.engine.decode.session import SplitSession
from app.engine.link.export import export_worker_shard
from app.engine.link.worker_link import WorkerLink
from app.engine.source.specs import resolve_model
from app.engine.speculation.modes import Speculation
from app.model.choices import SplitSpec
from tests.helpers import FAMILY_CASES, assert_greedy_matches, build_tiny_model, reference_greedy

pytestmark = [
    pytest.mark.cuda,
    pytest.mark.skipif(not torch.cuda.is_available(), reason="no CUDA GPU here: scripts/gpu_check.sh runs these"),
]
PROMPT = list(range(40, 80))


@pytest.mark.parametrize("case", FAMILY_CASES)
@pytest.mark.parametrize("mode", ["sequential", "auto"])
def test_a_cuda_worker_in_bfloat16_answers_as_the_whole_model_in_float32(case, mode, workers, tmp_path_factory):
    folder = tmp_path_factory.mktemp(f"cuda-{case}") / "model"
    model = build_tiny_model(case, folder)
    source = resolve_model(str(folder))
    split = SplitSpec(2, 2)
    shard = folder.parent / "shard"
    if not shard.exists():
        export_worker_shard(source, split, shard)
    worker = workers(shard, device="cuda", dtype="bfloat16")

    async def run() -> list[int]:
        link = WorkerLink.remote(source, split, worker.endpoint, worker.token, "bfloat16")
        middle = await link.connect()
        try:
            assert middle.hello.compute_dtype == "bfloat16"
            session = SplitSession(LocalEdge(source, split), middle, speculation=Speculation(mode=mode))
            return (await session.generate(PROMPT, 20)).tokens
        finally:
            await middle.close()

    assert_greedy_matches(model, PROMPT, asyncio.run(run()), reference_greedy(model, PROMPT, 20), tie=0.1)


def test_the_middle_timing_runs_on_the_gpu(capsys):
    from app.bench.middle_timing import main

    assert main(["--shape", "llama-3.2-1b", "--device", "cuda", "--dtype", "bfloat16", "--layers", "2"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [row["rows"] for row in rows] == [1, 16, 64] and all(row["median_ms"] > 0 for row in rows)
