"""Bearer tokens in the OS keyring (Windows Credential Manager, Secret Service, macOS Keychain).

A token is never written to the settings file or a log. Where no keyring is available (a headless
Linux box without a Secret Service) storing one fails with a clear message instead of falling back
to plain text.
"""

from __future__ import annotations

import keyring
from keyring.errors import KeyringError, PasswordDeleteError

SERVICE = "splitchat"


class CredentialError(Exception):
    """The keyring refused; the message says what to do."""


def _account(profile: str) -> str:
    return f"provider:{profile}"


def set_token(profile: str, token: str) -> None:
    if not token.strip():
        raise CredentialError("The token is empty.")
    try:
        keyring.set_password(SERVICE, _account(profile), token.strip())
    except KeyringError as exc:
        raise CredentialError(
            f"The system keyring is not available ({exc}). On Linux install and unlock a Secret Service "
            "(GNOME Keyring or KWallet); splitchat does not store tokens in plain text."
        ) from exc


def get_token(profile: str) -> str | None:
    try:
        return keyring.get_password(SERVICE, _account(profile))
    except KeyringError as exc:
        raise CredentialError(f"The system keyring could not be read ({exc}).") from exc


def has_token(profile: str) -> bool:
    try:
        return get_token(profile) is not None
    except CredentialError:
        return False


def delete_token(profile: str) -> None:
    try:
        keyring.delete_password(SERVICE, _account(profile))
    except PasswordDeleteError:
        pass  # nothing stored: already in the state asked for
    except KeyringError as exc:
        raise CredentialError(f"The system keyring could not be changed ({exc}).") from exc
