"""What both halves say about a worker's bearer tokens and its start: the workstation issues a token into the
worker's token file and reads the worker's ready line; the worker checks tokens against the file and prints
that line. The token file holds only SHA-256 hashes, one ``sha256:<hex>`` line per token; reading it (and
noticing a revocation) is the worker's own job, in ``app.remote_worker.tokens``."""

from __future__ import annotations

import hashlib
import os
import secrets
from pathlib import Path

PREFIX = "sha256:"
# The line a worker prints on standard output once it listens: the prefix, then "<scheme>://<host>:<port>
# fingerprint=<hex>". A local worker's parent reads its endpoint from it.
READY_PREFIX = "splitchat-worker listening on "


def token_hash(token: str) -> str:
    return PREFIX + hashlib.sha256(token.encode()).hexdigest()


def issue_token(token_file: Path) -> str:
    """Append the hash of a new random token to ``token_file`` and return the token (shown once)."""
    token = secrets.token_urlsafe(32)
    token_file = Path(token_file)
    token_file.parent.mkdir(parents=True, exist_ok=True)
    existing = token_file.read_text() if token_file.is_file() else ""
    separator = "" if not existing or existing.endswith("\n") else "\n"
    # Written beside and renamed over: a worker re-reading the file never sees it half written.
    partial = token_file.with_name(f".{token_file.name}.{os.getpid()}.tmp")
    partial.write_text(f"{existing}{separator}{token_hash(token)}\n")
    try:
        partial.chmod(0o600)
    except OSError:  # best effort: not every filesystem keeps POSIX modes
        pass
    os.replace(partial, token_file)
    return token


def ready_endpoint(line: str) -> str | None:
    """The endpoint a worker's ready line announces, or None for any other line of its output."""
    return line[len(READY_PREFIX) :].split()[0] if line.startswith(READY_PREFIX) else None
