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
from pathlib import Path

from platformdirs import user_config_dir, user_data_dir

from app.data.policy_source import policy_file, read_policy_document
from app.engine.link.endpoints import encrypted_or_local
from app.engine.source.split import SplitSpec
from app.engine.speculation.modes import MODE_NAMES

APP = "splitchat"
MODES = MODE_NAMES
DEVICES = ("auto", "cpu", "cuda")
LANGUAGES = ("system", "en", "es")  # the window's language: the system's, or one chosen (app/ui/i18n.py)
EMBEDDED = ""  # the active profile name meaning "the bundled model on a local worker"


class SettingsError(Exception):
    """A setting or settings file that cannot be used, said plainly."""


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
            raise SettingsError("A provider profile needs a name.")
        if not self.endpoint.startswith(("ws://", "wss://")):
            raise SettingsError(f"Endpoint {self.endpoint!r} must start with ws:// or wss://.")
        pin = self.cert_sha256.replace(":", "").lower()
        if pin and (len(pin) != 64 or any(c not in "0123456789abcdef" for c in pin)):
            raise SettingsError("A certificate pin is a SHA-256 fingerprint: 64 hex digits (colons allowed).")
        for switch in ("pseudonymise", "prefill_while_typing", "compress_wire", "review_before_sending"):
            if not isinstance(getattr(self, switch), bool):
                raise SettingsError(f"A provider's {switch} switch is true or false.")


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
    language: str = "system"
    locked: tuple[str, ...] = field(default=(), compare=False)  # filled from the policy, never saved
    # Only an admin's policy (allow_unencrypted_endpoints) can allow ws:// beyond this computer; never saved.
    unencrypted_allowed: bool = field(default=False, compare=False)

    def check(self) -> None:
        for name, kind in _FIELD_TYPES.items():
            value = getattr(self, name)
            if not isinstance(value, kind) or (kind is not bool and isinstance(value, bool)):
                raise SettingsError(f"{name!r} must be {_TYPE_WORDS[kind]}, not {value!r}.")
        try:
            SplitSpec.parse(self.split)
        except ValueError as exc:
            raise SettingsError(f"The split depth {self.split!r} is not one: {exc}.") from None
        for profile in self.profiles:
            profile.check()
        for profile in self.profiles:
            if not (self.unencrypted_allowed or profile.encrypted_or_local):
                raise SettingsError(
                    f"Provider {profile.name!r} uses ws://, which would send the hidden states unencrypted over "
                    "the network. Use wss:// (docs/DEPLOY.md), or ask your administrator to allow unencrypted "
                    "endpoints in the policy (allow_unencrypted_endpoints)."
                )
        names = [p.name for p in self.profiles]
        if len(set(names)) != len(names):
            raise SettingsError("Two provider profiles have the same name.")
        if self.active_profile and self.active_profile not in names:
            raise SettingsError(f"The active provider {self.active_profile!r} has no profile.")
        if self.mode not in MODES:
            raise SettingsError(f"Decoding mode must be one of {', '.join(MODES)}.")
        if self.device not in DEVICES:
            raise SettingsError(f"Device must be one of {', '.join(DEVICES)}.")
        if self.language not in LANGUAGES:
            raise SettingsError(f"Language must be one of {', '.join(LANGUAGES)}.")
        if not 0 <= self.temperature <= 5 or not 0 < self.top_p <= 1:
            raise SettingsError("Temperature must lie in [0, 5] and top-p in (0, 1].")
        if not isinstance(self.pseudonymise_embedded, bool) or not isinstance(self.pseudonymise_always, bool):
            raise SettingsError("The pseudonymise switches are true or false.")
        if self.budget < 0 or self.max_new_tokens < 1:
            raise SettingsError("The speculation budget must be ≥ 0 and the answer length ≥ 1 token.")

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
            raise SettingsError("the file must hold a JSON object")
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
    "language": str,
}
_TYPE_WORDS = {str: "text", int: "a whole number", (int, float): "a number", bool: "true or false"}


def profiles_from(raw: object) -> tuple[ProviderProfile, ...]:
    """Provider profiles from JSON: a list of objects with the profile's keys and no others (a stray
    ``"token"`` there is refused rather than kept: tokens belong in the keyring)."""
    if not isinstance(raw, list | tuple):
        raise SettingsError("'profiles' must be a list")
    names = {f.name for f in fields(ProviderProfile)}
    profiles = []
    for entry in raw:
        if not isinstance(entry, dict) or not {"name", "endpoint"} <= set(entry):
            raise SettingsError("each provider profile needs a 'name' and an 'endpoint'")
        extra = sorted(set(entry) - names)
        if extra:
            raise SettingsError(f"a provider profile has keys splitchat does not keep: {', '.join(extra)}")
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
        raise PolicyError(f"The admin policy {read_policy_document().origin} cannot be applied: {exc}") from None
    return enforced


def locked_down() -> AppSettings:
    """What the app runs with while the policy is broken: this computer only, nothing changeable."""
    return AppSettings(locked=tuple(f.name for f in fields(AppSettings) if f.name not in ("locked",)))


_notices: list[str] = []


def broken_settings_notice() -> str | None:
    """What was wrong with the user's settings file at the last load, once; None when nothing was."""
    return _notices.pop() if _notices else None


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
        _notices[:] = [f"Your settings file could not be used ({exc}); it was moved to {aside} and the defaults apply."]
        return AppSettings()


def save_settings(settings: AppSettings) -> None:
    settings.check()
    enforced = apply_policy(settings, read_policy())
    for key in enforced.locked:
        if getattr(settings, key) != getattr(enforced, key):
            raise SettingsError(f"{key!r} is locked by the administrator's policy.")
    path = config_dir() / "settings.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_suffix(".tmp")
    partial.write_text(settings.to_json(), encoding="utf-8")
    os.replace(partial, path)


def read_policy() -> dict:
    try:
        document = read_policy_document()
    except OSError as exc:
        raise PolicyError(f"The admin policy cannot be read ({exc}).") from None
    path = document.origin
    if document.text is None:
        return {}
    try:
        policy = json.loads(document.text)
    except ValueError as exc:
        raise PolicyError(f"The admin policy {path} is not valid JSON ({exc}).") from None
    if not isinstance(policy, dict):
        raise PolicyError(f"The admin policy {path} must be a JSON object.")
    if not isinstance(policy.get("values", {}), dict):
        raise PolicyError(f"The admin policy {path}: 'values' must be an object of settings.")
    locked = policy.get("locked", [])
    if not isinstance(locked, list) or not all(isinstance(key, str) for key in locked):
        raise PolicyError(f"The admin policy {path}: 'locked' must be a list of setting names.")
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
        raise SettingsError(f"The admin policy names unknown settings: {', '.join(sorted(unknown))}.")
    allowed = policy.get("allow_unencrypted_endpoints", False)
    if not isinstance(allowed, bool):
        raise SettingsError("The admin policy's allow_unencrypted_endpoints is true or false.")
    return replace(settings, **values, locked=locked, unencrypted_allowed=allowed)


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
            raise PolicyError(f"The admin policy's {kind}_terms must be a list of terms.")
        named = policy.get(f"{kind}_terms_file")
        if named is not None:
            if not isinstance(named, str):
                raise PolicyError(f"The admin policy's {kind}_terms_file must be a file's path.")
            path = Path(named)
            if not path.is_absolute():
                path = policy_file().parent / path
            try:
                text = path.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError) as exc:
                raise PolicyError(f"The admin policy's {kind}_terms_file {path} cannot be read ({exc}).") from None
            terms = terms + [line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#")]
        lists[kind] = tuple(t.strip() for t in terms if t.strip())
    return OfficeTermLists(lists["hide"], lists["keep"])
