"""Identifiers read aloud, as a voicemail's transcript, a dictation and a call's notes write them: a name spelled
letter by letter ("g o n z a l e z", "efe e erre erre a ene de i ese", "Z for zebra"), a code read out in
words ("l t three oh eight five one four dash twenty four", "cuatro ocho dos uno, ka, ele, eme"), an address
read out in words ("twenty one forty grand concourse"), an e-mail address read out ("lupe ochoa fifty eight
at gmail dot com") and an age over 89 said in words ("she's ninety one").

A speech recogniser writes what it hears: the digits, letters and punctuation are words, so the patterns that
read written identifiers see none of them.
"""

from __future__ import annotations

import re

from app.identifiers import lexicon
from app.identifiers.dates import NOT_A_DAY_AFTER
from app.identifiers.entities import Entity, EntityType

T = EntityType

_EN_DIGITS = "zero oh one two three four five six seven eight nine".split()
_EN_NUMBERS = (
    "ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty thirty forty fifty "
    "sixty seventy eighty ninety hundred thousand double triple"
).split()
_ES_NUMBERS = (
    "cero uno una dos tres cuatro cinco seis siete ocho nueve diez once doce trece catorce quince dieciséis "
    "diecisiete dieciocho diecinueve veinte veintiuno veintidós veintitrés veinticuatro veinticinco veintiséis "
    "veintisiete veintiocho veintinueve treinta cuarenta cincuenta sesenta setenta ochenta noventa cien ciento "
    "doscientos trescientos cuatrocientos quinientos seiscientos setecientos ochocientos novecientos mil"
).split()
# Spanish names of the letters that are no everyday word; "a", "e", "de", "te", "ese" are words too.
_ES_LETTER_NAMES = "be ce ge hache jota ka ele eme ene eñe pe cu erre ere efe uve equis ye zeta ese te de".split()
_DISTINCT_LETTER_NAMES = frozenset("hache jota ka ele eme ene eñe cu erre ere efe uve equis zeta".split())
_SEPARATORS = "dash hyphen slash guion guión barra".split()
_NUMBER_WORD = "|".join(sorted(_EN_DIGITS + _EN_NUMBERS + _ES_NUMBERS, key=len, reverse=True))
_LETTER = rf"(?:[a-zñ]|{'|'.join(sorted(_ES_LETTER_NAMES, key=len, reverse=True))})"
# (a recogniser writes a code's letters in capitals as often: "M T dash two five", "número CD cuatro ocho")
_TOKEN = rf"(?:{_NUMBER_WORD}|{'|'.join(_SEPARATORS)}|(?<![\w'’])(?:[a-zñ]|[A-ZÑ]{{1,3}})(?![\w'’])|{_LETTER})"

# An address read out: the house number in words, the street's name, its kind and a flat said after it
# ("twenty two oh eight san dario avenue", "twenty one forty grand concourse apartment five f"), or in Spanish
# the street's kind first and its number after its name ("calle emili baró cuarenta y dos puerta nueve").
_EN_NUMBER = "|".join(sorted(_EN_DIGITS + _EN_NUMBERS, key=len, reverse=True))
_ES_NUMBER = "|".join(sorted(_ES_NUMBERS, key=len, reverse=True))
_STREET_KINDS = (
    r"street|avenue|road|boulevard|drive|lane|way|place|court|concourse|terrace|parkway|highway|crescent|close|"
    r"grove|circle|square|st|ave|rd|blvd|dr|ln"
)
_NOT_A_STREET_WORD = frozenset(
    "the a an on in at to of my his her your their our and or this that more other same one ones of for by with "
    "from is was were be been are it its no not per every each last next first".split()
)
_SPOKEN_STREET_EN = re.compile(
    rf"(?i)(?<![\w'’])(?P<number>(?:{_EN_NUMBER})(?:[ -](?:{_EN_NUMBER})){{0,5}}) "
    rf"(?P<name>(?:[^\W\d_][\w'’.\-]* ){{1,3}}?)(?:{_STREET_KINDS})(?![\w'’])"
    rf"(?P<unit> (?:apartment|apt|unit|suite|flat|number) (?:{_EN_NUMBER}|[a-z])"
    rf"(?:[ -](?:{_EN_NUMBER}|[a-z])(?![\w'’])){{0,3}})?"
)
_STREET_NAME_PARTICLES = frozenset("de del la las los san santa sant".split())
_SENTENCE_WORD_ZIPF = 5.7
_SPOKEN_STREET_ES = re.compile(
    rf"(?i)(?<![\w'’])(?:calle|avenida|avda\.?|paseo|plaza|carrer|r[úu]a|camino|ronda|traves[íi]a|pasaje) "
    rf"(?P<name>(?:[^\W\d_][\w'’.\-]* ){{1,4}}?)(?P<number>(?:{_ES_NUMBER})(?: (?:y )?(?:{_ES_NUMBER})){{0,4}})"
    rf"(?P<rest>(?: (?:puerta|piso|planta|bajo|izquierda|derecha|escalera|letra|portal)"
    rf"(?: (?:{_ES_NUMBER}|[a-z]|{_LETTER})(?![\w'’]))?){{0,3}})(?![\w'’])"
)
# A code read out after the word that asks for it: a run of number words, letters and their dashes and slashes.
_CODE_CUE = re.compile(
    r"(?i:\b(?P<cue>index|docket|case|claim|file|record|mrn|m r n|dni|nie|nhi|social|license|licence|licencia|"
    r"reference|confirmation|incident|item|order|tracking|booking|referencia|confirmaci[óo]n|"
    r"badge|plate|placa|matr[íi]cula|serial|terminal|account|cuenta|policy|p[óo]liza|member|plan|medi[ -]?cal|"
    r"medicaid|medicare|n[úu]mero|number|no|id|code|c[óo]digo|afiliaci[óo]n|seguridad social|expediente|ticket)"
    # (and what a caller says it is on: "the incident number on it is …", "his account with us is …")
    r"\b(?: (?:number|n[úu]mero|no|is|es|el|of|de|la|it's|its))*(?: (?:on it|with us|on file|on the form))?[:,]? "
    r"(?:is |es |it's |its |es el |uh |um |eh )*)"
    rf"(?P<code>{_TOKEN}(?:[ ,]{{1,2}}{_TOKEN}){{2,24}})(?![\w])"
)
# A phone number read out after its word, a few words on: "le dejo mi teléfono por si no lo tiene ochenta y
# uno, ochenta y tres, …", "our fax is five oh four eight eight five thirty one forty", "call me back at four
# oh four…", "me puede llamar a la casa al cuatro ocho dos, cincuenta y uno, veinte". The words between may
# break off ("mi celular es el nueve nueve nueve… nueve nueve nueve, uno cuatro ocho…"), and in a call's
# transcript the number is the next speaker's answer to the question that asks for it ("¿Un teléfono?\n
# [Llamante]: seis cero siete, cuarenta y uno…").
_PHONE_GAP = r"(?:[ ,:]|\.\.\.|…|\?[ \t]*\n[ \t]*(?:\[[^\]\n]{1,40}\]|[^\W\d_][^:\n]{0,30}):)+"
_PHONE_CUE = re.compile(
    r"(?i:\b(?:phone|telephone|cell(?! count)|mobile|fax|number|tel[ée]fono|celular|cel|m[óo]vil|whatsapp|"
    r"n[úu]mero|llamar|llame|ll[áa]meme|ll[áa]menme|llamarme|call me|call us|text me)\b)"
    rf"(?:{_PHONE_GAP}[^\W\d_]+){{0,8}}?{_PHONE_GAP}"
    rf"(?P<code>(?:{_NUMBER_WORD})(?:[ ,\-]{{1,2}}(?:(?:y|and) )?(?:{_NUMBER_WORD})){{4,24}})(?![\w])"
)
# An amount said in words, which no phone number or code is read as: "one thousand two hundred", "cien".
# (a year said inside a code is none: "guion dos mil veinticuatro", "dash two thousand twenty four")
_AN_AMOUNT = re.compile(r"(?i)\b(?:hundred|(?<!two )thousand|cien|ciento|(?<!dos )mil)\b")
_CUE_KINDS = {
    "index": T.CASE_NUMBER,
    "docket": T.CASE_NUMBER,
    "case": T.CASE_NUMBER,
    "claim": T.CASE_NUMBER,
    "expediente": T.CASE_NUMBER,
    "file": T.CASE_NUMBER,
    "dni": T.NATIONAL_ID,
    "nie": T.NATIONAL_ID,
    "nhi": T.NATIONAL_ID,
    "social": T.NATIONAL_ID,
    "seguridad social": T.NATIONAL_ID,
    "license": T.LICENCE,
    "licence": T.LICENCE,
    "licencia": T.LICENCE,
    "badge": T.LICENCE,
    "plate": T.VEHICLE,
    "placa": T.VEHICLE,
    "matrícula": T.VEHICLE,
    "matricula": T.VEHICLE,
    "serial": T.DEVICE,
    "terminal": T.DEVICE,
    "account": T.ACCOUNT,
    "cuenta": T.ACCOUNT,
    "policy": T.ACCOUNT,
    "póliza": T.ACCOUNT,
    "poliza": T.ACCOUNT,
    "member": T.ACCOUNT,
    "plan": T.ACCOUNT,
}
# A name spelled letter by letter: single letters apart ("o k o n k w o", "Y, A, N, E, T"; with hyphens,
# "k-a-t-r-i-n-a", rules.py reads it), or the Spanish letters' names ("efe e erre erre a ene de i ese"), or a
# letter for a word ("Z for zebra, K for kilo").
_SPELLED_LETTERS = re.compile(
    r"(?<![\w'’\-])(?:[a-zñáéíóúü][ ,]{1,2}){2,30}[a-zñáéíóúü](?![\w'’\-])"
    r"|(?<![\w'’\-])(?:[A-ZÑÁÉÍÓÚÜ][ ,]{1,2}){3,30}[A-ZÑÁÉÍÓÚÜ](?![\w'’\-])"
    # with a mark between the letters, the same each time: "spelled M.A.C.K.E.N.Z.I.E.", "K–O–W–A–L"
    r"|(?<![\w'’\-.–])(?:[A-Za-zÑÁÉÍÓÚÜñáéíóúü]\.){3,30}(?![\w'’\-–])"
    r"|(?<![\w'’\-.–])(?:[A-Za-zÑÁÉÍÓÚÜñáéíóúü]–){2,30}[A-Za-zÑÁÉÍÓÚÜñáéíóúü](?![\w'’\-–])"
)
_LETTER_NAMES_RUN = re.compile(
    rf"(?i)(?<![\w'’])(?:{_LETTER}|[aeiou])(?:(?: con tilde| con acento| acentuada| with an accent| may[úu]scula)?"
    rf",? (?:con |with )?(?:dos |two )?(?:{_LETTER}|[aeiou])){{3,30}}(?![\w'’])"
)
_PHONETIC = re.compile(r"(?<![\w'’])(?P<letter>[A-Za-z]) (?:for|as in|de|como en|con) (?P<word>[A-Za-z]+)(?![\w'’])")
_BETWEEN_LETTERS = re.compile(r"[ ,;]{0,3}")
# A day of the month said as an ordinal after the words that name a day: "on the twenty fourth", "monday the
# eleventh", "by the third" (not "on the first floor", "the second time").
_ORDINALS = (
    "first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth thirteenth fourteenth "
    "fifteenth sixteenth seventeenth eighteenth nineteenth twentieth thirtieth"
).split()
_ORDINAL_DAY = (
    r"(?:(?:twenty|thirty)[ -](?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth)|"
    + "|".join(_ORDINALS)
    + ")"
)
_SPOKEN_DAY = re.compile(
    r"(?i)\b(?:on|by|until|till|from|before|after|monday|tuesday|wednesday|thursday|friday|saturday|sunday|mon|tues?|"
    rf"wed|thurs?|fri|sat|sun) the (?P<day>{_ORDINAL_DAY})\b"
    r"(?! (?:of (?!(?:january|february|march|april|may|june|july|august|september|october|november|december)\b)"
    # (a dictation's spoken stop is no count's noun: "monday the eleventh period")
    rf"|(?!period\b){NOT_A_DAY_AFTER}|one|person|thing|item|injection|child|baby|patient|\w+(?:al|ar|ic)\b)\b)"
    # nor before a noun of the sentence ("from the first application"): a day said aloud ends the phrase, or a
    # word of the sentence that goes on from it follows ("on the fifth at ten", "by the first we'll know")
    r"(?! (?!(?:of|at|and|or|in|on|to|for|please|then|so|but|we|i|you|he|she|they|it|is|was|if|when|because|"
    r"morning|afternoon|evening|night|next|this|that|from|until|till|by|with|after|before|our|my|your|his|her|"
    r"their|us|me|him|them|as|about|around|would|will|should|can|could|are|were|has|had|have|be|do|did|not|no|"
    r"yes|okay|ok|thanks|thank|period|comma|full|new|colon|semicolon|dash|hyphen)\b)[a-z]+\b)"
)
# A name spelled in the phonetic alphabet, four words or more: "Mike Alpha Charlie India November November".
_NATO = (
    "alpha alfa bravo charlie delta echo foxtrot golf hotel india juliet juliett kilo lima mike november oscar "
    "papa quebec romeo sierra tango uniform victor whiskey whisky x-ray xray yankee zulu"
).split()
_NATO_RUN = re.compile(rf"(?i)(?<![\w-])(?:{'|'.join(_NATO)})(?:[ ,\-]{{1,2}}(?:{'|'.join(_NATO)})){{3,30}}(?![\w-])")
# An e-mail address read out: the box's words, "at" or "arroba", the host's words joined by "dot" or "punto".
_TLD = r"(?:com|net|org|edu|gov|es|mx|ar|cl|co|pe|uk|ie|au|nz|ca|us|info|io|cat|eus|gal)"
_SPOKEN_MAILBOX = re.compile(
    r"(?i)(?<![\w@.])(?P<box>[a-zñ0-9]+(?: (?:dot|punto|underscore|guion bajo|[a-zñ0-9]+)){0,6}) (?:at|arroba) "
    rf"(?P<host>[a-z0-9]+(?:(?: dot | punto |\.)[a-z0-9]+)*(?: dot | punto |\.){_TLD})(?![\w])"
)
_NOT_THE_BOX = frozenset(
    "email e-mail mail correo is es me my mi su your at to a the el la send sent enviar envíe envie me it's its "
    "address dirección direccion electrónico electronico and y or o please por favor favor his her their our "
    "is son".split()
)
# An age over 89 said in words after the words that give one.
_AGE_WORDS = (
    r"(?:ninety|noventa)(?:[ -](?:y )?(?:one|two|three|four|five|six|seven|eight|nine|uno|un|dos|tres|cuatro|"
    r"cinco|seis|siete|ocho|nueve))?|(?:one )?hundred(?: and \w+)?|cien|ciento \w+"
)
_SPOKEN_AGE = re.compile(
    rf"(?i)\b(?:(?:he|she)(?:'s| is)|aged?|cumple|cumplió|cumplirá) (?P<age>{_AGE_WORDS})(?![\w-])"
    # (its clause ends there or says years: "she's ninety-eight on air" is a saturation, "one hundred over
    # sixty" a pressure, "ninety minutes late" a time)
    r"(?=[ \t]*(?:[.,;:!?)\n]|$)| (?:years?|yrs|años|and|y|now|today|next|last|this|in|at|with|but|so|lives?|"
    r"vive|living|old|tomorrow|mañana)\b)"
    # after a verb that has other objects, only with its years: "tiene noventa y dos años", not "tiene noventa
    # y dos euros"; "turned ninety-six years old", not "heart rate turned ninety-six"
    rf"|\b(?:tiene|turned|turns|de) (?P<aged>{_AGE_WORDS}) (?:años|years(?! ago)|yrs)"
)


_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_SPELLING_CUE = re.compile(
    r"(?i:spell|spelled|spelt|that's|that is|name is|name's|first is|last is|surname|deletre|se escribe|es decir|"
    r"apellido|nombre|con (?:be|ve|hache|i griega|y griega|doble))[^\n]{0,40}$"
)
# A form's labels that a dictation spells out as letters ("d o b", "m r n").
_SPOKEN_LABELS = frozenset("DOB MRN SSN NHS NHI DNI NIE NIF NPI DEA ER ED OR ICU PCP GP NOK DNR AKA".split())


def _a_name_spelled(letters: list[str]) -> bool:
    """Three letters or more that no abbreviation writes, as a name spelled aloud is."""
    joined = "".join(letters).upper()
    if len(letters) < 3 or joined in lexicon.CLINICAL_ABBREVIATIONS or joined in lexicon.EVERYDAY_ABBREVIATIONS:
        return False
    if joined in _SPOKEN_LABELS:
        return False
    if joined in _ALPHABET or joined in _ALPHABET.lower():  # a list's items, "a, b, c, d"
        return False
    # a heading spaced out letter by letter, as a filing's are ("H E C H O S", "P R U E B A S"), spells a word
    word = joined.lower()
    if max(lexicon.zipf(word), lexicon.zipf_in(word, "es")) >= 3.0 and not lexicon.is_name_word(word):
        return False
    return not all(letter.lower() in "aio" for letter in letters)


def find_spoken(text: str) -> list[Entity]:
    """Identifiers read aloud in ``text``."""
    found = []
    for match in _SPELLED_LETTERS.finditer(text):
        letters = re.findall(r"[^\W\d_]", match.group(0))
        # five letters alone, or three after a word that asks for a spelling: "hepatitis a, b y c", "no m r g"
        # and "vitaminas a, d, e y k" are lists and findings
        cued = _SPELLING_CUE.search(text, max(0, match.start() - 40), match.start()) is not None
        # letters between dots or dashes are as often an abbreviation ("C.J.P.P.U. 45.218", "S.A.R.L."): only
        # after a word that asks for a spelling
        marked = re.search(r"[.–]", match.group(0)) is not None
        if (len(letters) >= 5 and not marked or cued) and _a_name_spelled(letters):
            found.append(Entity(*match.span(), T.PERSON))
    for match in _LETTER_NAMES_RUN.finditer(text):
        words = re.findall(r"[^\W\d_]+", match.group(0).lower())
        distinct = sum(word in _DISTINCT_LETTER_NAMES for word in words)
        if distinct >= 2 or distinct >= 1 and match.group(0).count(",") >= 3:
            found.append(Entity(*match.span(), T.PERSON))
    found += _spelled_by_words(text)
    found += [Entity(*m.span(), T.PERSON) for m in _NATO_RUN.finditer(text)]
    for match in _CODE_CUE.finditer(text):
        code = match.group("code")
        tokens = re.findall(r"[^\W\d_]+", code.lower())
        numbers = sum(token in _EN_DIGITS or token in _EN_NUMBERS or token in _ES_NUMBERS for token in tokens)
        if numbers < 3 or numbers == 3 and len(tokens) == 3:
            continue  # "claim number is on the form", "plan one, two, three": words and a count, not a code
        if _AN_AMOUNT.search(code) or numbers == len(tokens) and ("," in code or numbers < 7):
            continue  # "count one thousand two hundred", "file twenty three, twenty four", a digit span
        cue = match.group("cue").lower()
        found.append(Entity(*match.span("code"), _CUE_KINDS.get(cue, T.RECORD_NUMBER)))
    for match in _PHONE_CUE.finditer(text):
        if not _AN_AMOUNT.search(match.group("code")):
            found.append(Entity(*match.span("code"), T.PHONE))
    found += [Entity(*m.span("day"), T.DATE) for m in _SPOKEN_DAY.finditer(text)]
    found += _spoken_streets(text)
    for match in _SPOKEN_MAILBOX.finditer(text):
        # the box is the words before "at" back to the first that says what follows ("his email is …")
        words = match.group("box").split()
        kept = 0
        while kept < len(words) and words[-1 - kept].lower() not in _NOT_THE_BOX:
            kept += 1
        if kept:
            box = " ".join(words[-kept:])
            found.append(Entity(match.end("box") - len(box), match.end("host"), T.EMAIL))
    found += [Entity(*m.span("age" if m.group("age") else "aged"), T.AGE) for m in _SPOKEN_AGE.finditer(text)]
    return found


def _spoken_streets(text: str) -> list[Entity]:
    """Addresses read out in words. A house number of one word is a count as often ("two more on main
    street"), so it needs two, and the street's name no word that a sentence joins with."""
    found = []
    for match in _SPOKEN_STREET_EN.finditer(text):
        names = match.group("name").lower().split()
        if len(match.group("number").split()) < 2 or any(word in _NOT_A_STREET_WORD for word in names):
            continue
        found.append(Entity(match.start(), match.end(), T.ADDRESS))
    for match in _SPOKEN_STREET_ES.finditer(text):
        # a name's own words are rarer than a sentence's ("calle del mar", not "la calle tiene dos carriles")
        names = [word for word in match.group("name").lower().split() if word not in _STREET_NAME_PARTICLES]
        if not names or any(lexicon.zipf_in(word, "es") >= _SENTENCE_WORD_ZIPF for word in names):
            continue
        found.append(Entity(match.start(), match.end(), T.ADDRESS))
    return found


def _spelled_by_words(text: str) -> list[Entity]:
    """Letters each spelled by a word that opens with it, "Z for zebra, K for kilo", "B de Barcelona": two in a
    row, or one with its letter in capitals; the letters and digits said after them belong to the same code."""
    pairs = [m for m in _PHONETIC.finditer(text) if m.group("word")[0].lower() == m.group("letter").lower()]
    runs: list[list[re.Match]] = []
    for pair in pairs:
        if runs and _BETWEEN_LETTERS.fullmatch(text, runs[-1][-1].end(), pair.start()):
            runs[-1].append(pair)
        else:
            runs.append([pair])
    return [
        Entity(run[0].start(), run[-1].end(), T.PERSON)
        for run in runs
        if len(run) >= 2 or run[0].group("letter").isupper()
    ]
