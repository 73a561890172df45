"""The privacy corpus: real text by default, the admin's folder otherwise, split by whole document."""

from __future__ import annotations

import pytest

from app.privacy.corpus import (
    CorpusError,
    TokenDocument,
    bundled_corpus,
    folder_corpus,
    split_by_document,
)


def _documents(count: int, length: int = 50) -> list[TokenDocument]:
    return [TokenDocument(f"doc{i}", tuple(range(i, i + length + i % 7))) for i in range(count)]


def test_split_shares_no_document_and_holds_the_test_share():
    documents = _documents(40)
    split = split_by_document(documents, test_share=0.2, seed=3)
    train, test = {d.name for d in split.train}, {d.name for d in split.test}
    assert not train & test
    assert train | test == {d.name for d in documents}
    total = split.train_tokens + split.test_tokens
    assert 0.2 <= split.test_tokens / total < 0.2 + 57 / total  # stops at the first document past the share


def test_split_is_seeded_and_caps_whole_sides():
    documents = _documents(40)
    assert split_by_document(documents, seed=1) == split_by_document(documents, seed=1)
    assert split_by_document(documents, seed=1) != split_by_document(documents, seed=2)
    capped = split_by_document(documents, seed=1, max_train_tokens=300, max_test_tokens=120)
    assert capped.train_tokens == 300 and capped.test_tokens == 120
    uncapped = split_by_document(documents, seed=1)
    # A cap truncates documents on its side; it never moves one across.
    assert {d.name for d in capped.test} <= {d.name for d in uncapped.test}
    assert {d.name for d in capped.train} <= {d.name for d in uncapped.train}


def test_split_refuses_what_cannot_be_split_honestly():
    with pytest.raises(CorpusError, match="at least two documents"):
        split_by_document(_documents(1))
    twins = [TokenDocument("same", (1, 2, 3)), TokenDocument("same", (4, 5, 6))]
    with pytest.raises(CorpusError, match="unique"):
        split_by_document(twins)
    two = split_by_document(_documents(2), test_share=0.9)
    assert len(two.train) == 1 and len(two.test) == 1  # the last document always trains


def test_bundled_corpus_is_real_english_from_the_standard_library():
    corpus = bundled_corpus()
    assert len(corpus.documents) >= 50
    assert "pydoc_data" in corpus.description
    text = " ".join(d.text for d in corpus.documents)
    words = text.lower().split()
    assert len(words) > 50_000
    for common in ("the", "is", "of", "and"):
        assert words.count(common) > 500


def test_folder_corpus_reads_txt_files_recursively(tmp_path):
    (tmp_path / "notes").mkdir()
    (tmp_path / "a.txt").write_text("The patient reported mild pain.", encoding="utf-8")
    (tmp_path / "notes" / "b.txt").write_text("The clause limits liability.", encoding="utf-8")
    (tmp_path / "empty.txt").write_text("   \n", encoding="utf-8")
    (tmp_path / "skip.md").write_text("not a txt file", encoding="utf-8")
    corpus = folder_corpus(tmp_path)
    assert sorted(d.name for d in corpus.documents) == ["a.txt", "notes/b.txt"] or sorted(
        d.name for d in corpus.documents
    ) == ["a.txt", "notes\\b.txt"]
    assert "2 .txt documents" in corpus.description


def test_folder_corpus_errors_are_actionable(tmp_path):
    with pytest.raises(CorpusError, match="does not exist"):
        folder_corpus(tmp_path / "missing")
    (tmp_path / "only.txt").write_text("one document", encoding="utf-8")
    with pytest.raises(CorpusError, match="at least two"):
        folder_corpus(tmp_path)


def test_the_corpus_is_pseudonymised_only_when_asked(tmp_path):
    from app.identifiers.detect import IdentifierDetector
    from app.privacy.corpus import pseudonymised
    from app.privacy.settings import PrivacySettings

    (tmp_path / "a.txt").write_text("Ms Camille Collin, MRN RX332871, was seen on 12/10/2023.", encoding="utf-8")
    (tmp_path / "b.txt").write_text("The lease ends on 1 May 2025. Call 07636 732605.", encoding="utf-8")
    raw = folder_corpus(tmp_path)
    read = pseudonymised(raw, IdentifierDetector(use_ner=False))
    assert [d.name for d in read.documents] == [d.name for d in raw.documents]
    for original in ("Collin", "RX332871", "12/10/2023", "1 May 2025", "07636 732605"):
        assert original in " ".join(d.text for d in raw.documents)
        assert original not in " ".join(d.text for d in read.documents)
    assert read.description.endswith("pseudonymised")
    assert PrivacySettings().pseudonymise is False  # the raw leak is what the evaluation measures by default
    assert PrivacySettings(pseudonymise=True).key() != PrivacySettings().key()  # its own cached report
