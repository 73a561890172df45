"""Errors as a clinician or a lawyer can act on them: what happened, and what to do next."""

from __future__ import annotations

from app.data.credentials import CredentialError
from app.data.settings import SettingsError
from app.host import CorpusError, Ending, ModelError, NotAsReviewed, WorkerError
from app.ui.data_text import error_text
from app.ui.i18n import QT_TRANSLATE_NOOP, translate

WORKER_ADVICE = {
    "unreachable": (
        QT_TRANSLATE_NOOP("Errors", "The cloud worker cannot be reached."),
        QT_TRANSLATE_NOOP(
            "Errors",
            "Check the network connection and the endpoint in Settings, or ask your administrator whether the "
            "worker is running.",
        ),
    ),
    "unauthorized": (
        QT_TRANSLATE_NOOP("Errors", "The cloud worker refused the access token (401)."),
        QT_TRANSLATE_NOOP("Errors", "Enter the current token for this provider in Settings → Provider."),
    ),
    "fingerprint_mismatch": (
        QT_TRANSLATE_NOOP("Errors", "The cloud worker serves different model weights than this computer."),
        QT_TRANSLATE_NOOP(
            "Errors",
            "Ask your administrator to deploy the worker bundle exported for this model and split depth "
            "(Settings → Export worker bundle…).",
        ),
    ),
    "layer_mismatch": (
        QT_TRANSLATE_NOOP(
            "Errors", "The cloud worker was set up for a different split depth than the one chosen here."
        ),
        QT_TRANSLATE_NOOP(
            "Errors",
            "Choose the worker's split depth in Settings → Split depth, or ask your administrator to deploy a "
            "worker bundle exported for this depth.",
        ),
    ),
    "no_token": (
        QT_TRANSLATE_NOOP("Errors", "No access token is set for this provider."),
        QT_TRANSLATE_NOOP(
            "Errors", "Enter the token your administrator gave you in Settings → Provider → Access token."
        ),
    ),
    "connection_lost": (
        QT_TRANSLATE_NOOP("Errors", "The connection to the cloud worker dropped and could not be restored."),
        QT_TRANSLATE_NOOP("Errors", "Your conversation is saved. Send again once the connection is back."),
    ),
    "pin_mismatch": (
        QT_TRANSLATE_NOOP(
            "Errors", "The cloud worker presented a different certificate than the pinned one; nothing was sent to it."
        ),
        QT_TRANSLATE_NOOP(
            "Errors",
            "If the worker's certificate was replaced, ask your administrator for the new SHA-256 pin; otherwise "
            "someone may be intercepting the connection.",
        ),
    ),
    "tls_unverified": (
        QT_TRANSLATE_NOOP("Errors", "The cloud worker's certificate could not be verified."),
        QT_TRANSLATE_NOOP(
            "Errors", "For a worker with a self-signed certificate, enter its SHA-256 pin in Settings → Provider."
        ),
    ),
    "unencrypted": (
        QT_TRANSLATE_NOOP(
            "Errors",
            "This endpoint is ws:// to another computer: the hidden states and the access token would cross the "
            "network unencrypted, so nothing was sent.",
        ),
        QT_TRANSLATE_NOOP(
            "Errors",
            "Use the worker's wss:// address (docs/DEPLOY.md), or ask your administrator to allow unencrypted "
            "endpoints in the policy.",
        ),
    ),
    "tls_required": (
        QT_TRANSLATE_NOOP("Errors", "A certificate pin was set for an unencrypted ws:// endpoint."),
        QT_TRANSLATE_NOOP("Errors", "Use the worker's wss:// address, or remove the pin."),
    ),
    "too_many_sessions": (
        QT_TRANSLATE_NOOP("Errors", "The cloud worker is serving as many sessions as it allows."),
        QT_TRANSLATE_NOOP(
            "Errors", "Try again in a minute, or ask your administrator to raise the worker's session limit."
        ),
    ),
    "context_too_long": (
        QT_TRANSLATE_NOOP("Errors", "This conversation is longer than the model can hold."),
        QT_TRANSLATE_NOOP("Errors", "Start a new conversation (earlier ones stay in the list)."),
    ),
}


def explain(error: BaseException) -> tuple[str, str]:
    """(what happened, what to do) for any error the app can meet, in the user's language. The error's own
    text (a file name, the worker's words) is quoted as it came: the engine's messages are not translated."""
    if isinstance(error, WorkerError):
        if error.code == "layer_mismatch":  # the two depths, so the user knows which to choose
            what, todo = advice(error.code)
            return f"{what} ({error})", todo
        if error.code in WORKER_ADVICE:
            return advice(error.code)
        return (
            translate("Errors", "The cloud worker reported an error ({code}): {error}").format(
                code=error.code, error=error
            ),
            translate("Errors", "Try again; if it persists, tell your administrator."),
        )
    if isinstance(error, NotAsReviewed):
        return (
            translate(
                "Errors", "Nothing was sent: the model would have read your message otherwise than you reviewed it."
            ),
            translate("Errors", "Press Regenerate to review it again."),
        )
    if isinstance(error, ModelError):
        return (
            translate("Errors", "The model cannot be loaded: {error}").format(error=error),
            translate("Errors", "Check the model in Settings, or reinstall splitchat."),
        )
    if isinstance(error, CredentialError):  # the data layer's problem, said in the user's language
        return error_text(error), translate("Errors", "Tokens are only kept in the system keyring.")
    if isinstance(error, (SettingsError, CorpusError)):
        return error_text(error), translate("Errors", "Correct it and try again.")
    if isinstance(error, FileExistsError):  # a folder the app did not write: nothing in it was touched
        return str(error), translate("Errors", "Choose an empty or new folder.")
    if isinstance(error, FileNotFoundError):
        return (
            translate("Errors", "A file is missing: {file}").format(file=error.filename),
            translate("Errors", "Reinstall splitchat or choose another model."),
        )
    return (
        translate("Errors", "Something went wrong: {error}").format(error=error),
        translate("Errors", "Your conversation is saved. Try again; if it persists, report it."),
    )


def advice(code: str) -> tuple[str, str]:
    """A worker error's (what happened, what to do), translated."""
    what, todo = WORKER_ADVICE[code]
    return translate("Errors", what), translate("Errors", todo)


# How an answer ended, as its bubble says it: the UI's words for the data layer's ending codes
# (app/data/conversations.py ENDINGS, which the Markdown export writes in English), translated here because
# the data layer does not import Qt.
ENDING_TEXT = {
    Ending.LENGTH: QT_TRANSLATE_NOOP("Endings", "cut at the longest-answer limit (Settings → Decoding)"),
    Ending.STOPPED: QT_TRANSLATE_NOOP("Endings", "stopped before the end"),
    Ending.REPEATING: QT_TRANSLATE_NOOP("Endings", "stopped: the answer was repeating itself"),
    Ending.LOST: QT_TRANSLATE_NOOP("Endings", "cut off: the connection to the worker was lost"),
    Ending.FAILED: QT_TRANSLATE_NOOP("Endings", "cut off by an error"),
}
UNFINISHED = QT_TRANSLATE_NOOP("Endings", "unfinished: splitchat closed before the end")


def ending_text(complete: bool, ending: str) -> str:
    """What an answer's bubble says about where it stops ("" for an answer that simply finished)."""
    if ending in ENDING_TEXT:
        return translate("Endings", ENDING_TEXT[ending])
    return "" if complete else translate("Endings", UNFINISHED)
