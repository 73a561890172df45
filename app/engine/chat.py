"""A chat over the split model: the model, the local edge, the worker link, the session and the chat template."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field

from app.engine.decode.edge import LocalEdge
from app.engine.decode.metrics import StepTiming
from app.engine.decode.sampling import Sampling
from app.engine.decode.session import Generation, SplitSession
from app.engine.decode.streaming_text import StreamingText
from app.engine.link.handshake import connect_with_retries
from app.engine.link.local_worker import LocalWorker
from app.engine.link.middle import LocalMiddle
from app.engine.link.transport import RemoteMiddle
from app.engine.link.worker_link import WorkerLink
from app.engine.source.specs import BUNDLED_SPEC, ModelSource, resolve_model
from app.engine.speculation.controller import Plan
from app.engine.speculation.head_file import load_head_drafter
from app.engine.speculation.lookup import common_prefix
from app.engine.speculation.modes import Speculation
from app.identifiers.pseudonyms import Pseudonymiser
from app.jobs import Progress
from app.model.choices import Mode, SplitSpec
from app.model.devices import resolve_device, resolve_dtype, wire_dtype_for
from app.wire.frames import DEFAULT_MAX_FRAME

RECONNECT_WINDOW_S = 60.0  # how long a lost worker is retried before the error reaches the user
# The last tokens of a message still being typed may tokenise differently once more text follows
# ("lea" + "se"): they are left for Send.
UNSETTLED_TOKENS = 4
CLOSE_WAIT_S = 30.0  # closing waits this long for a reply to finish (a prefill-ahead stops at once)


@dataclass
class ChatReply:
    text: str  # what the user reads (re-identified when the conversation was pseudonymised)
    generation: Generation
    model_prompt: str = ""  # the last message exactly as the model read it
    model_text: str = ""  # the answer exactly as the model wrote it (its stand-ins in place)
    identifiers: dict[str, int] = field(default_factory=dict)  # identifiers replaced in the last message, by type


class SplitChat:
    """A chat over a split model. With no endpoint it starts the embedded loopback worker."""

    def __init__(
        self,
        source: ModelSource,
        split: SplitSpec,
        edge: LocalEdge,
        tokenizer,
        session: SplitSession,
        link: WorkerLink,
    ):
        self.source, self.split, self.edge, self.tokenizer = source, split, edge, tokenizer
        self.session = session
        self.link = link
        self._history: list[int] = []  # exact ids of the last prompt and the reply generated to it
        self._turn = asyncio.Lock()  # a reply and a prefill-ahead never run at once
        self._reply_waiting = False  # a reply wants the lock: a prefill-ahead stops after the chunks in flight
        self._stale_draft = -1  # drafts numbered up to this one changed while being sent ahead: stop them
        self._closing = False

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
        compress_wire: bool = True,
        allow_unencrypted: bool = False,
    ) -> SplitChat:
        """``compress_wire``: large frames to and from a remote worker go compressed, losslessly (the
        embedded worker's loopback never does). ``allow_unencrypted``: the administrator's policy lets ws://
        reach another computer (refused otherwise, before anything is sent)."""
        source = resolve_model(spec, progress)
        split.check(source.num_layers)
        torch_device = resolve_device(device)
        torch_dtype = resolve_dtype(dtype, torch_device)
        wire = wire_dtype or wire_dtype_for(torch_dtype)
        if endpoint is None:
            if progress:
                progress("Starting the local worker", 0.3)
            link = WorkerLink.embedded(source, split, wire, max_frame, progress)
        else:
            link = WorkerLink.remote(
                source, split, endpoint, token, wire, max_frame, cert_sha256, compress_wire, allow_unencrypted
            )
        try:
            if progress:
                progress("Loading the local layers", 0.5)
            edge = LocalEdge(source, split, torch_device, torch_dtype)
            tokenizer = source.tokenizer()
            link.wait_ready()
            middle = await link.connect()
        except BaseException:
            link.close()
            raise
        head = None
        if speculation.mode.drafts_with_head:
            head = load_head_drafter(source, edge.embed_weight, edge.lm_head_weight, split.k_in, edge.dtype)
        session = SplitSession(edge, middle, stop_token_ids(source, tokenizer), speculation, draft_head=head)
        chat = cls(source, split, edge, tokenizer, session, link)
        session.recovery.reconnect = chat.reconnect
        return chat

    @property
    def local_worker(self) -> LocalWorker | None:
        """The embedded worker process, when this chat started one."""
        return self.link.local_worker

    @property
    def endpoint(self) -> str | None:
        return self.link.endpoint

    async def reconnect(self) -> RemoteMiddle:
        """A new worker session after the old one expired or its link dropped, retrying with backoff.

        The embedded worker is restarted (same port, same token) if it died. Gives up, raising the last
        error, once ``RECONNECT_WINDOW_S`` has passed without a connection.
        """
        await self.session.middle.close()
        return await connect_with_retries(
            self.link.connect, RECONNECT_WINDOW_S, self.session.recovery.notice, self.link.revive
        )

    def prompt_ids(self, messages: list[dict]) -> list[int]:
        """The conversation formatted with the model's chat template, ready for the assistant's turn.

        When the conversation extends the last exchange, the ids generated for it are kept as they were:
        re-tokenizing a reply's text can split it differently ("K|y|re" vs "K|yre"), which would force
        the worker to recompute the whole reply instead of only the new turn.
        """
        text = self._render(messages)
        if self._history:
            known = self.tokenizer.decode(self._history, skip_special_tokens=False)
            if text.startswith(known):
                return self._history + self._encode(text[len(known) :])
        return self._encode(text)

    def _render(self, messages: list[dict]) -> str:
        return self.tokenizer.apply_chat_template(messages, add_generation_prompt=True, tokenize=False)

    def _encode(self, text: str) -> list[int]:
        return list(self.tokenizer(text, add_special_tokens=False)["input_ids"]) if text else []

    async def prefill_ahead(
        self, messages: list[dict], pseudonymiser: Pseudonymiser | None = None, draft: int | None = None
    ) -> int:
        """Send the settled part of the conversation-to-be (``messages`` ends with the message being typed)
        to every cache before Send, through the same pseudonymisation as a reply; returns the tokens cached.
        ``draft`` numbers this version of the text, so that ``draft_moved`` can stop it.

        Only called where the user turned prefill-while-typing on: the text reaches the worker (as hidden
        states) before the user decides to send it. The answer is unchanged — Send runs what is missing.
        """
        model_messages = await self._as_the_model_reads(messages, pseudonymiser)
        prompt = self.prompt_ids(model_messages)
        # The generation prompt and end of turn follow the text: what survives more text being appended is
        # the common part of the prompt with and without an extra word, less the tokens that may re-split.
        longer = self.prompt_ids(
            [*model_messages[:-1], {**model_messages[-1], "content": model_messages[-1]["content"] + " x"}]
        )
        settled = max(0, common_prefix(prompt, longer) - UNSETTLED_TOKENS)
        if self._reply_waiting:
            return 0
        async with self._turn:
            return await self.session.prefill_ahead(
                prompt[:settled], should_stop=lambda: self._reply_waiting or self._closing or self._is_stale(draft)
            )

    def draft_moved(self, draft: int) -> None:
        """The text sent ahead as ``draft`` (and every earlier one) has changed: send no more of it, whether
        it is going now or has yet to start (the chunks in flight finish) — the caller sends the new version
        next, from the common part. Numbered rather than flagged, so the order in which this and the
        prefill-ahead reach the engine does not matter."""
        self._stale_draft = max(self._stale_draft, draft)

    def _is_stale(self, draft: int | None) -> bool:
        return draft is not None and draft <= self._stale_draft

    @staticmethod
    async def _as_the_model_reads(messages: list[dict], pseudonymiser: Pseudonymiser | None) -> list[dict]:
        """``messages`` with their identifiers replaced when pseudonymising (as they are otherwise)."""
        if not pseudonymiser or not messages:
            return messages
        # Detection takes a few hundred milliseconds a page: off the loop that keeps the link alive.
        return await asyncio.to_thread(pseudonymiser.conversation, messages)

    async def forget_ahead(self, messages: list[dict], pseudonymiser: Pseudonymiser | None = None) -> None:
        """The text typed ahead was deleted: crop every cache back to what ``messages`` (the conversation
        as sent; [] when it was left) shares with it, so the worker keeps none of the draft — with nothing
        shared, the worker session is closed and a fresh one opened."""
        messages = await self._as_the_model_reads(messages, pseudonymiser)
        async with self._turn:
            prompt = self.prompt_ids(messages) if messages else []
            kept = common_prefix(self.session.processed, prompt)
            if kept < len(self.session.processed):
                if kept:
                    await self.session.prefill_ahead(prompt[:kept])
                else:
                    await self.session.recovery.reset_worker()

    async def reply(
        self,
        messages: list[dict],
        max_new_tokens: int = 256,
        sampling: Sampling = Sampling(),
        on_text: Callable[[str], None] | None = None,
        should_stop: Callable[[], bool] | None = None,
        on_step: Callable[[StepTiming, Plan | None], None] | None = None,
        on_notice: Callable[[str], None] | None = None,
        pseudonymiser: Pseudonymiser | None = None,
        on_reading: Callable[[int, int], None] | None = None,
    ) -> ChatReply:
        """Generate the assistant's next message; ``on_text`` receives the text as it grows.

        With a ``pseudonymiser`` the model reads the conversation with its identifiers replaced, and what
        it writes is re-identified before ``on_text`` and the reply see it: the originals never reach the
        model, its stand-ins never reach the user.
        """
        written_so_far = StreamingText(self.tokenizer)
        model_messages = await self._as_the_model_reads(messages, pseudonymiser)
        shown = pseudonymiser.stream() if pseudonymiser else None

        def on_token(token: int) -> None:
            if on_text:
                written = written_so_far.add(token)
                on_text(shown.update(written) if shown else written)

        prompt = self.prompt_ids(model_messages)
        self.session.recovery.notice = on_notice
        self._reply_waiting = True
        try:
            async with self._turn:
                self._reply_waiting = False
                self._history = []  # until this reply completes, the next prompt is tokenized afresh
                generation = await self.session.generate(
                    prompt, max_new_tokens, sampling, on_token, should_stop, on_step, on_reading
                )
        finally:
            self._reply_waiting = False
        self._history = prompt + generation.tokens
        written = self.decode(generation.tokens)
        if not pseudonymiser:
            return ChatReply(written, generation, model_prompt=messages[-1]["content"])
        text = shown.finish(written)
        pseudonymiser.remember_answer(text, written)
        return ChatReply(
            text,
            generation,
            model_prompt=model_messages[-1]["content"],
            model_text=written,
            identifiers=pseudonymiser.counts(messages[-1]["content"]),
        )

    async def whole_model_tokens(self, messages: list[dict], max_new_tokens: int) -> list[int]:
        """The greedy answer to ``messages`` with every layer in this process (no worker, no wire)."""
        session = SplitSession(
            LocalEdge(self.source, self.split),
            LocalMiddle.of(self.source, self.split),
            self.session.stop_ids,
            Speculation(mode=Mode.SEQUENTIAL),
        )
        return (await session.generate(self._encode(self._render(messages)), max_new_tokens)).tokens

    def decode(self, tokens: list[int]) -> str:
        return self.tokenizer.decode(tokens, skip_special_tokens=True)

    async def close(self) -> None:
        """End the worker session and the link. A prefill-ahead in flight stops first and its chunks on the
        way are read, so closing never reads the connection while the stream does; a reply is waited for
        up to CLOSE_WAIT_S (then closed under, and it fails as a lost link)."""
        self._closing = True
        turn = False
        try:
            async with asyncio.timeout(CLOSE_WAIT_S):
                turn = await self._turn.acquire()
        except TimeoutError:
            pass
        try:
            await self.session.close()
        finally:
            self.link.close()
            if turn:
                self._turn.release()


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
