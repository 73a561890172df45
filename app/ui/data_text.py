"""The data layer's errors in the user's language.

``app/data`` does not import Qt (the boundary test), so a settings file, the admin policy or the keyring
that cannot be used is a ``SettingsError``/``CredentialError`` naming its problem and values; here each
problem is the same English as the data layer's (``SETTINGS_MESSAGES``, ``CREDENTIAL_MESSAGES``, which the
logs and the command line read), translated, its values put in. A value that is an error is said in its own
words, translated too; what the system or a library said (a file's OS error, the keyring's reason) is quoted
as it came. This module imports neither the engine nor the host: the policy's message box shows it before
the window's imports have begun.
"""

from __future__ import annotations

from app.data.credentials import NEEDS_A_STORE, CredentialError, CredentialProblem
from app.data.settings import SettingsError, SettingsProblem
from app.ui.i18n import QT_TRANSLATE_NOOP, translate

SETTINGS_TEXT = {
    SettingsProblem.PROFILE_NAME: QT_TRANSLATE_NOOP("SettingsErrors", "A provider profile needs a name."),
    SettingsProblem.ENDPOINT_SCHEME: QT_TRANSLATE_NOOP(
        "SettingsErrors", "Endpoint {endpoint!r} must start with ws:// or wss://."
    ),
    SettingsProblem.CERTIFICATE_PIN: QT_TRANSLATE_NOOP(
        "SettingsErrors", "A certificate pin is a SHA-256 fingerprint: 64 hex digits (colons allowed)."
    ),
    SettingsProblem.PROFILE_SWITCH: QT_TRANSLATE_NOOP(
        "SettingsErrors", "A provider's {switch} switch is true or false."
    ),
    SettingsProblem.FIELD_TYPE: QT_TRANSLATE_NOOP("SettingsErrors", "{name!r} must be {kind}, not {value!r}."),
    SettingsProblem.SPLIT: QT_TRANSLATE_NOOP("SettingsErrors", "The split depth {split!r} is not one: {reason}."),
    SettingsProblem.UNENCRYPTED: QT_TRANSLATE_NOOP(
        "SettingsErrors",
        "Provider {name!r} uses ws://, which would send the hidden states unencrypted over the network. Use "
        "wss:// (docs/DEPLOY.md), or ask your administrator to allow unencrypted endpoints in the policy "
        "(allow_unencrypted_endpoints).",
    ),
    SettingsProblem.SAME_NAME: QT_TRANSLATE_NOOP("SettingsErrors", "Two provider profiles have the same name."),
    SettingsProblem.NO_ACTIVE_PROFILE: QT_TRANSLATE_NOOP(
        "SettingsErrors", "The active provider {name!r} has no profile."
    ),
    SettingsProblem.MODE: QT_TRANSLATE_NOOP("SettingsErrors", "Decoding mode must be one of {choices}."),
    SettingsProblem.DEVICE: QT_TRANSLATE_NOOP("SettingsErrors", "Device must be one of {choices}."),
    SettingsProblem.LANGUAGE: QT_TRANSLATE_NOOP("SettingsErrors", "Language must be one of {choices}."),
    SettingsProblem.SAMPLING: QT_TRANSLATE_NOOP(
        "SettingsErrors", "Temperature must lie in [0, 5] and top-p in (0, 1]."
    ),
    SettingsProblem.PSEUDONYMISE_SWITCHES: QT_TRANSLATE_NOOP(
        "SettingsErrors", "The pseudonymise switches are true or false."
    ),
    SettingsProblem.LENGTHS: QT_TRANSLATE_NOOP(
        "SettingsErrors", "The speculation budget must be ≥ 0 and the answer length ≥ 1 token."
    ),
    SettingsProblem.NOT_AN_OBJECT: QT_TRANSLATE_NOOP("SettingsErrors", "the file must hold a JSON object"),
    SettingsProblem.PROFILES_NOT_A_LIST: QT_TRANSLATE_NOOP("SettingsErrors", "'profiles' must be a list"),
    SettingsProblem.PROFILE_KEYS: QT_TRANSLATE_NOOP(
        "SettingsErrors", "each provider profile needs a 'name' and an 'endpoint'"
    ),
    SettingsProblem.PROFILE_EXTRA_KEYS: QT_TRANSLATE_NOOP(
        "SettingsErrors", "a provider profile has keys splitchat does not keep: {keys}"
    ),
    SettingsProblem.BROKEN_FILE: QT_TRANSLATE_NOOP(
        "SettingsErrors",
        "Your settings file could not be used ({error}); it was moved to {aside} and the defaults apply.",
    ),
    SettingsProblem.LOCKED: QT_TRANSLATE_NOOP("SettingsErrors", "{key!r} is locked by the administrator's policy."),
    SettingsProblem.POLICY_NOT_APPLIED: QT_TRANSLATE_NOOP(
        "SettingsErrors", "The admin policy {origin} cannot be applied: {error}"
    ),
    SettingsProblem.POLICY_UNREADABLE: QT_TRANSLATE_NOOP(
        "SettingsErrors", "The admin policy cannot be read ({reason})."
    ),
    SettingsProblem.POLICY_NOT_JSON: QT_TRANSLATE_NOOP(
        "SettingsErrors", "The admin policy {origin} is not valid JSON ({reason})."
    ),
    SettingsProblem.POLICY_NOT_AN_OBJECT: QT_TRANSLATE_NOOP(
        "SettingsErrors", "The admin policy {origin} must be a JSON object."
    ),
    SettingsProblem.POLICY_VALUES: QT_TRANSLATE_NOOP(
        "SettingsErrors", "The admin policy {origin}: 'values' must be an object of settings."
    ),
    SettingsProblem.POLICY_LOCKED_LIST: QT_TRANSLATE_NOOP(
        "SettingsErrors", "The admin policy {origin}: 'locked' must be a list of setting names."
    ),
    SettingsProblem.POLICY_UNKNOWN: QT_TRANSLATE_NOOP(
        "SettingsErrors", "The admin policy names unknown settings: {keys}."
    ),
    SettingsProblem.POLICY_ALLOW_UNENCRYPTED: QT_TRANSLATE_NOOP(
        "SettingsErrors", "The admin policy's allow_unencrypted_endpoints is true or false."
    ),
    SettingsProblem.POLICY_TERMS: QT_TRANSLATE_NOOP(
        "SettingsErrors", "The admin policy's {kind}_terms must be a list of terms."
    ),
    SettingsProblem.POLICY_TERMS_FILE: QT_TRANSLATE_NOOP(
        "SettingsErrors", "The admin policy's {kind}_terms_file must be a file's path."
    ),
    SettingsProblem.POLICY_TERMS_FILE_UNREADABLE: QT_TRANSLATE_NOOP(
        "SettingsErrors", "The admin policy's {kind}_terms_file {path} cannot be read ({reason})."
    ),
}
# What a setting's value must be (``SettingsProblem.FIELD_TYPE``'s ``kind``: the data layer's _TYPE_WORDS).
TYPE_WORDS = {
    "text": QT_TRANSLATE_NOOP("SettingsErrors", "text"),
    "a whole number": QT_TRANSLATE_NOOP("SettingsErrors", "a whole number"),
    "a number": QT_TRANSLATE_NOOP("SettingsErrors", "a number"),
    "true or false": QT_TRANSLATE_NOOP("SettingsErrors", "true or false"),
}

CREDENTIAL_TEXT = {
    CredentialProblem.EMPTY: QT_TRANSLATE_NOOP("CredentialErrors", "The token is empty."),
    CredentialProblem.NO_KEYRING: QT_TRANSLATE_NOOP("CredentialErrors", "No system keyring is available."),
    CredentialProblem.FILE_KEYRING: QT_TRANSLATE_NOOP(
        "CredentialErrors", "The keyring in use ({backend}) keeps passwords in a file, not in a system store."
    ),
    CredentialProblem.STORES_NOTHING: QT_TRANSLATE_NOOP(
        "CredentialErrors", "No system keyring is available (the keyring in use, {backend}, stores nothing)."
    ),
    CredentialProblem.UNAVAILABLE: QT_TRANSLATE_NOOP(
        "CredentialErrors", "The keyring in use ({backend}) is not available."
    ),
    CredentialProblem.NOT_A_STORE: QT_TRANSLATE_NOOP(
        "CredentialErrors", "The keyring in use ({backend}) is not a system store."
    ),
    CredentialProblem.NOT_STORED: QT_TRANSLATE_NOOP(
        "CredentialErrors",
        "The system keyring is not available ({reason}). On Linux install and unlock a Secret Service "
        "(GNOME Keyring or KWallet); splitchat does not store tokens in plain text.",
    ),
    CredentialProblem.UNREADABLE: QT_TRANSLATE_NOOP(
        "CredentialErrors", "The system keyring could not be read ({reason})."
    ),
    CredentialProblem.UNCHANGEABLE: QT_TRANSLATE_NOOP(
        "CredentialErrors", "The system keyring could not be changed ({reason})."
    ),
}
INSTALL_A_STORE = QT_TRANSLATE_NOOP(
    "CredentialErrors",
    "splitchat keeps tokens only in the operating system's own keyring: on Linux install and unlock a Secret "
    "Service (GNOME Keyring) or KWallet; on Windows the Credential Manager is used; on macOS the Keychain.",
)


def error_text(error: BaseException) -> str:
    """``error``'s message in the user's language: a settings or keyring problem translated with its
    values; any other error (and a message the UI wrote itself) as it says it."""
    if isinstance(error, SettingsError) and error.problem is not None:
        values = _shown(error.values)
        if error.problem is SettingsProblem.FIELD_TYPE and values.get("kind") in TYPE_WORDS:
            values["kind"] = translate("SettingsErrors", TYPE_WORDS[values["kind"]])
        return translate("SettingsErrors", SETTINGS_TEXT[error.problem]).format(**values)
    if isinstance(error, CredentialError) and error.problem is not None:
        text = translate("CredentialErrors", CREDENTIAL_TEXT[error.problem]).format(**_shown(error.values))
        if error.problem in NEEDS_A_STORE:
            text = f"{text} {translate('CredentialErrors', INSTALL_A_STORE)}"
        return text
    return str(error)


def _shown(values: dict[str, object]) -> dict[str, object]:
    """The values as the message puts them in: an error in its own (translated) words, the rest as they are."""
    return {key: error_text(value) if isinstance(value, BaseException) else value for key, value in values.items()}
