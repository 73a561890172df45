"""Numbers a notary writes in Spanish words: found after their cue, and standing in as another number in
words and digits alike."""

from __future__ import annotations

import re

import pytest

from app.identifiers.detect import IdentifierDetector
from app.identifiers.entities import EntityType as T
from app.identifiers.spelled_numbers import find_spelled_numbers, parse, restated, spell
from app.identifiers.surrogates import SurrogateMaker


@pytest.mark.parametrize(
    ("number", "words"),
    [
        (0, "cero"),
        (7, "siete"),
        (16, "dieciséis"),
        (21, "veintiuno"),
        (42, "cuarenta y dos"),
        (100, "cien"),
        (101, "ciento uno"),
        (187, "ciento ochenta y siete"),
        (500, "quinientos"),
        (1001, "mil uno"),
        (12847, "doce mil ochocientos cuarenta y siete"),
        (21000, "veintiún mil"),
        (31500, "treinta y un mil quinientos"),
        (999999, "novecientos noventa y nueve mil novecientos noventa y nueve"),
    ],
)
def test_a_number_is_spelled_and_read_back(number, words):
    assert spell(number) == words
    assert parse(words) == number
    assert parse(words.upper()) == number


def test_every_number_to_a_hundred_thousand_reads_back_as_itself():
    assert all(parse(spell(n)) == n for n in range(0, 100_000, 7))
    assert parse("dieciseis") == 16 and parse("no es un número") is None


@pytest.fixture(scope="module")
def detector() -> IdentifierDetector:
    return IdentifierDetector()


@pytest.mark.parametrize(
    ("text", "number"),
    [
        ("ESCRITURA PÚBLICA NÚMERO CIENTO OCHENTA Y SIETE. En la ciudad de Asunción", "CIENTO OCHENTA Y SIETE"),
        (
            "el Licenciado, carné de abogado número doce mil ochocientos cuarenta y siete, declara",
            "doce mil ochocientos cuarenta y siete",
        ),
        ("Solar número CUARENTA Y DOS (42) del bloque", "CUARENTA Y DOS (42)"),
        ("inscrita al LIBRO CUARENTA Y TRES, folio doscientos doce", "CUARENTA Y TRES"),
    ],
)
def test_a_deeds_number_in_words_is_found_whole(detector, text, number):
    assert number in {e.text_in(text) for e in find_spelled_numbers(text)}
    start = text.index(number)
    assert any(e.start <= start and start + len(number) <= e.end for e in detector.detect(text))


@pytest.mark.parametrize(
    "text", ["Es el número uno de su promoción.", "Tomo dos pastillas al día.", "el número de hijos"]
)
def test_a_rank_or_a_verb_is_no_number(text):
    assert find_spelled_numbers(text) == []


@pytest.mark.parametrize("seed", range(8))
def test_words_and_digits_stand_in_as_one_other_number(seed):
    maker = SurrogateMaker(seed, taken=lambda _: False)
    made = maker.make(T.RECORD_NUMBER, "CUARENTA Y DOS (42)")
    match = re.fullmatch(r"(?P<words>[A-ZÁÉÍÓÚ ]+) \((?P<digits>\d{2})\)", made)
    assert match, made
    assert parse(match.group("words")) == int(match.group("digits")) != 42
    lower = maker.make(T.RECORD_NUMBER, "doce mil ochocientos cuarenta y siete")
    assert lower.islower() and 10_000 <= parse(lower) <= 99_999 and parse(lower) != 12847


def test_digits_keep_their_grouping():
    assert (
        restated("catorce mil ochocientos ochenta y dos (14,882)", 23456)
        == "veintitrés mil cuatrocientos cincuenta y seis (23,456)"
    )
