"""Whether a file's permissions let other users read it: the worker's one platform-specific question.

On Linux and macOS the mode bits answer it. On Windows they mean nothing (access lists decide, and a file
under the user's profile inherits a private one), so the answer there is always no. The worker imports
nothing outside ``app.wire``/``app.model``/``app.remote_worker``, so this cannot live in ``app.data``.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path


def readable_by_others(path: Path) -> bool:
    """True when ``path``'s group or any other user may read it (POSIX only; always False elsewhere)."""
    if os.name != "posix":
        return False
    return bool(Path(path).stat().st_mode & (stat.S_IRGRP | stat.S_IROTH))
