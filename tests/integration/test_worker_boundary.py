"""The untrusted worker runs on ``app.wire`` and ``app.model`` alone: started in a process where importing
anything else of ``app`` fails, it still serves a session token for token."""

from __future__ import annotations

import subprocess
import sys

from app.engine.link.worker_bundle import WORKER_PACKAGES, worker_modules
from app.wire.worker_tokens import READY_PREFIX, issue_token
from tests.helpers import open_split_session, reference_greedy
from tests.integration.conftest import TINY_SPLIT

# Installed before anything of app loads: every import of an app module outside the worker's packages fails.
GUARD = f"""
import importlib.abc, sys
ALLOWED = {tuple(f"app.{name}" for name in WORKER_PACKAGES)!r}

class TrustBoundary(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        inside = name == "app" or any(name == a or name.startswith(a + ".") for a in ALLOWED)
        if name.startswith("app.") and not inside:
            raise ImportError(f"the worker imported {{name}}, outside {{ALLOWED}}")
        return None

sys.meta_path.insert(0, TrustBoundary())
"""


def test_the_boundary_guard_refuses_the_trusted_half():
    probe = subprocess.run(
        [sys.executable, "-c", GUARD + "import app.engine.chat"], capture_output=True, text=True, timeout=120
    )
    assert probe.returncode != 0 and "the worker imported app.engine" in probe.stderr


async def test_the_worker_serves_a_session_with_nothing_of_app_but_wire_and_model(tiny_split, tmp_path):
    source, model, shard = tiny_split
    token = issue_token(tmp_path / "tokens.txt")
    arguments = ["--shard", str(shard), "--host", "127.0.0.1", "--port", "0", "--device", "cpu"]
    arguments += ["--token-file", str(tmp_path / "tokens.txt"), "--exit-with-parent"]
    script = GUARD + f"from app.remote_worker.__main__ import main\nsys.exit(main({arguments!r}))\n"
    worker = subprocess.Popen(
        [sys.executable, "-c", script], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        line = worker.stdout.readline()
        assert line.startswith(READY_PREFIX), worker.stderr.read()
        endpoint = line[len(READY_PREFIX) :].split()[0]
        session, _ = await open_split_session(source, TINY_SPLIT, endpoint, token, mode="lookahead")
        prompt = [4, 8, 15, 16, 23, 42, 4, 8, 15]
        assert (await session.generate(prompt, 24)).tokens == reference_greedy(model, prompt, 24)
        await session.close()
    finally:
        worker.kill()
        worker.wait()
    assert "the worker imported" not in worker.stderr.read()


def test_the_bundle_ships_exactly_the_worker_packages():
    shipped = {path.as_posix() for path in worker_modules()}
    assert "__init__.py" in shipped and "remote_worker/server.py" in shipped and "model/layers.py" in shipped
    assert all(name == "__init__.py" or name.split("/")[0] in WORKER_PACKAGES for name in shipped)
