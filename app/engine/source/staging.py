"""Write a folder completely or not at all: build it beside its destination, then rename."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


@contextmanager
def staged_folder(target: Path, replace: bool) -> Iterator[Path]:
    """Yield an empty folder that becomes ``target`` when the block succeeds.

    With ``replace`` an existing target is swapped out; without it an existing target wins (another
    process finished the same work first). On failure nothing is left behind.
    """
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".staging-", dir=target.parent))
    try:
        yield staging
        if target.exists() and not replace:
            shutil.rmtree(staging)
            return
        if target.exists():
            shutil.rmtree(target)
        staging.rename(target)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
