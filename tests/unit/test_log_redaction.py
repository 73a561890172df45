"""The WebSocket loggers both halves use never write a bearer token, even at DEBUG."""

from __future__ import annotations

import logging

from app.wire.log_redaction import redacting_logger


def test_handshake_headers_are_logged_without_the_token(caplog):
    caplog.set_level(logging.DEBUG)
    logger = redacting_logger("splitchat.test")
    logger.debug("> %s: %s", "Authorization", "Bearer s3cret")  # how websockets logs each header
    logger.debug("< %s: %s", "proxy-authorization", "Basic s3cret")
    logger.debug("> %s: %s", "Host", "127.0.0.1:8765")
    assert "s3cret" not in caplog.text
    assert "Authorization: [redacted]" in caplog.text and "Host: 127.0.0.1:8765" in caplog.text
    assert redacting_logger("splitchat.test").filters == logger.filters  # one filter, however often asked
    assert len(logger.filters) == 1
