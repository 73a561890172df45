"""``splitchat bench --document-tokens``: the wait for the first token after a paste, through the WAN proxy."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

pytestmark = pytest.mark.bundled


def test_the_document_bench_splits_the_wait_counts_the_bytes_and_sending_ahead_changes_no_token(tmp_path):
    out = tmp_path / "document.json"
    result = subprocess.run(
        [sys.executable, "-m", "app", "bench", "--document-tokens", "300", "--rtt-ms", "40",
         "--bandwidth-mbps", "20", "--wire-compression", "both", "--json", str(out)],
        capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    report = json.loads(out.read_text())
    raw_runs = [run for run in report["runs"] if not run["compressed"]]
    packed_runs = [run for run in report["runs"] if run["compressed"]]
    cold, *ahead = raw_runs
    assert (cold["ahead"], [run["lead_s"] for run in ahead]) == (False, [15.0, 120.0])
    assert [run["lead_s"] for run in packed_runs] == [0.0, 15.0, 120.0]
    # Compressed, the same rows cross in fewer bytes each way and the answer is the same token.
    assert packed_runs[0]["upload_bytes"] < cold["upload_bytes"] / 1.05
    assert packed_runs[0]["download_bytes"] < cold["download_bytes"] / 1.05
    assert {run["first_token"] for run in packed_runs} == {cold["first_token"]}
    # What crossed the link: every prompt row each way, float32 rows of 576, plus framing.
    row = 576 * 4
    assert cold["prompt_tokens"] * row <= cold["upload_bytes"] <= cold["prompt_tokens"] * row * 1.05
    assert cold["upload_s"] == pytest.approx(cold["upload_bytes"] / 2.5e6, abs=0.002)
    # A long prefill streams, so its parts overlap: together they cover the wait, and the worker's passes
    # (one session's, one after another) fit inside it.
    parts = cold["local_s"] + cold["worker_s"] + cold["network_s"] + cold["serialization_s"]
    assert parts >= 0.9 * cold["ttft_s"] and cold["worker_s"] <= cold["ttft_s"]
    for run in ahead:
        assert run["ahead_finished"] and run["ttft_s"] < cold["ttft_s"]
        assert run["upload_bytes"] < cold["upload_bytes"] / 5  # Send carried only the question
        assert run["first_token"] == cold["first_token"]  # the answer does not change
    shapes = {row["shape"] for row in report["projections"]}
    assert len(shapes) == 4 and all(row["serial_link_s"] > row["overlapped_link_s"] for row in report["projections"])
    assert "first token after" in result.stdout and "projection 8B" in result.stdout
    # Each run is announced as it starts on stderr (plain lines off a terminal); results stay on stdout.
    progress = result.stderr.splitlines()
    assert "[  0%] document run 1/6: 300 tokens at 20 Mbit/s, cold" in progress
    assert progress[-1] == "[100%] document run 6/6 done" and "first token after" not in result.stderr
