"""Streets written as their name and the house's number with no word for street, as Argentina, Uruguay and
Paraguay write them, and the names and numbers that are no address. The examples are written for these tests."""

from __future__ import annotations

import pytest

from app.identifiers.bare_streets import find_bare_streets
from app.identifiers.detect import IdentifierDetector
from app.identifiers.entities import EntityType
from app.identifiers.language import Language


@pytest.fixture(scope="module")
def detector() -> IdentifierDetector:
    return IdentifierDetector()


@pytest.mark.parametrize(
    ("text", "street"),
    [
        ("Nos vemos mañana en el estudio, estamos en Lavalleja 1874, a media cuadra de la plaza.", "Lavalleja 1874"),
        (
            "vive en Barrio Sur, Maximiliano Tomás Gurruchaga 2290 piso 3 depto B, con la hija",
            "Maximiliano Tomás Gurruchaga 2290",
        ),
        ("Ahora vivo en Carrasco, Finlandia 3318. Mi cédula es la misma.", "Finlandia 3318"),
        ("Es el de Paraguay 945, no el de la otra cuadra.", "Paraguay 945"),
        ("Retirar la muestra en Sarmiento 1520 bis, timbre 2.", "Sarmiento 1520"),
        ("Domicilio: Ibicuy 3377 esq. Tacuarí, Asunción", "Ibicuy 3377"),
    ],
)
def test_a_street_named_then_numbered_is_an_address(detector: IdentifierDetector, text: str, street: str) -> None:
    assert [text[e.start : e.end] for e in find_bare_streets(text)] == [street]
    assert all(e.type is EntityType.ADDRESS for e in find_bare_streets(text))
    # and the detector hides it, whichever rule finds it first ("Sarmiento" is also a town)
    found = detector.detect(text, language=Language.SPANISH)
    start = text.index(street)
    uncovered = [
        text[i]
        for i in range(start, start + len(street))
        if not text[i].isspace() and not any(e.start <= i < e.end for e in found)
    ]
    assert uncovered == [], (street, found)


@pytest.mark.parametrize(
    "text",
    [
        "Continuar Levotiroxina 100 mcg en ayunas y Metformina 850 c/12 h.",  # a drug and its dose
        "Ingresa somnoliento, Glasgow 13, pupilas isocóricas.",  # a scale named after a town
        "Según la Ley 1452 y el Decreto 2290, en el expediente Sarmiento 1520/2023.",  # a law and a case
        "Llamar a su hija Rosario 099 318 4420 por la tarde.",  # a name and a phone number
        "Vino el técnico en una camioneta Toyota Hilux 2019 con placas nuevas.",  # a make, a model and a year
        "On Mon, Mar 10, 2025 at 4:48 PM she wrote back.",  # a date
        "Se sienta en Sala 12 y espera en Cama 4.",  # a room and a bed
    ],
)
def test_a_name_and_a_number_that_are_no_address(text: str) -> None:
    assert find_bare_streets(text) == []


def test_a_street_found_by_its_type_keeps_that_finding(detector: IdentifierDetector) -> None:
    # found by the street rules already: the bare-street reading adds nothing beside it
    text = "Domicilio: Calle Pestaña 1120, int. 4, Col. Narvarte"
    addresses = [
        text[e.start : e.end] for e in detector.detect(text, language=Language.SPANISH) if e.type is EntityType.ADDRESS
    ]
    assert any(a.startswith("Calle Pestaña 1120") for a in addresses), addresses


def test_a_street_read_as_a_town_and_its_postcode_is_a_street_when_its_town_follows(
    detector: IdentifierDetector,
) -> None:
    # "Sarandí" is also a town and "1290" could be its postcode; the town after the comma says it is a street
    text = "Antes estaba en Sarandí 1290, Mercedes, y ahora vive con nosotros."
    kinds = {text[e.start : e.end]: e.type for e in detector.detect(text, language=Language.SPANISH)}
    assert kinds.get("Sarandí 1290") is EntityType.ADDRESS, kinds
    assert "Mercedes" in kinds, kinds
