"""The detector's contextual stage on the bundled model: what it reads, what it adds to the rules and the
learned tagger, and the head it refuses."""

from __future__ import annotations

import json

import pytest

from app.identifiers.contextual_tagger import (
    CHUNK_TOKENS,
    HEAD_CARD,
    HEAD_FILE,
    ContextualUnavailable,
    load_contextual_tagger,
    shipped_backbone,
)
from app.identifiers.detect import IdentifierDetector
from app.identifiers.language import Language, detect_language
from app.identifiers.learned_tagger import WORD


@pytest.fixture(scope="module")
def detectors() -> tuple[IdentifierDetector, IdentifierDetector]:
    return IdentifierDetector(use_context=False), IdentifierDetector()


def _covered(text: str, found, word: str) -> bool:
    start = text.index(word)
    return any(e.start <= start and start + len(word) <= e.end for e in found)


def test_every_word_is_read_even_past_one_reading_window():
    backbone = shipped_backbone()
    text = "Seen at the clinic on Tuesday with her daughter; plan reviewed and agreed. " * 200
    spans, states = backbone.word_states(text)
    assert len(backbone._tokenizer(text, add_special_tokens=False)["input_ids"]) > CHUNK_TOKENS
    assert spans == [m.span() for m in WORD.finditer(text)]
    assert states.shape == (len(spans), 5 * backbone._model.config.hidden_size)
    none, no_states = backbone.word_states(" \n ")
    assert none == [] and no_states.shape == (0, states.shape[1])


def test_a_head_trained_on_another_model_file_or_other_features_is_refused(tmp_path):
    card = json.loads(HEAD_CARD.read_text(encoding="utf-8"))
    (tmp_path / "other_model.json").write_text(json.dumps({**card, "backbone": "0" * 16}), encoding="utf-8")
    with pytest.raises(ContextualUnavailable, match="another model file"):
        load_contextual_tagger(shipped_backbone(), HEAD_FILE, tmp_path / "other_model.json")
    (tmp_path / "other_features.json").write_text(json.dumps({**card, "feature_version": 0}), encoding="utf-8")
    with pytest.raises(ContextualUnavailable, match="features version 0"):
        load_contextual_tagger(shipped_backbone(), HEAD_FILE, tmp_path / "other_features.json")
    with pytest.raises(ContextualUnavailable, match="cannot be read"):
        load_contextual_tagger(shipped_backbone(), HEAD_FILE, tmp_path / "missing.json")


def test_the_reading_finds_a_name_that_the_rules_and_the_tagger_leave(detectors):
    """A care home's incident log signs each row with the carer's name; "Precious" is an everyday word,
    and only the sentence's reading tells it is someone's."""
    without, with_reading = detectors
    row = "11:20 | lounge | Edna P + Stan (Rm 9) | Stan pushed Edna's chair | Precious | DX-25-0042"
    assert not _covered(row, without.detect(row, language=Language.ENGLISH), "Precious")
    assert _covered(row, with_reading.detect(row, language=Language.ENGLISH), "Precious")


@pytest.mark.parametrize(
    "text",
    [
        "Started metformin; Dexcom sensor and Omnipod pump reviewed; drives a Toyota Hilux.",
        "Review by cardiology; Holter monitor fitted, Zio patch next.",
        "Troponin 45 ng/L, HbA1c 62, Wells score 4, CHA2DS2-VASc 3.",
        "Summarise this letter for the client in plain English.",
        "Iniciar enalapril 10 mg; control de INR el lunes; escala de Barthel 85.",
        # what the reading found before its findings met the tagger's tests: a connector alone, a party's
        # word, a piece of a brand the rules keep whole, a count in words
        "The Bank of England and NHS Scotland are national.",
        "Plaintiff Robin van de Plas resides in Leeds.",
        "Paid by American Express card ending 7466.",
        "Heart rate was ninety, BP stable. My grandmother is ninety-three.",
    ],
)
def test_the_reading_adds_no_medicine_device_make_test_or_instruction(detectors, text):
    without, with_reading = detectors
    assert with_reading.detect(text) == without.detect(text)


def test_the_shipped_head_was_trained_on_the_development_sources_alone_and_all_of_them():
    from app.identifiers.contextual_tagger import FEATURE_VERSION, read_card
    from app.privacy.annotated import Role, project_sources

    card = read_card()
    sources = project_sources()
    development = {s.name for s in sources if s.role is Role.DEVELOPMENT}
    assert set(card.sources) == development
    assert card.documents == sum(len(s.documents) for s in sources if s.role is Role.DEVELOPMENT)
    assert card.feature_version == FEATURE_VERSION
    assert card.backbone == shipped_backbone().key


def test_reading_in_bfloat16_finds_what_float32_finds():
    """Where the processor has bfloat16 the stage reads in it (faster); its findings on these texts must not
    change."""
    import torch

    texts = [
        "11:20 | lounge | Edna P + Stan (Rm 9) | Stan pushed Edna's chair | Precious | DX-25-0042",
        "HR lady Pam rang; Glory fetches the prescriptions on Fridays from Sahel Wings Aviation's office.",
        "Started metformin; Dexcom sensor and Omnipod pump reviewed; drives a Toyota Hilux.",
        "Paciente derivada por la Dra. Itziar Goikoetxea desde el centro de salud de Zarautz.",
    ]
    found = []
    for dtype in (torch.float32, torch.bfloat16):
        tagger = load_contextual_tagger(shipped_backbone(dtype))
        detector = IdentifierDetector(contextual=tagger)
        found.append([detector.detect(text, language=detect_language(text)) for text in texts])
    assert found[0] == found[1]
