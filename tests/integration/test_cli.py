"""The `splitchat` commands as a person runs them: export-worker, worker-token, bench, and the thread policy
of the commands that wait on a worker."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from safetensors import safe_open

from app.engine.speculation.head import DraftArithmetic
from app.remote_worker.tokens import TokenFile
from app.thread_policy import POLICY_MARK, apply_thread_wait_policy, thread_wait_policy, worker_environment


def splitchat(*args: str, timeout: int = 600) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "app", *args], capture_output=True, text=True, timeout=timeout)


def test_export_worker_writes_only_the_middle_of_an_asymmetric_split(tiny_models, tmp_path):
    folder, _ = tiny_models["qwen2"]
    result = splitchat("export-worker", "--model", str(folder), "--split", "1,2", "--out", str(tmp_path / "shard"))
    assert result.returncode == 0, result.stderr
    assert "wrote layers [1, 4)" in result.stdout
    with safe_open(tmp_path / "shard" / "middle.safetensors", framework="pt") as handle:
        assert {name.split(".")[2] for name in handle.keys()} == {"1", "2", "3"}


def test_export_worker_refuses_a_non_empty_folder_that_is_not_a_shard(tiny_models, tmp_path):
    folder, _ = tiny_models["llama"]
    (tmp_path / "notes.txt").write_text("keep me")
    result = splitchat("export-worker", "--model", str(folder), "--out", str(tmp_path))
    assert result.returncode == 1 and "not empty" in result.stderr
    assert (tmp_path / "notes.txt").read_text() == "keep me"


def test_worker_token_prints_the_token_once_and_stores_its_hash(tmp_path):
    path = tmp_path / "tokens.txt"
    result = splitchat("worker-token", "--token-file", str(path))
    assert result.returncode == 0
    token = result.stdout.strip().splitlines()[-1]
    assert token not in path.read_text()
    assert TokenFile(path).verify(token)


@pytest.mark.bundled
def test_bench_writes_runs_with_a_step_breakdown_peer_comparison_and_projections(tmp_path):
    out, plot = tmp_path / "bench.json", tmp_path / "bench.png"
    result = splitchat(
        "bench",
        "--rtt-ms",
        "0,40",
        "--modes",
        "local,sequential,learned,auto",
        "--prompts",
        "1",
        "--max-new-tokens",
        "8",
        "--json",
        str(out),
        "--plot",
        str(plot),
    )
    assert result.returncode == 0, result.stderr
    report = json.loads(out.read_text())
    runs = report["runs"]
    assert sorted({r["category"] for r in runs}) == ["chat", "code", "creative", "document_qa"]
    assert sorted({(r["mode"], r["rtt_ms"]) for r in runs}) == [
        ("auto", 0.0),
        ("auto", 40.0),
        ("learned", 0.0),
        ("learned", 40.0),
        ("local", 0.0),
        ("sequential", 0.0),
        ("sequential", 40.0),
    ]
    for run in runs:
        assert run["new_tokens"] == 8 and run["tok_per_s"] > 0
        assert set(run["step_ms"]) >= {"network", "local_compute", "remote_compute", "serialization"}
        decoded = sum(int(k) * v for k, v in run["accepted_per_step"].items())
        assert decoded == run["new_tokens"] - 1  # the prefill made the first token
        assert run["peer_pld_tokens_per_forward"] > 0
        if run["mode"] in ("local", "sequential"):
            assert run["round_trips"] == 8 and run["tokens_per_round_trip"] == 1.0
    sequential = {r["rtt_ms"]: r for r in runs if r["mode"] == "sequential" and r["category"] == "chat"}
    assert sequential[40.0]["step_ms"]["network"] >= 40.0 > sequential[0.0]["step_ms"]["network"]
    assert {r["category"] for r in report["summary"]} >= {"overall", "chat"}
    assert all("speedup_vs_sequential" in r for r in runs if r["mode"] == "auto")
    local = {r["prompt_id"]: r for r in runs if r["mode"] == "local"}
    for run in runs:  # the link alone bounds a split run's decoding; computing only slows it further
        if run["mode"] != "local":
            steps, decoded = sum(run["accepted_per_step"].values()), run["new_tokens"] - 1
            bound = run["network_bound_tok_per_s"]
            assert bound == pytest.approx(1000 * decoded / (steps * run["step_ms"]["network"]), rel=1e-2)  # ms rounded
            assert run["decode_tok_per_s"] < bound
            decode_fraction = run["decode_tok_per_s"] / local[run["prompt_id"]]["decode_tok_per_s"]
            assert decode_fraction < run["network_bound_fraction_of_local"]
    for row in report["summary"]:
        assert ("network_bound_fraction_of_local" in row) == (row["mode"] != "local")
    fits = report["decomposition"]
    assert set(fits) == {"sequential", "learned", "auto"}
    assert set(fits["auto"]["projected_tok_per_s"]) == {"5", "20", "40", "80", "150"}
    assert fits["sequential"]["overhead_ms"] > 0 and fits["sequential"]["cv_mean_abs_error"] is not None
    assert plot.stat().st_size > 10_000
    # the arithmetic the shipped head chose here, which its drafting cost depends on
    assert report["draft_arithmetic"] in {a.value for a in DraftArithmetic}


@pytest.mark.bundled
def test_train_draft_writes_a_head_for_the_models_weights_and_refuses_to_overwrite(tmp_path):
    from app.engine.source.fingerprints import model_fingerprint
    from app.engine.source.specs import resolve_model
    from app.engine.speculation.head_file import load_head

    prompts = tmp_path / "prompts.json"
    prompts.write_text(
        json.dumps({"prompts": [{"content": "Name three colours."}, {"content": "Write a haiku about tea."}]})
    )
    out = tmp_path / "head.safetensors"
    args = ("train-draft", "--prompts", str(prompts), "--epochs", "1", "--new-tokens", "8", "--sampled-answers", "2")
    args = (*args, "--out", str(out))
    result = splitchat(*args)
    assert result.returncode == 0, result.stderr
    head, info = load_head(out)
    assert info.model_fingerprint == model_fingerprint(resolve_model())
    assert info.training["prompts"] == 2 and info.training["answers"] == 6  # greedy + two sampled each
    assert info.hidden_size == 576 and len(head.vocab) == info.vocab_size > 1
    assert info.fuse_layer == head.fuse_layer == 2  # it reads the root after the default split's head layers
    assert "held-out chain accuracy" in result.stdout
    again = splitchat(*args)
    assert again.returncode == 1 and "pass --force" in again.stderr


def test_bench_refuses_an_unknown_mode():
    result = splitchat("bench", "--modes", "warp")
    assert result.returncode == 2 and "unknown bench mode" in result.stderr


def test_bench_load_reports_throughput_latency_and_worker_memory(tiny_models, tmp_path):
    folder, _ = tiny_models["llama"]
    out = tmp_path / "load.json"
    result = splitchat("bench", "--load", "1,3", "--model", str(folder), "--split", "1", "--json", str(out))
    assert result.returncode == 0, result.stderr
    rows = json.loads(out.read_text())["load"]
    assert [r["sessions"] for r in rows] == [1, 3]
    for row in rows:
        assert row["aggregate_tok_per_s"] > 0 and 0 < row["step_ms_p50"] <= row["step_ms_p99"]
        memory = row["worker_memory_mib"]
        assert memory["rss"] > 50 and memory["peak"] >= memory["rss"]
    assert "3 sessions:" in result.stdout
    progress = [line for line in result.stderr.splitlines() if "load run" in line]
    assert progress == ["[  0%] load run 1/2: 1 session at once", "[ 50%] load run 2/2: 3 sessions at once",
                        "[100%] load run 2/2 done"]  # fmt: skip


# Runs main() in a fresh interpreter and prints the wait policy torch will load under (--help itself loads none).
_POLICY_PROBE = """
import os, sys
from app.cli import main
assert "torch" not in sys.modules, "importing the CLI loaded torch before its thread policy was chosen"
try:
    main(sys.argv[1:])
except SystemExit:
    pass
print(os.environ.get("OMP_WAIT_POLICY"))  # what torch, loaded after this point, would read
"""


@pytest.mark.parametrize(("args", "policy"), [(["ask", "--help"], "PASSIVE"), (["bench", "--help"], "None")])
def test_commands_that_wait_on_a_worker_load_torch_with_sleeping_idle_threads(args, policy):
    env = {k: v for k, v in os.environ.items() if k != "OMP_WAIT_POLICY"}
    result = subprocess.run(
        [sys.executable, "-c", _POLICY_PROBE, *args], env=env, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-1] == policy


def test_thread_wait_policy_covers_the_desktop_app_and_leaves_a_users_choice():
    assert thread_wait_policy([], {}) == "PASSIVE"  # the desktop app
    assert thread_wait_policy(["--self-test"], {}) == "PASSIVE"
    assert thread_wait_policy(["ask", "--mode", "auto"], {}) == "PASSIVE"
    assert thread_wait_policy(["ask"], {"OMP_WAIT_POLICY": "ACTIVE"}) is None
    assert thread_wait_policy(["privacy", "--split", "2"], {}) is None
    assert thread_wait_policy(["train-draft"], {}) is None


def test_the_policy_splitchat_sets_is_marked_and_not_handed_to_a_worker():
    environ = {"PATH": "/bin"}
    apply_thread_wait_policy(["ask"], environ)
    assert environ == {"PATH": "/bin", "OMP_WAIT_POLICY": "PASSIVE", POLICY_MARK: "1"}
    assert worker_environment(environ) == {"PATH": "/bin"}
    users = {"OMP_WAIT_POLICY": "PASSIVE"}
    apply_thread_wait_policy(["ask"], users)
    assert users == {"OMP_WAIT_POLICY": "PASSIVE"}  # the user's own: left, and passed on
    assert worker_environment(users) == users
    bench = {}
    apply_thread_wait_policy(["bench"], bench)
    assert bench == {}


@pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="reads the worker's environment from /proc")
def test_an_embedded_worker_started_by_the_app_computes_with_the_default_policy(tiny_split, start_worker, monkeypatch):
    monkeypatch.setenv("OMP_WAIT_POLICY", "PASSIVE")
    monkeypatch.setenv(POLICY_MARK, "1")
    worker = start_worker(tiny_split[2])
    environ = Path(f"/proc/{worker.pid}/environ").read_bytes().split(b"\0")
    assert not any(entry.startswith((b"OMP_WAIT_POLICY=", POLICY_MARK.encode())) for entry in environ)
    assert worker.alive()


@pytest.mark.bundled
def test_ask_reaches_a_self_signed_worker_by_its_pinned_certificate_and_refuses_another(certificate, tmp_path):
    from app.engine.link.export import embedded_shard
    from app.engine.link.local_worker import LocalWorker
    from app.engine.source.specs import resolve_model
    from app.model.choices import SplitSpec
    from app.wire.tls import file_certificate_sha256

    cert_file, key_file = certificate
    shard = embedded_shard(resolve_model(), SplitSpec(2, 2))
    worker = LocalWorker(shard, extra_args=("--tls-cert", str(cert_file), "--tls-key", str(key_file)))
    worker.start()
    try:
        env = {**os.environ, "SPLITCHAT_TOKEN": worker.token}
        ask = [sys.executable, "-m", "app", "ask", "Say hi.", "--endpoint", worker.endpoint, "--split", "2"]
        ask += ["--max-new-tokens", "4", "--no-pseudonymise", "--json"]
        pinned = subprocess.run(
            [*ask, "--pin", file_certificate_sha256(cert_file)], capture_output=True, text=True, env=env
        )
        assert pinned.returncode == 0, pinned.stderr
        assert len(json.loads(pinned.stdout)["tokens"]) == 4
        wrong = subprocess.run([*ask, "--pin", "ab" * 32], capture_output=True, text=True, env=env)
        assert wrong.returncode == 1 and "Nothing was sent to it" in wrong.stderr
    finally:
        worker.stop()
