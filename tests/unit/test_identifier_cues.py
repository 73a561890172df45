"""Identifiers read from what a text writes around them, and kept terms read the same way: a dose after a
medicine, a state body's head, initials a set of minutes declares, a record system's user after "by", a
nickname in brackets, a street's kind in other countries, a clause after a name in capitals, a coded list's
titles. None of these examples is from an evaluation set."""

from __future__ import annotations

import re

import pytest

from app.identifiers.detect import IdentifierDetector
from tests.unit.test_identifier_classes import assert_hidden, assert_kept, replaced


@pytest.fixture(scope="module")
def detector() -> IdentifierDetector:
    return IdentifierDetector()


def assert_every_mention_hidden(detector: IdentifierDetector, text: str, word: str) -> None:
    """Every whole-word mention of ``word`` in ``text`` is replaced."""
    blanked = replaced(detector, text)
    mentions = [m.start() for m in re.finditer(rf"(?<!\w){re.escape(word)}(?!\w)", text)]
    assert mentions, word
    for start in mentions:
        assert set(blanked[start : start + len(word)]) == {"#"}, (word, start, blanked)


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        # a strength that is no day and month, every mention after it
        (
            "Continuation phase: Rifinah 300/150, 2 tabs daily.\nGiven 14 days of Rifinah + DTG for transit.",
            ["Rifinah"],
        ),
        (" - start Mixtard 30/70 14 U mane / 8 U nocte; metformin 500 mg bd", ["Mixtard"]),
        # a dose's form, a brand in brackets before its dose
        (
            "Tratamiento: metotrexato 20 mg sc semanal (Metoject pluma), ácido fólico (Acfol) 5 mg.",
            ["Metoject", "Acfol"],
        ),
        ("Medication per GP: Panadeine Forte nocte PRN, celecoxib 200 mg daily.", ["Panadeine Forte"]),
    ],
)
def test_a_medicine_is_read_by_its_strength_or_how_often_it_is_taken(detector, text, kept):
    assert_kept(detector, text, *kept)


def test_a_name_before_a_day_and_month_or_a_duration_is_still_a_name(detector):
    text = "Reviewed: Siobhan Kearney 45/12 follow-up; seen by Dr Okafor 12/03 with Mr Haldane 20/11."
    assert_hidden(detector, text, "Siobhan Kearney", "Okafor", "12/03", "Haldane", "20/11")


@pytest.mark.parametrize(
    ("text", "kept", "hidden"),
    [
        (
            "El título se inscribió en el Registro Agrario Nacional y lo resolvió el Tribunal Unitario Agrario.",
            ["Registro Agrario Nacional", "Tribunal Unitario Agrario"],
            [],
        ),
        (
            "She called Tasmania Police and the Jersey Care Commission about Mrs Le Cornu.",
            ["Tasmania Police", "Jersey Care Commission"],
            ["Le Cornu"],
        ),
        ("SIERRA LEONE POLICE\nStatement of witness: Fatmata Kamara", ["SIERRA LEONE POLICE"], ["Fatmata Kamara"]),
        (
            "Present: DS Paul Renouf of States of Jersey Police; Sgt. Hamon of States of Jersey Police.",
            ["States of Jersey Police"],
            ["Paul Renouf", "Hamon"],
        ),
        (
            "Lo denunció ante la Inspección de Trabajo y Seguridad Social el Sr. Íñigo Azkarate.",
            ["Inspección de Trabajo y Seguridad Social"],
            ["Íñigo Azkarate"],
        ),
        # a town among the words locates whom the text deals with: it stays hidden
        (
            "Se remiten al Juzgado de Instrucción nº 1 de Zafra. He reports to the Gasparillo Police Station.",
            [],
            ["Zafra", "Gasparillo"],
        ),
    ],
)
def test_a_state_bodys_name_reaches_the_model_and_a_town_inside_one_does_not(detector, text, kept, hidden):
    assert_kept(detector, text, *kept)
    assert_hidden(detector, text, *hidden)


def test_initials_the_minutes_declare_for_a_person_are_that_person_wherever_they_recur(detector):
    text = (
        "Present: Claire Le Brocq (Registered Manager, CLB); Tomasz Wisniewski (Deputy Manager, TW); "
        "Dr Amara Okafor (GP, AO); Paul Renouf (police, PR)\n\n"
        "2. Concern\nTW reported what the carer saw. AO assessed capacity on 3 July.\n"
        "| Freeze the debit card | CLB | 10/07 |\nObs: PR 112, BP 120/80."
    )
    assert_hidden(detector, text, "Claire Le Brocq")
    for initials in ("CLB", "TW", "AO"):
        assert_every_mention_hidden(detector, text, initials)
    # a clinical abbreviation stays one, declared or not: "PR 112" is a pulse
    assert_kept(detector, text, "PR 112")


@pytest.mark.parametrize(
    ("text", "login"),
    [
        ("Entered by: hpostlethwaite          Record locked: 05/03/2024", "hpostlethwaite"),
        ("PCR completed 17-02-2025 0915 by jmacisaac. Reviewed rboudreau.", "jmacisaac"),
        ("PCR completed 17-02-2025 0915 by jmacisaac. Reviewed rboudreau.", "rboudreau"),
        ("Transcrito por: mjruizc", "mjruizc"),
        ("Entered by kflett2 2024-11-06 18:12", "kflett2"),
    ],
)
def test_a_record_systems_user_after_the_word_that_signs_the_entry(detector, text, login):
    assert_hidden(detector, text, login)


def test_a_word_after_by_that_is_a_word_is_no_user(detector):
    text = "Sent by phone, paid by cheque, signed by hand, taken by mouth, reviewed by physio, enviado por escrito."
    assert_kept(detector, text, "phone", "cheque", "hand", "mouth", "physio", "escrito")


@pytest.mark.parametrize(
    ("text", "hidden", "kept"),
    [
        ('Tyson ("Ty", gr. 3) arrived with bruising. Ty was interviewed alone.', ["Tyson", "Ty"], []),
        ('The driver came down. People call him "Alu Bus"; later I heard his name.', ["Alu Bus"], []),
        ('Thibs hit the stop.\nQ. "Thibs" is Mr. Thibodeau?\nA. Yes.', ["Thibs", "Thibodeau"], []),
        # what follows the name in the quotes is the nickname's joke, not a name
        ('He called her "Fatima from Homeland Security" in front of the team.', ["Fatima"], ["from"]),
        # a brand in quotes after a medicine names no one
        ('Start Paracetamol ("Panadol") today.', [], ["Paracetamol"]),
    ],
)
def test_nicknames_in_brackets_and_after_the_words_that_give_them(detector, text, hidden, kept):
    for name in hidden:
        assert_every_mention_hidden(detector, text, name)
    assert_kept(detector, text, *kept)


@pytest.mark.parametrize(
    ("text", "address"),
    [
        ("The Defendant, of LP 42 Cipero Road, Gasparillo, was arrested.", "LP 42 Cipero Road"),
        ("Mr Vishnu Ramdeen (uncle), of #9 Sookram Trace, Penal, a taxi driver", "9 Sookram Trace"),
        ("from: Bontleng Clinic, Gaborone - Private Bag BO 134, tel 395 2218", "Private Bag BO 134"),
        ("ARBITRATOR\nPrivate Bag 13367, Windhoek", "Private Bag 13367"),
        ("Locked Bag 4020, Parramatta NSW", "Locked Bag 4020"),
        ("MAISON CLAIRVAUX CARE HOME\nLa Route de la Haule, St Brelade, Jersey JE3 8BA", "Route de la Haule"),
        ("residing at Erf 5521, Omuthiya Street, Katutura, appeared in person", "Erf 5521, Omuthiya Street"),
        ("works at a hardware shop, KN 1 Rd 14, Nyarugenge", "KN 1 Rd 14"),
        ("con domicilio en calle\nJabonería, 7, El Puerto de Santa María.", "calle\nJabonería, 7"),
    ],
)
def test_streets_by_the_kinds_other_countries_write(detector, text, address):
    assert_hidden(detector, text, address)


def test_en_route_and_a_bag_of_anything_else_are_no_addresses(detector):
    assert_kept(detector, "He was en route to the clinic with a private bag of his things.", "en route", "private bag")


@pytest.mark.parametrize(
    ("text", "hidden", "kept"),
    [
        (
            'COMPARECEN EL C. JOSÉ TEPOX HERNÁNDEZ, A QUIEN EN LO SUCESIVO SE LE DENOMINARÁ "EL ENAJENANTE", Y '
            'EL C. RAFAEL MORALES CUAUTLE, A QUIEN SE LE DENOMINARÁ "EL ADQUIRENTE".\n'
            "PRIMERA.- EL ENAJENANTE transmite a EL ADQUIRENTE los derechos.",
            ["JOSÉ TEPOX HERNÁNDEZ", "RAFAEL MORALES CUAUTLE"],
            ["A QUIEN EN LO SUCESIVO", "A QUIEN SE", "EL ENAJENANTE transmite a EL ADQUIRENTE"],
        ),
        (
            "Conductor V1: RAÚL GORDILLO MÁRQUEZ, DNI 80074321M\nSolicitante: MARÍA SALAZAR RONDÓN, C.I. V-14.827.395",
            ["RAÚL GORDILLO MÁRQUEZ", "80074321M", "MARÍA SALAZAR RONDÓN", "V-14.827.395"],
            ["DNI", "C.I."],
        ),
    ],
)
def test_a_clause_or_an_ids_label_after_a_name_in_capitals_is_no_given_name(detector, text, hidden, kept):
    assert_hidden(detector, text, *hidden)
    assert_kept(detector, text, *kept)


def test_a_coded_lists_titles_are_no_postcodes_and_towns(detector):
    text = (
        "DIAGNÓSTICOS DE ENFERMERÍA:\n - 00206 Riesgo de sangrado r/c atonía uterina.\n"
        " - 00132 Dolor agudo r/c involución uterina\nDomicilio: C/ Mayor 3, 28009 Madrid"
    )
    assert_kept(detector, text, "00206 Riesgo de sangrado", "00132 Dolor agudo")
    assert_hidden(detector, text, "28009", "Madrid")


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("Instrumentos: Test de la Figura Humana de Machover y Test de la Familia de Corman.", ["Machover", "Corman"]),
        ("Útero contraído, globo de seguridad de Pinard presente.", ["Pinard"]),
    ],
)
def test_a_tests_or_a_signs_author_after_what_it_is_called(detector, text, kept):
    assert_kept(detector, text, *kept)


def test_a_person_after_a_tests_word_is_still_a_person(detector):
    assert_hidden(
        detector, "El test de Juan Pérez no consta; Mr Okafor and Mary class teacher.", "Juan Pérez", "Okafor"
    )


@pytest.mark.parametrize(
    ("text", "kept", "hidden"),
    [
        ("MINISTRY OF HEALTH\nTransfer note for Mr Okello Ojok", ["MINISTRY OF HEALTH"], ["Okello Ojok"]),
        (
            "SERVICIO CÁNTABRO DE SALUD\nPaciente: Íñigo Sainz Ruiz",
            ["SERVICIO CÁNTABRO DE SALUD"],
            ["Íñigo Sainz Ruiz"],
        ),
        ("ZAMBIA POLICE SERVICE\nMedical report on Mr Chanda Mwale", ["ZAMBIA POLICE SERVICE"], ["Chanda Mwale"]),
        (
            "Denunció ante la Policía del Chubut y la Secretaría de Salud del Atlántico; luego la Fiscalía de Zafra.",
            ["Policía del Chubut", "Secretaría de Salud del Atlántico"],
            ["Zafra"],
        ),
        # a firm's service is one firm's: no region beside its head
        ("Premier Cleaning Service sent two staff.", [], ["Premier Cleaning"]),
        # a town in capitals, a hospital's department: one place's
        ("POLICÍA MUNICIPAL DE ALCORCÓN\nDILIGENCIA DE DECLARACIÓN", [], ["ALCORCÓN"]),
        ("Waikato Hospital Emergency Department — Triage note", [], ["Waikato Hospital"]),
    ],
)
def test_the_states_offices_named_by_their_kind_and_the_region_they_serve(detector, text, kept, hidden):
    assert_kept(detector, text, *kept)
    assert_hidden(detector, text, *hidden)


def test_a_make_after_the_word_for_one_is_kept(detector):
    assert_kept(detector, "Nuevo ascensor, modelo Schindler 3300; bici de marca Orbea.", "Schindler", "Orbea")


@pytest.mark.parametrize(
    ("text", "number", "label"),
    [
        ("Complaint Nos. SF 3371/2025 and SF 3372/2025", "SF 3371/2025", None),
        ("Complaint Nos. SF 3371/2025 and SF 3372/2025", "SF 3372/2025", None),
        ("PR: crime report opened, ref SOJP 25/11842. CCTV seized.", "SOJP 25/11842", None),
        ("Mediación prejudicial - Expte. N° MED-FAM 4127/24", "MED-FAM 4127/24", None),
        # a number's label stays outside: the model reads what the number was
        ("Paciente con DNI 12/3456 en el expediente", "12/3456", "DNI"),
    ],
)
def test_a_files_number_with_the_offices_letters_before_it(detector, text, number, label):
    assert_hidden(detector, text, number)
    if label:
        assert_kept(detector, text, label)


@pytest.mark.parametrize(
    ("text", "licence", "kept"),
    [
        ("Lic. Enf. Roxana Ccori Mamani - CEP 54821", "54821", "Lic. Enf."),
        ("que ordenó el Dr. Hernán Quiroga (RM 52418).", "52418", "RM"),
        ("Dra. Yanet Peña Almonte - Cardiología - Exeq. 418-09", "418-09", "Exeq."),
        ("RUT 12.946.038-5   Registro Superintendencia de Salud 188432", "188432", "Registro Superintendencia"),
    ],
)
def test_a_registration_after_its_bodys_letters(detector, text, licence, kept):
    assert_hidden(detector, text, licence)
    assert_kept(detector, text, kept)


@pytest.mark.parametrize(
    ("text", "age"),
    [
        ("I miss my husband, that's all. Ninety-two years old, and tired sometimes.", "Ninety-two"),
        ("porque la nona tiene noventa y uno, es mejor operar pronto", "noventa y uno"),
        ("She turned ninety-one and moved in with her son.", "ninety-one"),
    ],
)
def test_an_age_over_89_spelled_after_its_verb_or_before_its_years(detector, text, age):
    assert_hidden(detector, text, age)


def test_years_ago_and_a_sum_spelled_out_are_no_ages(detector):
    assert_kept(detector, "Ninety-two years ago the hospital opened.", "Ninety-two")
    assert_kept(detector, "El paciente tiene noventa y dos euros en la cuenta.", "noventa y dos")


def test_the_person_and_the_day_in_a_files_name(detector):
    text = (
        'The enclosed OPG (file "OPG_DeSilva_20250502.dcm") and receta_mateo_140324.pdf; '
        "see also report_final_v2.docx and scan_0001.jpg"
    )
    assert_hidden(detector, text, "DeSilva", "20250502", "mateo", "140324")
    assert_kept(detector, text, "report_final_v2.docx", "scan_0001.jpg", "OPG_", "receta_")


def test_a_date_spelled_in_the_older_three_words(detector):
    text = "En Salamanca a diez y siete de Abril de dos mil diez y nueve, yo, Aurelia Hernández, dispongo:"
    assert_hidden(detector, text, "diez y siete de Abril de dos mil diez y nueve")


def test_a_law_firm_of_advocates(detector):
    text = "The will was prepared by Advocate Claire Mauger of Mauger De Garis Advocates, PO Box 217."
    assert_hidden(detector, text, "Claire Mauger", "Mauger De Garis", "PO Box 217")


def test_a_chat_contact_saved_with_the_role_beside_the_name(detector):
    text = "2/27/25, 6:14 PM - gary landlord: rent was due\n2/27/25, 7:02 PM - marisol: ok, sending it"
    assert_hidden(detector, text, "gary", "marisol")
    assert_kept(detector, text, "landlord")


@pytest.mark.parametrize(
    ("text", "kept", "hidden"),
    [
        ("CAUSA: INSUFICIENCIA CARDIACA, FIBRILACION AURICULAR", ["INSUFICIENCIA CARDIACA, FIBRILACION"], []),
        ("Paciente: DE LA CRUZ, MARIA JOSE\nNombre: CAMPO PRADO, ANA", [], ["DE LA CRUZ, MARIA JOSE", "CAMPO PRADO"]),
        ("Hanif Ahmed, CNIC 35202-1234567-1, resident of Lahore", ["CNIC"], ["35202-1234567-1", "Hanif Ahmed"]),
        ("Servicio de Salud de Castilla-La Mancha (SESCAM)", ["Servicio de Salud de Castilla-La Mancha"], []),
        ("KOFI MENSAH & CO., Attorneys-at-Law, Accra", ["Attorneys-at-Law"], ["KOFI MENSAH", "Accra"]),
    ],
)
def test_findings_in_capitals_a_pakistani_id_and_a_regions_health_service(detector, text, kept, hidden):
    assert_kept(detector, text, *kept)
    assert_hidden(detector, text, *hidden)


def test_a_town_in_capitals_closing_a_heading(detector):
    text = "QUEEN ELIZABETH UNIVERSITY HOSPITAL, GLASGOW\nED Clinician Record\nDIAGNOSIS: ASTHMA, SEVERE"
    assert_hidden(detector, text, "GLASGOW")
    assert_kept(detector, text, "ASTHMA, SEVERE")


def test_findings_named_by_a_clinical_ending_are_no_places(detector):
    text = "Exfumadora desde 2015. Osteopenia (DXA 2023). Audiometría tamiz: hipoacusia leve. Leucopenia leve."
    assert_kept(detector, text, "Osteopenia", "Audiometría", "Leucopenia")


# What a review of this file's rules found they did, each with its own example.


@pytest.mark.parametrize(
    ("text", "names"),
    [
        # a score, a duration, a time of day or a nurse's grade after a surname makes it no medicine
        ("MMSE today: Kowalski 24/30. Mrs Kowalski lives alone; Kowalski agreed to carers.", ["Kowalski"]),
        ("Plan: review with Deirdre 2/52. Deirdre is the practice nurse.", ["Deirdre"]),
        ("Phoned Oyelaran mane re results.", ["Oyelaran"]),
        ("Given by Nkemelu RN 2 tabs at 08:00.", ["Nkemelu"]),
        ("bed 5 Oyelowo 14/15 obs stable", ["Oyelowo"]),
        # a town named by an everyday word, inside a state body's name; a block of flats named like a court
        ("Reading Police and the Liberty Police Department attended.", ["Reading", "Liberty"]),
        ("Juzgado de Paz de Progreso; Registro Civil de Concordia.", ["Progreso", "Concordia"]),
        ("Mrs Ames lives in Jersey Court, a sheltered housing block.", ["Jersey Court"]),
        # a name before "extension" or "regimen" is a person's
        (
            "Please call Sarah Mitchell extension 2231. Discussed with Grace Ellis regimen changes.",
            ["Mitchell", "Ellis"],
        ),
        # a given name that is also a clause's word, as a chart writes it
        ("Patient: DAWSON, Les\nO'SULLIVAN, Una\nCAPONE, Al", ["Les", "Una", "Al"]),
    ],
)
def test_what_the_review_found_the_keep_rules_let_through(detector, text, names):
    for name in names:
        assert_every_mention_hidden(detector, text, name)


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        # a word after "by" or "por" is a word
        (
            "Caused by diuretics, followed by yellowing; sustituido por warfarina; asegurada por essalud; "
            "por inyector.",
            ["diuretics", "yellowing", "warfarina", "essalud", "inyector"],
        ),
        # a duration, a share
        (
            "Anticipate discharge 3/7. Course extended 5/7. Breakfast: accepted 3/4 of meal. Issued 2/12 supply.",
            ["3/7", "5/7", "3/4", "2/12"],
        ),
        ("Dec 2/12 history of cough.", ["/12 history"]),
        # a reading spelled out, a lease's term
        (
            "Heart rate turned ninety-six, regular. La glucemia capilar tiene noventa y cinco, normal.",
            ["ninety-six", "noventa y cinco"],
        ),
        ("Ninety-nine years, the lease said.", ["Ninety-nine"]),
        # whom one calls, without quotes
        (
            "Patient calls Mum every evening; call Housing re: damp. The nurses call Bay 3 first.",
            ["Mum", "Housing", "Bay 3"],
        ),
        # a contract's defined term in brackets
        ('The Terminal Date ("Termination") falls on a Friday.', ["Terminal Date", "Termination"]),
        # a urine dipstick's reading; postmenopausal bleeding; a bag that is locked
        ("Urinalysis: pH 6, Protein Trace, Blood Trace.", ["6, Protein Trace"]),
        ("Referred by GP with PMB 2 weeks; sealed in locked bag 4417.", ["PMB 2", "locked bag 4417"]),
        # a line that ends in "calle" goes on with a sentence
        ("dormido en la calle\nAyer volvió a casa.", ["calle\nAyer"]),
        # a scale's author and an invoice's number in a file's name
        ("Ver Escala_Norton_enfermeria.pdf y INV_231299.pdf", ["Norton", "231299"]),
        # initials that abbreviate something else are the person's only where declared
        (
            "Present: Ian Turner (IT), Uma Kendrick (UK).\nThe IT helpdesk and the UK staff were told.",
            ["IT helpdesk", "UK staff"],
        ),
    ],
)
def test_what_the_review_found_the_find_rules_took_for_identifiers(detector, text, kept):
    assert_kept(detector, text, *kept)


def test_a_date_after_the_letters_for_a_scan_stays_a_date():
    from app.identifiers.detect import IdentifierDetector as Detector

    text = "Comparada con RM 12/03/2024 sin cambios."
    found = Detector(use_tagger=False).detect(text)
    assert [(e.text_in(text), e.type.value) for e in found] == [("12/03/2024", "date")]


def test_a_set_of_minutes_as_a_user_pasted_it(detector):
    """Found trying the step's rules on one whole document: a medicine line, the island before its postcode, a
    job before initials that read as a US state, and the user's login of the chair named above it."""
    text = (
        "MAISON VERTE CARE HOME\nLa Route du Fort, St Saviour, Jersey JE2 7LQ\n"
        "Present: Marguerite Le Quesne (Registered Manager, MLQ); Tomasz Nowicki (Deputy Manager, TN); "
        "DC Alan Vibert (States of Jersey Police)\n"
        "Medication: Mixtard 30/70 14 U mane, Panadeine Forte nocte PRN, Rifinah 300/150 2 tabs.\n"
        "MLQ to contact the Jersey Care Commission.\nEntered by: mlequesne"
    )
    assert_kept(
        detector,
        text,
        "Mixtard 30/70 14 U mane, Panadeine Forte nocte PRN, Rifinah 300/150",
        "Deputy Manager",
        "States of Jersey Police",
        "Jersey Care Commission",
    )
    assert_hidden(detector, text, "La Route du Fort", "St Saviour", "JE2 7LQ", "Quesne", "Tomasz Nowicki", "mlequesne")
    assert_every_mention_hidden(detector, text, "MLQ")
