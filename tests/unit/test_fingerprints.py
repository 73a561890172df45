"""Remembered weight fingerprints: reused while the weights are unchanged, and the store keeps no folder that
is gone (each test's temporary model would otherwise stay in a user's cache for good)."""

from __future__ import annotations

import json
import shutil

from app.engine.source.fingerprints import STORE, remembered
from app.engine.source.specs import ModelSource


def _source(folder) -> ModelSource:
    folder.mkdir(parents=True)
    (folder / "model.safetensors").write_bytes(b"weights")
    return ModelSource("test", folder, None, False)


def test_a_fingerprint_is_remembered_and_folders_that_are_gone_leave_the_store(tmp_path, monkeypatch):
    monkeypatch.setenv("SPLITCHAT_CACHE_DIR", str(tmp_path / "cache"))
    kept, gone = _source(tmp_path / "kept"), _source(tmp_path / "gone")
    calls = []
    assert remembered(kept, "all", lambda: calls.append(1) or "sha256:kept") == "sha256:kept"
    assert remembered(gone, "all", lambda: "sha256:gone") == "sha256:gone"
    assert remembered(kept, "all", lambda: "sha256:other") == "sha256:kept" and calls == [1]  # not hashed again
    shutil.rmtree(gone.folder)
    later = _source(tmp_path / "later")
    remembered(later, "all", lambda: "sha256:later")
    store = json.loads((tmp_path / "cache" / STORE).read_text())
    assert sorted(store.values()) == ["sha256:kept", "sha256:later"]
    (kept.folder / "model.safetensors").write_bytes(b"changed weights")  # a changed file is hashed again
    assert remembered(kept, "all", lambda: "sha256:changed") == "sha256:changed"
