"""Where this workstation's middle layers run, and how to open a session there, checked.

A link names an endpoint and its token and the weights the worker must serve (the fingerprint and
layer range this workstation's own weights imply). For the embedded default it also owns the loopback
worker process it started. The chat, the bench and the load bench all reach the worker through one.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from app.engine.link import prelaunch
from app.engine.link.export import embedded_shard, expected_fingerprint
from app.engine.link.link_codes import LinkErrorCode, WorkerError
from app.engine.link.local_worker import LocalWorker
from app.engine.link.transport import RemoteMiddle
from app.engine.source.specs import ModelSource
from app.jobs import Progress
from app.model.choices import SplitSpec
from app.wire.frames import DEFAULT_MAX_FRAME


@dataclass
class WorkerLink:
    """An endpoint, its token, and what the worker there must serve."""

    endpoint: str | None  # None until an embedded worker listens
    token: str | None
    fingerprint: str
    layers: tuple[int, int]
    wire_dtype: str
    max_frame: int = DEFAULT_MAX_FRAME
    cert_sha256: str | None = None
    local_worker: LocalWorker | None = None
    source: ModelSource | None = None
    split: SplitSpec | None = None
    # Compress large frames both ways (wire/codecs.py): a link slower than ~500 Mbit/s gains from it, the
    # loopback to an embedded worker does not.
    compress: bool = False
    # ws:// beyond this computer: only where the administrator's policy allows it (endpoints.py).
    allow_unencrypted: bool = False

    @classmethod
    def remote(
        cls,
        source: ModelSource,
        split: SplitSpec,
        endpoint: str,
        token: str | None,
        wire_dtype: str,
        max_frame: int = DEFAULT_MAX_FRAME,
        cert_sha256: str | None = None,
        compress: bool = True,
        allow_unencrypted: bool = False,
    ) -> WorkerLink:
        """A worker someone else runs (the admin's GPU server)."""
        if not token:
            raise WorkerError(LinkErrorCode.NO_TOKEN, f"no access token is set for the worker at {endpoint}")
        return cls._serving(
            source,
            split,
            wire_dtype,
            max_frame,
            endpoint=endpoint,
            token=token,
            cert_sha256=cert_sha256,
            compress=compress,
            allow_unencrypted=allow_unencrypted,
        )

    @classmethod
    def embedded(
        cls,
        source: ModelSource,
        split: SplitSpec,
        wire_dtype: str,
        max_frame: int = DEFAULT_MAX_FRAME,
        progress: Progress | None = None,
        device: str = "cpu",
        dtype: str = "auto",
        extra_args: tuple[str, ...] = (),
    ) -> WorkerLink:
        """A worker process on loopback serving this split's shard, launched now; ``wait_ready`` before use.

        It loads its half while this process loads the edge.
        """
        shard = embedded_shard(source, split, progress)  # fingerprinted: the link below costs no more hashing
        link = cls._serving(source, split, wire_dtype, max_frame, endpoint=None, token=None)
        early = prelaunch.claim(shard, device, dtype, max_frame, extra_args)  # launched at the app's start
        if early is not None:
            link.local_worker = early
        else:
            link.local_worker = LocalWorker(shard, device, dtype, max_frame=max_frame, extra_args=extra_args)
            link.local_worker.launch()
        return link

    @classmethod
    def _serving(cls, source: ModelSource, split: SplitSpec, wire_dtype: str, max_frame: int, **where) -> WorkerLink:
        """A link whose worker must serve exactly this split of ``source``'s weights."""
        fingerprint, layers = expected_fingerprint(source, split), split.middle(source.num_layers)
        return cls(
            fingerprint=fingerprint,
            layers=layers,
            wire_dtype=wire_dtype,
            max_frame=max_frame,
            source=source,
            split=split,
            **where,
        )

    def fingerprint_for(self, stored_dtype: str | None) -> str:
        """The fingerprint of the middle as a shard storing it in ``stored_dtype`` holds it."""
        stored = {str(d).removeprefix("torch.") for d in self.source.weights().dtypes()} if self.source else set()
        if stored_dtype is None or self.source is None or stored == {stored_dtype}:
            return self.fingerprint
        return expected_fingerprint(self.source, self.split, stored_dtype)

    @property
    def embedded_worker(self) -> bool:
        return self.local_worker is not None

    def wait_ready(self, timeout_s: float = 120.0) -> None:
        """Wait until an embedded worker listens (nothing to wait for with a remote one)."""
        if self.local_worker is not None and self.endpoint is None:
            self.endpoint, self.token = self.local_worker.wait_ready(timeout_s)

    async def connect(self, via: str | None = None, compress: bool | None = None) -> RemoteMiddle:
        """Open a session, refusing a worker that serves other weights or layers.

        ``via`` reaches the same worker through something in front of it (the bench's latency proxy), and
        ``compress`` overrides the link's own choice (the bench measures both).
        """
        return await RemoteMiddle.connect(
            via or self.endpoint,
            self.token,
            expected_fingerprint=self.fingerprint_for,
            expected_layers=self.layers,
            wire_dtype=self.wire_dtype,
            max_frame=self.max_frame,
            cert_sha256=self.cert_sha256,
            compress=self.compress if compress is None else compress,
            allow_unencrypted=self.allow_unencrypted,
        )

    async def revive(self) -> None:
        """Restart an embedded worker that died (same port, same token); a remote one is the admin's."""
        if self.local_worker is not None and not self.local_worker.alive():
            await asyncio.to_thread(self.local_worker.start)

    def worker_alive(self) -> bool:
        return self.local_worker is None or self.local_worker.alive()

    def close(self) -> None:
        """Stop an embedded worker; safe to call twice."""
        if self.local_worker is not None:
            self.local_worker.stop()
