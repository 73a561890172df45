"""Bearer tokens in the OS keyring (Windows Credential Manager, Secret Service, KWallet, macOS Keychain).

A token is never written to the settings file or a log. The keyring library picks a backend by itself,
and where no OS store runs it may pick one that is not a store at all: ``keyrings.alt``'s files (base64
in a file the user can read), ``null`` (accepts and keeps nothing) or ``fail``. Any backend that is not
an operating system's own store is refused with what to install, so a token is never kept in plain
text and never silently lost.
"""

from __future__ import annotations

import keyring
from keyring.errors import KeyringError, PasswordDeleteError

SERVICE = "splitchat"


class CredentialError(Exception):
    """The keyring refused; the message says what to do."""


def _account(profile: str) -> str:
    return f"provider:{profile}"


INSTALL_A_STORE = (
    "splitchat keeps tokens only in the operating system's own keyring: on Linux install and unlock a Secret "
    "Service (GNOME Keyring) or KWallet; on Windows the Credential Manager is used; on macOS the Keychain."
)


def _why_not_a_store(backend) -> str | None:
    """Why ``backend`` is not an OS store to trust with a token, or None when it is one."""
    from keyring.backends import chainer, fail, null

    name = f"{type(backend).__module__}.{type(backend).__name__}"
    if isinstance(backend, chainer.ChainerBackend):
        inner = list(backend.backends)
        if not inner:
            return "No system keyring is available."
        # A chain is never used as a whole (``_store`` takes its best OS store): say why the first
        # of them is not one.
        return next((why for why in map(_why_not_a_store, inner) if why), None)
    if type(backend).__module__.startswith("keyrings.alt"):
        return f"The keyring in use ({name}) keeps passwords in a file, not in a system store."
    if isinstance(backend, (null.Keyring, fail.Keyring)):
        return f"No system keyring is available (the keyring in use, {name}, stores nothing)."
    try:
        priority = float(backend.priority)
    except Exception:  # noqa: BLE001 - a backend whose store is missing raises here
        return f"The keyring in use ({name}) is not available."
    if priority < 1:
        return f"The keyring in use ({name}) is not a system store."
    return None


def _store():
    """The operating system's own store. keyring chains every backend it finds when several are installed
    — the Secret Service beside a file keyring of keyrings.alt, say — and a chain writes to and reads from
    any of them, so a chain's OS store is taken out of it and used alone."""
    from keyring.backends import chainer

    backend = keyring.get_keyring()
    if isinstance(backend, chainer.ChainerBackend):
        stores = [inner for inner in backend.backends if _why_not_a_store(inner) is None]
        if stores:
            return max(stores, key=lambda inner: float(inner.priority))
    why = _why_not_a_store(backend)
    if why:
        raise CredentialError(f"{why} {INSTALL_A_STORE}")
    return backend


def set_token(profile: str, token: str) -> None:
    if not token.strip():
        raise CredentialError("The token is empty.")
    store = _store()
    try:
        store.set_password(SERVICE, _account(profile), token.strip())
    except KeyringError as exc:
        raise CredentialError(
            f"The system keyring is not available ({exc}). On Linux install and unlock a Secret Service "
            "(GNOME Keyring or KWallet); splitchat does not store tokens in plain text."
        ) from exc


def get_token(profile: str) -> str | None:
    store = _store()
    try:
        return store.get_password(SERVICE, _account(profile))
    except KeyringError as exc:
        raise CredentialError(f"The system keyring could not be read ({exc}).") from exc


def has_token(profile: str) -> bool:
    try:
        return get_token(profile) is not None
    except CredentialError:
        return False


def delete_token(profile: str) -> None:
    store = _store()
    try:
        store.delete_password(SERVICE, _account(profile))
    except PasswordDeleteError:
        pass  # nothing stored: already in the state asked for
    except KeyringError as exc:
        raise CredentialError(f"The system keyring could not be changed ({exc}).") from exc
