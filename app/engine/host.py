"""The chat engine on its own thread and asyncio loop, for front ends that must never block.

Every model computation — loading, the local layers, drafting, verification — and the worker's
WebSocket run on the host's thread. A front end awaits the host's coroutines from its own loop (the
desktop app's Qt loop through qasync); callbacks arrive on the host's thread, so a front end hands
them to its own thread (Qt's queued signals do exactly that).
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import Any, TypeVar

from app.engine.chat import ChatReply, SplitChat
from app.engine.control import Plan
from app.engine.decoding import Speculation
from app.engine.metrics import StepTiming
from app.engine.models import BUNDLED_SPEC, Progress
from app.engine.sampling import Sampling
from app.engine.split import SplitSpec
from app.engine.transport import probe_worker

T = TypeVar("T")


@dataclass(frozen=True)
class EngineConfig:
    """What the engine needs to open a chat; equal configs share one open engine."""

    model: str = BUNDLED_SPEC
    split: str = "2"
    endpoint: str | None = None  # None: the bundled worker process on loopback
    token: str | None = None
    cert_sha256: str | None = None  # pinned certificate of a self-signed wss:// worker
    device: str = "auto"
    mode: str = "auto"
    budget: int = 48


class EngineHost:
    """Owns the engine thread, its loop, and at most one open chat."""

    def __init__(self):
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="splitchat-engine", daemon=True)
        self._thread.start()
        self.chat: SplitChat | None = None
        self.config: EngineConfig | None = None

    @property
    def thread(self) -> threading.Thread:
        return self._thread

    async def call(self, coroutine: Coroutine[Any, Any, T]) -> T:
        """Run ``coroutine`` on the engine thread; await its result from any other loop."""
        return await asyncio.wrap_future(asyncio.run_coroutine_threadsafe(coroutine, self._loop))

    async def open(self, config: EngineConfig, progress: Progress | None = None) -> SplitChat:
        """The chat for ``config``, opening it (and closing a different one) when needed."""
        return await self.call(self._open(config, progress))

    async def reply(
        self,
        messages: list[dict],
        max_new_tokens: int,
        sampling: Sampling,
        on_text: Callable[[str], None] | None = None,
        on_step: Callable[[StepTiming, Plan | None], None] | None = None,
        should_stop: Callable[[], bool] | None = None,
        on_notice: Callable[[str], None] | None = None,
    ) -> ChatReply:
        return await self.call(
            self._reply(messages, max_new_tokens, sampling, on_text, on_step, should_stop, on_notice)
        )

    async def probe(self, endpoint: str, token: str, cert_sha256: str | None = None) -> dict:
        """Handshake, worker fingerprint and RTT of an endpoint, for "Test connection"."""
        return await self.call(probe_worker(endpoint, token, cert_sha256=cert_sha256))

    async def close_chat(self) -> None:
        await self.call(self._close_chat())

    def shutdown(self, timeout: float = 15.0) -> None:
        """Close the chat (stopping the local worker) and end the thread; safe to call twice."""
        if not self._thread.is_alive():
            return
        try:
            asyncio.run_coroutine_threadsafe(self._close_chat(), self._loop).result(timeout)
        finally:
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(timeout)

    async def _open(self, config: EngineConfig, progress: Progress | None) -> SplitChat:
        if self.chat is not None and self.config == config:
            return self.chat
        await self._close_chat()
        self.chat = await SplitChat.open(
            config.model,
            SplitSpec.parse(config.split),
            config.endpoint,
            config.token,
            device=config.device,
            speculation=Speculation(mode=config.mode, max_nodes=config.budget),
            progress=progress,
            cert_sha256=config.cert_sha256,
        )
        self.config = config
        return self.chat

    async def _reply(self, messages, max_new_tokens, sampling, on_text, on_step, should_stop, on_notice):
        if self.chat is None:
            raise RuntimeError("no chat is open")
        # A lost session or link mid-answer is recovered inside the session (reconnect, re-prefill).
        return await self.chat.reply(messages, max_new_tokens, sampling, on_text, should_stop, on_step, on_notice)

    async def _close_chat(self) -> None:
        chat, self.chat, self.config = self.chat, None, None
        if chat is not None:
            await chat.close()
