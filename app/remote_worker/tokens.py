"""Bearer tokens: the worker stores only their SHA-256, one ``sha256:<hex>`` line per token."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from pathlib import Path

PREFIX = "sha256:"


def token_hash(token: str) -> str:
    return PREFIX + hashlib.sha256(token.encode()).hexdigest()


def issue_token(token_file: Path) -> str:
    """Append the hash of a new random token to ``token_file`` and return the token (shown once)."""
    token = secrets.token_urlsafe(32)
    token_file = Path(token_file)
    token_file.parent.mkdir(parents=True, exist_ok=True)
    existing = token_file.read_text() if token_file.is_file() else ""
    separator = "" if not existing or existing.endswith("\n") else "\n"
    with token_file.open("a") as handle:
        handle.write(f"{separator}{token_hash(token)}\n")
    try:
        token_file.chmod(0o600)
    except OSError:  # best effort: not every filesystem keeps POSIX modes
        pass
    return token


class TokenFile:
    """The accepted token hashes, re-read when the file changes so tokens rotate without a restart."""

    def __init__(self, path: Path):
        self.path = Path(path)
        self._stamp: tuple[int, int] | None = None
        self._hashes: list[str] = []
        self._reload()
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
        stat = self.path.stat()
        stamp = (stat.st_mtime_ns, stat.st_size)
        if stamp == self._stamp:
            return
        hashes = []
        for number, line in enumerate(self.path.read_text().splitlines(), start=1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            digest = line.removeprefix(PREFIX)
            if not line.startswith(PREFIX) or len(digest) != 64 or not all(c in "0123456789abcdef" for c in digest):
                raise ValueError(f"{self.path}:{number}: expected 'sha256:<64 hex digits>', not a raw token")
            hashes.append(line)
        self._hashes, self._stamp = hashes, stamp


if __name__ == "__main__":  # `python -m app.remote_worker.tokens FILE` inside a worker bundle
    import sys

    if len(sys.argv) != 2:
        raise SystemExit("usage: python -m app.remote_worker.tokens TOKEN_FILE")
    print(issue_token(Path(sys.argv[1])))
