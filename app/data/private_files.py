"""Folders and files only their owner can read: the platform-specific part of keeping data at rest.

On Linux and macOS the conversation database would otherwise be created as the umask allows (commonly
readable by every user of the machine). On Windows the data lives under the user's profile
(``%LOCALAPPDATA%``), whose access list already admits only the user, administrators and SYSTEM, and
new files inherit it; POSIX mode bits mean nothing there, so nothing is changed.
"""

from __future__ import annotations

import os
from pathlib import Path

OWNER_ONLY_FOLDER = 0o700
OWNER_ONLY_FILE = 0o600


def private_folder(path: Path) -> Path:
    """Create ``path`` (and its parents) and make the folder itself owner-only."""
    path = Path(path)
    path.mkdir(parents=True, exist_ok=True)
    if os.name == "posix":
        path.chmod(OWNER_ONLY_FOLDER)
    return path


def make_private(*files: Path) -> None:
    """Make each existing file owner-only (missing ones are skipped: SQLite creates its side files lazily)."""
    if os.name != "posix":
        return
    for file in files:
        if Path(file).exists():
            Path(file).chmod(OWNER_ONLY_FILE)
