"""Bearer tokens in the OS keyring (Windows Credential Manager, Secret Service, KWallet, macOS Keychain).

A token is never written to the settings file or a log. The keyring library picks a backend by itself,
and where no OS store runs it may pick one that is not a store at all: ``keyrings.alt``'s files (base64
in a file the user can read), ``null`` (accepts and keeps nothing) or ``fail``. Any backend that is not
an operating system's own store is refused with what to install, so a token is never kept in plain
text and never silently lost.
"""

from __future__ import annotations

from enum import StrEnum

import keyring
from keyring.errors import KeyringError, PasswordDeleteError

SERVICE = "splitchat"


class CredentialProblem(StrEnum):
    """Why a token cannot be kept or read, for the UI to say in the user's language (the data layer does
    not import Qt); ``CREDENTIAL_MESSAGES`` holds the English, which app/ui/data_text.py translates."""

    EMPTY = "empty"
    NO_KEYRING = "no_keyring"
    FILE_KEYRING = "file_keyring"
    STORES_NOTHING = "stores_nothing"
    UNAVAILABLE = "unavailable"
    NOT_A_STORE = "not_a_store"
    NOT_STORED = "not_stored"
    UNREADABLE = "unreadable"
    UNCHANGEABLE = "unchangeable"


INSTALL_A_STORE = (
    "splitchat keeps tokens only in the operating system's own keyring: on Linux install and unlock a Secret "
    "Service (GNOME Keyring) or KWallet; on Windows the Credential Manager is used; on macOS the Keychain."
)
# The English of each problem (``backend``: the keyring's class; ``reason``: what the keyring said, as it
# came). The problems of a backend that is not an OS store are followed by ``INSTALL_A_STORE``.
CREDENTIAL_MESSAGES = {
    CredentialProblem.EMPTY: "The token is empty.",
    CredentialProblem.NO_KEYRING: "No system keyring is available.",
    CredentialProblem.FILE_KEYRING: "The keyring in use ({backend}) keeps passwords in a file, not in a system store.",
    CredentialProblem.STORES_NOTHING: "No system keyring is available (the keyring in use, {backend}, stores nothing).",
    CredentialProblem.UNAVAILABLE: "The keyring in use ({backend}) is not available.",
    CredentialProblem.NOT_A_STORE: "The keyring in use ({backend}) is not a system store.",
    CredentialProblem.NOT_STORED: (
        "The system keyring is not available ({reason}). On Linux install and unlock a Secret Service "
        "(GNOME Keyring or KWallet); splitchat does not store tokens in plain text."
    ),
    CredentialProblem.UNREADABLE: "The system keyring could not be read ({reason}).",
    CredentialProblem.UNCHANGEABLE: "The system keyring could not be changed ({reason}).",
}
NEEDS_A_STORE = frozenset(
    {
        CredentialProblem.NO_KEYRING,
        CredentialProblem.FILE_KEYRING,
        CredentialProblem.STORES_NOTHING,
        CredentialProblem.UNAVAILABLE,
        CredentialProblem.NOT_A_STORE,
    }
)


class CredentialError(Exception):
    """The keyring refused; the message says what to do. ``problem`` and ``values`` say it again for the
    UI to translate; ``str(error)`` is the English (logs, the command line)."""

    def __init__(self, problem: CredentialProblem | str, **values: object) -> None:
        if isinstance(problem, CredentialProblem):
            self.problem: CredentialProblem | None = problem
            self.values: dict[str, object] = values
            message = CREDENTIAL_MESSAGES[problem].format(**values)
            super().__init__(f"{message} {INSTALL_A_STORE}" if problem in NEEDS_A_STORE else message)
        else:
            self.problem, self.values = None, {}
            super().__init__(problem)


def _account(profile: str) -> str:
    return f"provider:{profile}"


def _why_not_a_store(backend) -> CredentialError | None:
    """Why ``backend`` is not an OS store to trust with a token, or None when it is one."""
    from keyring.backends import chainer, fail, null

    name = f"{type(backend).__module__}.{type(backend).__name__}"
    if isinstance(backend, chainer.ChainerBackend):
        inner = list(backend.backends)
        if not inner:
            return CredentialError(CredentialProblem.NO_KEYRING)
        # A chain is never used as a whole (``_store`` takes its best OS store): say why the first
        # of them is not one.
        return next((why for why in map(_why_not_a_store, inner) if why is not None), None)
    if type(backend).__module__.startswith("keyrings.alt"):
        return CredentialError(CredentialProblem.FILE_KEYRING, backend=name)
    if isinstance(backend, (null.Keyring, fail.Keyring)):
        return CredentialError(CredentialProblem.STORES_NOTHING, backend=name)
    try:
        priority = float(backend.priority)
    except Exception:  # noqa: BLE001 - a backend whose store is missing raises here
        return CredentialError(CredentialProblem.UNAVAILABLE, backend=name)
    if priority < 1:
        return CredentialError(CredentialProblem.NOT_A_STORE, backend=name)
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
    if why is not None:
        raise why
    return backend


def set_token(profile: str, token: str) -> None:
    if not token.strip():
        raise CredentialError(CredentialProblem.EMPTY)
    store = _store()
    try:
        store.set_password(SERVICE, _account(profile), token.strip())
    except KeyringError as exc:
        raise CredentialError(CredentialProblem.NOT_STORED, reason=str(exc)) from exc


def get_token(profile: str) -> str | None:
    store = _store()
    try:
        return store.get_password(SERVICE, _account(profile))
    except KeyringError as exc:
        raise CredentialError(CredentialProblem.UNREADABLE, reason=str(exc)) from exc


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
        raise CredentialError(CredentialProblem.UNCHANGEABLE, reason=str(exc)) from exc
