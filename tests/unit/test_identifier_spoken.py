"""Identifiers in informal text: read aloud in a voicemail's transcript or a dictation, spelled letter by
letter, in a chat's export and a team chat, in a pasted spreadsheet's columns. And what the same forms hold
that is no one's. None of these examples is from an evaluation set."""

from __future__ import annotations

import pytest

from app.identifiers.detect import IdentifierDetector
from app.identifiers.entities import EntityType
from app.identifiers.spoken import find_spoken
from app.identifiers.tables import find_table_cells
from tests.unit.test_identifier_classes import assert_hidden, assert_kept


@pytest.fixture(scope="module")
def detector() -> IdentifierDetector:
    return IdentifierDetector()


@pytest.mark.parametrize(
    ("text", "identifiers"),
    [
        # dates, ages and e-mail addresses read aloud
        ("the court date is november twenty second and i have my dad with me", ["november twenty second"]),
        ("date of birth april fourth nineteen sixty two m r n five five one", ["april fourth nineteen sixty two"]),
        ("my dad is with me he's ninety three and the heat is off", ["ninety three"]),
        ("La abuela tiene noventa y dos años y vive sola.", ["noventa y dos"]),
        ("email me at maria lopez sixty one at gmail dot com thanks", ["maria lopez sixty one at gmail dot com"]),
        ("correo: lucia punto vega arroba hotmail punto com", ["lucia punto vega arroba hotmail punto com"]),
        # codes read out after their word
        ("the index number is l t four four one two dash twenty four slash q n", ["l t four four one two"]),
        ("claim number c x two three dash one one four five", ["c x two three dash one one four five"]),
        ("la matrícula es cuatro cuatro dos uno, be, ele, ere", ["cuatro cuatro dos uno, be, ele, ere"]),
        # its letters written in capitals, after what the caller says it is on, and after a reference's word
        ("the incident number on it is M T dash two five dash zero four one. Thanks", ["M T dash two five dash"]),
        ("his account with us is C S R dash one one four zero seven you can", ["C S R dash one one four"]),
        ("confirmation s e r dash two four dash zero eight eight one seven three", ["s e r dash two four dash"]),
        ("Our reference is R R four four one seven two. Thanks.", ["R R four four one seven two"]),
        ("tiene un número CD cuatro ocho dos uno nueve tres cero cinco uno qué hago", ["CD cuatro ocho dos uno"]),
        # names spelled aloud
        ("my last name is g o n z a l e z and first is a n a", ["g o n z a l e z", "a n a"]),
        ("spell that? o k o n k w o", ["o k o n k w o"]),
        ("Ferrandis con dos erres, efe e erre erre a ene de i ese, coma", ["efe e erre erre a ene de i ese"]),
        ("the code on her script is Z for zebra, Q for quebec", ["Z for zebra, Q for quebec"]),
        ("Barreiro, con be de Barcelona: B de Barcelona", ["B de Barcelona"]),
        # a chat's export and a team chat's authors
        (
            "9/16/24, 8:02 AM - Carla M 🌻: hola buenos dias\n9/16/24, 8:03 AM - Carla M 🌻: mi papa no puede",
            ["Carla M"],
        ),
        ("tasha.w  8:01 AM\nmorning all\njmendoza  8:03 AM\nyes pls put it in", ["tasha.w", "jmendoza"]),
        # a team chat's author with the day and time, a messenger's sender, a shift's two operators
        ("Ceci Pintos 17/6 19:05\nSí, con 2 lts.\nPriya N 16:44\nhypos again", ["Ceci Pintos", "17/6", "Priya N"]),
        ("Bec Sorensen, 8:10 AM\ngot a new one\nGabo 🇪🇸, 08:30: Hola doctora", ["Bec Sorensen", "Gabo"]),
        ("AFTER HOURS MESSAGES\nOper: cjh / mpv", ["cjh", "mpv"]),
        # a phone number read out with its tens, a few words after its word; a day said as an ordinal
        (
            "le dejo mi teléfono por si no lo tiene ochenta y uno, ochenta y tres, cuarenta y siete, cero dos",
            ["ochenta y uno, ochenta y tres, cuarenta y siete, cero dos"],
        ),
        ("our fax is five oh four eight eight five thirty one forty thanks", ["five oh four eight eight five"]),
        # after "call me" or "llamar" too, after a break in the words, and as the answer to a call's question
        ("you can call me back at four oh four, five five five, oh one six six", ["four oh four, five five five"]),
        ("Me puede llamar a la casa al cuatro ocho dos, cincuenta y uno, veinte.", ["cuatro ocho dos, cincuenta"]),
        (
            "Mi celular es el nueve nueve nueve… nueve nueve nueve, uno cuatro ocho, veintisiete, treinta y uno.",
            ["nueve nueve nueve, uno cuatro ocho, veintisiete, treinta y uno"],
        ),
        (
            "[Operadora]: ¿Un teléfono?\n[Llamante]: seis cero siete, cuarenta y uno, veintiocho, noventa y tres.",
            ["seis cero siete, cuarenta y uno, veintiocho, noventa y tres"],
        ),
        ("before his MRI on the twenty fourth; revisit monday the eleventh", ["twenty fourth", "eleventh"]),
        # letters spelled in capitals with commas, a letter's accent said
        ("Yanet con y griega... Y, A, N, E, T.", ["Y, A, N, E, T"]),
        ("Sí, hache, u, a, eme, a con tilde, ene.", ["hache, u, a, eme, a con tilde, ene"]),
        # initials of who wrote a note, took a call or typed a list; a message's sign-off after a dash
        ("my notes so far (LM):\n- call the landlord back", ["LM"]),
        ("--- internal note (mlopez, front desk, 3/12) ---\n--- my notes (KM) ---", ["mlopez", "KM"]),
        ("dn handover – east team – typed by kh\nPHONE NOTE – Fri 4/10 11:20 – taken by FJ", ["kh", "FJ"]),
        ("ok, see you then.\n—bt", ["bt"]),
        ("The letter is the issue. –M", ["M"]),
        ("Abro carpeta nueva. — Gaby", ["Gaby"]),
        # a relative or a carer named in lower case after the word for them; a name in the phonetic alphabet
        ("son gary staying, he's nok. wife joan mobile on file", ["gary", "joan"]),
        ('caller spelled surname: "Mike Alpha Charlie India November November Echo Sierra"', ["Mike Alpha Charlie"]),
        # an address read out in words, its flat's number and letter; a Spanish one with its door
        ("i live at thirty one twelve cedar grove avenue apartment four b in", ["thirty one twelve cedar grove"]),
        ("vive en la calle lluís vives veintiocho puerta seis coma", ["calle lluís vives veintiocho puerta seis"]),
        # an insurer, a supplier and a clinic named in lower case before their trade
        (
            "adjuster at borinquen casualty insurance; oxygen from lakeshore home medical; films at eastside bone and "
            "joint",
            ["borinquen casualty insurance", "lakeshore home medical", "eastside bone and joint"],
        ),
        # a Spanish nickname with its article: a chat's sender, a neighbour, one given in quotes
        ("14/5/25 09:20 - el flaco: ya voy\nUn vecino, el Chuchi, le sube la leña", ["el flaco", "el Chuchi"]),
        ("su pareja, conocido como «el Cuervo», llegó tarde", ["el Cuervo"]),
        # a day alone after the words a message plans a day with
        ("el finde del 12 no puedo; estoy fuera hasta el 20 y la audiencia del 24 sigue", ["12", "20", "24"]),
        # a famous town typed in lower case where someone lives or has moved
        (
            "her son lives in kent now and she moved to seattle. i live in the bronx, no heat",
            ["kent", "seattle", "bronx"],
        ),
        # a pasted spreadsheet's cells, by their column
        (
            'last,first,dob,phone,neighborhood,notes\nreyes,j,,206 883 1204,ballard,"tooth abscess"',
            ["reyes", "206 883 1204", "ballard"],
        ),
        ("nº;apellidos;nombre;f. nac.;barrio\n2;Etxeberria Goikoetxea;Iñaki;14/02/1933;Santutxu", ["Santutxu"]),
    ],
)
def test_what_informal_text_gives_away_is_hidden(detector, text, identifiers):
    assert_hidden(detector, text, *identifiers)


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        # an abbreviation spelled in letters, a label a dictation spells, a spelled word's letter and its word
        ("he works at the e c g lab; d o b on file", ["e c g", "d o b"]),
        ("Antecedente de tiroiditis de Hashimoto y de osteocondrosis de Scheuermann.", ["y de osteocondrosis"]),
        # a count, a reading and a sum in words
        ("the plan is one, two, three and done", ["one, two, three"]),
        ("Heart rate turned ninety-six, regular. La glucemia tiene noventa y cinco, normal.", ["ninety-six"]),
        ("Ninety-two years ago the hospital opened.", ["Ninety-two"]),
        # a table with no column of identifiers, and a meeting's time that is no chat's author
        ("drug,dose,route\nmetformin,500 mg,po\nramipril,5 mg,po", ["metformin", "ramipril"]),
        ("The meeting  10:00 AM\nLunch  12:30", ["The meeting", "Lunch"]),
        ("we may first ask the court", ["may first"]),
        # an ordinal that counts, a list's letters, a count after a phone's word, a meeting's time
        ("she lives on the first floor and came the second time", ["first floor", "second time"]),
        ("options A, B, C, D are wrong", ["A, B, C, D"]),
        ("the phone rang two or three times", ["two or three"]),
        ("The item number is on the back of the form; order A then B, two doses.", ["item number", "order A"]),
        ("Llámeme cuando pueda: tomo dos comprimidos, tres veces al día, y uno más a las diez.", ["dos comprimidos"]),
        ("Meeting 10:00\nLunch, 12:30\nFollow up 9:15 AM", ["Meeting", "Lunch", "Follow up"]),
        # a ward's abbreviation or a plan's word after a dash, a kin word before a word
        ("IV fluids given. – ICU\nPain better. — Plan", ["ICU", "Plan"]),
        ("son will be there; wife and kids at home", ["son will", "wife and"]),
        # found by a review of this step's rules: a schedule's medicines before their times, lists of letters, an
        # ordinal that counts, readings said after "she's", counts and digit spans, a table of medicines, prose
        # with commas, a chat's struck-through and bold words, a system's account
        ("Insulin 8:00\nCeftriaxone 22:00\nTroponin 06:00\nHipoglucemia 03:00", ["Insulin", "Ceftriaxone", "Troponin"]),
        ("Serologías de hepatitis a, b y c negativas; vitaminas a, d, e y k. Heart sounds: no m r g.", ["a, b y c"]),
        ("Apex beat on the fifth intercostal space; after the first cycle; on the second count", ["fifth", "first"]),
        ("She's ninety-eight on air. He's one hundred over sixty. She is ninety minutes late.", ["ninety-eight"]),
        ("white cell count one thousand two hundred and fifty; number five eight two nine one", ["one thousand"]),
        ("File twenty three, twenty four, twenty five are missing", ["twenty three"]),
        ("name,dose,frequency\nMetformin,500 mg,BID\nRamipril,5 mg,OD", ["Metformin", "Ramipril"]),
        ("Patient, 72, seen in clinic\nFamily, two sons, supportive", ["Family"]),
        ("~dysuria~ ~haematuria~ ..nocturia.. __appendicectomy__", ["dysuria", "nocturia", "appendicectomy"]),
        ("Operator: autoverify\nTyped: dictaphone", ["autoverify", "dictaphone"]),
        # counts and streets in a sentence that are no address read out
        ("we saw two more on the main street; walk twenty minutes down the road", ["two more on the main street"]),
        ("la calle tiene dos carriles y la avenida tres", ["calle tiene dos"]),
        # a share, a list's item and a dose after the words that plan a day; a town's word where no one lives
        ("subir hasta el 10 %, desde el 3 de la lista, para el 15 mg", ["hasta el 10 %", "el 3 de", "el 15 mg"]),
        ("we walked in the villages; going to bake; she went to bath after the walk", ["the villages", "bake"]),
        ("the corner store, the grocery store, workers comp insurance, home medical equipment", ["corner store"]),
        # an article before a title, a given name, an abbreviation or a longer name is no nickname's
        ("la vio el Dr. Salas; vino la María; llamó a la ART; ante el Guardia Civil", ["la vio el", "vino la", "a la"]),
    ],
)
def test_what_the_same_forms_hold_that_is_no_ones_is_kept(detector, text, kept):
    assert_kept(detector, text, *kept)


def test_a_code_read_out_takes_the_kind_its_word_names():
    text = "his license is d l four four two one nine and the plate is six six one two k"
    kinds = {text[e.start : e.end]: e.type for e in find_spoken(text)}
    assert kinds == {"d l four four two one nine": EntityType.LICENCE, "six six one two k": EntityType.VEHICLE}


def test_a_table_ends_where_its_rows_do():
    text = "name,phone,town\nann lee,555 0101,kent\n\nthe end, of, the, story"
    cells = [(text[e.start : e.end], e.type) for e in find_table_cells(text)]
    assert cells == [("ann lee", EntityType.PERSON), ("555 0101", EntityType.PHONE), ("kent", EntityType.LOCATION)]
