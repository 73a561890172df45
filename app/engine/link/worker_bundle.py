"""`splitchat export-worker --bundle`: a folder an admin copies to a GPU box and runs as it is.

The folder holds the shard (middle layers only), the worker's own code — the few modules
``python -m app.remote_worker`` imports, no UI, no embedding, no tokenizer — a minimal requirements
file, a start script, a systemd unit and a Dockerfile.
"""

from __future__ import annotations

import importlib.metadata
import re
import shutil
from pathlib import Path

import app
from app.engine.link.export import export_worker_shard
from app.engine.source.specs import ModelSource
from app.engine.source.staging import staged_folder
from app.jobs import Progress
from app.model.choices import SplitSpec
from app.wire.shard_format import MANIFEST, Manifest

BUNDLE_WRITER = "splitchat export-worker --bundle"

# The worker imports nothing of ``app`` outside these packages (a test imports it in a process where
# anything else fails), so the bundle ships exactly them.
WORKER_PACKAGES = ("wire", "model", "remote_worker")


def worker_modules() -> list[Path]:
    """The worker's source files, relative to the ``app`` package: its root module and its packages."""
    package = Path(app.__file__).parent
    files = [Path("__init__.py")]
    for name in WORKER_PACKAGES:
        files += sorted(path.relative_to(package) for path in (package / name).rglob("*.py"))
    return files


# The distributions the worker's code imports (the test that starts it with nothing else proves the
# list); their version ranges come from splitchat's own metadata, so they cannot drift from pyproject.toml.
WORKER_DISTRIBUTIONS = ("torch", "transformers", "safetensors", "websockets", "numpy", "zstandard")
REQUIREMENTS_HEADER = """# The worker's own dependencies (ranges as in splitchat {version}): no Qt, no tokenizer, no UI.
# On a CUDA box install torch first from https://download.pytorch.org/whl/<cuda-version>.
"""


def _distribution_name(requirement: str) -> str:
    name = re.split(r"[\s\[<>=!~;@(]", requirement.strip(), maxsplit=1)[0]
    return re.sub(r"[-_.]+", "-", name).lower()


def worker_requirements(requires: list[str] | None = None, version: str | None = None) -> str:
    """requirements.txt for the worker: its distributions' lines of splitchat's ``Requires-Dist``.

    ``requires`` defaults to the installed splitchat's metadata (the PyInstaller bundle copies it);
    lines that belong to an extra are left out.
    """
    if requires is None:
        try:
            requires = importlib.metadata.requires("splitchat") or []
            version = importlib.metadata.version("splitchat")
        except importlib.metadata.PackageNotFoundError as exc:
            raise RuntimeError("splitchat's package metadata is missing: install it (pip install -e .)") from exc
    wanted = {_distribution_name(name) for name in WORKER_DISTRIBUTIONS}
    lines = []
    for requirement in requires:
        spec, _, marker = requirement.partition(";")
        if "extra" in marker or _distribution_name(spec) not in wanted:
            continue
        lines.append(requirement.strip())
    found = {_distribution_name(line) for line in lines}
    if found != wanted:
        raise RuntimeError(f"splitchat's metadata names no requirement for {', '.join(sorted(wanted - found))}")
    return REQUIREMENTS_HEADER.format(version=version or "?") + "\n".join(sorted(lines, key=_distribution_name)) + "\n"


RUN_SCRIPT = """#!/usr/bin/env bash
# Start the worker from this folder. Extra options pass through, e.g.
#   ./run-worker.sh --port 8765 --tls-cert tls/worker.crt --tls-key tls/worker.key
set -euo pipefail
cd "$(dirname "$0")"
exec "${PYTHON:-.venv/bin/python}" -m app.remote_worker --shard shard --host "${HOST:-0.0.0.0}" \\
    --token-file tokens.txt "$@"
"""

SYSTEMD_UNIT = """[Unit]
Description=splitchat worker (middle layers of {model}, layers {first}-{last_incl})
After=network-online.target
Wants=network-online.target

[Service]
User=splitchat
WorkingDirectory=/opt/splitchat-worker
ExecStart=/opt/splitchat-worker/.venv/bin/python -m app.remote_worker --shard shard --host 0.0.0.0 --port 8765 \\
    --token-file tokens.txt --tls-cert tls/worker.crt --tls-key tls/worker.key
Restart=always
RestartSec=2
NoNewPrivileges=true
ProtectSystem=strict
ProtectHome=true
PrivateTmp=true
ReadOnlyPaths=/opt/splitchat-worker

[Install]
WantedBy=multi-user.target
"""

DOCKERFILE = """# CPU image; for a GPU base on a CUDA runtime image and install torch from the CUDA index first.
FROM python:3.11-slim
WORKDIR /opt/splitchat-worker
COPY requirements.txt .
RUN pip install --no-cache-dir -r requirements.txt
COPY app app
COPY shard shard
USER nobody
EXPOSE 8765
# Mount the token file (and tls/) at run time; never bake them into the image:
#   docker run -p 8765:8765 -v $PWD/tokens.txt:/opt/splitchat-worker/tokens.txt:ro \\
#       -v $PWD/tls:/opt/splitchat-worker/tls:ro IMAGE --tls-cert tls/worker.crt --tls-key tls/worker.key
ENTRYPOINT ["python", "-m", "app.remote_worker", "--shard", "shard", "--host", "0.0.0.0", "--port", "8765", \\
    "--token-file", "tokens.txt"]
"""

README = """# splitchat worker bundle

Layers {first}-{last_incl} of {model} ({num_layers} layers in all): the middle of the model and nothing
else. The workstation keeps the embedding, the first and last layers, the norm, the LM head and the
tokenizer; text and token ids never reach this machine.

    python3 -m venv .venv && .venv/bin/pip install -r requirements.txt
    .venv/bin/python -m app.remote_worker.tokens tokens.txt   # prints a token once; give it to the workstation admin
    ./run-worker.sh --port 8765 --tls-cert tls/worker.crt --tls-key tls/worker.key

`splitchat-worker.service` (systemd) and `Dockerfile` run the same command. Making the certificate,
pinning it on the workstation and measuring the round trip: docs/DEPLOY.md in the splitchat repository.
"""


def export_worker_bundle(
    source: ModelSource, split: SplitSpec, out: Path, dtype: str | None = None, progress: Progress | None = None
) -> Manifest:
    """Write the shard, the worker's code and its deployment files into ``out``: a new or empty folder,
    or one this export wrote before, whose files it replaces while keeping what an admin added (the
    token file, ``tls/``, a venv). Any other folder is refused before anything is written."""
    out = Path(out)
    with staged_folder(out, replace=True, writer=BUNDLE_WRITER, last=(f"shard/{MANIFEST}",)) as staging:
        manifest = export_worker_shard(source, split, staging / "shard", dtype, progress)
        package = Path(app.__file__).parent
        for name in worker_modules():
            (staging / "app" / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(package / name, staging / "app" / name)
        facts = dict(
            model=source.spec if source.spec != str(source.folder) else source.folder.name,
            first=manifest.first_layer,
            last_incl=manifest.last_layer - 1,
            num_layers=manifest.num_layers,
        )
        (staging / "requirements.txt").write_text(worker_requirements())
        (staging / "run-worker.sh").write_text(RUN_SCRIPT)
        (staging / "run-worker.sh").chmod(0o755)
        (staging / "splitchat-worker.service").write_text(SYSTEMD_UNIT.format(**facts))
        (staging / "Dockerfile").write_text(DOCKERFILE)
        (staging / "README.md").write_text(README.format(**facts))
    return manifest
