"""The app's settings file, provider profiles, and the optional admin policy that locks settings.

Settings live in the user config dir (``settings.json``). Tokens never do: they are in the OS keyring
(see ``credentials``). An admin can lock any setting for ordinary users with a policy file:

- Linux:   ``/etc/xdg/splitchat/policy.json``
- Windows: the registry value ``HKLM\\Software\\Policies\\splitchat\\Policy``, else
  ``C:\\ProgramData\\splitchat\\policy.json``

(``policy_source`` says why only there, and how tests point elsewhere.)

Its shape: ``{"values": {"split": "4", "mode": "auto"}, "locked": ["split", "mode"]}``. Locked keys take
the policy's value (the default when it gives none) whatever the user's file says, and the settings
panel shows them read-only. ``{"values": {"pseudonymise_always": true}, "locked": ["pseudonymise_always"]}``
makes every conversation reach the model with its identifiers replaced, whatever the provider.
``{"values": {"review_always": true}, "locked": ["review_always"]}`` shows every message to a remote
provider as the model will read it, for the user to confirm, before anything of it leaves the computer.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import asdict, dataclass, field, fields, replace
from enum import StrEnum
from pathlib import Path

from platformdirs import user_config_dir, user_data_dir

from app.data.policy_source import policy_file, read_policy_document
from app.model.choices import DEVICE_CHOICES, MODE_NAMES, Mode, SplitSpec
from app.wire.endpoints import encrypted_or_local

APP = "splitchat"
MODES = MODE_NAMES
DEVICES = DEVICE_CHOICES
LANGUAGES = ("system", "en", "es")  # the window's language: the system's, or one chosen (app/ui/i18n.py)
EMBEDDED = ""  # the active profile name meaning "the bundled model on a local worker"


class SettingsProblem(StrEnum):
    """What is wrong with a setting or a settings file, for the UI to say in the user's language: the data
    layer does not import Qt, so it names the problem and its values, and ``SETTINGS_MESSAGES`` holds the
    English the logs and the command line read (app/ui/data_text.py has the same English, translated)."""

    PROFILE_NAME = "profile_name"
    ENDPOINT_SCHEME = "endpoint_scheme"
    CERTIFICATE_PIN = "certificate_pin"
    PROFILE_SWITCH = "profile_switch"
    FIELD_TYPE = "field_type"
    SPLIT = "split"
    UNENCRYPTED = "unencrypted"
    SAME_NAME = "same_name"
    NO_ACTIVE_PROFILE = "no_active_profile"
    MODE = "mode"
    DEVICE = "device"
    LANGUAGE = "language"
    SAMPLING = "sampling"
    PSEUDONYMISE_SWITCHES = "pseudonymise_switches"
    LENGTHS = "lengths"
    NOT_AN_OBJECT = "not_an_object"
    PROFILES_NOT_A_LIST = "profiles_not_a_list"
    PROFILE_KEYS = "profile_keys"
    PROFILE_EXTRA_KEYS = "profile_extra_keys"
    BROKEN_FILE = "broken_file"
    LOCKED = "locked"
    POLICY_NOT_APPLIED = "policy_not_applied"
    POLICY_UNREADABLE = "policy_unreadable"
    POLICY_NOT_JSON = "policy_not_json"
    POLICY_NOT_AN_OBJECT = "policy_not_an_object"
    POLICY_VALUES = "policy_values"
    POLICY_LOCKED_LIST = "policy_locked_list"
    POLICY_UNKNOWN = "policy_unknown"
    POLICY_ALLOW_UNENCRYPTED = "policy_allow_unencrypted"
    POLICY_TERMS = "policy_terms"
    POLICY_TERMS_FILE = "policy_terms_file"
    POLICY_TERMS_FILE_UNREADABLE = "policy_terms_file_unreadable"


# The English of each problem, its values as named fields. A value that is itself an error (``error``) is
# said in its own words; ``reason`` is what the system or a library said, quoted as it came.
SETTINGS_MESSAGES = {
    SettingsProblem.PROFILE_NAME: "A provider profile needs a name.",
    SettingsProblem.ENDPOINT_SCHEME: "Endpoint {endpoint!r} must start with ws:// or wss://.",
    SettingsProblem.CERTIFICATE_PIN: "A certificate pin is a SHA-256 fingerprint: 64 hex digits (colons allowed).",
    SettingsProblem.PROFILE_SWITCH: "A provider's {switch} switch is true or false.",
    SettingsProblem.FIELD_TYPE: "{name!r} must be {kind}, not {value!r}.",
    SettingsProblem.SPLIT: "The split depth {split!r} is not one: {reason}.",
    SettingsProblem.UNENCRYPTED: (
        "Provider {name!r} uses ws://, which would send the hidden states unencrypted over the network. Use "
        "wss:// (docs/DEPLOY.md), or ask your administrator to allow unencrypted endpoints in the policy "
        "(allow_unencrypted_endpoints)."
    ),
    SettingsProblem.SAME_NAME: "Two provider profiles have the same name.",
    SettingsProblem.NO_ACTIVE_PROFILE: "The active provider {name!r} has no profile.",
    SettingsProblem.MODE: "Decoding mode must be one of {choices}.",
    SettingsProblem.DEVICE: "Device must be one of {choices}.",
    SettingsProblem.LANGUAGE: "Language must be one of {choices}.",
    SettingsProblem.SAMPLING: "Temperature must lie in [0, 5] and top-p in (0, 1].",
    SettingsProblem.PSEUDONYMISE_SWITCHES: "The pseudonymise switches are true or false.",
    SettingsProblem.LENGTHS: "The speculation budget must be ≥ 0 and the answer length ≥ 1 token.",
    SettingsProblem.NOT_AN_OBJECT: "the file must hold a JSON object",
    SettingsProblem.PROFILES_NOT_A_LIST: "'profiles' must be a list",
    SettingsProblem.PROFILE_KEYS: "each provider profile needs a 'name' and an 'endpoint'",
    SettingsProblem.PROFILE_EXTRA_KEYS: "a provider profile has keys splitchat does not keep: {keys}",
    SettingsProblem.BROKEN_FILE: (
        "Your settings file could not be used ({error}); it was moved to {aside} and the defaults apply."
    ),
    SettingsProblem.LOCKED: "{key!r} is locked by the administrator's policy.",
    SettingsProblem.POLICY_NOT_APPLIED: "The admin policy {origin} cannot be applied: {error}",
    SettingsProblem.POLICY_UNREADABLE: "The admin policy cannot be read ({reason}).",
    SettingsProblem.POLICY_NOT_JSON: "The admin policy {origin} is not valid JSON ({reason}).",
    SettingsProblem.POLICY_NOT_AN_OBJECT: "The admin policy {origin} must be a JSON object.",
    SettingsProblem.POLICY_VALUES: "The admin policy {origin}: 'values' must be an object of settings.",
    SettingsProblem.POLICY_LOCKED_LIST: "The admin policy {origin}: 'locked' must be a list of setting names.",
    SettingsProblem.POLICY_UNKNOWN: "The admin policy names unknown settings: {keys}.",
    SettingsProblem.POLICY_ALLOW_UNENCRYPTED: "The admin policy's allow_unencrypted_endpoints is true or false.",
    SettingsProblem.POLICY_TERMS: "The admin policy's {kind}_terms must be a list of terms.",
    SettingsProblem.POLICY_TERMS_FILE: "The admin policy's {kind}_terms_file must be a file's path.",
    SettingsProblem.POLICY_TERMS_FILE_UNREADABLE: (
        "The admin policy's {kind}_terms_file {path} cannot be read ({reason})."
    ),
}


class SettingsError(Exception):
    """A setting or settings file that cannot be used, said plainly.

    ``SettingsError(SettingsProblem.LOCKED, key="split")``: ``problem`` and ``values`` say what is wrong for
    the UI to say it in the user's language; ``str(error)`` is the English (logs, the command line). A
    plain message (``SettingsError("…")``, one the UI wrote in the user's words already) has no problem."""

    def __init__(self, problem: SettingsProblem | str, **values: object) -> None:
        if isinstance(problem, SettingsProblem):
            self.problem: SettingsProblem | None = problem
            self.values: dict[str, object] = values
            super().__init__(SETTINGS_MESSAGES[problem].format(**values))
        else:
            self.problem, self.values = None, {}
            super().__init__(problem)


class PolicyError(SettingsError):
    """The admin policy cannot be read or applied: the app runs locked to this computer until IT fixes it."""


@dataclass(frozen=True)
class ProviderProfile:
    name: str
    endpoint: str
    cert_sha256: str = ""  # a pinned certificate fingerprint for self-signed workers (hex, colons allowed)
    pseudonymise: bool = True  # replace identifiers before the model reads them (a remote worker sees its input)
    # Send the settled part of a long message to the worker while it is still being typed, so the first
    # word of the answer comes soon after Send. Off unless chosen: text then leaves before the user sends it.
    prefill_while_typing: bool = False
    # Compress large frames of hidden states both ways, losslessly: fewer bytes on links slower than about
    # 500 Mbit/s for a few ms of CPU a megabyte; off for a worker on a faster network.
    compress_wire: bool = True
    # Show each message as the model will read it (stand-ins in place) and send only once the user confirms
    # it: a detector misses some identifiers, and the user is the last one to see the text before it leaves.
    review_before_sending: bool = False

    @property
    def encrypted_or_local(self) -> bool:
        """wss://, or ws:// to this computer (the loopback interface never leaves it)."""
        return encrypted_or_local(self.endpoint)

    def check(self) -> None:
        if not self.name.strip():
            raise SettingsError(SettingsProblem.PROFILE_NAME)
        if not self.endpoint.startswith(("ws://", "wss://")):
            raise SettingsError(SettingsProblem.ENDPOINT_SCHEME, endpoint=self.endpoint)
        pin = self.cert_sha256.replace(":", "").lower()
        if pin and (len(pin) != 64 or any(c not in "0123456789abcdef" for c in pin)):
            raise SettingsError(SettingsProblem.CERTIFICATE_PIN)
        for switch in ("pseudonymise", "prefill_while_typing", "compress_wire", "review_before_sending"):
            if not isinstance(getattr(self, switch), bool):
                raise SettingsError(SettingsProblem.PROFILE_SWITCH, switch=switch)


@dataclass(frozen=True)
class AppSettings:
    profiles: tuple[ProviderProfile, ...] = ()
    active_profile: str = EMBEDDED
    model: str = "smollm2-135m-instruct"
    split: str = "2"
    mode: str = "auto"
    budget: int = 48
    temperature: float = 0.0
    top_p: float = 1.0
    max_new_tokens: int = 512
    device: str = "auto"
    # The embedded worker runs on this computer, so nothing it reads leaves it: off unless asked for.
    pseudonymise_embedded: bool = False
    # On for every provider, the embedded one included; an admin's policy locks it on.
    pseudonymise_always: bool = False
    # Prefill while typing for the embedded worker (nothing leaves this computer either way).
    prefill_embedded: bool = False
    # Review before sending for every remote provider, whatever its own switch; an admin's policy locks it on.
    review_always: bool = False
    # The identifier detector's third stage, the bundled model's reading of each message: it finds what the
    # rules and the tagger miss, at about 0.5-1.5 s a 1,000-word message and 350 MB; a small workstation's
    # administrator can leave it out, and a policy can lock it either way.
    read_in_context: bool = True
    language: str = "system"
    locked: tuple[str, ...] = field(default=(), compare=False)  # filled from the policy, never saved
    # Only an admin's policy (allow_unencrypted_endpoints) can allow ws:// beyond this computer; never saved.
    unencrypted_allowed: bool = field(default=False, compare=False)

    def check(self) -> None:
        for name, kind in _FIELD_TYPES.items():
            value = getattr(self, name)
            if not isinstance(value, kind) or (kind is not bool and isinstance(value, bool)):
                raise SettingsError(SettingsProblem.FIELD_TYPE, name=name, kind=_TYPE_WORDS[kind], value=value)
        try:
            SplitSpec.parse(self.split)
        except ValueError as exc:
            raise SettingsError(SettingsProblem.SPLIT, split=self.split, reason=str(exc)) from None
        for profile in self.profiles:
            profile.check()
        for profile in self.profiles:
            if not (self.unencrypted_allowed or profile.encrypted_or_local):
                raise SettingsError(SettingsProblem.UNENCRYPTED, name=profile.name)
        names = [p.name for p in self.profiles]
        if len(set(names)) != len(names):
            raise SettingsError(SettingsProblem.SAME_NAME)
        if self.active_profile and self.active_profile not in names:
            raise SettingsError(SettingsProblem.NO_ACTIVE_PROFILE, name=self.active_profile)
        if self.mode not in MODES:
            raise SettingsError(SettingsProblem.MODE, choices=", ".join(MODES))
        if self.device not in DEVICES:
            raise SettingsError(SettingsProblem.DEVICE, choices=", ".join(DEVICES))
        if self.language not in LANGUAGES:
            raise SettingsError(SettingsProblem.LANGUAGE, choices=", ".join(LANGUAGES))
        if not 0 <= self.temperature <= 5 or not 0 < self.top_p <= 1:
            raise SettingsError(SettingsProblem.SAMPLING)
        if not isinstance(self.pseudonymise_embedded, bool) or not isinstance(self.pseudonymise_always, bool):
            raise SettingsError(SettingsProblem.PSEUDONYMISE_SWITCHES)
        if self.budget < 0 or self.max_new_tokens < 1:
            raise SettingsError(SettingsProblem.LENGTHS)

    # ``split`` and ``mode`` hold the settings file's text, so that ``check`` can name a wrong value as the
    # user wrote it; these are the same values typed, for everything past the settings (EngineConfig on).
    @property
    def split_spec(self) -> SplitSpec:
        """The split depth as a SplitSpec (ValueError for one that ``check`` refuses)."""
        return SplitSpec.parse(self.split)

    @property
    def decoding_mode(self) -> Mode:
        """The decoding mode as a Mode (ValueError for one that ``check`` refuses)."""
        return Mode.parse(self.mode)

    @property
    def provider(self) -> ProviderProfile | None:
        """The active cloud provider, or None for the embedded default."""
        return next((p for p in self.profiles if p.name == self.active_profile), None)

    @property
    def prefilling_while_typing(self) -> bool:
        """Whether what is typed reaches the active worker before Send (the user's or the admin's choice).
        Never while reviewing: a message under review leaves only once the user confirms it."""
        provider = self.provider
        if provider is None:
            return self.prefill_embedded
        return provider.prefill_while_typing and not self.reviewing

    @property
    def reviewing(self) -> bool:
        """Whether each message is shown as the model will read it, and sent only once confirmed. Only for
        a remote provider: the embedded worker runs on this computer, so nothing leaves it to review."""
        provider = self.provider
        return provider is not None and (self.review_always or provider.review_before_sending)

    @property
    def pseudonymising(self) -> bool:
        """Whether the active provider's conversations reach the model with their identifiers replaced."""
        if self.pseudonymise_always:
            return True
        provider = self.provider
        return self.pseudonymise_embedded if provider is None else provider.pseudonymise

    def to_json(self) -> str:
        body = asdict(self)
        body.pop("locked")
        body.pop("unencrypted_allowed")
        return json.dumps(body, indent=2)

    @classmethod
    def from_dict(cls, data: dict) -> AppSettings:
        """Settings from a parsed settings file; SettingsError for any shape but the one ``to_json`` writes."""
        if not isinstance(data, dict):
            raise SettingsError(SettingsProblem.NOT_AN_OBJECT)
        known = {f.name for f in fields(cls)} - {"locked", "unencrypted_allowed"}
        values = {k: v for k, v in data.items() if k in known}
        values["profiles"] = profiles_from(values.get("profiles", ()))
        if "split" in values:
            values["split"] = _normal_split(values["split"])
        return cls(**values)


_FIELD_TYPES = {
    "active_profile": str,
    "model": str,
    "split": str,
    "mode": str,
    "budget": int,
    "temperature": (int, float),
    "top_p": (int, float),
    "max_new_tokens": int,
    "device": str,
    "pseudonymise_embedded": bool,
    "pseudonymise_always": bool,
    "prefill_embedded": bool,
    "review_always": bool,
    "read_in_context": bool,
    "language": str,
}
_TYPE_WORDS = {str: "text", int: "a whole number", (int, float): "a number", bool: "true or false"}


def profiles_from(raw: object) -> tuple[ProviderProfile, ...]:
    """Provider profiles from JSON: a list of objects with the profile's keys and no others (a stray
    ``"token"`` there is refused rather than kept: tokens belong in the keyring)."""
    if not isinstance(raw, list | tuple):
        raise SettingsError(SettingsProblem.PROFILES_NOT_A_LIST)
    names = {f.name for f in fields(ProviderProfile)}
    profiles = []
    for entry in raw:
        if not isinstance(entry, dict) or not {"name", "endpoint"} <= set(entry):
            raise SettingsError(SettingsProblem.PROFILE_KEYS)
        extra = sorted(set(entry) - names)
        if extra:
            raise SettingsError(SettingsProblem.PROFILE_EXTRA_KEYS, keys=", ".join(extra))
        profiles.append(ProviderProfile(**entry))
    return tuple(profiles)


def _normal_split(value: object) -> object:
    """A split as ``SplitSpec`` writes it ("2:3" and "2,3" are the same split); anything else unchanged,
    for ``check`` to refuse."""
    try:
        return str(SplitSpec.parse(value)) if isinstance(value, str | int) and not isinstance(value, bool) else value
    except ValueError:
        return value


def config_dir() -> Path:
    override = os.environ.get("SPLITCHAT_CONFIG_DIR")
    return Path(override) if override else Path(user_config_dir(APP, appauthor=False))


def data_dir() -> Path:
    """Where conversations live (``SPLITCHAT_DATA_DIR`` overrides)."""
    override = os.environ.get("SPLITCHAT_DATA_DIR")
    return Path(override) if override else Path(user_data_dir(APP, appauthor=False))


def policy_path() -> Path:
    """The admin policy file this app reads."""
    return policy_file()


def load_settings() -> AppSettings:
    """The user's settings with the admin policy applied on top (locked keys take the policy's value).

    A user file that cannot be read is moved aside and the defaults used (``broken_settings_notice``
    says so once); a policy that cannot be read or applied is a PolicyError — never silently no policy.
    """
    settings = _user_settings()
    policy = read_policy()
    try:
        enforced = apply_policy(settings, policy)
        enforced.check()
    except SettingsError as exc:
        raise PolicyError(SettingsProblem.POLICY_NOT_APPLIED, origin=read_policy_document().origin, error=exc) from None
    return enforced


def locked_down() -> AppSettings:
    """What the app runs with while the policy is broken: this computer only, nothing changeable."""
    return AppSettings(locked=tuple(f.name for f in fields(AppSettings) if f.name not in ("locked",)))


_notices: list[SettingsError] = []


def broken_settings() -> SettingsError | None:
    """What was wrong with the user's settings file at the last load (``SettingsProblem.BROKEN_FILE``: the
    error, and where the file went), once; None when nothing was."""
    return _notices.pop() if _notices else None


def broken_settings_notice() -> str | None:
    """``broken_settings`` in English (the logs, the command line), once; None when nothing was wrong."""
    notice = broken_settings()
    return None if notice is None else str(notice)


def _user_settings() -> AppSettings:
    path = config_dir() / "settings.json"
    if not path.is_file():
        return AppSettings()
    try:
        settings = AppSettings.from_dict(json.loads(path.read_text(encoding="utf-8")))
        settings.check()
        return settings
    except (ValueError, TypeError, SettingsError) as exc:
        aside = path.with_name(f"settings.broken-{time.strftime('%Y%m%d-%H%M%S')}.json")
        os.replace(path, aside)
        _notices[:] = [SettingsError(SettingsProblem.BROKEN_FILE, error=exc, aside=aside)]
        return AppSettings()


def check_locks(settings: AppSettings) -> None:
    """``SettingsProblem.LOCKED`` for a setting ``settings`` changes that the administrator's policy locks
    (read now: it may have come since the settings were loaded); PolicyError where it cannot be read."""
    enforced = apply_policy(settings, read_policy())
    for key in enforced.locked:
        if getattr(settings, key) != getattr(enforced, key):
            raise SettingsError(SettingsProblem.LOCKED, key=key)


def save_settings(settings: AppSettings) -> None:
    settings.check()
    check_locks(settings)
    path = config_dir() / "settings.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_suffix(".tmp")
    partial.write_text(settings.to_json(), encoding="utf-8")
    os.replace(partial, path)


def read_policy() -> dict:
    try:
        document = read_policy_document()
    except OSError as exc:
        raise PolicyError(SettingsProblem.POLICY_UNREADABLE, reason=str(exc)) from None
    path = document.origin
    if document.text is None:
        return {}
    try:
        policy = json.loads(document.text)
    except ValueError as exc:
        raise PolicyError(SettingsProblem.POLICY_NOT_JSON, origin=path, reason=str(exc)) from None
    if not isinstance(policy, dict):
        raise PolicyError(SettingsProblem.POLICY_NOT_AN_OBJECT, origin=path)
    if not isinstance(policy.get("values", {}), dict):
        raise PolicyError(SettingsProblem.POLICY_VALUES, origin=path)
    locked = policy.get("locked", [])
    if not isinstance(locked, list) or not all(isinstance(key, str) for key in locked):
        raise PolicyError(SettingsProblem.POLICY_LOCKED_LIST, origin=path)
    return policy


def apply_policy(settings: AppSettings, policy: dict) -> AppSettings:
    values = dict(policy.get("values", {}))
    if "profiles" in values:
        values["profiles"] = profiles_from(values["profiles"])
    if "split" in values:
        values["split"] = _normal_split(values["split"])
    locked = tuple(policy.get("locked", ()))
    defaults = AppSettings()
    for key in locked:
        values.setdefault(key, getattr(defaults, key, None))  # locked without a value: locked at the default
    unknown = set(values) - {f.name for f in fields(AppSettings)} | ({"locked", "unencrypted_allowed"} & set(values))
    if unknown:
        raise SettingsError(SettingsProblem.POLICY_UNKNOWN, keys=", ".join(sorted(unknown)))
    allowed = policy.get("allow_unencrypted_endpoints", False)
    if not isinstance(allowed, bool):
        raise SettingsError(SettingsProblem.POLICY_ALLOW_UNENCRYPTED)
    return replace(settings, **values, locked=locked, unencrypted_allowed=allowed)


def reading_in_context() -> bool:
    """Whether identifier detection reads each message with the bundled model (``read_in_context``, the
    policy's value where it sets one); yes where the settings cannot be read, since it finds more."""
    try:
        return load_settings().read_in_context
    except SettingsError:
        return True


@dataclass(frozen=True)
class OfficeTermLists:
    """An office's terms always hidden from the model and never hidden, from its policy (they stay on the
    workstation)."""

    hidden: tuple[str, ...] = ()
    kept: tuple[str, ...] = ()


def office_term_lists(policy: dict | None = None) -> OfficeTermLists:
    """The policy's ``hide_terms`` and ``keep_terms`` lists, and the terms of its ``hide_terms_file`` and
    ``keep_terms_file`` (one term a line; a relative path lies beside the policy file)."""
    policy = read_policy() if policy is None else policy
    lists = {}
    for kind in ("hide", "keep"):
        terms = policy.get(f"{kind}_terms", [])
        if not isinstance(terms, list) or not all(isinstance(t, str) for t in terms):
            raise PolicyError(SettingsProblem.POLICY_TERMS, kind=kind)
        named = policy.get(f"{kind}_terms_file")
        if named is not None:
            if not isinstance(named, str):
                raise PolicyError(SettingsProblem.POLICY_TERMS_FILE, kind=kind)
            path = Path(named)
            if not path.is_absolute():
                path = policy_file().parent / path
            try:
                text = path.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError) as exc:
                raise PolicyError(
                    SettingsProblem.POLICY_TERMS_FILE_UNREADABLE, kind=kind, path=path, reason=str(exc)
                ) from None
            terms = terms + [line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#")]
        lists[kind] = tuple(t.strip() for t in terms if t.strip())
    return OfficeTermLists(lists["hide"], lists["keep"])
