"""Loggers for the WebSocket library that never write a bearer token or what a frame carries.

websockets logs every handshake header at DEBUG level, ``Authorization`` included, and every frame with
the first and last bytes of its payload — hidden states, which give the text away (docs/PRIVACY.md).
Both halves hand it one of these loggers instead of the library's default: headers keep their names,
frames their kind and length.
"""

from __future__ import annotations

import logging

SECRET_HEADERS = ("authorization", "proxy-authorization")


class RedactCredentials(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple) and len(record.args) == 2:
            if str(record.args[0]).lower() in SECRET_HEADERS:
                record.args = (record.args[0], "[redacted]")
        if isinstance(record.args, tuple) and len(record.args) == 1 and _is_frame(record.args[0]):
            frame = record.args[0]
            record.args = (f"{frame.opcode.name} [{len(frame.data)} bytes]",)
        return True


def _is_frame(value: object) -> bool:
    return hasattr(value, "opcode") and isinstance(getattr(value, "data", None), bytes | bytearray | memoryview)


def redacting_logger(name: str) -> logging.Logger:
    logger = logging.getLogger(name)
    if not any(isinstance(f, RedactCredentials) for f in logger.filters):
        logger.addFilter(RedactCredentials())
    return logger
