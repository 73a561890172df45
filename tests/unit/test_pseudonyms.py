"""Identifiers are replaced consistently for a whole conversation and put back exactly; stand-ins never
show while an answer streams, and the mapping never reaches a log.

These use the rules alone (no NLP model: seconds, not minutes); tests/integration/test_pseudonymisation.py
runs the whole detector on the evaluation set.
"""

from __future__ import annotations

import importlib.util
import logging
import re
from datetime import timedelta

import pytest

from app.identifiers.detect import IdentifierDetector
from app.identifiers.entities import EntityType
from app.identifiers.pseudonyms import Pseudonymiser, Pseudonyms
from app.identifiers.surrogates import parse_date
from app.privacy.identifier_corpus import CORPUS_FILE, generate, load_corpus

RULES = IdentifierDetector(use_ner=False)
NOTE = (
    "Patient: COLLIN, Camille    MRN: RX332871    NHS No: 186 848 3398\n"
    "DOB: 12/10/1977    Admitted: 07/01/2018    Discharged: 28/01/2018\n"
    "Ms Collin is a 93-year-old seen by Dr Mirte de Jong. Camille lives at 223 Speri Drive, Gorghetto, "
    "G11 6NZ; daughter Rosina Pavanello on 07636 732605 or rosina.pavanello@gmail.com.\n"
)


def pseudonymiser(**kwargs) -> Pseudonymiser:
    return Pseudonymiser(Pseudonyms(seed=7, **kwargs), detector=RULES)


def test_the_model_reads_no_original_and_the_answer_gets_every_one_back():
    p = pseudonymiser()
    read = p.pseudonymise(NOTE)
    originals = [
        "Collin",
        "COLLIN",
        "Camille",
        "RX332871",
        "186 848 3398",
        "12/10/1977",
        "93-year-old",
        "Mirte",
        "Jong",
    ]
    originals += ["223 Speri Drive", "Gorghetto", "G11 6NZ", "Rosina", "Pavanello", "07636 732605", "rosina.pavanello"]
    for original in originals:
        assert original.lower() not in read.text.lower(), original
    assert p.reidentify(read.text) == NOTE
    counts = read.counts()
    assert counts["person"] >= 5 and counts["date"] == 3 and counts["age"] == 1 and counts["phone"] == 1


def test_one_person_keeps_one_stand_in_in_every_form_and_every_turn():
    p = pseudonymiser()
    first = p.pseudonymise(NOTE).text
    surname = re.search(r"Ms (\w+) is", first).group(1)
    given = re.search(r"Patient: [A-Z]+, (\w+)", first).group(1)
    assert re.search(rf"Patient: {surname.upper()}, {given}", first)  # SURNAME, First as in the original
    later = p.pseudonymise("Follow-up: Camille Collin (Ms Collin) rang about the letter from Dr de Jong.").text
    assert f"{given} {surname}" in later and f"Ms {surname}" in later
    document = p.pseudonymise("Attached: discharge note for COLLIN, Camille, born 12/10/1977.").text
    assert f"{surname.upper()}, {given}" in document


def test_a_stand_in_is_never_an_identifier_or_a_word_the_conversation_has_used():
    p = pseudonymiser()
    seen: list[str] = []
    for document in generate(seed=3, per_family=2)[:12]:
        before = len(p.pseudonyms.replacements)
        p.pseudonymise(document.text)
        seen.append(document.text.lower())
        originals = {r.original.lower() for r in p.pseudonyms.replacements}
        for replacement in p.pseudonyms.replacements[before:]:
            assert replacement.surrogate.lower() not in originals
            invented = {w.lower() for w in p.pseudonyms.words.values()}
            for word in re.findall(r"[^\W\d_]{2,}", replacement.surrogate):
                if word.lower() in invented:  # a name word it made up, not a kept "St" or "Ltd"
                    assert not any(re.search(rf"\b{re.escape(word.lower())}\b", text) for text in seen[:-1]), word


def test_a_real_name_that_matches_an_earlier_stand_in_is_replaced_too_and_answers_stay_right():
    p = pseudonymiser()
    first = p.pseudonymise("Ms Camille Collin was seen today.").text
    stand_in = re.search(r"Ms \w+ (\w+) was", first).group(1)
    later = p.pseudonymise(f"Her neighbour, Mr {stand_in}, drove her home.").text
    assert f"Mr {stand_in}" not in later  # the real person of that name is replaced like any other
    neighbour = re.search(r"Mr (\w+), drove", later).group(1)
    answer = p.reidentify(f"Ms {stand_in} went home with Mr {neighbour}.")
    assert answer == f"Ms Collin went home with Mr {stand_in}."


def test_dates_move_by_one_offset_so_intervals_survive():
    p = pseudonymiser()
    read = p.pseudonymise("Admitted 07/01/2018, discharged 28/01/2018, reviewed 4 February 2018.").text
    shifted = [parse_date(d)[0] for d in re.findall(r"\d{2}/\d{2}/\d{4}|\d{1,2} \w+ \d{4}", read)]
    assert (shifted[1] - shifted[0]).days == 21 and (shifted[2] - shifted[1]).days == 7
    assert shifted[0] - parse_date("07/01/2018")[0] == timedelta(days=p.pseudonyms.date_offset_days)


def test_a_stand_in_date_written_in_another_format_still_comes_back():
    p = pseudonymiser()
    read = p.pseudonymise("Seen on 07/01/2018.").text
    stand_in = parse_date(re.search(r"\d{2}/\d{2}/\d{4}", read).group(0))[0]
    assert (
        p.reidentify(f"The visit on {stand_in.day} {stand_in:%B %Y} went well.")
        == "The visit on 7 January 2018 went well."
    )


def test_the_answer_comes_back_whatever_case_the_model_writes_names_in():
    p = pseudonymiser()
    read = p.pseudonymise(NOTE).text
    surname = re.search(r"Ms (\w+) is", read).group(1)
    assert p.reidentify(f"{surname.upper()} should rest; {surname} agreed.") == "COLLIN should rest; Collin agreed."


def test_streaming_never_shows_part_of_a_stand_in():
    p = pseudonymiser()
    read = p.pseudonymise(NOTE).text
    surname = re.search(r"Ms (\w+) is", read).group(1)
    date = re.search(r"Discharged: (\S+)", read).group(1)
    written = f"Ms {surname} went home on {date}; {surname.upper()} is well."
    stream = p.stream()
    final = stream.finish(written)
    assert final == "Ms Collin went home on 28/01/2018; COLLIN is well."
    shown = [stream.update(written[:n]) for n in range(1, len(written) + 1)]
    for text in shown:
        assert final.startswith(text), text  # what is shown is never taken back
        assert surname.lower() not in text.lower() and date not in text

    # An answer cut short inside a stand-in (the length limit, Stop) shows none of it.
    cut = f"Ms {surname} went home on {date[:5]}"
    assert stream.finish(cut) == "Ms Collin went home on"
    assert stream.finish(f"Seen today. Ms {surname[:3]}") == "Seen today."


def test_the_mapping_round_trips_and_names_no_identifier_in_its_repr_or_a_log(caplog):
    caplog.set_level(logging.DEBUG)
    p = pseudonymiser()
    read = p.pseudonymise(NOTE)
    logging.getLogger("splitchat").info("pseudonymised with %r", p.pseudonyms)
    restored = Pseudonymiser(Pseudonyms.from_json(p.pseudonyms.to_json()), detector=RULES)
    assert restored.pseudonymise(NOTE).text == read.text  # the same stand-ins after a restart
    assert restored.reidentify(read.text) == NOTE
    assert "Collin" not in repr(p.pseudonyms) and "Collin" not in caplog.text and "RX332871" not in caplog.text


@pytest.mark.parametrize("kind", [EntityType.RECORD_NUMBER, EntityType.PHONE, EntityType.POSTCODE, EntityType.ACCOUNT])
def test_numbers_keep_their_format(kind):
    original = {"record_number": "RX332871", "phone": "+44 7502 004666", "postcode": "BS14 7NJ", "account": "20-00-00"}
    p = pseudonymiser()
    stand_in = p._surrogate(kind, original[kind.value])
    shape = lambda s: re.sub(r"[A-Z]", "A", re.sub(r"[a-z]", "a", re.sub(r"\d", "9", s)))  # noqa: E731
    assert stand_in != original[kind.value] and shape(stand_in) == shape(original[kind.value])


def test_the_kept_evaluation_set_is_what_the_generator_makes():
    assert load_corpus(CORPUS_FILE) == generate()


def test_fidelity_counts_answers_that_name_the_right_identifier_after_re_identification():
    from app.privacy.identifier_fidelity import QUESTIONS, measure_fidelity, names_right, qa_items

    items = qa_items(variants=1)
    assert len(items) == len(QUESTIONS)
    date_item = next(i for i in items if i.type is EntityType.DATE)
    day, render = parse_date(date_item.expected)
    assert names_right(f"It was made on {day:%d/%m/%Y}.", date_item)  # any format of the same day
    assert not names_right(f"It was made on {day + timedelta(days=1):%d/%m/%Y}.", date_item)
    person = next(i for i in items if i.type is EntityType.PERSON)
    assert names_right(f"That is {person.expected.split()[-1].upper()}.", person)
    assert not names_right("That is the Tenant.", person)

    def echo(messages, pseudonymiser):
        """A model that repeats the document's first sentence: right whenever re-identification is exact."""
        read = pseudonymiser.conversation(messages) if pseudonymiser else messages
        written = read[-1]["content"].split("\n")[0]
        return pseudonymiser.stream().finish(written) if pseudonymiser else written

    fidelity = measure_fidelity(echo, items, detector=RULES)
    first_sentence_answers = [i for i in items if names_right(i.messages[-1]["content"].split("\n")[0], i)]
    assert fidelity.plain.hits == len(first_sentence_answers) > 0
    for result in fidelity.styles.values():
        assert result.kept.hits == result.kept.total == fidelity.plain.hits


def test_without_the_spacy_model_detection_refuses_with_how_to_install_it(monkeypatch, tmp_path, capsys):
    from app import cli
    from app.identifiers import detect

    found = importlib.util.find_spec
    models = {name for names in detect.SPACY_MODELS.values() for name in names}
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name in models else found(name, *a))
    detect._entity_recogniser.cache_clear()
    try:
        with pytest.raises(detect.DetectorUnavailable, match="requirements-nlp.txt"):
            IdentifierDetector().detect("Dr Mirte de Jong saw the patient.")
        note = tmp_path / "note.txt"
        note.write_text("Dr Mirte de Jong saw the patient.", encoding="utf-8")
        assert cli.main(["pseudonymise", str(note)]) == 1  # a missing install: a runtime failure
        assert "pip install --no-deps --require-hashes -r requirements-nlp.txt" in capsys.readouterr().err
    finally:
        detect._entity_recogniser.cache_clear()  # a later test loads the real model again


def test_a_name_typed_with_and_without_its_accents_reads_as_one_person_and_comes_back_as_written():
    """Spanish typed on a phone drops accents: "Pérez García" and "perez garcia" are one person, and the
    model must read one stand-in for them, not two people."""
    p = pseudonymiser()
    text = "DEMANDADO: Juan Pérez García, DNI 12345678Z. Luego escribe juan perez garcia en el chat."
    read = p.pseudonymise(text).text
    accented, plain = p.pseudonyms.words["perez"], p.pseudonyms.words["garcia"]
    assert "pérez" not in p.pseudonyms.words and read.count(accented) == 1
    assert f"{accented} {plain}".lower() in read.lower().replace(f"{accented} {plain}", "", 1).lower()
    assert p.reidentify(read) == text


def test_a_saved_mapping_with_accented_name_keys_still_gives_the_same_stand_in():
    saved = pseudonymiser()
    saved.pseudonymise("La Sra. Begoña Ibáñez llamó.")
    data = saved.pseudonyms.to_json().replace('"ibanez"', '"ibáñez"').replace('"begona"', '"begoña"')
    reopened = Pseudonymiser(Pseudonyms.from_json(data), detector=RULES)
    stand_in = saved.pseudonyms.words["ibanez"]
    assert stand_in in reopened.pseudonymise("Begoña Ibáñez volvió a llamar; ibanez dice que sí.").text


@pytest.mark.parametrize("seed", range(6))
def test_a_given_name_stands_in_as_a_given_name_of_its_gender_with_or_without_a_title(seed):
    import importlib

    from app.identifiers.surrogates import FAKER_LOCALES, SPANISH_LOCALES

    lists = {"female": set(), "male": set()}
    for locale in FAKER_LOCALES + SPANISH_LOCALES:  # where the stand-ins come from
        provider = importlib.import_module(f"faker.providers.person.{locale}").Provider
        lists["female"] |= {n.lower() for n in provider.first_names_female}
        lists["male"] |= {n.lower() for n in provider.first_names_male}
    p = Pseudonymiser(Pseudonyms(seed=seed), detector=RULES)
    text = (
        "Seen with his father Teodoro Villaseñor. Teodoro is 92.\n"
        "Rebecca Okonkwo-Hart, his sister, rang; Rebecca will bring the letter.\n"  # rang: a verb, not a name
    )
    read = p.pseudonymise(text).text
    father = re.search(r"father (\w+) ", read).group(1)
    sister = re.search(r"\n(\w+) [\w-]+, his sister", read).group(1)
    assert father.lower() in lists["male"] and sister.lower() in lists["female"], read
    assert f"{father} is " in read and f"; {sister} will bring" in read  # alone, the same stand-in
    surname = re.search(r"\n\w+ ([\w-]+), his sister", read).group(1).split("-")
    assert len(surname) == 2 and not {w.lower() for w in surname} & lists["female"]  # both halves surnames
    assert p.reidentify(read) == text and " rang;" in read
