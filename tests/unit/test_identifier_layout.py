"""Identifiers that a form's or a letter's layout gives away: a signature between a form's dots, a letter's
reference at its foot, a user's name after its field, a common-law court's number, a place after its unit's
label, a care home's room, a name cut by an apostrophe, a date across a line, a town in a heading, a name
spelled out or typed in a message, a day and month where the text writes its dates with slashes. And what the
same shapes hold that is no one's. None of these examples is from an evaluation set."""

from __future__ import annotations

import re

import pytest

from app.identifiers.detect import IdentifierDetector
from tests.unit.test_identifier_classes import assert_hidden, assert_kept


@pytest.fixture(scope="module")
def detector() -> IdentifierDetector:
    return IdentifierDetector()


@pytest.mark.parametrize(
    ("text", "identifiers"),
    [
        # a signature between a form's marks
        ("Patient seen.\nSignature: ..kbanda..        Date: 03/05/2024", ["kbanda"]),
        ("Sworn before me ____T. Okafor____ Commissioner for Oaths", ["T. Okafor"]),
        ("Firma del paciente: ....LQuispe....", ["LQuispe"]),
        ("Signature: ____/R.M./____   Stamp: MED. WARD", ["R.M."]),
        ("Tandatangan: ~hk~\nHASSAN KARIM, Pegawai", ["hk"]),
        # a letter's reference at its foot, with the day it was typed or what it encloses
        ("Yours sincerely,\n\nDr P. Ferguson\nPF/jm   dictated 02.03.25, typed 04.03.25", ["PF/jm"]),
        ("Yours faithfully,\nOwen Pryce\nOWP/ht    Enc. copy of lease", ["OWP/ht"]),
        # a user's, a typist's or a filer's name after its field
        ("Typed: hnakamura   12/03/2025", ["hnakamura"]),
        ("Transcrito por: jlopezgar – 11/02/2025", ["jlopezgar"]),
        ("Filer: mwalsh77     Submitted: 9/18/2024", ["mwalsh77"]),
        ("Verified: Dr Amal Nair\nTyped: priya.s  07-02-2025 14:52", ["priya.s"]),
        # initials the writer gives a person, and a receipt's
        ("los menores de iniciales P.G.L. y M.G.L., de 9 y 6 años", ["P.G.L.", "M.G.L."]),
        ("Recibí: J.M.R.\n(a mano) no conforme", ["J.M.R."]),
        # a common-law court's serial and year; an office's letters before a serial
        ("IN THE HIGH COURT OF KENYA AT NAIROBI\nCIVIL SUIT NO. 231 OF 2023", ["231 OF 2023"]),
        ("(Arising from Criminal Case No. 77 of 2022)", ["77 of 2022"]),
        ("Police Ref: CR 1877/23     Occurrence Book: OB 22/05/23", ["CR 1877/23", "OB 22/05/23"]),
        ("CMAC Ref: SWMN 812/23", ["SWMN 812/23"]),
        ("URN: 44 KB 1029 23", ["44 KB 1029 23"]),
        ("the Registry gave the petition number LC 88120 P3 for the hearing", ["LC 88120 P3"]),
        # a place after its unit's label, and a city named as one that a province also names
        ("Boma: Pajok     Payam: Magwi     County: Torit     State: Eastern Equatoria", ["Pajok", "Magwi", "Torit"]),
        ("Barangay: Lahug\nPurok: Sampaguita", ["Lahug", "Sampaguita"]),
        ("En la ciudad de Mendoza, a 3 de mayo de 2024, comparecen", ["Mendoza"]),
        # a care home's room
        ("Resident: O'HARA, Peg      Room/Bed: 208-B", ["208-B"]),
        ("Discharged to Rosewood Nursing Home – Room 12 (respite)", ["12"]),
        ("Residente: Josefa Goñi      Edad: 96 años      Hab. 214", ["214"]),
        # a name an apostrophe or a glottal stop cuts
        ("the hearing will be at Mulinu'u next month", ["Mulinu'u"]),
        # a date across a line, a range's first day with its full date, a deed's days of a month
        ("Fue despedida por carta de 12 de agosto\nde 2024, con efectos del mismo día.", ["12 de agosto\nde 2024"]),
        ("Semana del 4 al 10/03/2024: sin incidencias", ["4", "10/03/2024"]),
        ("on the 4th, 5th and 6th days of June 2023", ["4th", "5th"]),
        # a town in a heading in capitals, after its body or before its office
        ("COMANDANCIA DE JAÉN – DESTACAMENTO DE ÚBEDA", ["ÚBEDA"]),
        ("KENYA POLICE SERVICE\nNAKURU OFFICE – 1st Floor", ["NAKURU"]),
        ("HOSPITAL UNIVERSITARIO LA FE – VALENCIA", ["VALENCIA"]),
        # a name spelled letter by letter, a caller's name before where they call from, a name typed in a message
        ("my name is k-a-t-r-i-n-a, last name o-b-r-i-e-n", ["k-a-t-r-i-n-a", "o-b-r-i-e-n"]),
        ("hi its maria from reception, can u call back", ["maria"]),
        ("left vm for sean murphy at the number on file", ["sean murphy"]),
        # a court's serial after the filing's own word, a letter's reference with two typists or the office's serial
        ("listed as Petition 22 of 2021; Civil Appeal E118 of 2022", ["22 of 2021", "E118 of 2022"]),
        ("Yours sincerely\nRuth Adebayo\nRA/tk/mn", ["RA/tk/mn"]),
        ("Your ref: LT/88   Our ref: GHW/sp/1190", ["GHW/sp/1190"]),
        # a name spelled with dots or dashes between its letters after the word that asks for a spelling
        ("Surname, spelled W.O.J.C.I.K., first name Ola", ["W.O.J.C.I.K."]),
        ("el apellido se escribe Q–U–I–R–O–G–A", ["Q–U–I–R–O–G–A"]),
        # a care home's room at a clause's end, with the Spanish word short and no point
        ("Hillside Nursing Home. Mrs Penrose in room 8. Settled.", ["8"]),
        ("Residencia de mayores El Pinar: la residente de la hab 31, sin incidencias", ["31"]),
        # an age over 89 after a name, before a side's letter or in Catalan
        ("Mr Arkadiusz Zielinski, 93, L #NOF, for theatre", ["93"]),
        ("la sra Roser Bonet i Vidal, 95 anys, viu sola", ["95"]),
        # a surname in capitals and its initials; a sole trader before the business's name
        ("Client NAMUGGA B. K. (ART No. 2291) received", ["NAMUGGA B. K."]),
        ("BETWEEN:   TOKAME BARIGA trading as BARIGA TRANSPORT", ["TOKAME BARIGA"]),
        # a town in a heading between dashes, on a court's line of its own, before its part's word
        ("HOSPITAL REGIONAL - TARMA - Servicio de Medicina\nIN THE HIGH COURT OF KENYA\nAT KISII", ["TARMA", "KISII"]),
        ("STAMP: ZAMBIA POLICE — MANSA CENTRAL — 09 JUL 2024", ["MANSA"]),
        # a town opening a line that a sentence runs on to
        ("su sobrina viene desde\nLogroño y se queda; the flat in\nLeicester is let", ["Logroño", "Leicester"]),
        # a day and month in a text that writes its dates with slashes
        (
            "DOB 3/14/1961. Seen 10/02/2024.\nMRI 7/9 showed a tear. I'm out 8/12–8/16; lmp 6/20",
            ["7/9", "8/12", "8/16", "6/20"],
        ),
    ],
)
def test_what_a_layout_gives_away_is_hidden(detector, text, identifiers):
    assert_hidden(detector, text, *identifiers)


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        # an ellipsis around a word, a form's blank line, a route of a drug at a line's start
        ("I thought...and then...nothing. Signature: ..........", ["and", "nothing", "Signature"]),
        ("IV/po   switch when afebrile", ["IV/po"]),
        # a field that says it is empty
        ("Signature: illegible\nTyped: n/a", ["illegible"]),
        # a lab's reference range, a dose's range
        ("Potassium 5.9 (Ref range 3.5-5.0 mmol/L)", ["3.5-5.0"]),
        ("de 25 a 50 mg cada 8 horas", ["25 a 50 mg"]),
        # a hospital's room and bed, where no one lives
        ("Admitted to ward 7, room 3, bed 2. Seen in Room 4 of the clinic.", ["room 3", "Room 4"]),
        # a possessive and a clitic are not part of a name
        ("Mary's test results were normal.", ["'s test results"]),
        # a letter's enclosure
        ("Yours faithfully,\nOwen Pryce\nOWP/ht    Enc. copy of lease", ["Enc. copy of lease"]),
        # found by a review of this step's rules: an Act's number, a unit's word in a document's name or an empty
        # field, a care home's word for a hospital's resident doctor, a length of stay, eponyms in headings
        ("Employment Act No. 11 of 2007 and Legal Notice No. 5 of 2020", ["11 of 2007", "5 of 2020"]),
        (
            "the Settlement Agreement; County Court Judgment\nCounty: Unknown\nciudad de Origen",
            ["Agreement", "Unknown"],
        ),
        ("Pt taken to Room 3 for ultrasound. Seen by resident.", ["Room 3"]),
        ("Spent 10 days of July in hospital.", ["10 days of"]),
        ("ESCALA DE GLASGOW (GCS) 15/15\nDIAGNÓSTICO: SÍNDROME DE CUSHING", ["GLASGOW", "CUSHING"]),
        ("File: ICD 10/11 codes. Our ref HCA 1/12/2024 visit", ["ICD 10/11", "HCA"]),
        # a heading's words that the gazetteer holds as towns, a heading with no town
        ("IN THE COURT OF JUSTICE\nSERVICIO DE URGENCIAS\nINFORME DE ALTA – MEDICINA INTERNA", ["JUSTICE", "ALTA"]),
        # words with hyphens, what a message says of itself, a given name that is a word before a colour
        ("its about the x-ray and a t-shirt; e.g. at 9 a.m.", ["x-ray", "t-shirt", "e.g.", "a.m."]),
        ("this is serious, I am sorry, it's here", ["serious", "sorry", "here"]),
        ("will brown bread do? the grace period ends", ["will brown", "grace period"]),
        # a statute's or a case series' number, abbreviations in dots, a hospital's room in a note that names a
        # relative's care home further on, a number's serial of a statute
        ("Under Act 15 of 2023 and Regulation 12 of 2018; Smith & Anor v Jones; Misc. Application", ["15 of 2023"]),
        ("Flown to the U.S.A. and back; P.R.N. analgesia; C.J.P.P.U. 45.218", ["U.S.A.", "P.R.N.", "C.J.P.P.U."]),
        ("Sube a planta, hab. 312.\nSu marido sigue ingresado en la Residencia Ederra.", ["hab. 312"]),
        # capitals and initials that abbreviate something: a unit's and a wave's
        ("ECG T. waves flat; CXR P. A. view", ["ECG T.", "CXR P. A."]),
        # a heading's word that some town is named
        ("REGISTRO DEL ESTADO CIVIL\nCERTIFICACIÓN DE NACIMIENTO", ["NACIMIENTO"]),
        # in a text that writes its dates with slashes: fractions, scores after their names, pages and acuities
        (
            "DOB 3/14/1961. Seen 10/02/2024.\nHalf: 1/2 tab. Allred 8/8, Barthel 8/20, murmur 2/6.\nP. 3/3, fs. 7/9."
            " Visual acuity 6/9 (L), 6/6 (R).",
            ["1/2", "8/8", "8/20", "2/6", "3/3", "7/9", "6/9", "6/6"],
        ),
    ],
)
def test_what_the_same_shapes_hold_that_is_no_ones_is_kept(detector, text, kept):
    assert_kept(detector, text, *kept)


def test_initials_that_minutes_declare_are_hidden_wherever_written(detector):
    # with a rank before the name, and letters that also abbreviate a clinical term ("RA")
    text = "Present: DS Owen Quayle (Police, OQ); Ruth Amy (advocate, RA)\nRA will attend. | OQ | 14 May |"
    found = {(e.start, e.end) for e in detector.detect(text)}
    for letters in ("OQ", "RA"):
        spans = [(m.start(), m.end()) for m in re.finditer(letters, text)]
        assert len(spans) == 2 and set(spans) <= found, (letters, spans, found)
