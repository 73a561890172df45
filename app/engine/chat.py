"""One facade over the engine for chat front ends: model, local edge, worker connection, session."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from app.engine.control import Plan
from app.engine.decoding import HEAD_MODES, Generation, Speculation, SplitSession
from app.engine.devices import resolve_device, resolve_dtype, wire_dtype_for
from app.engine.draft_head import load_drafter
from app.engine.edge import LocalEdge
from app.engine.export import embedded_shard, expected_fingerprint
from app.engine.local_worker import LocalWorker
from app.engine.metrics import StepTiming
from app.engine.models import BUNDLED_SPEC, ModelSource, Progress, resolve_model
from app.engine.sampling import Sampling
from app.engine.split import SplitSpec
from app.engine.transport import RemoteMiddle, connect_with_retries
from app.protocol import DEFAULT_MAX_FRAME

RECONNECT_WINDOW_S = 60.0  # how long a lost worker is retried before the error reaches the user


@dataclass
class ChatReply:
    text: str
    generation: Generation


class SplitChat:
    """A chat over a split model. With no endpoint it starts the embedded loopback worker."""

    def __init__(
        self,
        source: ModelSource,
        split: SplitSpec,
        edge: LocalEdge,
        tokenizer,
        session: SplitSession,
        local_worker: LocalWorker | None,
        endpoint: str,
        connect: Callable[[], Awaitable[RemoteMiddle]] | None = None,
    ):
        self.source, self.split, self.edge, self.tokenizer = source, split, edge, tokenizer
        self.session = session
        self.local_worker = local_worker
        self.endpoint = endpoint
        self._connect = connect
        self._history: list[int] = []  # exact ids of the last prompt and the reply generated to it

    @classmethod
    async def open(
        cls,
        spec: str = BUNDLED_SPEC,
        split: SplitSpec = SplitSpec(),
        endpoint: str | None = None,
        token: str | None = None,
        device: str = "auto",
        dtype: str = "auto",
        wire_dtype: str | None = None,
        max_frame: int = DEFAULT_MAX_FRAME,
        speculation: Speculation = Speculation(),
        progress: Progress | None = None,
        cert_sha256: str | None = None,
    ) -> SplitChat:
        source = resolve_model(spec, progress)
        split.check(source.num_layers)
        torch_device = resolve_device(device)
        torch_dtype = resolve_dtype(dtype, torch_device)
        wire = wire_dtype or wire_dtype_for(torch_dtype)
        local_worker = None
        if endpoint is None:
            if progress:
                progress("Starting the local worker", 0.3)
            # Launched first: the worker loads its half while this process loads the edge.
            local_worker = LocalWorker(embedded_shard(source, split, progress), max_frame=max_frame)
            local_worker.launch()
        elif not token:
            raise ValueError("a worker endpoint needs a bearer token (set SPLITCHAT_TOKEN)")
        try:
            if progress:
                progress("Loading the local layers", 0.5)
            edge = LocalEdge(source, split, torch_device, torch_dtype)
            tokenizer = source.tokenizer()
            if local_worker:
                endpoint, token = local_worker.wait_ready()
            fingerprint = expected_fingerprint(source, split)

            def connect() -> Awaitable[RemoteMiddle]:
                return RemoteMiddle.connect(
                    endpoint,
                    token,
                    expected_fingerprint=fingerprint,
                    expected_layers=split.middle(source.num_layers),
                    wire_dtype=wire,
                    max_frame=max_frame,
                    cert_sha256=cert_sha256,
                )

            middle = await connect()
        except BaseException:
            if local_worker:
                local_worker.stop()
            raise
        drafter = load_drafter(source, edge) if speculation.mode in HEAD_MODES else None
        session = SplitSession(edge, middle, stop_token_ids(source, tokenizer), speculation, draft_head=drafter)
        chat = cls(source, split, edge, tokenizer, session, local_worker, endpoint, connect)
        session.reconnect = chat.reconnect
        return chat

    async def reconnect(self) -> RemoteMiddle:
        """A new worker session after the old one expired or its link dropped, retrying with backoff.

        The embedded worker is restarted (same port, same token) if it died. Gives up, raising the last
        error, once ``RECONNECT_WINDOW_S`` has passed without a connection.
        """
        if self._connect is None:
            raise RuntimeError("this chat was not opened with a connection it can repeat")
        await self.session.middle.close()

        async def restart_local_worker() -> None:
            if self.local_worker is not None and not self.local_worker.alive():
                await asyncio.to_thread(self.local_worker.start)

        return await connect_with_retries(self._connect, RECONNECT_WINDOW_S, self.session.notice, restart_local_worker)

    def prompt_ids(self, messages: list[dict]) -> list[int]:
        """The conversation formatted with the model's chat template, ready for the assistant's turn.

        When the conversation extends the last exchange, the ids generated for it are kept as they were:
        re-tokenizing a reply's text can split it differently ("K|y|re" vs "K|yre"), which would force
        the worker to recompute the whole reply instead of only the new turn.
        """
        text = self.tokenizer.apply_chat_template(messages, add_generation_prompt=True, tokenize=False)
        if self._history:
            known = self.tokenizer.decode(self._history, skip_special_tokens=False)
            if text.startswith(known):
                return self._history + self._encode(text[len(known) :])
        return self._encode(text)

    def _encode(self, text: str) -> list[int]:
        return list(self.tokenizer(text, add_special_tokens=False)["input_ids"]) if text else []

    async def reply(
        self,
        messages: list[dict],
        max_new_tokens: int = 256,
        sampling: Sampling = Sampling(),
        on_text: Callable[[str], None] | None = None,
        should_stop: Callable[[], bool] | None = None,
        on_step: Callable[[StepTiming, Plan | None], None] | None = None,
        on_notice: Callable[[str], None] | None = None,
    ) -> ChatReply:
        """Generate the assistant's next message; ``on_text`` receives the text as it grows."""
        generated: list[int] = []

        def on_token(token: int) -> None:
            generated.append(token)
            if on_text:
                on_text(self.decode(generated))

        prompt = self.prompt_ids(messages)
        self.session.notice = on_notice
        self._history = []  # until this reply completes, the next prompt is tokenized afresh
        generation = await self.session.generate(prompt, max_new_tokens, sampling, on_token, should_stop, on_step)
        self._history = prompt + generation.tokens
        return ChatReply(self.decode(generation.tokens), generation)

    def decode(self, tokens: list[int]) -> str:
        return self.tokenizer.decode(tokens, skip_special_tokens=True)

    async def close(self) -> None:
        try:
            await self.session.close()
        finally:
            if self.local_worker:
                self.local_worker.stop()


def stop_token_ids(source: ModelSource, tokenizer) -> list[int]:
    """Tokens that end an assistant message: the tokenizer's EOS and the generation config's."""
    from transformers import GenerationConfig

    ids = set()
    if tokenizer.eos_token_id is not None:
        ids.add(tokenizer.eos_token_id)
    try:
        eos = GenerationConfig.from_pretrained(source.folder).eos_token_id
    except OSError:
        eos = None
    if isinstance(eos, int):
        ids.add(eos)
    elif eos:
        ids.update(eos)
    return sorted(ids)
