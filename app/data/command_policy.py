"""A command's flags bound by the administrator's policy, as the app's settings are.

``splitchat ask`` reads the same policy as the app and makes the same checks (``AppSettings.check``): a
key the policy locks takes the policy's value, and a flag that asks for another one is refused, saying
the administrator has locked it; an endpoint is refused where the app would refuse it (ws:// beyond this
computer); pseudonymisation is on where the app's would be; a policy that forces review before sending
refuses a command that cannot show the message to anyone. A broken policy refuses the command, as it
locks the app down.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from app.data.settings import EMBEDDED, AppSettings, ProviderProfile, SettingsError, apply_policy, read_policy

COMMAND_PROFILE = "command line"  # the provider an --endpoint flag stands for


class LockedByPolicy(ValueError):
    """A flag asks for what the administrator's policy forbids (a usage error: exit 2)."""


@dataclass(frozen=True)
class CommandFlags:
    """What a command's flags asked for; None where a flag was not given (the policy's or the default)."""

    model: str | None = None
    split: str | None = None
    device: str | None = None
    mode: str | None = None
    budget: int | None = None
    temperature: float | None = None
    top_p: float | None = None
    max_new_tokens: int | None = None
    endpoint: str | None = None
    cert_sha256: str | None = None
    pseudonymise: bool | None = None
    compress_wire: bool | None = None


@dataclass(frozen=True)
class BoundCommand:
    """What the command runs with once the policy is applied."""

    settings: AppSettings
    endpoint: str | None  # None: the embedded worker on this computer
    cert_sha256: str | None
    compress_wire: bool
    pseudonymise: bool
    allow_unencrypted: bool


# The command's own defaults where neither a flag nor the policy says (they differ from the app's in
# places: a headless answer is short).
COMMAND_DEFAULTS = AppSettings(max_new_tokens=128)
_SETTING_FLAGS = ("model", "split", "device", "mode", "budget", "temperature", "top_p", "max_new_tokens")
_FLAG_NAMES = {"top_p": "--top-p", "max_new_tokens": "--max-new-tokens"}


def bind_to_policy(flags: CommandFlags, policy: dict | None = None) -> BoundCommand:
    """``flags`` with the policy applied and checked; ``LockedByPolicy`` or ``SettingsError`` if refused."""
    policy = read_policy() if policy is None else policy
    enforced = apply_policy(COMMAND_DEFAULTS, policy)
    locked = set(enforced.locked)
    values = {}
    for name in _SETTING_FLAGS:
        asked = getattr(flags, name)
        if asked is None:
            continue
        if name in locked and asked != getattr(enforced, name):
            raise _locked(name, f"{_flag(name)} {asked}", getattr(enforced, name))
        values[name] = asked
    settings = replace(enforced, **values)
    settings = _with_endpoint(settings, flags, locked)
    settings = _with_pseudonymisation(settings, flags, locked)
    try:
        settings.check()
    except SettingsError as exc:
        raise LockedByPolicy(str(exc)) from None
    if settings.reviewing:
        raise LockedByPolicy(
            "the administrator's policy shows every message to a remote provider for review before it is sent "
            "(review_always); a command cannot show it to you: use the app, or the embedded worker"
        )
    provider = settings.provider
    return BoundCommand(
        settings=settings,
        endpoint=provider.endpoint if provider else None,
        cert_sha256=(provider.cert_sha256 or None) if provider else None,
        compress_wire=provider.compress_wire if provider else True,
        pseudonymise=settings.pseudonymising,
        allow_unencrypted=settings.unencrypted_allowed,
    )


def _with_endpoint(settings: AppSettings, flags: CommandFlags, locked: set[str]) -> AppSettings:
    """The provider the command reaches: its --endpoint, or the policy's locked provider, or none."""
    providers_locked = {"active_profile", "profiles"} & locked
    if flags.endpoint is None:
        if providers_locked and settings.provider is not None:
            return settings  # the administrator's provider, whose token the command takes from its variable
        return replace(settings, active_profile=EMBEDDED)
    if providers_locked:
        allowed = settings.provider
        if allowed is None or allowed.endpoint != flags.endpoint:
            where = allowed.endpoint if allowed else "the embedded worker on this computer"
            raise _locked("active_profile", f"--endpoint {flags.endpoint}", where)
        return settings
    profile = ProviderProfile(
        COMMAND_PROFILE,
        flags.endpoint,
        cert_sha256=flags.cert_sha256 or "",
        compress_wire=True if flags.compress_wire is None else flags.compress_wire,
    )
    others = tuple(p for p in settings.profiles if p.name != COMMAND_PROFILE)
    return replace(settings, profiles=(*others, profile), active_profile=COMMAND_PROFILE)


def _with_pseudonymisation(settings: AppSettings, flags: CommandFlags, locked: set[str]) -> AppSettings:
    """On by default where the model runs elsewhere; the embedded worker is this computer. A flag that turns
    it off where the policy forces it is refused."""
    if flags.pseudonymise is None:
        return settings
    if not flags.pseudonymise and settings.pseudonymise_always:
        raise _locked("pseudonymise_always", "--no-pseudonymise", True)
    provider = settings.provider
    if provider is None:
        if "pseudonymise_embedded" in locked and flags.pseudonymise != settings.pseudonymise_embedded:
            raise _locked("pseudonymise_embedded", _switch(flags.pseudonymise), settings.pseudonymise_embedded)
        return replace(settings, pseudonymise_embedded=flags.pseudonymise)
    if provider.name != COMMAND_PROFILE and {"profiles", "active_profile"} & locked:
        if flags.pseudonymise != provider.pseudonymise:
            raise _locked("profiles", _switch(flags.pseudonymise), provider.pseudonymise)
        return settings
    profiles = tuple(replace(p, pseudonymise=flags.pseudonymise) if p is provider else p for p in settings.profiles)
    return replace(settings, profiles=profiles)


def _locked(key: str, asked: str, value: object) -> LockedByPolicy:
    return LockedByPolicy(f"the administrator has locked {key!r} at {value!r} in the policy: {asked} is not allowed")


def _flag(name: str) -> str:
    return _FLAG_NAMES.get(name, f"--{name}")


def _switch(on: bool) -> str:
    return "--pseudonymise" if on else "--no-pseudonymise"
