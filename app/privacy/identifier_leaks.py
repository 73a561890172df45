"""What the worker's attackers recover of a document's identifiers, with pseudonymisation off and on.

The documents go through the public head layers exactly as the workstation sends them (raw, or
pseudonymised), and the attackers of ``attacks.py`` invert the hidden states entering the worker: the
public-weights head search, and an inversion MLP trained on (activation, token) pairs of the development
documents — an attacker who has collected raw clinical and legal text at this cut. An identifier's word is
*leaked* when the attacker's recovered text, at the place where that identifier was sent (its stand-in's
place when it was replaced), contains the word. Stand-ins recovered are not leaks; originals are. The words
counted are those that make it an identifier: the ones its stand-in changes (not "Dr", "Street" or "Ltd").
"""

from __future__ import annotations

import re
import zlib
from collections.abc import Callable
from dataclasses import dataclass

import torch

from app.identifiers.pseudonyms import Pseudonymised, Pseudonymiser, Pseudonyms
from app.jobs import CancelFlag, Progress, raise_if_cancelled
from app.privacy.activations import WholeModel
from app.privacy.attacks import codebook, head_search, learned_inversion, nearest_rows
from app.privacy.detection_scores import Rate
from app.privacy.identifier_corpus import LabelledDocument

_WORD = re.compile(r"[^\W_]{2,}")
CHUNK = 512


@dataclass(frozen=True)
class SentDocument:
    """A document as it crossed the wire: its token ids and offsets, and where each identifier went."""

    ids: list[int]
    offsets: list[tuple[int, int]]  # each token's characters in the text that was sent
    regions: list[tuple[list[str], tuple[int, int]]]  # (an identifier's words, where it lies in the sent text)


@dataclass(frozen=True)
class LeakRates:
    """Identifier words an attacker recovered from what crossed the wire."""

    off: Rate
    on: Rate


def sent_document(document: LabelledDocument, tokenizer, pseudonymise: bool) -> SentDocument:
    """Tokenise the text the workstation would send, and find each identifier's place in it."""
    # The same stand-ins for both runs of a document, so both count the same identifying words.
    result = Pseudonymiser(Pseudonyms(seed=zlib.crc32(document.id.encode()))).pseudonymise(document.text)
    text, shift = (result.text, _shift_map(result)) if pseudonymise else (document.text, _identity_map())
    encoded = tokenizer(text, add_special_tokens=False, return_offsets_mapping=True)
    regions = []
    for entity in document.entities:
        words = _identifying_words(document.text, entity, result)
        if words:
            regions.append((words, shift(entity.start, entity.end)))
    return SentDocument(list(encoded["input_ids"]), [tuple(o) for o in encoded["offset_mapping"]], regions)


def _identifying_words(text: str, entity, result: Pseudonymised) -> list[str]:
    """The words that make an identifier one: those its stand-in changes. A title, "Street", "Ltd" or a year
    the date shift left alone say nothing about who; an identifier the detector missed counts whole."""
    words = [w.lower() for w in _WORD.findall(entity.text_in(text))]
    stand_ins = [s for found, s in result.replaced if found.overlaps(entity)]
    kept = {w.lower() for s in stand_ins for w in _WORD.findall(s)}
    return [w for w in words if w not in kept]


def _identity_map() -> Callable[[int, int], tuple[int, int]]:
    return lambda start, end: (start, end)


def _shift_map(result: Pseudonymised) -> Callable[[int, int], tuple[int, int]]:
    """Where a span of the original lies in the pseudonymised text: a replaced identifier at its stand-in's
    place, text left as it was moved by the replacements before it."""
    edits, cursor, position = [], 0, 0  # (original start, original end, new start, new end)
    for entity, surrogate in result.replaced:
        position += entity.start - cursor
        edits.append((entity.start, entity.end, position, position + len(surrogate)))
        position += len(surrogate)
        cursor = entity.end

    def to_new(index: int, end: bool) -> int:
        shift = 0
        for start, stop, new_start, new_stop in edits:
            if index < start or (end and index == start):
                break
            if index < stop or (end and index == stop):
                return new_stop if end else new_start
            shift = new_stop - stop
        return index + shift

    return lambda start, end: (to_new(start, False), to_new(end, True))


def taps_entering(
    model: WholeModel, documents: list[SentDocument], depth: int
) -> tuple[torch.Tensor, list[tuple[int, int]]]:
    """The hidden states entering layer ``depth`` for every token (fresh context every ``CHUNK`` tokens),
    and the (start, end) of each chunk in the flat order."""
    stack = model.stack(0, depth)
    taps, chunks, position = [], [], 0
    with torch.inference_mode():
        for document in documents:
            for start in range(0, len(document.ids), CHUNK):
                ids = torch.tensor(document.ids[start : start + CHUNK])
                stack.reset()
                hidden = stack(model.embed_ids(ids.view(1, -1)), torch.arange(len(ids)))
                taps.append(hidden[0].clone())
                chunks.append((position, position + len(ids)))
                position += len(ids)
    return torch.cat(taps), chunks


def leaked_words(documents: list[SentDocument], recovered_ids: torch.Tensor, tokenizer) -> Rate:
    """Identifier words found in the attacker's recovered text where each identifier was sent."""
    hits = total = 0
    position = 0
    for document in documents:
        guesses = recovered_ids[position : position + len(document.ids)].tolist()
        position += len(document.ids)
        for words, (start, end) in document.regions:
            inside = [g for g, (a, b) in zip(guesses, document.offsets, strict=True) if a < end and start < b]
            recovered = set(_WORD.findall(tokenizer.decode(inside).lower())) if inside else set()
            hits += sum(word in recovered for word in words)
            total += len(words)
    return Rate(hits, total)


def attack(
    model: WholeModel,
    tokenizer,
    train: list[LabelledDocument],
    test: list[LabelledDocument],
    depth: int = 2,
    search_candidates: int = 32,
    mlp_width: int = 2048,
    mlp_epochs: int = 5,
    seed: int = 0,
    progress: Progress | None = None,
    cancel: CancelFlag | None = None,
) -> dict[str, LeakRates]:
    """Both attackers on the ``test`` documents, sent raw and pseudonymised; the MLP learns on ``train``."""
    say = progress or (lambda message, fraction: None)
    raw_train = [sent_document(d, tokenizer, pseudonymise=False) for d in train]
    x_train, _ = taps_entering(model, raw_train, depth)
    y_train = torch.tensor([i for d in raw_train for i in d.ids])
    context = [int(torch.bincount(y_train).argmax())]
    say("Codebook of the public head layers", 0.05)
    rows = codebook(model, depth, context, cancel=cancel)
    sent, observed = {}, {}
    results: dict[str, dict[str, Rate]] = {"public_head_search": {}, "learned_mlp": {}}
    for index, label in enumerate(("off", "on")):
        raise_if_cancelled(cancel)
        sent[label] = [sent_document(d, tokenizer, pseudonymise=label == "on") for d in test]
        observed[label], chunks = taps_entering(model, sent[label], depth)
        say(f"Head search on what is sent with pseudonymisation {label}", 0.1 + 0.35 * index)
        shortlist = nearest_rows(observed[label], rows, k=min(search_candidates, len(rows)))
        searched = head_search(model, depth, observed[label], shortlist, chunks, cancel=cancel)[:, 0]
        results["public_head_search"][label] = leaked_words(sent[label], searched, tokenizer)
    say("Training the inversion MLP on the development documents", 0.8)
    both = torch.cat([observed["off"], observed["on"]])
    learned = learned_inversion(x_train, y_train, both, mlp_width, mlp_epochs, seed=seed, cancel=cancel)[:, 0]
    split = len(observed["off"])
    results["learned_mlp"]["off"] = leaked_words(sent["off"], learned[:split], tokenizer)
    results["learned_mlp"]["on"] = leaked_words(sent["on"], learned[split:], tokenizer)
    say("Attacks done", 1.0)
    return {name: LeakRates(rates["off"], rates["on"]) for name, rates in results.items()}
