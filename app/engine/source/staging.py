"""Write a folder completely or not at all: build it beside its destination, then move it in.

What the app writes this way carries its ownership marker (``owned.py``): a later replacement overwrites
only the files the app wrote, and a folder that is not the app's is refused before any work is done.
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

from app.engine.source.owned import Legacy, discard, install, ownership, take_whole


@contextmanager
def staged_folder(
    target: Path, replace: bool, writer: str = "splitchat", legacy: Legacy | None = None, last: Iterable[str] = ()
) -> Iterator[Path]:
    """Yield an empty folder whose files end up in ``target`` when the block succeeds.

    With ``replace`` an existing target of the app's own has its files replaced (others in it are kept);
    one that is not the app's raises ``FolderNotOwned`` here, before the block runs. Without ``replace``
    an existing target wins (another process finished the same work first). On failure nothing is left
    behind. ``writer`` names what wrote the folder in its marker.
    """
    target = Path(target)
    if replace:
        ownership(target, legacy)  # refuse now rather than after minutes of work
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".staging-", dir=target.parent))
    try:
        yield staging
        if replace:
            install(staging, target, writer, legacy, last)
        elif not take_whole(staging, target, writer):
            discard(staging)
    except BaseException:
        discard(staging)
        raise
