"""Every supported family, cut at two depths over a real worker process, answers as transformers does.

Each tiny random model has its family's distinguishing features switched on (tests/helpers.py,
``FAMILY_CASES``): rope scaling, soft caps, sliding windows shorter than the contexts here, q/k norms,
fused projections, an explicit head_dim, tied embeddings. float32 must be token-identical to
transformers' own ``generate`` (up to genuine ties), sequential and with speculation; bfloat16 on both
sides must match transformers run in bfloat16 up to the ties bfloat16's rounding makes.
"""

from __future__ import annotations

import asyncio

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

SHORT, LONG = [5, 7, 9, 11, 13, 200, 3], list(range(40, 80))  # both outgrow every window once decoding
NEW_TOKENS = 20


async def _generate(source, split, worker, dtype: torch.dtype, mode: str, prompt: list[int]) -> list[int]:
    wire = str(dtype).removeprefix("torch.")
    link = WorkerLink.remote(source, split, worker.endpoint, worker.token, wire)
    middle = await link.connect()
    try:
        session = SplitSession(LocalEdge(source, split, "cpu", dtype), middle, speculation=Speculation(mode=mode))
        return (await session.generate(prompt, NEW_TOKENS)).tokens
    finally:
        await middle.close()


@pytest.mark.parametrize("case", FAMILY_CASES)
def test_each_family_over_a_real_worker_matches_transformers(case, workers, tmp_path_factory):
    folder = tmp_path_factory.mktemp(case) / "model"
    model = build_tiny_model(case, folder)
    source = resolve_model(str(folder))
    references = {tuple(p): reference_greedy(model, p, NEW_TOKENS) for p in (SHORT, LONG)}
    for split in (SplitSpec(1, 1), SplitSpec(2, 2)):
        shard = folder.parent / f"shard-{split}"
        export_worker_shard(source, split, shard)
        worker = workers(shard, dtype="float32")
        # Split 1 decodes the long prompt one token at a time, split 2 the short one with speculation.
        mode, prompt = ("sequential", LONG) if split.k_in == 1 else ("auto", SHORT)
        ours = asyncio.run(_generate(source, split, worker, torch.float32, mode, prompt))
        assert_greedy_matches(model, prompt, ours, references[tuple(prompt)])


@pytest.mark.parametrize("case", FAMILY_CASES)
def test_each_family_in_bfloat16_on_both_sides_matches_transformers_in_bfloat16(case, workers, tmp_path_factory):
    folder = tmp_path_factory.mktemp(f"{case}-bf16") / "model"
    build_tiny_model(case, folder)
    source = resolve_model(str(folder))
    from transformers import AutoModelForCausalLM

    model = AutoModelForCausalLM.from_pretrained(folder, dtype=torch.bfloat16).eval()
    split = SplitSpec(2, 2)
    shard = folder.parent / "shard"
    export_worker_shard(source, split, shard, dtype="bfloat16")
    worker = workers(shard, dtype="bfloat16")
    ours = asyncio.run(_generate(source, split, worker, torch.bfloat16, "sequential", LONG))
    # bfloat16 keeps 8 bits of mantissa: logits a few units of its rounding apart are ties here
    assert_greedy_matches(model, LONG, ours, reference_greedy(model, LONG, NEW_TOKENS), tie=0.1)
