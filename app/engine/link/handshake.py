"""Reaching a worker: the connection (TLS, a pinned certificate, the bearer token), the worker's hello and
the checks that it serves this computer's split and weights, and retrying while it cannot be reached.
Every failure is a ``WorkerError`` whose code says which."""

from __future__ import annotations

import asyncio
import ssl
import time
from collections.abc import Awaitable, Callable
from typing import TypeVar

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus

from app.engine.link.link_codes import LinkErrorCode, WorkerError
from app.wire.endpoints import UNENCRYPTED_REFUSAL, encrypted_or_local
from app.wire.frames import DEFAULT_MAX_FRAME, ErrorCode, ProtocolError, decode_frame
from app.wire.log_redaction import redacting_logger
from app.wire.messages import Hello
from app.wire.tls import PinMismatch, check_pin, client_context, normalise_pin

M = TypeVar("M")


def check_hello(hello: Hello) -> None:
    """WorkerError unless the sizes in ``hello`` are ones this side can cut requests by (a hello is the
    worker's word: its numbers decide how many rows go in a frame)."""

    def whole(value: object, least: int) -> bool:
        return isinstance(value, int) and not isinstance(value, bool) and value >= least

    sizes = {"hidden_size": 1, "max_frame": 1, "max_block": 1, "first_layer": 0, "last_layer": 0, "num_layers": 0}
    bad = [name for name, least in sizes.items() if not whole(getattr(hello, name), least)]
    if hello.max_pass_rows is not None and not whole(hello.max_pass_rows, 1):
        bad.append("max_pass_rows")
    if not isinstance(hello.fingerprint, str):
        bad.append("fingerprint")
    if bad:
        raise WorkerError(ErrorCode.MALFORMED, f"the worker's hello is not one this side reads ({', '.join(bad)})")


class _PinnedConnection(ClientConnection):
    """Checks the pinned certificate after the TLS handshake, before the request carrying the token."""

    pin: str = ""

    async def handshake(self, *args, **kwargs) -> None:
        check_pin(self.transport.get_extra_info("ssl_object"), self.pin)
        await super().handshake(*args, **kwargs)


def refuse_unencrypted(endpoint: str, allow_unencrypted: bool) -> None:
    """WorkerError (refused, nothing sent) for ws:// beyond this computer, unless the policy allows it."""
    if not (allow_unencrypted or encrypted_or_local(endpoint)):
        raise WorkerError(LinkErrorCode.UNENCRYPTED, UNENCRYPTED_REFUSAL.format(endpoint=endpoint), refused=True)


async def open_checked(
    endpoint: str,
    token: str,
    *,
    expected_fingerprint: str | Callable[[str | None], str] | None = None,
    expected_layers: tuple[int, int] | None = None,
    max_frame: int = DEFAULT_MAX_FRAME,
    open_timeout: float = 10.0,
    cert_sha256: str | None = None,
    allow_unencrypted: bool = False,
) -> tuple[ClientConnection, Hello]:
    """A connection to the worker at ``endpoint`` and its hello, once the hello shows the layers and weights
    expected (``RemoteMiddle.connect`` says what each argument means); the connection is closed on any
    failure."""
    refuse_unencrypted(endpoint, allow_unencrypted)
    secure = endpoint.startswith("wss://")
    if cert_sha256 and not secure:
        raise WorkerError(LinkErrorCode.TLS_REQUIRED, "a certificate pin needs a wss:// endpoint")
    tls: dict = {}
    if secure:
        tls["ssl"] = client_context(cert_sha256)
        if cert_sha256:
            normalise_pin(cert_sha256)
            tls["create_connection"] = type("Pinned", (_PinnedConnection,), {"pin": cert_sha256})
    try:
        ws = await connect(
            endpoint,
            additional_headers={"Authorization": f"Bearer {token}"},
            compression=None,
            max_size=2 * max_frame + 65536,
            open_timeout=open_timeout,
            proxy=None,  # the worker is reached directly; system proxies would see our traffic
            logger=redacting_logger("splitchat.websockets.client"),
            **tls,
        )
    except InvalidStatus as exc:
        status = exc.response.status_code
        if status == 401:
            raise WorkerError(
                LinkErrorCode.UNAUTHORIZED, "the worker refused the token (401): check the bearer token"
            ) from None
        raise WorkerError(LinkErrorCode.HANDSHAKE, f"the worker answered HTTP {status}") from None
    except PinMismatch as exc:
        raise WorkerError(
            LinkErrorCode.PIN_MISMATCH, f"refused the worker at {endpoint}: {exc}. Nothing was sent to it."
        ) from None
    except ssl.SSLCertVerificationError as exc:
        raise WorkerError(
            LinkErrorCode.TLS_UNVERIFIED,
            f"the worker's certificate could not be verified ({exc.verify_message}); for a self-signed "
            "worker, pin its certificate's SHA-256 in the provider settings",
        ) from None
    except (TimeoutError, OSError, InvalidHandshake) as exc:
        raise WorkerError(LinkErrorCode.UNREACHABLE, f"cannot reach the worker at {endpoint}: {exc}") from None
    try:
        hello = await read_hello(ws)
        # Layers first: a worker cut at another depth holds other weights too, and "a different split
        # depth" is the cause a person can act on.
        if expected_layers is not None and (hello.first_layer, hello.last_layer) != tuple(expected_layers):
            raise WorkerError(
                LinkErrorCode.LAYER_MISMATCH,
                f"the worker serves layers {hello.first_layer}–{hello.last_layer - 1} (split depth "
                f"{hello.first_layer}); this computer's split needs layers {expected_layers[0]}–"
                f"{expected_layers[1] - 1} (split depth {expected_layers[0]})",
            )
        if callable(expected_fingerprint):
            expected_fingerprint = await asyncio.to_thread(expected_fingerprint, hello.stored_dtype)
        if expected_fingerprint is not None and hello.fingerprint != expected_fingerprint:
            raise WorkerError(
                LinkErrorCode.FINGERPRINT_MISMATCH,
                f"the worker serves weights {hello.fingerprint[:19]}…, expected {expected_fingerprint[:19]}…: "
                "re-export the worker bundle for this model and split",
            )
        return ws, hello
    except BaseException:
        await ws.close()
        raise


async def read_hello(ws: ClientConnection) -> Hello:
    """The worker's first frame, read as a hello with sizes this side can use; WorkerError otherwise."""
    try:
        hello = Hello.from_header(decode_frame(await ws.recv()).header)
    except ProtocolError as exc:
        raise WorkerError(exc.code.value, f"the worker's hello is not one this side reads: {exc.message}") from None
    except ConnectionClosed as exc:
        raise WorkerError(
            LinkErrorCode.CONNECTION_LOST, f"the worker closed the connection before its hello: {exc}"
        ) from None
    check_hello(hello)
    return hello


RETRYABLE = frozenset({LinkErrorCode.UNREACHABLE, LinkErrorCode.CONNECTION_LOST, LinkErrorCode.HANDSHAKE})


async def connect_with_retries(
    connect: Callable[[], Awaitable[M]],
    window_s: float = 60.0,
    notice: Callable[[str], None] | None = None,
    before_attempt: Callable[[], Awaitable[None]] | None = None,
) -> M:
    """``connect()`` until it succeeds, backing off 0.25 s, 0.5 s, … 4 s between tries.

    Only a worker that cannot be reached is retried; a refusal (401, wrong weights) is final. After
    ``window_s`` the last error is raised.
    """
    deadline = time.monotonic() + window_s
    delay = 0.25
    while True:
        try:
            if before_attempt is not None:
                await before_attempt()
            return await connect()
        except WorkerError as exc:
            if exc.code not in RETRYABLE or time.monotonic() + delay > deadline:
                raise
            if notice:
                notice(f"Worker unreachable; reconnecting in {delay:.2g} s…")
            await asyncio.sleep(delay)
            delay = min(2 * delay, 4.0)
