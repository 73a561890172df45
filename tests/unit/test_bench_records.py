"""A bench file reads back as typed records and re-derives exactly the summaries it was written with."""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path

import pytest

from app.bench.records import BenchResult
from app.bench.report import add_ratios, decompose, summarise

KEPT = Path(__file__).resolve().parents[2] / "docs" / "bench"


def test_a_bench_file_round_trips_through_its_records():
    text = (KEPT / "bench-2026-11-30-80ms.json").read_text()
    assert json.loads(BenchResult.from_json(text).to_json()) == json.loads(text)  # nothing lost, nothing invented


@pytest.mark.parametrize("name", ["bench-2026-11-30-80ms.json", "bench-2026-11-30-kernels.json"])
def test_a_kept_bench_file_re_derives_the_summary_it_was_written_with(name):
    text = (KEPT / name).read_text()
    written = json.loads(text)
    result = BenchResult.from_json(text)
    add_ratios(result.runs)
    assert [row.to_json() for row in summarise(result.runs)] == written["summary"]
    assert {mode: asdict(fit) for mode, fit in decompose(result.runs).items()} == written["decomposition"]
