"""Bearer tokens as the worker reads them: the token file (hashes only, written by ``app.wire.worker_tokens``),
re-read when it changes, and the check of a client's token against it."""

from __future__ import annotations

import hmac
import logging
from pathlib import Path

from app.remote_worker.file_modes import readable_by_others
from app.wire.worker_tokens import PREFIX, issue_token, token_hash

log = logging.getLogger("splitchat.worker")

_WARNED_READABLE: set[str] = set()  # token files already reported readable by others, in this process


class TokenFile:
    """The accepted token hashes, re-read when the file changes so tokens rotate without a restart.

    Revoking a token is deleting its line; the worker drops that token's connections within seconds.
    A file that cannot be read, holds a malformed line or holds no token at all (an editor halfway
    through saving it) is not a revocation of everything: the last good set stays in force and the
    problem is logged once, until the file is fixed. To stop serving every token, stop the worker.
    """

    def __init__(self, path: Path):
        self.path = Path(path)
        self._stamp: tuple[int, int] | None = None
        self._hashes: list[str] = []
        self._reported: tuple[int, int] | None = None
        self._stamp, self._hashes = self._read()  # at start a bad file is an error, not a warning
        if not self._hashes:
            raise ValueError(f"{self.path} holds no token hashes; add one with `splitchat worker-token`")

    def verify(self, token: str | None) -> str | None:
        """The matching hash if ``token`` is accepted, else None (constant-time comparisons)."""
        if not token:
            return None
        self._reload()
        offered = token_hash(token)
        match = None
        for known in self._hashes:
            if hmac.compare_digest(offered, known):
                match = known
        return match

    def still_valid(self, owner: str) -> bool:
        """Whether the hash a connection authenticated with is still in the (re-read) file."""
        self._reload()
        return owner in self._hashes

    def _reload(self) -> None:
        try:
            stat = self.path.stat()
        except OSError as exc:
            self._report((0, 0), f"cannot read {self.path} ({exc})")
            return
        if (stat.st_mtime_ns, stat.st_size) == self._stamp:
            return
        try:
            stamp, hashes = self._read()
            if not hashes:
                raise ValueError(f"{self.path} holds no token hashes")
        except (OSError, ValueError) as exc:
            self._report((stat.st_mtime_ns, stat.st_size), str(exc))
            return
        self._stamp, self._hashes = stamp, hashes

    def _report(self, stamp: tuple[int, int], problem: str) -> None:
        if stamp != self._reported:  # once per state of the file, not once per handshake
            log.warning("token file not reloaded, the last good tokens stay in force: %s", problem)
            self._reported = stamp

    def _read(self) -> tuple[tuple[int, int], list[str]]:
        _warn_if_readable_by_others(self.path)
        stat = self.path.stat()
        stamp = (stat.st_mtime_ns, stat.st_size)
        hashes = []
        for number, line in enumerate(self.path.read_text().splitlines(), start=1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            digest = line.removeprefix(PREFIX)
            if not line.startswith(PREFIX) or len(digest) != 64 or not all(c in "0123456789abcdef" for c in digest):
                raise ValueError(f"{self.path}:{number}: expected 'sha256:<64 hex digits>', not a raw token")
            hashes.append(line)
        return stamp, hashes


def _warn_if_readable_by_others(path: Path) -> None:
    """The hashes admit no one by themselves, but a file other users can read tells them who is admitted
    and when that changes, and usually sits somewhere shared: say so once per file (not at every
    re-read), and keep serving."""
    key = str(path.resolve())
    if key in _WARNED_READABLE or not readable_by_others(path):
        return
    _WARNED_READABLE.add(key)
    log.warning("token file %s can be read by other users of this machine; restrict it with: chmod 600 %s", path, path)


if __name__ == "__main__":  # `python -m app.remote_worker.tokens FILE` inside a worker bundle
    import sys

    if len(sys.argv) != 2:
        raise SystemExit("usage: python -m app.remote_worker.tokens TOKEN_FILE")
    print(issue_token(Path(sys.argv[1])))
