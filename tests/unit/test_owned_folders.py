"""Folders the app replaces: only its own (marked) ones, and in them only the files it wrote (finding 7)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from app.engine.source.staging import staged_folder

WRITER = "test writer"
MARKER = ".splitchat-owned"
# The refusal is a FileExistsError (owned.Refused): the tests name the base class so they run, and
# fail for what they test, against the code before ownership markers too.
Refused = FileExistsError


def ownership(folder: Path, legacy=None):
    from app.engine.source.owned import ownership

    return ownership(folder, legacy)


def _snapshot(folder: Path) -> dict[str, bytes | None]:
    """Every file and folder under ``folder`` with its bytes (None for a folder)."""
    return {
        path.relative_to(folder).as_posix(): (None if path.is_dir() else path.read_bytes())
        for path in sorted(folder.rglob("*"))
    }


def _users_folder(folder: Path) -> Path:
    """A folder of the user's own that happens to hold a manifest.json (the review's example)."""
    folder.mkdir(parents=True)
    (folder / "manifest.json").write_text('{"my": "own manifest"}')
    (folder / "thesis.txt").write_text("three years of work")
    (folder / "chapters").mkdir()
    (folder / "chapters" / "one.md").write_text("# One")
    return folder


def _write(folder: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text)


def test_a_folder_that_is_not_the_apps_is_refused_before_the_work_and_nothing_is_touched(tmp_path):
    target = _users_folder(tmp_path / "out")
    before = _snapshot(target)
    ran = False
    with pytest.raises(Refused, match="not empty and was not written by splitchat"):
        with staged_folder(target, replace=True):
            ran = True
    assert not ran and _snapshot(target) == before
    assert [p.name for p in tmp_path.iterdir()] == ["out"]  # no staging folder left beside it


def test_a_new_folder_carries_the_marker_naming_its_writer_and_its_files(tmp_path):
    target = tmp_path / "out"
    with staged_folder(target, replace=True, writer=WRITER) as staging:
        _write(staging, {"a.bin": "a", "sub/b.txt": "b"})
    marker = json.loads((target / MARKER).read_text())
    assert marker["written_by"] == WRITER and marker["files"] == ["a.bin", "sub/b.txt"]
    assert ownership(target).files == {"a.bin", "sub/b.txt"}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]


def test_replacing_its_own_folder_replaces_only_the_files_it_wrote(tmp_path):
    target = tmp_path / "out"
    with staged_folder(target, replace=True) as staging:
        _write(staging, {"weights.bin": "old", "gone.txt": "old", "code/old.py": "old"})
    _write(target, {"tokens.txt": "sha256:admin", "tls/worker.key": "key", "code/__pycache__/x.pyc": "pyc"})
    with staged_folder(target, replace=True) as staging:
        _write(staging, {"weights.bin": "new", "code/new.py": "new"})
    assert (target / "weights.bin").read_text() == "new" and (target / "code" / "new.py").read_text() == "new"
    assert not (target / "gone.txt").exists() and not (target / "code" / "old.py").exists()
    # What the admin (or Python) put there stays, folders included.
    assert (target / "tokens.txt").read_text() == "sha256:admin"
    assert (target / "tls" / "worker.key").read_text() == "key"
    assert (target / "code" / "__pycache__" / "x.pyc").read_text() == "pyc"
    assert ownership(target).files == {"weights.bin", "code/new.py"}


def test_a_folder_emptied_of_its_files_goes_with_them_and_one_holding_others_stays(tmp_path):
    target = tmp_path / "out"
    with staged_folder(target, replace=True) as staging:
        _write(staging, {"old/a.txt": "a", "kept/b.txt": "b"})
    _write(target, {"kept/mine.txt": "the user's"})
    with staged_folder(target, replace=True) as staging:
        _write(staging, {"c.txt": "c"})
    assert not (target / "old").exists()
    assert (target / "kept" / "mine.txt").read_text() == "the user's" and not (target / "kept" / "b.txt").exists()


def test_a_file_it_did_not_write_where_it_would_write_is_refused_and_nothing_changes(tmp_path):
    target = tmp_path / "out"
    with staged_folder(target, replace=True) as staging:
        _write(staging, {"weights.bin": "old"})
    _write(target, {"README.md": "the admin's own notes"})
    before = _snapshot(target)
    with pytest.raises(Refused, match="holds README.md, which splitchat did not write"):
        with staged_folder(target, replace=True) as staging:
            _write(staging, {"weights.bin": "new", "README.md": "generated"})
    assert _snapshot(target) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]


def test_a_marker_naming_a_file_outside_its_folder_is_refused_and_the_file_survives(tmp_path):
    outside = tmp_path / "precious.txt"
    outside.write_text("keep")
    target = tmp_path / "out"
    target.mkdir()
    for entry in ("../precious.txt", str(outside), "a/../../precious.txt"):
        (target / MARKER).write_text(json.dumps({"format": "splitchat-owned/1", "written_by": "x", "files": [entry]}))
        with pytest.raises(Refused, match="unreadable"):
            with staged_folder(target, replace=True) as staging:
                _write(staging, {"a.txt": "a"})
        assert outside.read_text() == "keep"


@pytest.mark.skipif(os.name != "posix", reason="symbolic links need privileges on Windows")
def test_an_owned_name_reached_through_a_symlinked_folder_is_refused(tmp_path):
    elsewhere = tmp_path / "home"
    elsewhere.mkdir()
    (elsewhere / "a.py").write_text("the user's file")
    target = tmp_path / "out"
    with staged_folder(target, replace=True) as staging:
        _write(staging, {"code/a.py": "ours"})
    (target / "code" / "a.py").unlink()
    (target / "code").rmdir()
    (target / "code").symlink_to(elsewhere, target_is_directory=True)
    with pytest.raises(Refused, match="where splitchat keeps a folder"):
        with staged_folder(target, replace=True) as staging:
            _write(staging, {"b.txt": "b"})
    assert (elsewhere / "a.py").read_text() == "the user's file"


def test_a_failed_write_leaves_the_old_folder_as_it_was_and_no_staging(tmp_path):
    target = tmp_path / "out"
    with staged_folder(target, replace=True) as staging:
        _write(staging, {"a.txt": "old"})
    before = _snapshot(target)
    with pytest.raises(RuntimeError):
        with staged_folder(target, replace=True) as staging:
            _write(staging, {"a.txt": "half"})
            raise RuntimeError("the export failed")
    assert _snapshot(target) == before and sorted(p.name for p in tmp_path.iterdir()) == ["out"]


def test_without_replace_an_existing_folder_wins_and_is_not_touched(tmp_path):
    target = _users_folder(tmp_path / "cache")
    before = _snapshot(target)
    with staged_folder(target, replace=False) as staging:
        _write(staging, {"model.safetensors": "converted"})
    assert _snapshot(target) == before and sorted(p.name for p in tmp_path.iterdir()) == ["cache"]


def test_an_empty_folder_is_taken_and_an_older_layout_of_the_apps_own_is_recognised(tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    with staged_folder(empty, replace=True) as staging:
        _write(staging, {"a.txt": "a"})
    assert ownership(empty).files == {"a.txt"}

    old = tmp_path / "old"
    _write(old, {"one.bin": "1", "two.json": "2"})

    def legacy(folder: Path) -> frozenset[str] | None:
        names = frozenset(p.name for p in folder.iterdir())
        return names if names == {"one.bin", "two.json"} else None

    with staged_folder(old, replace=True, legacy=legacy) as staging:
        _write(staging, {"one.bin": "new"})
    assert sorted(p.name for p in old.iterdir()) == [MARKER, "one.bin"]
    _write(old, {"extra.txt": "x"})
    (old / MARKER).unlink()  # no longer exactly the old layout: refused
    with pytest.raises(Refused):
        ownership(old, legacy)


def test_a_random_weight_checkpoint_replaces_only_its_own_folder(tmp_path):
    import torch

    from app.bench.checkpoints import write_random_checkpoint
    from tests.helpers import tiny_config

    config = tiny_config("llama")
    theirs = _users_folder(tmp_path / "theirs")
    before = _snapshot(theirs)
    with pytest.raises(Refused, match="was not written by splitchat"):
        write_random_checkpoint(config, theirs, torch.bfloat16, shard_bytes=40_000)
    assert _snapshot(theirs) == before

    ours = write_random_checkpoint(config, tmp_path / "ours", torch.bfloat16, shard_bytes=40_000)
    shards = sorted(p.name for p in ours.glob("model-*.safetensors"))
    (ours / "notes.txt").write_text("kept")
    write_random_checkpoint(config, ours, torch.bfloat16, shard_bytes=10_000_000, seed=1)  # other arguments: rewritten
    assert len(shards) > 1 and sorted(p.name for p in ours.glob("model-*.safetensors")) == [
        "model-00001-of-00001.safetensors"
    ]
    assert (ours / "notes.txt").read_text() == "kept"


def test_the_app_says_a_folder_is_not_its_own_and_what_to_do(tmp_path):
    from app.ui.messages import explain

    (tmp_path / "thesis.txt").write_text("chapter one")
    with pytest.raises(Refused) as refused:
        ownership(tmp_path)
    what, todo = explain(refused.value)
    assert "was not written by splitchat" in what and todo == "Choose an empty or new folder."
