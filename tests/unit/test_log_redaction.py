"""The WebSocket loggers both halves use never write a bearer token, even at DEBUG."""

from __future__ import annotations

import logging

import torch

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


def test_frames_are_logged_by_kind_and_length_never_by_content(caplog):
    from websockets.frames import Frame, Opcode

    from app.wire.frames import encode_frame, tensor_to_bytes

    caplog.set_level(logging.DEBUG)
    logger = redacting_logger("splitchat.test.frames")
    hidden = torch.arange(64, dtype=torch.float32).view(1, 64) / 7
    payload = encode_frame({"type": "forward", "seq": 1}, tensor_to_bytes(hidden[0], "float32"))
    logger.debug("> %s", Frame(Opcode.BINARY, payload))  # how websockets logs each frame
    logger.debug("< %s", Frame(Opcode.TEXT, b"a text frame"))
    shown = " ".join(f"{byte:02x}" for byte in payload[-8:])
    assert shown not in caplog.text and "a text frame" not in caplog.text
    assert f"> BINARY [{len(payload)} bytes]" in caplog.text and "< TEXT [12 bytes]" in caplog.text
