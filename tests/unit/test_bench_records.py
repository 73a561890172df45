"""A bench file reads back as typed records and re-derives exactly the summaries it was written with."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import asdict, replace
from pathlib import Path

import pytest

from app.bench.prompts import load_prompt_sets
from app.bench.records import BenchResult
from app.bench.report import add_ratios, decompose, summarise
from app.resources import DRAFT_PROMPTS

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


def test_each_prompt_set_is_summarised_on_its_own_never_pooled():
    result = BenchResult.from_json((KEPT / "bench-2026-11-30-80ms.json").read_text())
    held = [replace(run, prompt_set="held-out", prompt_id=f"h_{run.prompt_id}") for run in result.runs]
    # The held-out copy commits one token fewer in every run: pooled rows would sit between the two sets.
    held = [replace(run, new_tokens=run.new_tokens - 1) for run in held]
    rows = summarise(result.runs + held)
    bench_rows = {(r.mode, r.rtt_ms, r.category): r for r in rows if r.prompt_set == "bench"}
    held_rows = {(r.mode, r.rtt_ms, r.category): r for r in rows if r.prompt_set == "held-out"}
    assert bench_rows.keys() == held_rows.keys() and len(rows) == 2 * len(bench_rows)
    assert [r.to_json() for r in bench_rows.values()] == [r.to_json() for r in summarise(result.runs)]
    for key, row in held_rows.items():
        assert row.tokens_per_round_trip < bench_rows[key].tokens_per_round_trip
    assert "prompt_set" not in next(iter(bench_rows.values())).to_json()  # as every file before the held-out set
    assert held_rows[("auto", 80.0, "overall")].to_json()["prompt_set"] == "held-out"


def test_the_held_out_prompts_share_no_passage_with_the_bench_or_the_heads_training_prompts():
    held = load_prompt_sets("held-out")
    assert len(held) == 20 and Counter(p.category for p in held) == dict.fromkeys(
        ("chat", "clinical", "legal", "code", "writing"), 4
    )
    others = [p["content"] for p in json.loads(DRAFT_PROMPTS.read_text())["prompts"]]
    others += [m["content"] for p in load_prompt_sets("bench") for m in p.messages]

    # Eight words: stock phrases of six ("write a SQL query that lists") may recur in any two sets.
    def shingles(text: str, n: int = 8) -> set[tuple[str, ...]]:
        words = text.lower().split()
        return {tuple(words[i : i + n]) for i in range(len(words) - n + 1)}

    seen = set().union(*(shingles(text) for text in others))
    for prompt in held:
        assert not shingles(prompt.messages[0]["content"]) & seen, prompt.id


def test_both_prompt_sets_run_with_the_bench_first_and_a_wrong_name_is_refused():
    both = load_prompt_sets("both")
    assert [p.prompt_set for p in both] == ["bench"] * 12 + ["held-out"] * 20
    assert len({p.id for p in both}) == len(both)
    with pytest.raises(ValueError, match="unknown prompt set 'heldout'"):
        load_prompt_sets("heldout")
