"""Identifiers in text pasted from other software: numbers as a scan's text recognition writes them ("2O24"),
names a narrow column broke at a line's end with a hyphen, the dates, codes and numbers in quoted files' names
and folders' paths. And what the same forms hold that is no one's. None of these examples is from an
evaluation set."""

from __future__ import annotations

import re

import pytest

from app.identifiers.detect import IdentifierDetector
from app.identifiers.ocr import with_digits_repaired
from app.identifiers.pseudonyms import Pseudonymiser, Pseudonyms
from tests.unit.test_identifier_classes import assert_hidden, assert_kept


@pytest.fixture(scope="module")
def detector() -> IdentifierDetector:
    return IdentifierDetector()


@pytest.mark.parametrize(
    ("scanned", "read"),
    [
        ("Admitted l2/1l/2O24, seen Dec 2O24", "Admitted 12/11/2024, seen Dec 2024"),
        ("Tel (613) 582-77OO, C.I. V-18.4l2.907", "Tel (613) 582-7700, C.I. V-18.412.907"),
        # letters that are words, a gas's or a form's name, a single digit beside a letter where no other
        # number shows a scan's misreading
        ("SpO2 92% on O2, CO2 45; form I-485; lOl; O4-Mar", "SpO2 92% on O2, CO2 45; form I-485; lOl; O4-Mar"),
        # and where others do
        ("Fax 2O25-O3-1l: seen O4-Mar, 9l años, on O2", "Fax 2025-03-11: seen 04-Mar, 91 años, on O2"),
    ],
)
def test_a_scans_letters_for_digits_are_read_as_digits_inside_numbers_only(scanned, read):
    assert with_digits_repaired(scanned) == read
    assert len(with_digits_repaired(scanned)) == len(scanned)


@pytest.mark.parametrize(
    ("text", "identifiers"),
    [
        # numbers a scan misread
        ("Faxed 14/O3/2O25. NHS No. 943 47O 5919. Tel 0l632 96O 441", ["14/O3/2O25", "943 47O 5919"]),
        ("Fecha de ingreso: l2/1l/2O24   DNI 5O7l8293Z", ["l2/1l/2O24"]),
        # a plate of six characters, named after the words about the vehicle
        ("The plate on his ute is KRT552 if they need to move it off the drive", ["KRT552"]),
        # a court's serial and its year after the proceedings' own words
        ("Provisión de apoyos 318/2025, Juzgado de Primera Instancia", ["318/2025"]),
        # a name broken at a line's end by a hyphen
        ("Thank you for referring Mrs Pen-\nhaligon, a lady who lives alone", ["Mrs Pen-\nhaligon"]),
        ("el paciente\nRIGOBERTO ANTONIO SARMIENTO CALDE-\nRÓN, con Identidad", ["SARMIENTO CALDE-\nRÓN"]),
        # dates, codes and checked numbers in files' names and a folder's path
        (
            "  2024-11-04_Petition_Guardianship_24-PR-00731.pdf\n  DNI_Alcántara_50718293Z.pdf\n"
            "  extracto_ES9121000418450200051332.xlsx",
            ["2024-11-04", "50718293Z", "ES9121000418450200051332"],
        ),
    ],
)
def test_what_pasted_text_gives_away_is_hidden(detector, text, identifiers):
    assert_hidden(detector, text, *identifiers)


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("SpO2 88% on 2L O2; pCO2 6.1; form I-485 filed", ["SpO2", "O2", "pCO2", "I-485"]),
        ("Ley 100/1993, RD 174/2011 y la Ley Orgánica 3/2018", ["100/1993", "174/2011"]),
        # a calendar invitation's time zone names its cities
        ("Cuándo: jueves, 13 de marzo 9:30 (UTC+01:00) Bruselas, Copenhague, Madrid, París", ["Bruselas", "Madrid"]),
        ("The pre-\noperative check was fine; she is well-\nknown to the team", ["operative", "known"]),
        ("  Escala_Barthel_enfermeria.pdf\n  plantilla_informe_alta.docx", ["Escala", "plantilla_informe_alta"]),
    ],
)
def test_what_the_same_forms_hold_that_is_no_ones_is_kept(detector, text, kept):
    assert_kept(detector, text, *kept)


def _round_trip(text: str, seed: int) -> str:
    """What the model reads of ``text``, after checking that the answer's re-identification gives it back."""
    pseudonymiser = Pseudonymiser(Pseudonyms(seed=seed), detector=IdentifierDetector(use_tagger=False))
    read = pseudonymiser.pseudonymise(text).text
    assert pseudonymiser.reidentify(read) == text
    return read


def test_a_scanned_number_gets_a_stand_in_and_comes_back_as_written():
    read = _round_trip("Seen 14/O3/2O25 by Dr Lowri Pen-\nhaligon. NHS No. 943 47O 5919.", seed=3)
    assert "2O25" not in read and "47O 5919" not in read and "haligon" not in read


def test_a_scanned_date_stands_in_as_a_date_read_right_and_comes_back_as_scanned():
    read = _round_trip("Patient: NWACHUKWU, Ifeoma   PHIN: 5O2 418 377   DOB: 1931-O8-17 (93 y)", seed=5)
    assert re.search(r"DOB: (?:19|20)\d\d-\d\d-\d\d ", read), read
    assert "PHIN:" in read and "418 377" not in read


def test_a_name_found_in_the_text_is_replaced_inside_a_files_name():
    read = _round_trip("Patient: NWACHUKWU, Ifeoma, seen today.\nFiles:\n  2025-03-04_Referral_Nwachukwu_final.pdf", 5)
    assert "Nwachukwu" not in read and "NWACHUKWU" not in read, read


def test_what_stands_in_inside_a_files_name_comes_back_as_written():
    read = _round_trip('The enclosed OPG (file "OPG_DeSilva_20250502.dcm") and receta_mateo_140324.pdf', seed=2)
    assert "DeSilva" not in read and "mateo" not in read, read
