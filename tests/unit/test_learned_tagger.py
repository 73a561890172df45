"""The detector's learned stage (app/identifiers/learned_tagger.py): what it is trained on, what it may mark,
how its words become identifiers, and that the office's and the user's kept terms bind it as they bind the
rules."""

from __future__ import annotations

import json

import pytest

from app.identifiers import learned_tagger
from app.identifiers.detect import IdentifierDetector
from app.identifiers.entities import Entity, EntityType
from app.identifiers.learned_tagger import (
    FEATURE_VERSION,
    LearnedTagger,
    TaggerUnavailable,
    features,
    joined_to_neighbours,
    labels,
    read_card,
    train,
)
from app.identifiers.office_terms import OfficeTerms
from app.privacy.annotated import Role, project_sources

T = EntityType


def test_the_shipped_model_was_trained_on_the_development_sources_alone_and_all_of_them():
    card = read_card()
    sources = project_sources()
    development = {s.name for s in sources if s.role is Role.DEVELOPMENT}
    held_out = {s.name for s in sources if s.role is not Role.DEVELOPMENT}
    assert set(card.sources) == development
    assert not set(card.sources) & held_out
    # a development set added or changed since the model was trained: retrain it
    assert card.documents == sum(len(s.documents) for s in sources if s.role is Role.DEVELOPMENT)
    assert card.feature_version == FEATURE_VERSION


def test_a_name_is_never_a_feature_of_its_own_only_common_words_are():
    text = "I work nights at Harbourline Stevedoring in Ōtāhuhu, said Wiremu."
    spans, rows = features(text, [], "en")
    everything = " ".join(f for row in rows for f in row).lower()
    for name in ("harbourline", "stevedoring", "ōtāhuhu", "wiremu"):
        assert name not in everything
    assert "wd=work" in everything and "wd=at" in everything
    assert [text[a:b] for a, b in spans][:3] == ["I", "work", "nights"]


def test_what_the_rules_found_is_each_words_evidence():
    text = "Call Ana on 612 345 678 today"
    found = [Entity(12, 23, T.PHONE)]
    _, rows = features(text, found, "es")
    assert "r=phone" in rows[3] and "r=phone" in rows[5]
    assert "r=-" in rows[0] and "1r=phone" in rows[2]


def test_labels_are_the_annotated_types():
    text = "Dr Ama Owusu, 14 Elm Row"
    spans, _ = features(text, [], "en")
    assert labels(spans, [Entity(3, 12, T.PERSON), Entity(14, 24, T.ADDRESS)]) == [
        "O",
        "person",
        "person",
        "address",
        "address",
        "address",
    ]


@pytest.fixture(scope="module")
def small_model(tmp_path_factory):
    """A model trained here on a few sentences of one pattern: the employer's word before a firm."""
    examples = []
    firms = ["Quorvane", "Bellisto", "Tarrowdyne", "Ospreyvale", "Kilmorran", "Venturo", "Haskett", "Drumlow"]
    for firm in firms + [f.lower() for f in firms]:
        for line in (f"employer {firm} confirmed the dates", f"the employer {firm} wrote again today"):
            spans, rows = features(line, [], "en")
            start = line.index(firm)
            examples.append((rows, labels(spans, [Entity(start, start + len(firm), T.ORGANIZATION)])))
    path = tmp_path_factory.mktemp("tagger") / "small.crfsuite"
    train(examples, path)
    return LearnedTagger(model=path, card=None)


def test_a_trained_model_marks_an_unseen_word_in_a_learned_place(small_model):
    text = "employer Zentholm confirmed the dates"
    found = small_model.find(text, [], "en")
    assert [(e.text_in(text), e.type) for e in found] == [("Zentholm", T.ORGANIZATION)]


def test_the_model_marks_no_word_the_rules_already_hold(small_model):
    text = "employer Zentholm confirmed the dates"
    rules = [Entity(9, 17, T.PERSON)]
    assert small_model.find(text, rules, "en") == []


def test_kept_terms_bind_the_learned_stage(small_model):
    text = "employer Zentholm confirmed the dates"
    office = IdentifierDetector(
        use_ner=False, tagger=small_model, office_terms=OfficeTerms(kept=frozenset({"zentholm"}))
    )
    assert office.detect(text) == []
    user = IdentifierDetector(use_ner=False, tagger=small_model)
    assert user.detect(text, kept=["Zentholm"]) == []
    assert [e.text_in(text) for e in user.detect(text)] == ["Zentholm"]


def test_a_learned_word_between_two_parts_of_an_address_joins_them():
    text = "lives at 2204 nw 15th ave unit 4 with her son"
    found = [Entity(9, 13, T.ADDRESS), Entity(17, 32, T.ADDRESS)]
    learned = [Entity(14, 16, T.ADDRESS)]
    assert [e.text_in(text) for e in joined_to_neighbours(text, found, learned)] == ["2204 nw 15th ave unit 4"]


def test_rules_findings_alone_are_not_joined():
    text = "Ana Ruiz, Eva Gil"
    found = [Entity(0, 8, T.PERSON), Entity(10, 17, T.PERSON)]
    assert joined_to_neighbours(text, found, []) == found
    text = "Ana Ruiz Eva Gil"
    assert joined_to_neighbours(text, [Entity(0, 8, T.PERSON), Entity(9, 16, T.PERSON)], []) == [
        Entity(0, 8, T.PERSON),
        Entity(9, 16, T.PERSON),
    ]


def test_a_model_of_other_features_is_refused_with_a_reason(tmp_path):
    card = tmp_path / "tagger.json"
    card.write_text(json.dumps({**json.loads(learned_tagger.MODEL_CARD.read_text()), "feature_version": 0}))
    with pytest.raises(TaggerUnavailable, match="features version 0"):
        LearnedTagger(card=card)
    with pytest.raises(TaggerUnavailable, match="cannot be read"):
        LearnedTagger(card=tmp_path / "missing.json")
    (tmp_path / "broken.crfsuite").write_bytes(b"not a model")
    with pytest.raises(TaggerUnavailable, match="cannot be opened"):
        LearnedTagger(model=tmp_path / "broken.crfsuite")


def test_the_shipped_model_fills_what_the_rules_leave_inside_an_address():
    detector = IdentifierDetector(use_ner=False)
    # (a rule reads "to flat 7"; after "rear" only the model does)
    text = "please send the forms to rear flat 7, 19 corporation road, splott, cardiff."
    rules = {e.text_in(text) for e in detector.detect_by_rules(text)}
    assert "flat 7" not in rules
    assert "flat 7" in {e.text_in(text) for e in detector.detect(text)}


def test_the_shipped_model_leaves_clinical_text_and_instructions_alone():
    detector = IdentifierDetector()
    for text in (
        "Patient started on metformin 500 mg and ramipril; review in clinic with Parkinson's nurse.",
        "Summarise this letter for the client.",
        "Echo EF 35 %, troponin negative, CHA2DS2-VASc 3; continue apixaban.",
        "Resuma esta carta para el cliente y revise el contrato de arrendamiento.",
    ):
        assert detector.detect(text) == detector.detect_by_rules(text)


def test_a_name_the_model_found_is_found_again_where_the_message_repeats_it(small_model):
    text = "employer zentholm confirmed the dates, and zentholm pays on the last day"
    detector = IdentifierDetector(use_ner=False, tagger=small_model)
    assert detector.detect_by_rules(text) == []
    found = [(e.text_in(text), e.type) for e in detector.detect(text)]
    assert found == [("zentholm", T.ORGANIZATION), ("zentholm", T.ORGANIZATION)]
    assert small_model.find(text, [], "en") == [Entity(9, 17, T.ORGANIZATION)]  # the model saw the first alone
