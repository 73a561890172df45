"""Loggers for the WebSocket library that never write a bearer token.

websockets logs every handshake header at DEBUG level, ``Authorization`` included; both halves hand it
one of these loggers instead of the library's default.
"""

from __future__ import annotations

import logging

SECRET_HEADERS = ("authorization", "proxy-authorization")


class RedactCredentials(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple) and len(record.args) == 2:
            if str(record.args[0]).lower() in SECRET_HEADERS:
                record.args = (record.args[0], "[redacted]")
        return True


def redacting_logger(name: str) -> logging.Logger:
    logger = logging.getLogger(name)
    if not any(isinstance(f, RedactCredentials) for f in logger.filters):
        logger.addFilter(RedactCredentials())
    return logger
