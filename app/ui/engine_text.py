"""The engine's progress and notices in the user's language.

The engine and the measurements never import Qt (a boundary test holds them to it), so they report in
English, as fixed phrases with numbers in them. Each phrase is a message id here: a pattern of the
engine's words maps to the UI's translated text, its numbers rewritten in the user's locale. A phrase
with no pattern (a new one) is shown as the engine wrote it — in English, never garbled. The English
source texts are the engine's own words, so the English window reads as before.
"""

from __future__ import annotations

import re

from app.ui.i18n import QT_TRANSLATE_NOOP, number, translate

# (the engine's words as a pattern, the UI's text with the pattern's groups as {placeholders}); the
# ``text`` group of a nested message is itself translated.
PHRASES = (
    (
        r"Converting the bundled model \(first start only\)",
        QT_TRANSLATE_NOOP("Engine", "Converting the bundled model (first start only)"),
    ),
    (
        r"Converting the bundled model: (?P<text>.+)",
        QT_TRANSLATE_NOOP("Engine", "Converting the bundled model: {text}"),
    ),
    (r"reading the GGUF metadata", QT_TRANSLATE_NOOP("Engine", "reading the GGUF metadata")),
    (r"reading the tokenizer", QT_TRANSLATE_NOOP("Engine", "reading the tokenizer")),
    (r"opening the tensors", QT_TRANSLATE_NOOP("Engine", "opening the tensors")),
    (
        r"converting tensor (?P<done>\d+)/(?P<total>\d+) (?P<name>\S+)",
        QT_TRANSLATE_NOOP("Engine", "converting tensor {done}/{total} {name}"),
    ),
    (r"writing model\.safetensors", QT_TRANSLATE_NOOP("Engine", "writing model.safetensors")),
    (r"Model ready", QT_TRANSLATE_NOOP("Engine", "Model ready")),
    (r"Starting the local worker", QT_TRANSLATE_NOOP("Engine", "Starting the local worker")),
    (r"Loading the local layers", QT_TRANSLATE_NOOP("Engine", "Loading the local layers")),
    (
        r"Worker session lost \((?P<code>[\w-]+)\); reconnecting…",
        QT_TRANSLATE_NOOP("Engine", "Worker session lost ({code}); reconnecting…"),
    ),
    (
        r"Reconnected to a new worker session; it reads the conversation again before going on\.",
        QT_TRANSLATE_NOOP(
            "Engine", "Reconnected to a new worker session; it reads the conversation again before going on."
        ),
    ),
    (
        r"Worker unreachable; reconnecting in (?P<seconds>[\d.e+-]+) s…",
        QT_TRANSLATE_NOOP("Engine", "Worker unreachable; reconnecting in {seconds} s…"),
    ),
    (
        r"Writing layers (?P<first>\d+)\.\.(?P<last>\d+)",
        QT_TRANSLATE_NOOP("Engine", "Writing layers {first}..{last}"),
    ),
    (r"Shard written", QT_TRANSLATE_NOOP("Engine", "Shard written")),
    (r"Reading the model", QT_TRANSLATE_NOOP("Engine", "Reading the model")),
    (r"Pseudonymising the corpus", QT_TRANSLATE_NOOP("Engine", "Pseudonymising the corpus")),
    (
        r"Codebook at depth (?P<depth>\d+) \((?P<done>\d+)/(?P<total>\d+) tokens\)",
        QT_TRANSLATE_NOOP("Engine", "Codebook at depth {depth} ({done}/{total} tokens)"),
    ),
    (
        r"Head search at depth (?P<depth>\d+) \((?P<done>\d+)/(?P<total>\d+) positions\)",
        QT_TRANSLATE_NOOP("Engine", "Head search at depth {depth} ({done}/{total} positions)"),
    ),
    (
        r"Training the inversion MLP \(step (?P<done>\d+)/(?P<total>\d+)\)",
        QT_TRANSLATE_NOOP("Engine", "Training the inversion MLP (step {done}/{total})"),
    ),
    (
        r"Running the model over the corpus \((?P<done>\d+)/(?P<total>\d+) chunks\)",
        QT_TRANSLATE_NOOP("Engine", "Running the model over the corpus ({done}/{total} chunks)"),
    ),
    (  # the bundled corpus's description, in a privacy report (app/privacy/corpus.py)
        r"Python (?P<version>[\d.]+) documentation topics \(pydoc_data\): (?P<total>\d+) documents",
        QT_TRANSLATE_NOOP("Engine", "Python {version} documentation topics (pydoc_data): {total} documents"),
    ),
    (
        r"(?P<attacker>\w+) at depth (?P<depth>\d+), (?P<direction>\w+): done",
        QT_TRANSLATE_NOOP("Engine", "{attacker} at depth {depth}, {direction}: done"),
    ),
)
_COMPILED = tuple((re.compile(pattern), text) for pattern, text in PHRASES)
_NUMBERS = frozenset({"done", "total", "depth", "first", "last"})


def engine_text(message: str) -> str:
    """``message`` (the engine's English) in the user's language, numbers in the user's locale."""
    for pattern, text in _COMPILED:
        found = pattern.fullmatch(message)
        if found is None:
            continue
        values = found.groupdict()
        for key in _NUMBERS & values.keys():
            values[key] = number(int(values[key]))
        if "seconds" in values:
            written = values["seconds"]  # as many decimals as the engine gave
            values["seconds"] = number(float(written), len(written.partition(".")[2]) if "e" not in written else 1)
        if "text" in values:
            values["text"] = engine_text(values["text"])
        return translate("Engine", text).format(**values)
    return message


progress_text = engine_text  # the loading bar's and the status bar's words: the same phrases
