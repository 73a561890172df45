"""The messages both halves exchange, parsed once at the edge into typed values (see docs/PROTOCOL.md).

Requests: ``open``, ``forward`` (a block of hidden states and the cache edit before it), ``close``.
Replies: ``hello`` (first, unasked), ``opened``, ``result`` (the block's output), ``closed``, ``error``.
Every request carries a ``seq`` that its reply repeats.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import torch

from app.model.kv_cache import CacheEdit
from app.wire.codecs import check_codec
from app.wire.frames import WIRE_DTYPES, ErrorCode, Frame, ProtocolError, pack_ancestry, unpack_ancestry

REPLY_DTYPES = tuple(WIRE_DTYPES)


@dataclass(frozen=True)
class Hello:
    """What the worker says first: which layers it serves and how."""

    fingerprint: str
    first_layer: int
    last_layer: int
    num_layers: int
    hidden_size: int
    model_type: str
    compute_dtype: str
    max_frame: int
    session_ttl_s: float
    max_context: int
    max_block: int = 2048  # most tokens the worker takes in one forward request
    stored_dtype: str | None = None  # the dtype its shard stores the weights in (what the fingerprint hashes)
    max_pass_rows: int | None = None  # most rows of all sessions the worker computes in one pass
    codecs: tuple[str, ...] = ()  # payload compressions the worker reads and writes (codecs.py); none: raw only

    def to_header(self) -> dict:
        return {"type": "hello", **self.__dict__, "codecs": list(self.codecs)}

    @classmethod
    def from_header(cls, header: dict) -> Hello:
        optional = {"max_block", "stored_dtype", "max_pass_rows", "codecs"}
        try:
            fields = {k: header[k] for k in cls.__dataclass_fields__ if k not in optional or k in header}
        except KeyError as exc:
            raise ProtocolError(ErrorCode.MALFORMED, f"hello lacks {exc}") from None
        codecs = fields.get("codecs", [])
        if not isinstance(codecs, list) or not all(isinstance(c, str) for c in codecs):
            raise ProtocolError(ErrorCode.MALFORMED, "hello's codecs must be a list of names")
        return cls(**{**fields, "codecs": tuple(codecs)})

    @property
    def max_tree_rows(self) -> int:
        """The most rows a speculative tree may have here: trees are never cut, so one pass and one request."""
        return min(self.max_block, self.max_pass_rows or self.max_block)


@dataclass
class ForwardRequest:
    """One block for the middle layers, plus the cache edit that precedes it."""

    session: str
    shape: list[int]
    dtype: str
    positions: list[int]
    ancestry: torch.Tensor | None = None
    edit: CacheEdit = field(default_factory=CacheEdit)
    reply_dtype: str | None = None
    long_rope: bool = False  # LongRoPE models past their trained context: the long factors (families.py)
    codec: str | None = None  # how the payload is compressed (codecs.py); None: raw
    reply_codec: str | None = None  # a codec the reply may use when it is large enough to gain from it

    def to_header(self, seq: int) -> dict:
        header: dict = {
            "type": "forward",
            "seq": seq,
            "session": self.session,
            "shape": self.shape,
            "dtype": self.dtype,
        }
        start = self.positions[0]
        header["pos"] = start
        if self.positions != list(range(start, start + len(self.positions))):
            # A tree or window: offsets from the first position, so the header does not grow with context.
            header["pos_offsets"] = [p - start for p in self.positions]
        if self.ancestry is not None:
            header["ancestry"] = pack_ancestry(self.ancestry)
        if self.edit.crop is not None:
            header["crop"] = self.edit.crop
        if self.edit.keep_start is not None:
            header["keep"] = {"start": self.edit.keep_start, "indices": list(self.edit.keep_indices)}
        if self.reply_dtype:
            header["reply_dtype"] = self.reply_dtype
        if self.long_rope:
            header["long_rope"] = True
        if self.codec:
            header["codec"] = self.codec
        if self.reply_codec:
            header["reply_codec"] = self.reply_codec
        return header

    @classmethod
    def from_header(cls, header: dict, max_rows: int = 1 << 16, max_tree_rows: int | None = None) -> ForwardRequest:
        """Validate a forward header; nothing is allocated before the declared sizes are checked.

        ``max_tree_rows`` (the worker's ``max_pass_rows``) caps a block with an ancestry: a tree is never
        cut, so a larger one would run as one pass over the limit and hold up every session in it.
        """
        shape = header.get("shape")
        if not (isinstance(shape, list) and len(shape) == 2 and all(_is_int(d) and d > 0 for d in shape)):
            raise ProtocolError(ErrorCode.MALFORMED, f"forward shape must be [tokens, hidden], got {shape!r}")
        if shape[0] > max_rows:
            raise ProtocolError(ErrorCode.BLOCK_TOO_LARGE, f"a block of {shape[0]} tokens exceeds {max_rows}")
        if max_tree_rows is not None and header.get("ancestry") is not None and shape[0] > max_tree_rows:
            raise ProtocolError(
                ErrorCode.BLOCK_TOO_LARGE, f"a tree of {shape[0]} tokens exceeds the {max_tree_rows} rows of a pass"
            )
        if not isinstance(header.get("dtype", ""), str) or not isinstance(header.get("reply_dtype") or "", str):
            raise ProtocolError(ErrorCode.MALFORMED, "dtype and reply_dtype must be strings")
        session = header.get("session")
        if not isinstance(session, str):
            raise ProtocolError(ErrorCode.MALFORMED, "forward needs a session id")
        pos, offsets = header.get("pos"), header.get("pos_offsets")
        if not _is_int(pos) or pos < 0:
            raise ProtocolError(ErrorCode.MALFORMED, "pos must be a non-negative start position")
        if offsets is None:
            positions = list(range(pos, pos + shape[0]))
        elif isinstance(offsets, list) and len(offsets) == shape[0] and all(_is_int(o) for o in offsets):
            positions = [pos + o for o in offsets]
            if min(positions) < 0:
                raise ProtocolError(ErrorCode.MALFORMED, "positions must not be negative")
        else:
            raise ProtocolError(ErrorCode.MALFORMED, "pos_offsets must hold one integer per token")
        ancestry = header.get("ancestry")
        if not isinstance(header.get("long_rope", False), bool):
            raise ProtocolError(ErrorCode.MALFORMED, "long_rope must be true or false")
        codec, reply_codec = header.get("codec"), header.get("reply_codec")
        if not isinstance(codec or "", str) or not isinstance(reply_codec or "", str):
            raise ProtocolError(ErrorCode.MALFORMED, "codec and reply_codec must be strings")
        check_codec(codec or None)  # before anything is unpacked or computed for it
        check_codec(reply_codec or None)
        return cls(
            session=session,
            shape=shape,
            dtype=header.get("dtype", ""),
            positions=positions,
            ancestry=None if ancestry is None else unpack_ancestry(ancestry, shape[0]),
            edit=_cache_edit(header),
            reply_dtype=header.get("reply_dtype"),
            long_rope=header.get("long_rope", False),
            codec=codec or None,
            reply_codec=reply_codec or None,
        )


def _cache_edit(header: dict) -> CacheEdit:
    keep = header.get("keep")
    if keep is None:
        return CacheEdit(crop=_optional_int(header, "crop"))
    if not isinstance(keep, dict) or not _is_int(keep.get("start")):
        raise ProtocolError(ErrorCode.MALFORMED, "keep must be {start, indices}")
    indices = keep.get("indices", [])
    if not isinstance(indices, list) or not all(_is_int(i) for i in indices):
        raise ProtocolError(ErrorCode.MALFORMED, "keep indices must be integers")
    if len(set(indices)) != len(indices):
        raise ProtocolError(ErrorCode.MALFORMED, "keep indices must be distinct")
    return CacheEdit(crop=_optional_int(header, "crop"), keep_start=keep["start"], keep_indices=tuple(indices))


def _is_int(value: object) -> bool:
    """An integer in JSON's sense: Python's ``True`` is an int too, but not a size or a position."""
    return isinstance(value, int) and not isinstance(value, bool)


def _optional_int(header: dict, key: str) -> int | None:
    value = header.get(key)
    if value is not None and (not _is_int(value) or value < 0):
        raise ProtocolError(ErrorCode.MALFORMED, f"{key} must be a non-negative integer")
    return value


@dataclass(frozen=True)
class OpenRequest:
    """Ask for a new session (a KV cache of its own, bound to the token of this connection)."""

    def to_header(self, seq: int) -> dict:
        return {"type": "open", "seq": seq}


@dataclass(frozen=True)
class CloseRequest:
    """End a session and free its cache."""

    session: str

    def to_header(self, seq: int) -> dict:
        return {"type": "close", "seq": seq, "session": self.session}

    @classmethod
    def from_header(cls, header: dict) -> CloseRequest:
        return cls(str(header.get("session")))


@dataclass(frozen=True)
class Opened:
    """A session was opened."""

    seq: int | None
    session: str

    def to_header(self) -> dict:
        return {"type": "opened", "seq": self.seq, "session": self.session}

    @classmethod
    def from_header(cls, header: dict) -> Opened:
        session = header.get("session")
        if not isinstance(session, str) or not session:
            raise ProtocolError(ErrorCode.MALFORMED, "opened needs a session id")
        return cls(header.get("seq"), session)


@dataclass(frozen=True)
class Closed:
    """A session was closed."""

    seq: int | None

    def to_header(self) -> dict:
        return {"type": "closed", "seq": self.seq}

    @classmethod
    def from_header(cls, header: dict) -> Closed:
        return cls(header.get("seq"))


@dataclass(frozen=True)
class ForwardResult:
    """The middle layers' output for one forward frame (its payload holds the tensor), and its costs."""

    seq: int | None
    shape: list[int]  # [tokens, hidden]
    dtype: str
    compute_ms: float  # the layers, on the worker's compute thread
    serialize_ms: float  # decoding the request and encoding this reply, on the worker
    cache_len: int  # the session's cache length after this block
    pass_id: int = 0  # which of the worker's batched passes finished this block (0: an older worker)
    pass_rows: int = 0  # rows of every session in that pass
    queue_ms: float = 0.0  # waiting for a pass with room, on the worker
    codec: str | None = None  # how the payload is compressed (the request's reply_codec, or None: raw)

    def to_header(self) -> dict:
        header = {
            "type": "result",
            "seq": self.seq,
            "shape": self.shape,
            "dtype": self.dtype,
            "compute_ms": round(self.compute_ms, 3),
            "serialize_ms": round(self.serialize_ms, 3),
            "cache_len": self.cache_len,
            "pass": self.pass_id,
            "pass_rows": self.pass_rows,
            "queue_ms": round(self.queue_ms, 3),
        }
        if self.codec:
            header["codec"] = self.codec
        return header

    @classmethod
    def from_header(cls, header: dict) -> ForwardResult:
        shape, dtype = header.get("shape"), header.get("dtype")
        if not isinstance(header.get("codec") or "", str):
            raise ProtocolError(ErrorCode.MALFORMED, "a result's codec must be a string")
        if not (isinstance(shape, list) and len(shape) == 2 and all(isinstance(d, int) and d > 0 for d in shape)):
            raise ProtocolError(ErrorCode.MALFORMED, f"result shape must be [tokens, hidden], got {shape!r}")
        if dtype not in REPLY_DTYPES:
            raise ProtocolError(ErrorCode.MALFORMED, f"result dtype {dtype!r} is not a wire dtype")
        try:
            return cls(
                header.get("seq"),
                shape,
                dtype,
                float(header.get("compute_ms", 0.0)),
                float(header.get("serialize_ms", 0.0)),
                int(header.get("cache_len", 0)),
                int(header.get("pass", 0)),
                int(header.get("pass_rows", 0)),
                float(header.get("queue_ms", 0.0)),
                header.get("codec") or None,
            )
        except (TypeError, ValueError):
            raise ProtocolError(ErrorCode.MALFORMED, "result timings must be numbers") from None


@dataclass(frozen=True)
class ErrorReply:
    """A request the worker refused or failed, with its typed code."""

    code: str  # an ErrorCode value; kept as text so a newer worker's codes still reach the user
    message: str
    seq: int | None = None

    def to_header(self) -> dict:
        return {"type": "error", "code": self.code, "message": self.message, "seq": self.seq}

    @classmethod
    def of(cls, error: ProtocolError, seq: int | None) -> ErrorReply:
        return cls(error.code.value, error.message, seq)

    @classmethod
    def from_header(cls, header: dict) -> ErrorReply:
        return cls(str(header.get("code", ErrorCode.INTERNAL.value)), str(header.get("message")), header.get("seq"))


Reply = Opened | Closed | ForwardResult | ErrorReply
_REPLIES: dict[str, type] = {"opened": Opened, "closed": Closed, "result": ForwardResult, "error": ErrorReply}


def parse_reply(frame: Frame) -> Reply:
    """The typed reply a frame holds; MALFORMED for anything else."""
    kind = _REPLIES.get(frame.type)
    if kind is None:
        raise ProtocolError(ErrorCode.MALFORMED, f"unexpected reply type {frame.type!r}")
    return kind.from_header(frame.header)
