"""A multi-gigabyte checkpoint exports and loads within its memory bounds (docs/BENCH.md, "Real models").

The checkpoint has Llama-3.2-1B's published shape (2.3 GiB in bfloat16, six shards and an index) with
random values; it is written once and kept in pytest's cache across runs. Peaks are the processes' own,
read by the kernel (``ru_maxrss``):

- ``splitchat export-worker`` ≤ the largest tensor + the largest shard header + 1 GiB;
- the workstation's process (``app.bench.edge_probe``: the app's imports, then the edge loaded and
  blocks of 1-32 rows run through it) ≤ its baseline + 1.3 × the edge's own size in float32.
"""

from __future__ import annotations

import json
import struct
import sys

import pytest

from app.bench.checkpoints import published_config, write_random_checkpoint
from app.model.weights import WeightReader
from tests.helpers import run_measuring_peak_rss

GIB = 1024.0  # MiB


@pytest.fixture(scope="module")
def llama_1b(request, bundled):
    folder = request.config.cache.mkdir("splitchat-llama-3.2-1b-random")
    source, _, _ = bundled
    return write_random_checkpoint(published_config("llama-3.2-1b"), folder / "model", tokenizer_from=source.folder)


def test_the_checkpoint_is_as_published_sizes_go(llama_1b):
    reader = WeightReader(llama_1b)
    total = sum(reader.info(name).nbytes for name in reader.names())
    assert total >= 2 * 2**30 and len(reader.files()) >= 5


def test_export_holds_about_one_tensor_at_a_time(llama_1b, tmp_path):
    reader = WeightReader(llama_1b)
    largest_tensor = max(reader.info(name).nbytes for name in reader.names()) / 2**20
    largest_header = max(struct.unpack("<Q", file.open("rb").read(8))[0] for file in reader.files()) / 2**20
    args = [sys.executable, "-m", "app", "export-worker", "--model", str(llama_1b), "--split", "2"]
    result, peak = run_measuring_peak_rss([*args, "--out", str(tmp_path / "shard")])
    assert result.returncode == 0, result.stderr
    bound = largest_tensor + largest_header + GIB
    assert peak <= bound, f"export peaked at {peak:.0f} MiB, over {bound:.0f} MiB"


def test_the_workstation_holds_its_edge_within_a_third_more_than_its_own_size(llama_1b):
    args = [sys.executable, "-m", "app.bench.edge_probe", "--model", str(llama_1b), "--split", "2"]
    result, peak = run_measuring_peak_rss(args)
    assert result.returncode == 0, result.stderr
    probe = json.loads(result.stdout)
    grown = peak - probe["baseline_mib"]
    assert grown <= 1.3 * probe["edge_mib"], (
        f"peak {peak:.0f} MiB − baseline {probe['baseline_mib']:.0f} MiB = {grown:.0f} MiB "
        f"for a {probe['edge_mib']:.0f} MiB edge"
    )
