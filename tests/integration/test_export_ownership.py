"""export-worker (and every other folder the app replaces) deletes nothing it did not write (finding 7).

The review's attack: ``--out`` pointed at a folder of the user's own that holds a ``manifest.json``
beside a thesis and a subfolder. It used to be removed whole.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from app.engine.link.export import embedded_shard, export_worker_shard
from app.engine.link.worker_bundle import export_worker_bundle
from app.engine.source.locations import shard_folder
from app.engine.source.specs import resolve_model
from app.model.choices import SplitSpec
from app.remote_worker.shard import load_shard
from app.wire.shard_format import Manifest

MARKER = ".splitchat-owned"


def splitchat(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "app", *args], capture_output=True, text=True, timeout=600)


def snapshot(folder: Path) -> dict[str, bytes | None]:
    """Every file and folder under ``folder`` with its bytes (None for a folder)."""
    return {
        path.relative_to(folder).as_posix(): (None if path.is_dir() else path.read_bytes())
        for path in sorted(folder.rglob("*"))
    }


def users_folder(folder: Path, manifest: str = '{"chapters": 12}') -> Path:
    folder.mkdir(parents=True)
    (folder / "manifest.json").write_text(manifest)
    (folder / "thesis.txt").write_text("three years of work")
    (folder / "figures").mkdir()
    (folder / "figures" / "plot.csv").write_text("x,y\n1,2\n")
    return folder


@pytest.fixture(scope="module")
def llama(tiny_models) -> Path:
    return tiny_models["llama"][0]


@pytest.mark.parametrize("bundle", [False, True], ids=["shard", "bundle"])
def test_export_worker_refuses_a_users_folder_with_a_manifest_and_deletes_nothing(llama, tmp_path, bundle):
    out = users_folder(tmp_path / "my-thesis")
    before = snapshot(out)
    result = splitchat("export-worker", "--model", str(llama), "--out", str(out), *(["--bundle"] if bundle else []))
    assert result.returncode == 1, result.stdout
    assert "was not written by splitchat" in result.stderr and str(out) in result.stderr
    assert result.stderr.count("\n") == 1  # one line saying why, no traceback
    assert snapshot(out) == before
    assert [p.name for p in tmp_path.iterdir()] == ["my-thesis"]  # no staging folder left beside it


def test_export_worker_replaces_its_own_export_and_keeps_what_it_did_not_write(llama, tmp_path):
    out = tmp_path / "shard"
    first = splitchat("export-worker", "--model", str(llama), "--split", "1,1", "--out", str(out))
    assert first.returncode == 0, first.stderr
    (out / "notes.txt").write_text("the admin's notes")  # not the export's: it stays
    again = splitchat("export-worker", "--model", str(llama), "--split", "2,2", "--out", str(out))
    assert again.returncode == 0, again.stderr
    manifest = Manifest.read(out)
    assert (manifest.first_layer, manifest.last_layer) == (2, 4)
    assert (out / "notes.txt").read_text() == "the admin's notes"
    marker = json.loads((out / MARKER).read_text())
    assert marker["files"] == ["README.md", "config.json", "manifest.json", "middle.safetensors"]
    (out / "notes.txt").unlink()
    assert load_shard(out).manifest == manifest  # the worker serves a folder carrying the marker


def test_a_shard_exported_before_markers_is_replaced_and_a_look_alike_with_more_is_refused(llama, tmp_path):
    source = resolve_model(str(llama))
    old = tmp_path / "old"
    export_worker_shard(source, SplitSpec(1, 1), old)
    (old / MARKER).unlink()  # as an export before ownership markers left it: exactly its four files
    export_worker_shard(source, SplitSpec(2, 2), old)
    assert Manifest.read(old).first_layer == 2 and (old / MARKER).is_file()

    look_alike = tmp_path / "look-alike"
    export_worker_shard(source, SplitSpec(1, 1), look_alike)
    (look_alike / MARKER).unlink()
    (look_alike / "thesis.txt").write_text("three years of work")
    before = snapshot(look_alike)
    with pytest.raises(FileExistsError, match="was not written by splitchat"):
        export_worker_shard(source, SplitSpec(2, 2), look_alike)
    assert snapshot(look_alike) == before


def test_a_bundle_is_exported_again_over_itself_keeping_the_admins_files(llama, tmp_path):
    source = resolve_model(str(llama))
    bundle = tmp_path / "bundle"
    export_worker_bundle(source, SplitSpec(1, 1), bundle)
    admins = {"tokens.txt": "sha256:" + "0" * 64 + "\n", "tls/worker.key": "key", ".venv/pyvenv.cfg": "home = /usr"}
    for name, text in admins.items():
        (bundle / name).parent.mkdir(parents=True, exist_ok=True)
        (bundle / name).write_text(text)
    stale = bundle / "app" / "remote_worker" / "retired_module.py"  # as if a later version dropped a module
    stale.write_text("")
    marker = json.loads((bundle / MARKER).read_text())
    marker["files"].append("app/remote_worker/retired_module.py")
    (bundle / MARKER).write_text(json.dumps(marker))

    manifest = export_worker_bundle(source, SplitSpec(2, 2), bundle)
    assert (manifest.first_layer, Manifest.read(bundle / "shard").first_layer) == (2, 2)
    for name, text in admins.items():
        assert (bundle / name).read_text() == text, name
    assert not stale.exists() and (bundle / "app" / "remote_worker" / "server.py").is_file()
    written = set(json.loads((bundle / MARKER).read_text())["files"])
    assert "shard/middle.safetensors" in written and "run-worker.sh" in written and "tokens.txt" not in written
    assert (bundle / "run-worker.sh").stat().st_mode & 0o111  # still executable after the move


def test_the_embedded_shard_cache_replaces_its_own_stale_shard_and_refuses_anything_else(llama, tmp_path, monkeypatch):
    monkeypatch.setenv("SPLITCHAT_CACHE_DIR", str(tmp_path / "cache"))
    source = resolve_model(str(llama))
    split = SplitSpec(1, 1)
    folder = shard_folder(source.folder, *split.middle(source.num_layers))

    folder.mkdir(parents=True)
    (folder / "thesis.txt").write_text("not the app's")  # something else living at the cache's path
    with pytest.raises(FileExistsError, match="was not written by splitchat"):
        embedded_shard(source, split)
    assert (folder / "thesis.txt").read_text() == "not the app's"
    (folder / "thesis.txt").unlink()

    assert embedded_shard(source, split) == folder and (folder / MARKER).is_file()
    stale = json.loads((folder / "manifest.json").read_text())
    stale["fingerprint"] = "sha256:" + "0" * 64  # the weights changed since: exported again, in place
    (folder / "manifest.json").write_text(json.dumps(stale))
    embedded_shard(source, split)
    assert Manifest.read(folder).fingerprint != stale["fingerprint"]
    assert sorted(p.name for p in folder.iterdir()) == [MARKER, "README.md", "config.json", "manifest.json",
                                                        "middle.safetensors"]  # fmt: skip
