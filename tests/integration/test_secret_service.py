"""Tokens reach the operating system's own store on a standard Linux desktop: a real Secret Service (GNOME
Keyring under its own D-Bus session, unlocked) with keyrings.alt installed beside it, as the README's set-up
leaves the environment. The child runs with a throwaway HOME, so no real user keyring is touched."""

from __future__ import annotations

import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

CHECKOUT = Path(__file__).resolve().parents[2]
SESSION = textwrap.dedent(
    """
    set -e
    printf 'splitchat-test' | gnome-keyring-daemon --unlock --components=secrets > /dev/null
    exec "$PYTHON" -c "$PROBE" "$1"
    """
)
PROBE = textwrap.dedent(
    """
    import sys
    sys.path.insert(0, sys.argv[1])
    import keyring
    from keyring.backends.chainer import ChainerBackend
    from app.data import credentials
    chosen = keyring.get_keyring()
    # The environment of the README's set-up: keyring chains the Secret Service with keyrings.alt's file.
    assert isinstance(chosen, ChainerBackend), chosen
    assert {type(b).__module__ for b in chosen.backends} >= {"keyring.backends.SecretService", "keyrings.alt.file"}
    credentials.set_token("clinic", "tok-58213-secret")
    assert credentials.get_token("clinic") == "tok-58213-secret"
    from keyring.backends.SecretService import Keyring as SecretService
    assert SecretService().get_password(credentials.SERVICE, "provider:clinic") == "tok-58213-secret"
    credentials.delete_token("clinic")
    assert credentials.get_token("clinic") is None
    print("stored in", type(credentials._store()).__module__)
    """
)


@pytest.mark.skipif(
    sys.platform != "linux" or not (shutil.which("dbus-run-session") and shutil.which("gnome-keyring-daemon")),
    reason="needs dbus-run-session and gnome-keyring-daemon (Debian: dbus, gnome-keyring)",
)
def test_a_token_is_kept_in_a_real_secret_service_and_in_no_file(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    env = {
        "HOME": str(home),
        "PATH": "/usr/bin:/bin:/usr/sbin:/sbin",
        "PYTHON": sys.executable,
        "PROBE": PROBE,
        "XDG_DATA_HOME": str(home / "data"),
        "XDG_CONFIG_HOME": str(home / "config"),
    }
    result = subprocess.run(
        ["dbus-run-session", "--", "sh", "-c", SESSION, "sh", str(CHECKOUT)],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert "stored in keyring.backends.SecretService" in result.stdout
    written = [p for p in home.rglob("*") if p.is_file() and "keyrings" not in p.parts]
    # GNOME Keyring's own encrypted file holds it; keyrings.alt's plaintext file does not exist.
    assert not (home / "data" / "python_keyring" / "keyring_pass.cfg").exists()
    assert not any(b"tok-58213-secret" in p.read_bytes() for p in written)
