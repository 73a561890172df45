"""The worker bundle runs from its own folder with only its own requirements, and serves the app."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from app.engine.link.worker_bundle import export_worker_bundle
from app.wire.worker_tokens import READY_PREFIX
from tests.helpers import open_split_session, reference_greedy
from tests.integration.conftest import TINY_SPLIT as SPLIT

REPO = Path(__file__).resolve().parents[2]
TORCH = os.environ.get("SPLITCHAT_TORCH_SPEC", "torch==2.13.0")


@pytest.fixture(scope="module")
def bundle_venv(tiny_split, tmp_path_factory):
    """The bundle, and a fresh venv holding only the bundle's requirements (pinned like the project's)."""
    source, _, _ = tiny_split
    root = tmp_path_factory.mktemp("worker-bundle")
    bundle = root / "bundle"
    export_worker_bundle(source, SPLIT, bundle)
    venv = root / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python = venv / "bin" / "python"
    # --no-compile: the same files installed, without byte-compiling every module of torch up front (a third
    # of the install's time); the worker compiles what it imports when it starts.
    pip = [str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-compile"]
    subprocess.run([*pip, TORCH], check=True, timeout=600)
    subprocess.run([*pip, "-c", str(REPO / "constraints.txt"), "-r", str(bundle / "requirements.txt")], check=True)
    return bundle, python


def test_bundle_holds_the_shard_the_worker_code_and_the_deployment_files(bundle_venv):
    bundle, python = bundle_venv
    names = sorted(p.name for p in bundle.iterdir())
    assert names == [".splitchat-owned", "Dockerfile", "README.md", "app", "requirements.txt", "run-worker.sh", "shard",
                     "splitchat-worker.service"]  # fmt: skip
    code = {p.relative_to(bundle / "app").as_posix() for p in (bundle / "app").rglob("*.py")}
    assert "remote_worker/server.py" in code and not any(p.startswith("ui/") or "privacy" in p for p in code)
    assert (
        "ExecStart=/opt/splitchat-worker/.venv/bin/python -m app.remote_worker"
        in (bundle / "splitchat-worker.service").read_text()
    )
    for absent in ("PySide6", "qasync", "pyqtgraph", "keyring", "matplotlib"):
        probe = subprocess.run([str(python), "-c", f"import {absent}"], capture_output=True)
        assert probe.returncode != 0, f"{absent} is in the worker's venv"


async def test_bundle_worker_serves_the_app_from_its_own_folder(tiny_split, bundle_venv):
    source, model, _ = tiny_split
    bundle, python = bundle_venv
    environment = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    token = subprocess.run(
        [str(python), "-m", "app.remote_worker.tokens", "tokens.txt"],
        cwd=bundle,
        env=environment,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    worker = subprocess.Popen(
        ["./run-worker.sh", "--port", "0"],
        cwd=bundle,
        env={**environment, "PYTHON": str(python), "HOST": "127.0.0.1"},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        line = worker.stdout.readline()
        assert line.startswith(READY_PREFIX), worker.stderr.read()
        endpoint = line[len(READY_PREFIX) :].split()[0]
        session, _ = await open_split_session(source, SPLIT, endpoint, token)
        prompt = [4, 8, 15, 16, 23, 42]
        assert (await session.generate(prompt, 16)).tokens == reference_greedy(model, prompt, 16)
        await session.close()
    finally:
        worker.terminate()
        worker.wait(timeout=30)
