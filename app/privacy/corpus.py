"""Text for the privacy evaluation: the bundled corpus or the admin's own folder, split by document.

The bundled default is the standard library's ``pydoc_data`` topics: human-written English that ships
with every Python install, so the evaluation needs no download. An admin can point at a folder of
their own ``.txt`` documents instead; those are read and attacked here, on the workstation, only.

Train and test never share a document: an attacker tested on positions of passages it was trained
on measures memorisation, not inversion.
"""

from __future__ import annotations

import random
import sys
from dataclasses import dataclass
from pathlib import Path


class CorpusError(Exception):
    """A corpus that cannot be evaluated, with a message a person can act on."""


@dataclass(frozen=True)
class Document:
    name: str
    text: str


@dataclass(frozen=True)
class TokenDocument:
    name: str
    ids: tuple[int, ...]


@dataclass(frozen=True)
class Corpus:
    description: str
    documents: list[Document]


@dataclass(frozen=True)
class CorpusSplit:
    train: list[TokenDocument]
    test: list[TokenDocument]

    @property
    def train_tokens(self) -> int:
        return sum(len(d.ids) for d in self.train)

    @property
    def test_tokens(self) -> int:
        return sum(len(d.ids) for d in self.test)


def bundled_corpus() -> Corpus:
    """The Python documentation topics of this interpreter (``pydoc_data.topics``), one per document."""
    from pydoc_data.topics import topics

    version = ".".join(map(str, sys.version_info[:3]))
    documents = [Document(name, text) for name, text in sorted(topics.items()) if text.strip()]
    return Corpus(f"Python {version} documentation topics (pydoc_data): {len(documents)} documents", documents)


def folder_corpus(folder: Path) -> Corpus:
    """Every ``.txt`` file under ``folder`` (recursively), one document per file."""
    folder = Path(folder).expanduser()
    if not folder.is_dir():
        raise CorpusError(f"Corpus folder {folder} does not exist.")
    documents = []
    for path in sorted(folder.rglob("*.txt")):
        text = path.read_text(encoding="utf-8", errors="replace")
        if text.strip():
            documents.append(Document(str(path.relative_to(folder)), text))
    if len(documents) < 2:
        raise CorpusError(
            f"{folder} holds {len(documents)} non-empty .txt file(s); the evaluation needs at least two "
            "documents so that train and test share none."
        )
    return Corpus(f"{len(documents)} .txt documents from {folder.name}/ (the admin's own, read locally)", documents)


def pseudonymised(corpus: Corpus, detector=None) -> Corpus:
    """Each document as the model reads it with pseudonymisation on (one mapping per document)."""
    import zlib

    from app.identifiers.pseudonyms import Pseudonymiser, Pseudonyms

    documents = [
        Document(
            d.name, Pseudonymiser(Pseudonyms(seed=zlib.crc32(d.name.encode())), detector).pseudonymise(d.text).text
        )
        for d in corpus.documents
    ]
    return Corpus(f"{corpus.description}, pseudonymised", documents)


def tokenize(corpus: Corpus, tokenizer, max_doc_tokens: int) -> list[TokenDocument]:
    """Token ids of each document, at most ``max_doc_tokens`` each so no single file dominates."""
    out = []
    for document in corpus.documents:
        ids = tokenizer(document.text, add_special_tokens=False)["input_ids"][:max_doc_tokens]
        if len(ids) >= 2:
            out.append(TokenDocument(document.name, tuple(ids)))
    return out


def split_by_document(
    documents: list[TokenDocument],
    test_share: float = 0.2,
    seed: int = 0,
    max_train_tokens: int | None = None,
    max_test_tokens: int | None = None,
) -> CorpusSplit:
    """Shuffle whole documents (seeded) into test and train; cap each side's tokens.

    Test takes documents until it holds ``test_share`` of all tokens; the rest train. A cap truncates
    the last document on its side and drops the ones after it, so no document ever straddles both.
    """
    if len(documents) < 2:
        raise CorpusError("The evaluation needs at least two documents so that train and test share none.")
    if len({d.name for d in documents}) != len(documents):
        raise CorpusError("Document names must be unique: they are how the split is checked.")
    order = list(documents)
    random.Random(seed).shuffle(order)
    total = sum(len(d.ids) for d in order)
    test, train, held = [], [], 0
    for document in order:
        # The last document always trains: an attacker with nothing to learn from is no attacker.
        if held < test_share * total and len(test) < len(order) - 1:
            test.append(document)
            held += len(document.ids)
        else:
            train.append(document)
    return CorpusSplit(_capped(train, max_train_tokens), _capped(test, max_test_tokens))


def _capped(documents: list[TokenDocument], limit: int | None) -> list[TokenDocument]:
    if limit is None:
        return documents
    out, used = [], 0
    for document in documents:
        room = limit - used
        if room < 2:
            break
        ids = document.ids[:room]
        out.append(TokenDocument(document.name, ids))
        used += len(ids)
    return out
