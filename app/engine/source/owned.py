"""Folders the app writes and later replaces: it deletes or overwrites only files it wrote itself.

A folder the app writes carries ``.splitchat-owned`` (JSON: what wrote it and the files it wrote, by
relative path). Replacing such a folder overwrites those files and deletes those of them the new content
lacks; anything else in it — a token file, certificates, a venv an admin added — is kept. A folder that
is not empty and carries no marker is refused, and nothing in it is touched, unless it is exactly a
layout the app wrote before markers existed (a ``Legacy`` recogniser says which files those are).

Why not swap the folder whole: a user may point ``--out`` at a folder of their own (a ``manifest.json``
of theirs beside a thesis), and an admin keeps ``tokens.txt`` and ``tls/`` beside the files exported.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from app.wire.shard_format import OWNER_MARKER

MARKER = OWNER_MARKER
MARKER_FORMAT = "splitchat-owned/1"

# Given a folder without a marker, the names of the files it holds when it is exactly an older layout of
# the app's own (then they count as the app's), else None.
Legacy = Callable[[Path], frozenset[str] | None]


class FolderNotOwned(FileExistsError):
    """A folder (or a file in it) the app did not write stands where it would write; nothing was changed."""

    def __init__(self, folder: Path, reason: str):
        super().__init__(f"{folder} {reason}; nothing was changed: choose an empty or new folder")
        self.folder = Path(folder)
        self.reason = reason


@dataclass(frozen=True)
class Ownership:
    """Who wrote a folder and which of its files (relative POSIX paths) are theirs."""

    writer: str
    files: frozenset[str]


def ownership(folder: Path, legacy: Legacy | None = None) -> Ownership | None:
    """The app's claim on ``folder``: None when it is missing or empty (free to take).

    Raises FolderNotOwned for anything else that carries no valid marker and is no legacy layout.
    """
    folder = Path(folder)
    if folder.is_symlink() or (folder.exists() and not folder.is_dir()):
        raise FolderNotOwned(folder, "is not a folder")
    if not folder.exists() or not any(folder.iterdir()):
        return None
    marker = folder / MARKER
    if marker.is_file() and not marker.is_symlink():
        return _read_marker(folder, marker)
    found = legacy(folder) if legacy is not None else None
    if found is not None:
        return Ownership("an earlier splitchat (before ownership markers)", frozenset(found))
    raise FolderNotOwned(folder, f"is not empty and was not written by splitchat (it has no {MARKER})")


def install(staging: Path, target: Path, writer: str, legacy: Legacy | None = None, last: Iterable[str] = ()) -> None:
    """Make ``target`` hold what ``staging`` holds, replacing only files the app wrote there before.

    ``staging`` is the caller's own temporary folder and is gone afterwards. Every check is made before
    the first change. Files move in name order, ``last`` at the end (a manifest, so a folder interrupted
    midway never holds a new manifest beside old weights).
    """
    staging, target = Path(staging), Path(target)
    new = _files_under(staging)
    claim = ownership(target, legacy)
    if claim is None:
        if take_whole(staging, target, writer):
            return
        claim = ownership(target, legacy)  # someone filled it meanwhile: merge as into any owned folder
        if claim is None:
            raise FolderNotOwned(target, "could not be replaced")
    _check_replaceable(target, claim, new)
    _write_marker(target, writer, claim.files | new)  # mid-way, the marker covers every file that may be ours
    for name in sorted(claim.files - new):
        (target / name).unlink(missing_ok=True)
    ends = [name for name in last if name in new]
    for name in sorted(new - set(ends)) + ends:
        (target / name).parent.mkdir(parents=True, exist_ok=True)
        os.replace(staging / name, target / name)
    _write_marker(target, writer, new)
    _remove_empty_parents(target, claim.files - new)
    discard(staging)


def record(folder: Path, writer: str, names: Iterable[str], legacy: Legacy | None = None) -> None:
    """Add files the app has just written into its own ``folder`` to the folder's marker."""
    claim = ownership(folder, legacy)
    known = claim.files if claim is not None else frozenset()
    _write_marker(Path(folder), writer, known | {_checked_name(Path(folder), name) for name in names})


def discard(staging: Path) -> None:
    """Remove a temporary folder the caller created itself (everything in it is the app's own)."""
    shutil.rmtree(staging, ignore_errors=True)


def take_whole(staging: Path, target: Path, writer: str) -> bool:
    """Rename ``staging``, marked as the app's, to a missing or empty ``target``; False (and nothing
    changed in ``target``) when the target is not empty."""
    _write_marker(staging, writer, _files_under(staging))
    try:
        if target.is_dir():
            target.rmdir()  # an empty folder: removing it deletes nothing, and fails if a file appeared
        staging.rename(target)
        return True
    except OSError:
        if not target.exists():
            raise
        (staging / MARKER).unlink(missing_ok=True)
        return False


def _check_replaceable(target: Path, claim: Ownership, new: frozenset[str]) -> None:
    for name in sorted(claim.files | new):
        path = target / name
        for parent in _parents_within(target, name):
            if parent.is_symlink() or (parent.exists() and not parent.is_dir()):
                raise FolderNotOwned(target, f"has {parent.relative_to(target)} where splitchat keeps a folder")
        if name not in claim.files and os.path.lexists(path):
            raise FolderNotOwned(target, f"holds {name}, which splitchat did not write")
        if path.is_dir() and not path.is_symlink():
            raise FolderNotOwned(target, f"has a folder {name} where splitchat wrote a file")


def _parents_within(target: Path, name: str) -> list[Path]:
    parts = PurePosixPath(name).parts[:-1]
    return [target.joinpath(*parts[: i + 1]) for i in range(len(parts))]


def _remove_empty_parents(target: Path, removed: Iterable[str]) -> None:
    folders = {parent for name in removed for parent in _parents_within(target, name)}
    for folder in sorted(folders, key=lambda p: len(p.parts), reverse=True):
        try:
            folder.rmdir()  # only an empty folder goes: what someone else put there keeps it
        except OSError:
            pass


def _files_under(staging: Path) -> frozenset[str]:
    return frozenset(path.relative_to(staging).as_posix() for path in staging.rglob("*") if path.is_file()) - {MARKER}


def _read_marker(folder: Path, marker: Path) -> Ownership:
    try:
        data = json.loads(marker.read_text())
        if data.get("format") != MARKER_FORMAT or not isinstance(data.get("files"), list):
            raise ValueError(f"not a {MARKER_FORMAT} marker")
        files = frozenset(_checked_name(folder, name) for name in data["files"])
        return Ownership(str(data.get("written_by", "")), files)
    except (OSError, ValueError, AttributeError, TypeError) as exc:
        raise FolderNotOwned(folder, f"has an unreadable {MARKER} ({exc})") from None


def _checked_name(folder: Path, name: object) -> str:
    """A marker's entry as a plain relative path inside the folder; anything that could leave it is refused."""
    if not isinstance(name, str) or not name or "\\" in name or ":" in name:
        raise ValueError(f"{name!r} is not a relative path")
    path = PurePosixPath(name)
    if path.is_absolute() or any(part in ("", ".", "..") for part in name.split("/")) or name == MARKER:
        raise ValueError(f"{name!r} is not a file inside {folder}")
    return path.as_posix()


def _write_marker(folder: Path, writer: str, files: Iterable[str]) -> None:
    data = {"format": MARKER_FORMAT, "written_by": writer, "files": sorted(files)}
    partial = folder / f"{MARKER}.{os.getpid()}.tmp"
    partial.write_text(json.dumps(data, indent=1) + "\n")
    os.replace(partial, folder / MARKER)  # a reader sees the old marker or the new one, never half of one
