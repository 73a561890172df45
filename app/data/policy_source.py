"""Where the admin policy is read from: only places the user it governs can neither write nor redirect.

The user controls their own environment — ``XDG_CONFIG_DIRS`` (which platformdirs' site config folder
follows), ``%PROGRAMDATA%`` and any variable the app might honour — so an installed app (the
installers' frozen bundle) reads the policy from fixed system locations only:

- Linux: ``/etc/xdg/splitchat/policy.json`` (root-owned; not looked up through ``XDG_CONFIG_DIRS``).
- Windows: the ``Policy`` value (REG_SZ, the same JSON document) of ``HKLM\\Software\\Policies\\splitchat``,
  where Group Policy writes and only administrators can; without it, ``policy.json`` in the
  ProgramData folder as the shell knows it (``FOLDERID_ProgramData``), not as the environment says.

Run from a development checkout (a developer, the tests) ``SPLITCHAT_POLICY`` may name another file:
whoever can set it there can edit the code too, so it opens no door the code does not. Any install — the
frozen bundle, a wheel in a virtual environment's site-packages — reads only the system locations: a
user who can pip-install the app can set a variable, but not write /etc.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from pathlib import Path

LINUX_POLICY = Path("/etc/xdg/splitchat/policy.json")
WINDOWS_POLICY_KEY = r"Software\Policies\splitchat"
WINDOWS_POLICY_VALUE = "Policy"
OVERRIDE = "SPLITCHAT_POLICY"


@dataclass(frozen=True)
class PolicyDocument:
    """The policy's text and where it came from (for messages); ``text`` is None when there is none."""

    origin: str
    text: str | None


def installed() -> bool:
    """True wherever the app runs as installed (frozen, or a package in site-packages) rather than from a
    development checkout: there the user's environment must not reach the policy."""
    return bool(getattr(sys, "frozen", False)) or not development_checkout()


def development_checkout(package: Path = Path(__file__).resolve().parents[1]) -> bool:
    """Whether the ``app`` package runs from a source tree (its pyproject.toml beside it, as an editable
    install leaves it) rather than from an installed copy, which never sits beside one."""
    if any(part in ("site-packages", "dist-packages") for part in package.parts):
        return False
    project = package.parent / "pyproject.toml"
    try:
        return 'name = "splitchat"' in project.read_text(encoding="utf-8")
    except OSError:
        return False


def policy_file() -> Path:
    """The policy file this app reads (the Windows registry value, when set, comes before it)."""
    override = os.environ.get(OVERRIDE)
    if override and not installed():
        return Path(override)
    if sys.platform == "win32":
        return _program_data() / "splitchat" / "policy.json"
    return LINUX_POLICY


def read_policy_document() -> PolicyDocument:
    """The policy's text from the first system location that holds one. OSError when it cannot be read."""
    if sys.platform == "win32" and not (os.environ.get(OVERRIDE) and not installed()):
        text = _registry_policy()
        if text is not None:
            return PolicyDocument(f"HKLM\\{WINDOWS_POLICY_KEY}\\{WINDOWS_POLICY_VALUE}", text)
    path = policy_file()
    if not path.is_file():
        return PolicyDocument(str(path), None)
    return PolicyDocument(str(path), path.read_text(encoding="utf-8"))


def _registry_policy() -> str | None:  # pragma: no cover - Windows only
    import winreg

    try:
        access = winreg.KEY_READ | winreg.KEY_WOW64_64KEY  # the machine's key, also from a 32-bit app
        with winreg.OpenKey(winreg.HKEY_LOCAL_MACHINE, WINDOWS_POLICY_KEY, 0, access) as key:
            value, kind = winreg.QueryValueEx(key, WINDOWS_POLICY_VALUE)
    except FileNotFoundError:
        return None
    if kind != winreg.REG_SZ or not isinstance(value, str):
        raise OSError(f"HKLM\\{WINDOWS_POLICY_KEY}\\{WINDOWS_POLICY_VALUE} must be a string (REG_SZ) of JSON")
    return value


def _program_data() -> Path:  # pragma: no cover - Windows only
    """ProgramData from the shell's known-folder table; the environment's %PROGRAMDATA% is the user's."""
    import ctypes
    from ctypes import wintypes

    class Guid(ctypes.Structure):
        _fields_ = [
            ("data1", wintypes.DWORD),
            ("data2", wintypes.WORD),
            ("data3", wintypes.WORD),
            ("data4", ctypes.c_ubyte * 8),
        ]

    # FOLDERID_ProgramData {62AB5D82-FDC1-4DC3-A9DD-070D1D495D97}
    folder_id = Guid(0x62AB5D82, 0xFDC1, 0x4DC3, (ctypes.c_ubyte * 8)(0xA9, 0xDD, 0x07, 0x0D, 0x1D, 0x49, 0x5D, 0x97))
    path = ctypes.c_wchar_p()
    shell32, ole32 = ctypes.windll.shell32, ctypes.windll.ole32
    if shell32.SHGetKnownFolderPath(ctypes.byref(folder_id), 0, None, ctypes.byref(path)) != 0:
        raise OSError("Windows did not say where ProgramData is")
    try:
        return Path(path.value)
    finally:
        ole32.CoTaskMemFree(path)
