"""The engine host behind the facade (``app.host``): a chat on the engine's own thread, the worker checks,
privacy and bundle jobs.

The chat's every model computation — loading, the local layers, drafting, verification — and the
worker's WebSocket run on the host's thread and its asyncio loop. A front end awaits the host's
coroutines from its own loop (the desktop app's Qt loop through qasync); callbacks arrive on the host's
thread, so a front end hands them to its own thread (Qt's queued signals do exactly that). Long one-off
jobs (the privacy evaluation, exporting a worker bundle, hashing weights) run on worker threads started
from the caller's loop, with progress and a cancel flag.

A front end reaches these names through ``app.host`` and nothing else of the trusted half. The host sits
above the engine and the privacy evaluation, which never import it.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any, TypeVar

from app.engine.chat import ChatReply, SplitChat
from app.engine.decode.metrics import StepTiming
from app.engine.decode.sampling import Sampling
from app.engine.decode.session import StopReason
from app.engine.link import prelaunch
from app.engine.link.probe import WorkerProbe, probe_worker
from app.engine.link.worker_bundle import export_worker_bundle
from app.engine.source.fingerprints import model_fingerprint
from app.engine.source.inspection import ModelFacts, inspect_model
from app.engine.source.specs import ModelSource, resolve_model
from app.engine.speculation.controller import Plan
from app.engine.speculation.modes import Speculation
from app.host.conversation_identifiers import ConversationIdentifiers
from app.host.values import (
    ChatInfo,
    Ending,
    EngineConfig,
    ModelPrivacy,
    NotAsReviewed,
    Reply,
    StepUpdate,
    Turn,
    as_messages,
)
from app.identifiers.detect import IdentifierDetector, default_detector
from app.identifiers.language import Language
from app.identifiers.office_terms import OfficeTerms
from app.identifiers.pseudonyms import ModelText, Pseudonymiser
from app.identifiers.warming import warm_pseudonymisation
from app.jobs import CancelFlag, Progress
from app.model.choices import SplitSpec
from app.privacy.evaluation import best_report
from app.privacy.evaluation import run as run_privacy_evaluation
from app.privacy.settings import PrivacySettings
from app.wire.shard_format import Manifest

T = TypeVar("T")
ENDING_OF_STOP = {
    StopReason.STOP_TOKEN: Ending.COMPLETE,
    StopReason.MAX_NEW_TOKENS: Ending.LENGTH,
    StopReason.CANCELLED: Ending.STOPPED,
    StopReason.REPEATING: Ending.REPEATING,
}


def office_detector() -> IdentifierDetector:
    """The detector with the office's lists of terms always hidden and never hidden, read from the policy
    now, reading with the bundled model unless the settings leave that out (the models behind it load once
    per process whatever the lists)."""
    from app.data.settings import office_term_lists, reading_in_context

    lists = office_term_lists()
    in_context = reading_in_context()
    if not lists.hidden and not lists.kept and in_context:
        return default_detector()
    return IdentifierDetector(office_terms=OfficeTerms.of(lists.hidden, lists.kept), use_context=in_context)


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

    # -- the chat ---------------------------------------------------------------------------------
    async def open(self, config: EngineConfig, progress: Progress | None = None) -> ChatInfo:
        """Open the chat for ``config`` (closing a different one) unless it is open already."""
        return await self.call(self._open(config, progress))

    @property
    def info(self) -> ChatInfo | None:
        """The open chat, or None."""
        chat = self.chat
        if chat is None:
            return None
        return ChatInfo(
            model=chat.source.spec,
            split=str(chat.split),
            num_layers=chat.source.num_layers,
            local_layers=chat.split.k_in + chat.split.k_out,
            embedded=chat.link.embedded_worker,
            endpoint=chat.endpoint,
            public_checkpoint=chat.source.public_checkpoint,
        )

    async def reply(
        self,
        turns: list[Turn],
        max_new_tokens: int,
        sampling: Sampling,
        on_text: Callable[[str], None] | None = None,
        on_step: Callable[[StepUpdate], None] | None = None,
        should_stop: Callable[[], bool] | None = None,
        on_notice: Callable[[str], None] | None = None,
        identifiers: ConversationIdentifiers | None = None,
        on_reading: Callable[[int, int], None] | None = None,
        reviewed: str | None = None,
    ) -> Reply:
        """The assistant's next message after ``turns``; ``on_text`` receives the text as it grows, and
        ``on_reading(done, total)`` how much of a long message the model has read before its first word.

        With ``identifiers`` (the conversation's, grown in place) the model reads the conversation
        with its identifiers replaced and ``on_text`` and the reply get the answer re-identified.
        ``reviewed`` is the last message as the user confirmed it in review: if the model would read
        anything else, ``NotAsReviewed`` is raised before anything is sent."""
        return await self.call(
            self._reply(
                as_messages(turns),
                max_new_tokens,
                sampling,
                on_text,
                on_step,
                should_stop,
                on_notice,
                identifiers,
                on_reading,
                reviewed,
            )
        )

    async def prefill_ahead(
        self, turns: list[Turn], identifiers: ConversationIdentifiers | None = None, draft: int | None = None
    ) -> int:
        """Send the settled part of the conversation being typed (``turns`` ends with the draft, numbered
        ``draft`` by the caller) to the worker before Send — only where the user turned this on; returns the
        tokens now cached."""
        return await self.call(self._ahead(as_messages(turns), identifiers, forget=False, draft=draft))

    def draft_moved(self, draft: int) -> None:
        """The text sent ahead as ``draft`` has changed: it stops after the chunks in flight (or never
        starts), so the new version (sent next) need not wait for all of the old."""
        self._loop.call_soon_threadsafe(self._draft_moved, draft)

    def _draft_moved(self, draft: int) -> None:
        if self.chat is not None:
            self.chat.draft_moved(draft)

    async def forget_ahead(self, turns: list[Turn], identifiers: ConversationIdentifiers | None = None) -> None:
        """The draft sent ahead was deleted (``turns``: the conversation as sent) or its conversation
        left (``[]``): the worker keeps none of it."""
        await self.call(self._ahead(as_messages(turns), identifiers, forget=True))

    async def prepare_pseudonymisation(self, spanish: bool = False) -> None:
        """Load the identifier detector and the stand-ins' lists (seconds, once per process) before the
        first message needs them: English always, Spanish too where the user works in Spanish."""
        languages = (Language.ENGLISH, Language.SPANISH) if spanish else (Language.ENGLISH,)
        # the office's detector, so that a stage the settings leave out is not loaded
        await self.call(asyncio.to_thread(lambda: warm_pseudonymisation(languages, office_detector())))

    async def model_texts(self, turns: list[Turn], identifiers: ConversationIdentifiers) -> list[ModelText]:
        """``turns`` as the model read and wrote them under ``identifiers``, stand-ins located."""
        return await self.call(self._model_texts(as_messages(turns), identifiers))

    async def hide_in_review(self, identifiers: ConversationIdentifiers, term: str) -> None:
        """The user marked ``term`` in review: it is replaced in every turn of the conversation from now on,
        earlier ones included (``model_texts`` reads them again). Nothing is sent."""
        await self.call(self._mark(identifiers, lambda pseudonymiser: pseudonymiser.hide(term)))

    async def send_as_written(self, identifiers: ConversationIdentifiers, stand_in: str) -> str | None:
        """The user un-hid a stand-in in review: its original reaches the model as written from now on.
        Returns that original, or None when ``stand_in`` is no stand-in of this conversation."""

        def keep(pseudonymiser: Pseudonymiser) -> str | None:
            original = pseudonymiser.original_of(stand_in)
            if original is not None:
                pseudonymiser.keep(original)
            return original

        return await self.call(self._mark(identifiers, keep))

    def worker_alive(self) -> bool:
        """False when the embedded worker process of the open chat has died (a remote one is not watched)."""
        chat = self.chat
        return chat is None or chat.link.worker_alive()

    async def whole_model_tokens(self, turns: list[Turn], max_new_tokens: int) -> list[int]:
        """The open chat's greedy answer after ``turns`` computed with every layer here: the self-test's
        reference for what came through the worker."""
        if self.chat is None:
            raise RuntimeError("no chat is open")
        return await self.call(self.chat.whole_model_tokens(as_messages(turns), max_new_tokens))

    async def close_chat(self) -> None:
        await self.call(self._close_chat())

    # -- the worker and the jobs around it ---------------------------------------------------------
    async def probe(
        self, endpoint: str, token: str, cert_sha256: str | None = None, allow_unencrypted: bool = False
    ) -> WorkerProbe:
        """Handshake, worker fingerprint and RTT of an endpoint, for "Test connection"."""
        return await self.call(
            probe_worker(endpoint, token, cert_sha256=cert_sha256, allow_unencrypted=allow_unencrypted)
        )

    async def privacy(self, model: str) -> ModelPrivacy:
        """The most thorough evaluation of ``model``'s weights, cached here or shipped with the app for exactly
        those weights (never a guess: None until measured)."""
        source = await self._source(model)
        fingerprint = await asyncio.to_thread(model_fingerprint, source)
        report = await asyncio.to_thread(best_report, fingerprint)
        return ModelPrivacy(report, source.public_checkpoint)

    async def evaluate_privacy(
        self, model: str, settings: PrivacySettings, progress: Progress | None, cancel: CancelFlag
    ) -> ModelPrivacy:
        """Measure (or read from the cache) how much the hidden states of ``model`` give away; raises
        ``Cancelled`` when ``cancel`` is set, keeping nothing."""
        source = await self._source(model)
        report = await asyncio.to_thread(run_privacy_evaluation, source, settings, progress, cancel)
        return ModelPrivacy(report, source.public_checkpoint)

    async def inspect_model(self, spec: str) -> ModelFacts:
        """Check a model folder (family, files, dtype) and size each split of it; reads no tensor."""
        return await self.call(asyncio.to_thread(inspect_model, spec))

    async def export_worker_bundle(
        self, model: str, split: str, folder: Path, progress: Progress | None = None
    ) -> Manifest:
        """Write the worker bundle for ``model`` cut at ``split`` into the empty ``folder``."""
        source = await self._source(model)
        return await asyncio.to_thread(export_worker_bundle, source, SplitSpec.parse(split), folder, None, progress)

    def shutdown(self, timeout: float = 15.0) -> None:
        """Close the chat (stopping the local worker) and end the thread; safe to call twice."""
        if not self._thread.is_alive():
            return
        prelaunch.stop_unclaimed()
        try:
            asyncio.run_coroutine_threadsafe(self._close_chat(), self._loop).result(timeout)
        finally:
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(timeout)

    # -- on the engine thread ------------------------------------------------------------------------
    async def _open(self, config: EngineConfig, progress: Progress | None) -> ChatInfo:
        if self.chat is None or self.config != config:
            await self._close_chat()
            self.chat = await SplitChat.open(
                config.model,
                config.split,
                config.endpoint,
                config.token,
                device=config.device,
                speculation=Speculation(mode=config.mode, max_nodes=config.budget),
                progress=progress,
                cert_sha256=config.cert_sha256,
                compress_wire=config.compress_wire,
                allow_unencrypted=config.allow_unencrypted,
            )
            self.config = config
        return self.info

    async def _reply(
        self,
        messages,
        max_new_tokens,
        sampling,
        on_text,
        on_step,
        should_stop,
        on_notice,
        identifiers,
        on_reading,
        reviewed,
    ):
        if self.chat is None:
            raise RuntimeError("no chat is open")
        pseudonymiser = await self._pseudonymiser_for(identifiers) if identifiers is not None else None
        if reviewed is not None:
            # The pseudonymiser reads each distinct text once (its cache), so this is the reading the reply
            # below uses: checked here, before the engine sends a token of it.
            read = await asyncio.to_thread(pseudonymiser.conversation, messages) if pseudonymiser else messages
            if read[-1]["content"] != reviewed:
                raise NotAsReviewed("the message would reach the model otherwise than it was shown")

        def step_done(timing: StepTiming, plan: Plan | None) -> None:
            on_step(StepUpdate(timing, plan.break_even if plan is not None else None))

        # A lost session or link mid-answer is recovered inside the session (reconnect, re-prefill). The chat
        # is held here: closing it while the answer finishes (a worker that died) must not lose the answer.
        chat = self.chat
        reply = await chat.reply(
            messages,
            max_new_tokens,
            sampling,
            on_text,
            should_stop,
            step_done if on_step else None,
            on_notice,
            pseudonymiser=pseudonymiser,
            on_reading=on_reading,
        )
        return self._as_reply(reply, chat.split)

    @staticmethod
    def _as_reply(reply: ChatReply, split: SplitSpec) -> Reply:
        generation = reply.generation
        return Reply(
            text=reply.text,
            ending=ENDING_OF_STOP[generation.stop_reason],
            tokens=tuple(generation.tokens),
            steps=tuple(generation.stats.steps),
            local_step_cost=generation.stats.local_step_cost(split.k_in + split.k_out),
            model_prompt=reply.model_prompt,
            model_text=reply.model_text,
            identifiers=dict(reply.identifiers),
        )

    async def _ahead(
        self, messages: list[dict], identifiers: ConversationIdentifiers | None, forget: bool, draft: int | None = None
    ) -> int:
        if self.chat is None:
            return 0
        pseudonymiser = await self._pseudonymiser_for(identifiers) if identifiers is not None else None
        if forget:
            await self.chat.forget_ahead(messages, pseudonymiser)
            return 0
        return await self.chat.prefill_ahead(messages, pseudonymiser, draft)

    async def _model_texts(self, messages: list[dict], identifiers: ConversationIdentifiers) -> list[ModelText]:
        pseudonymiser = await self._pseudonymiser_for(identifiers)
        return await asyncio.to_thread(pseudonymiser.model_texts, messages)

    async def _mark(self, identifiers: ConversationIdentifiers, change: Callable[[Pseudonymiser], T]) -> T:
        """A change the user made in review, to the one pseudonymiser the review and the reply share."""
        return change(await self._pseudonymiser_for(identifiers))

    @staticmethod
    async def _pseudonymiser_for(identifiers: ConversationIdentifiers) -> Pseudonymiser:
        return await identifiers.pseudonymiser(office_detector)

    async def _close_chat(self) -> None:
        chat, self.chat, self.config = self.chat, None, None
        if chat is not None:
            await chat.close()

    async def _source(self, model: str) -> ModelSource:
        """The open chat's model when it is ``model``, otherwise ``model`` resolved afresh (off the loop)."""
        chat = self.chat
        if chat is not None and chat.source.spec == model:
            return chat.source
        return await asyncio.to_thread(resolve_model, model)
