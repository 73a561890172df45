"""A forward request's reply, read against what the request asked for, never against what the reply says."""

from __future__ import annotations

import math
from dataclasses import dataclass

import torch

from app.engine.link.link_codes import WorkerError
from app.wire.codecs import compressed_bound
from app.wire.frames import ErrorCode, ProtocolError, element_size
from app.wire.messages import ForwardRequest, ForwardResult
from app.wire.tensor_payload import unpack_rows


class ReplyMismatch(WorkerError):
    """A reply that is not the one its request asked for: another shape, dtype, codec or byte length.

    Found on the reply's header, before its payload is decompressed or anything is allocated for it: a worker
    this side trusted to declare its reply's size could make a frame under 1 MiB unpack to gigabytes here.
    """

    CODE = "reply_mismatch"

    def __init__(self, what: str):
        super().__init__(self.CODE, f"the worker's reply does not match the request: {what}; nothing of it was used")


@dataclass(frozen=True)
class ExpectedReply:
    """What the reply to one forward frame must be, fixed when the request is made: its rows as asked, in
    the dtype and codec asked. The reply is read against this, never against what its own header says."""

    seq: int
    rows: int
    hidden: int
    dtype: str
    codec: str | None  # the request's reply_codec: the reply comes compressed exactly when it was asked to

    @classmethod
    def to(cls, seq: int, request: ForwardRequest) -> ExpectedReply:
        rows, hidden = request.shape
        return cls(seq, rows, hidden, request.reply_dtype or request.dtype, request.reply_codec)

    @property
    def nbytes(self) -> int:
        return self.rows * self.hidden * element_size(self.dtype)

    def check(self, result: ForwardResult, payload_bytes: int) -> None:
        """ReplyMismatch unless ``result``'s header declares exactly this reply and ``payload_bytes`` can hold it."""
        if result.dtype != self.dtype:
            raise ReplyMismatch(f"its rows are {result.dtype}, this side asked for {self.dtype}")
        if list(result.shape) != [self.rows, self.hidden]:
            raise ReplyMismatch(f"it declares shape {result.shape}, this side asked for [{self.rows}, {self.hidden}]")
        if result.codec != self.codec:
            raise ReplyMismatch(
                f"its payload is {codec_name(result.codec)}, this side asked for {codec_name(self.codec)}"
            )
        if self.codec is None and payload_bytes != self.nbytes:
            raise ReplyMismatch(f"it carries {payload_bytes} bytes, the rows asked for take {self.nbytes}")
        if self.codec is not None and payload_bytes > compressed_bound(self.nbytes):
            raise ReplyMismatch(f"{payload_bytes} compressed bytes cannot hold the {self.nbytes} bytes asked for")
        timings = (result.compute_ms, result.serialize_ms, result.queue_ms)
        if not all(math.isfinite(ms) and ms >= 0 for ms in timings):
            raise WorkerError(ErrorCode.MALFORMED, f"the worker sent a bad reply: timings {timings} are not durations")

    def rows_of(self, payload: bytes) -> torch.Tensor:
        """The ``[rows, hidden]`` tensor a checked payload holds, decompressed into at most ``nbytes``."""
        try:
            return unpack_rows(payload, self.dtype, [self.rows, self.hidden], self.codec)
        except ProtocolError as exc:
            if exc.code is ErrorCode.SHAPE_MISMATCH:
                raise ReplyMismatch(exc.message) from None
            raise WorkerError(exc.code.value, f"the worker sent a bad reply: {exc.message}") from None


def codec_name(codec: str | None) -> str:
    return "raw" if codec is None else f"compressed as {codec!r}"
