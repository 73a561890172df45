"""Installers: the Windows script compiles; the Linux bundle and .deb build, install and self-test.

The Linux build takes many minutes (PyInstaller over torch + Qt), more than CI's test budget allows, so
it runs when ``SPLITCHAT_INSTALLER_TESTS=1`` (as `make installer-test` sets; ``=prebuilt`` checks what
`packaging/linux/build.sh` last left in build/). The NSIS check runs wherever ``makensis`` is installed.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
INSTALLERS = os.environ.get("SPLITCHAT_INSTALLER_TESTS") in ("1", "prebuilt")


@pytest.mark.skipif(shutil.which("makensis") is None, reason="NSIS (makensis) is not installed")
def test_windows_installer_script_compiles(tmp_path):
    dist = tmp_path / "dist"
    dist.mkdir()
    (dist / "splitchat.exe").write_bytes(b"stand-in for the PyInstaller bundle")
    out = tmp_path / "setup.exe"
    result = subprocess.run(
        ["makensis", "-V2", f"-DDIST={dist}", "-DVERSION=0.1.0", f"-DOUTFILE={out}", "splitchat.nsi"],
        cwd=REPO / "packaging" / "windows",
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert out.stat().st_size > 50_000


@pytest.mark.skipif(not INSTALLERS, reason="set SPLITCHAT_INSTALLER_TESTS=1")
def test_linux_bundle_and_deb_build_install_and_self_test(tmp_path):
    if os.environ["SPLITCHAT_INSTALLER_TESTS"] == "1":
        subprocess.run([str(REPO / "packaging" / "linux" / "build.sh")], check=True, timeout=3600)
    debs = sorted((REPO / "build").glob("splitchat_*_amd64.deb"))
    assert debs, "no .deb was built"
    deb = debs[-1]
    control = subprocess.run(["dpkg-deb", "-f", str(deb)], capture_output=True, text=True, check=True).stdout
    assert "Package: splitchat" in control and "Architecture: amd64" in control and "libxcb-cursor0" in control
    listing = subprocess.run(["dpkg-deb", "-c", str(deb)], capture_output=True, text=True, check=True).stdout
    for path in (
        "./opt/splitchat/splitchat",
        "./usr/bin/splitchat",
        "./usr/share/applications/splitchat.desktop",
        "./usr/share/icons/hicolor/scalable/apps/splitchat.svg",
    ):
        assert f" {path}\n" in listing or listing.rstrip().endswith(path), path
    assert "/home/" not in listing and "/root/" not in listing  # nothing of a user's own data is shipped
    root = tmp_path / "root"
    subprocess.run(["dpkg-deb", "-x", str(deb), str(root)], check=True)
    launcher = (root / "usr" / "bin" / "splitchat").read_text()
    assert "exec /opt/splitchat/splitchat" in launcher
    environment = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    result = subprocess.run(
        [str(root / "opt" / "splitchat" / "splitchat"), "--self-test"],
        env=environment,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "self-test passed" in result.stdout


@pytest.mark.skipif(
    not INSTALLERS or getattr(os, "geteuid", lambda: -1)() != 0 or not shutil.which("dpkg"),
    reason="a real dpkg install needs SPLITCHAT_INSTALLER_TESTS, root and dpkg",
)
def test_deb_installs_runs_from_the_path_and_uninstalls_leaving_user_data(tmp_path):
    deb = sorted((REPO / "build").glob("splitchat_*_amd64.deb"))[-1]
    user_data = tmp_path / "home" / ".local" / "share" / "splitchat"
    user_data.mkdir(parents=True)
    (user_data / "conversations.sqlite3").write_bytes(b"a user's conversations")
    subprocess.run(["dpkg", "-i", str(deb)], check=True, capture_output=True)
    try:
        result = subprocess.run(
            ["splitchat", "--self-test"],
            env={**os.environ, "QT_QPA_PLATFORM": "offscreen", "HOME": str(tmp_path / "home")},
            capture_output=True,
            text=True,
            timeout=600,
        )
        assert result.returncode == 0 and "self-test passed" in result.stdout, result.stdout + result.stderr
    finally:
        subprocess.run(["dpkg", "-r", "splitchat"], check=True, capture_output=True)
    for path in ("/opt/splitchat", "/usr/bin/splitchat", "/usr/share/applications/splitchat.desktop"):
        assert not Path(path).exists(), path
    assert (user_data / "conversations.sqlite3").read_bytes() == b"a user's conversations"
