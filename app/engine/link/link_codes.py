"""What can go wrong on this side of the link, beside the worker's own typed replies (``app.wire.frames.ErrorCode``):
the codes a ``WorkerError`` carries when the workstation, not the worker, found the fault, and the error itself
(torch-free: the window words it without loading the engine). The UI says each in
the user's language by its code (``app/ui/messages.py``)."""

from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from app.wire.frames import ErrorCode


class LinkErrorCode(StrEnum):
    UNREACHABLE = "unreachable"  # no connection could be made
    HANDSHAKE = "handshake"  # the WebSocket upgrade was refused (not a 401: that is a token's)
    CONNECTION_LOST = "connection_lost"  # the connection closed before or during a request
    UNENCRYPTED = "unencrypted"  # a remote endpoint over ws://, refused before anything is sent
    TLS_REQUIRED = "tls_required"  # a certificate pin with a ws:// endpoint
    NO_TOKEN = "no_token"  # no access token is set for the endpoint
    OUT_OF_ORDER = "out_of_order"  # a reply to another request than the one awaited
    UNAUTHORIZED = "unauthorized"  # the worker refused the token (HTTP 401)
    PIN_MISMATCH = "pin_mismatch"  # the worker's certificate is not the pinned one: nothing was sent
    TLS_UNVERIFIED = "tls_unverified"  # a certificate no authority vouches for, and no pin
    LAYER_MISMATCH = "layer_mismatch"  # the worker serves other layers than this split's middle
    FINGERPRINT_MISMATCH = "fingerprint_mismatch"  # the worker serves other weights


class WorkerError(Exception):
    """The worker refused a request or could not be used; ``code`` says which way.

    ``refused``: the worker answered with an error reply made before it changed the session (every code but
    ``internal``, docs/PROTOCOL.md), so its cache is as it was. Otherwise — an internal error in its pass, a
    reply this side could not read, a lost link — the request's cache edit may have been applied.
    """

    def __init__(self, code: ErrorCode | LinkErrorCode | str, message: str, refused: bool = False):
        super().__init__(message)
        self.code = code
        self.refused = refused
