"""Errors as a clinician or a lawyer can act on them: what happened, and what to do next."""

from __future__ import annotations

from app.data.credentials import CredentialError
from app.data.settings import SettingsError
from app.host import CorpusError, ModelError, NotAsReviewed, WorkerError

WORKER_ADVICE = {
    "unreachable": (
        "The cloud worker cannot be reached.",
        "Check the network connection and the endpoint in Settings, or ask your administrator whether the "
        "worker is running.",
    ),
    "unauthorized": (
        "The cloud worker refused the access token (401).",
        "Enter the current token for this provider in Settings → Provider.",
    ),
    "fingerprint_mismatch": (
        "The cloud worker serves different model weights than this computer.",
        "Ask your administrator to deploy the worker bundle exported for this model and split depth "
        "(Settings → Export worker bundle…).",
    ),
    "layer_mismatch": (
        "The cloud worker was set up for a different split depth than the one chosen here.",
        "Choose the worker's split depth in Settings → Split depth, or ask your administrator to deploy a "
        "worker bundle exported for this depth.",
    ),
    "no_token": (
        "No access token is set for this provider.",
        "Enter the token your administrator gave you in Settings → Provider → Access token.",
    ),
    "connection_lost": (
        "The connection to the cloud worker dropped and could not be restored.",
        "Your conversation is saved. Send again once the connection is back.",
    ),
    "pin_mismatch": (
        "The cloud worker presented a different certificate than the pinned one; nothing was sent to it.",
        "If the worker's certificate was replaced, ask your administrator for the new SHA-256 pin; otherwise "
        "someone may be intercepting the connection.",
    ),
    "tls_unverified": (
        "The cloud worker's certificate could not be verified.",
        "For a worker with a self-signed certificate, enter its SHA-256 pin in Settings → Provider.",
    ),
    "unencrypted": (
        "This endpoint is ws:// to another computer: the hidden states and the access token would cross the "
        "network unencrypted, so nothing was sent.",
        "Use the worker's wss:// address (docs/DEPLOY.md), or ask your administrator to allow unencrypted "
        "endpoints in the policy.",
    ),
    "tls_required": (
        "A certificate pin was set for an unencrypted ws:// endpoint.",
        "Use the worker's wss:// address, or remove the pin.",
    ),
    "too_many_sessions": (
        "The cloud worker is serving as many sessions as it allows.",
        "Try again in a minute, or ask your administrator to raise the worker's session limit.",
    ),
    "context_too_long": (
        "This conversation is longer than the model can hold.",
        "Start a new conversation (earlier ones stay in the list).",
    ),
}


def explain(error: BaseException) -> tuple[str, str]:
    """(what happened, what to do) for any error the app can meet."""
    if isinstance(error, WorkerError):
        if error.code == "layer_mismatch":  # the two depths, so the user knows which to choose
            what, todo = WORKER_ADVICE[error.code]
            return f"{what} ({error})", todo
        if error.code in WORKER_ADVICE:
            return WORKER_ADVICE[error.code]
        return (
            f"The cloud worker reported an error ({error.code}): {error}",
            "Try again; if it persists, tell your administrator.",
        )
    if isinstance(error, NotAsReviewed):
        return (
            "Nothing was sent: the model would have read your message otherwise than you reviewed it.",
            "Press Regenerate to review it again.",
        )
    if isinstance(error, ModelError):
        return f"The model cannot be loaded: {error}", "Check the model in Settings, or reinstall splitchat."
    if isinstance(error, CredentialError):
        return str(error), "Tokens are only kept in the system keyring."
    if isinstance(error, (SettingsError, CorpusError)):
        return str(error), "Correct it and try again."
    if isinstance(error, FileExistsError):  # a folder the app did not write: nothing in it was touched
        return str(error), "Choose an empty or new folder."
    if isinstance(error, FileNotFoundError):
        return f"A file is missing: {error.filename}", "Reinstall splitchat or choose another model."
    return f"Something went wrong: {error}", "Your conversation is saved. Try again; if it persists, report it."
