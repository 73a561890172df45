"""A token file other users can read is served, with one warning naming it (finding 10c; POSIX modes)."""

from __future__ import annotations

import logging
import os

import pytest

from app.remote_worker.tokens import TokenFile
from app.wire.worker_tokens import issue_token

pytestmark = pytest.mark.skipif(os.name != "posix", reason="POSIX modes; on Windows the profile's access list applies")


def _warnings(caplog) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == "splitchat.worker" and r.levelno == logging.WARNING]


def test_a_token_file_readable_by_others_is_accepted_with_one_warning_naming_it(tmp_path, caplog):
    path = tmp_path / "tokens.txt"
    token = issue_token(path)
    path.chmod(0o644)
    with caplog.at_level(logging.WARNING, logger="splitchat.worker"):
        tokens = TokenFile(path)
        assert tokens.verify(token)
        issue_token(path)  # the file changes and is re-read: no second warning
        path.chmod(0o640)
        assert tokens.verify(token) and TokenFile(path).verify(token)
    [warning] = _warnings(caplog)
    assert str(path) in warning and "chmod 600" in warning


def test_an_owner_only_token_file_gives_no_warning(tmp_path, caplog):
    path = tmp_path / "tokens.txt"
    token = issue_token(path)
    assert path.stat().st_mode & 0o777 == 0o600
    with caplog.at_level(logging.WARNING, logger="splitchat.worker"):
        assert TokenFile(path).verify(token)
    assert _warnings(caplog) == []
