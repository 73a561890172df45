"""TLS for the link: the worker's server context, and the client's — system trust or a pinned certificate.

A pinned connection trusts exactly one certificate, named by the SHA-256 of its DER bytes (what
``openssl x509 -noout -fingerprint -sha256`` prints). The pin is checked on the very connection that
will carry the bearer token, after the TLS handshake and before the token is sent.
"""

from __future__ import annotations

import hashlib
import ssl
from pathlib import Path


class PinMismatch(Exception):
    """The worker presented a certificate other than the pinned one."""


def normalise_pin(pin: str) -> str:
    """'AB:CD:…' or 'abcd…' -> 64 lowercase hex digits; ValueError otherwise."""
    hex_digits = pin.replace(":", "").strip().lower()
    if len(hex_digits) != 64 or any(c not in "0123456789abcdef" for c in hex_digits):
        raise ValueError("a certificate pin is a SHA-256 fingerprint: 64 hex digits (colons allowed)")
    return hex_digits


def certificate_sha256(der: bytes) -> str:
    return hashlib.sha256(der).hexdigest()


def file_certificate_sha256(cert_file: Path) -> str:
    """The pin of a PEM certificate file (for the admin, and for tests)."""
    return certificate_sha256(ssl.PEM_cert_to_DER_cert(Path(cert_file).read_text()))


def server_context(cert_file: Path, key_file: Path) -> ssl.SSLContext:
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    context.load_cert_chain(cert_file, key_file)
    return context


def client_context(pin: str | None) -> ssl.SSLContext:
    """System trust and hostname checks; with a pin, trust decided by the pin alone (checked later)."""
    context = ssl.create_default_context()
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    if pin:
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE  # the pin check replaces chain verification
    return context


def check_pin(ssl_object: ssl.SSLObject | None, pin: str) -> None:
    der = ssl_object.getpeercert(binary_form=True) if ssl_object is not None else None
    if not der:
        raise PinMismatch("the worker presented no certificate")
    seen = certificate_sha256(der)
    if seen != normalise_pin(pin):
        raise PinMismatch(f"the worker's certificate is {seen[:16]}…, the pin says {normalise_pin(pin)[:16]}…")
