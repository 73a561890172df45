"""`splitchat privacy` on the bundled model: report, plot, cache, cancellation, and refusals."""

from __future__ import annotations

import json
import subprocess
import sys
import threading

import pytest

from app.engine.source.fingerprints import model_fingerprint
from app.jobs import Cancelled
from app.privacy.corpus import bundled_corpus
from app.privacy.evaluation import PrivacySettings, cached_reports, report_path, run

pytestmark = pytest.mark.bundled

SMALL = ["--depths", "1,2", "--max-train-pairs", "800", "--max-test-pairs", "200", "--mlp-width", "32"]


def splitchat(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "app", *args], capture_output=True, text=True, timeout=600)


@pytest.fixture(scope="module")
def admin_folder(tmp_path_factory):
    """Six real English documents in a folder, as an admin would point at their own."""
    folder = tmp_path_factory.mktemp("admin-docs")
    for document in bundled_corpus().documents[:6]:
        (folder / f"{document.name}.txt").write_text(document.text, encoding="utf-8")
    return folder


def test_privacy_command_writes_report_and_plot_and_caches_them(admin_folder, tmp_path):
    out = tmp_path / "privacy.json"
    args = ["privacy", "--corpus", str(admin_folder), *SMALL, "--mlp-epochs", "1", "--json", str(out)]
    first = splitchat(*args, "--plot", str(tmp_path / "privacy.png"), "--refresh")
    assert first.returncode == 0, first.stderr
    report = json.loads(out.read_text())
    assert report["model"] == "smollm2-135m-instruct" and report["public_checkpoint"] is True
    assert report["model_fingerprint"].startswith("sha256:") and report["num_layers"] == 30
    assert "6 .txt documents" in report["corpus"]["description"]
    assert not set(report["corpus"]["train_documents"]) & set(report["corpus"]["test_documents"])
    assert {r["depth"] for r in report["results"]} == {1, 2}
    assert (tmp_path / "privacy.png").stat().st_size > 10_000
    assert "[" in first.stderr and "%]" in first.stderr  # progress was shown
    # Through one local layer the public-weights head search names nearly every token sent to the worker.
    search = next(r for r in report["results"] if r["attacker"] == "public_head_search" and r["depth"] == 1)
    assert search["top1"] > 0.9
    assert search["top1"] > report["baseline"]["most_frequent"]["top1"] + 0.5

    again = splitchat(*args)
    assert again.returncode == 0, again.stderr
    assert json.loads(out.read_text())["created"] == report["created"]  # served from the cache
    assert report["created"] in [r.created for r in cached_reports(report["model_fingerprint"])]


def test_cancelled_evaluation_caches_nothing(admin_folder, bundled):
    source = bundled[0]
    settings = PrivacySettings(
        depths=(1,), corpus=str(admin_folder), max_train_pairs=300, max_test_pairs=100, mlp_width=8, seed=99
    )
    path = report_path(model_fingerprint(source), settings)
    path.unlink(missing_ok=True)
    stop = threading.Event()
    seen = []

    def progress(message: str, fraction: float) -> None:
        seen.append(message)
        if "Training" in message:
            stop.set()  # the user pressed Cancel while the attacker trains

    with pytest.raises(Cancelled):
        run(source, settings, progress, stop)
    assert any("Training" in m for m in seen)
    assert not path.exists()


def test_privacy_command_refuses_bad_depths_and_corpora(tmp_path):
    deep = splitchat("privacy", "--depths", "15", "--json", str(tmp_path / "x.json"))
    assert deep.returncode == 2 and "no middle layers" in deep.stderr
    (tmp_path / "one.txt").write_text("only one document", encoding="utf-8")
    lonely = splitchat("privacy", "--corpus", str(tmp_path), "--json", str(tmp_path / "x.json"))
    assert lonely.returncode == 2 and "at least two" in lonely.stderr
    assert not (tmp_path / "x.json").exists()
