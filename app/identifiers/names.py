"""People found by lexical evidence where spaCy's small English model does not look: names in lower case
("maria gonzalez"), names of other languages, a bare middle initial, Spanish titles and double surnames,
and a rare capitalised word that is on a list of people's names.

The evidence is the name lists and word frequencies of ``lexicon``: a pair of name words reads as a
person even in lower case, a given name alone counts where the text is typed in lower case throughout and
the word is rare as an ordinary word ("tyrone", not "will"), and a name found extends over the name words
and initials beside it ("Olga P Smirnova", "María José Fernández Ruiz", "García y Pérez").
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from functools import partial

from app.identifiers import lexicon
from app.identifiers.dates import CALENDAR_WORDS
from app.identifiers.entities import Entity, EntityType

T = EntityType
_WORD = re.compile(r"[^\W\d_]+(?:['’\-][^\W\d_]+)*")
FUNCTION_WORDS = frozenset(
    """
    atte att atentamente cordialmente xoxo
    a an the and or but if of to in on at by for with from as is are was were be been am i you he she it we they
    me him her us them my your his its our their this that these those who what which when where why how not no
    yes do does did have has had will would can could shall should may might must so then than there here also
    very just only all any some each every more most other such own same too up down out over under again
    el la los las un una unos unas y o u de del al en con por para sin sobre entre es son fue era ser estar está
    están le les lo se su sus mi mis tu tus que qué como cómo cuando cuándo donde dónde muy más menos ya no sí
    pero porque hay ha he han hemos este esta estos estas ese esa eso nos me te
    """.split()
)
# Spanish and English titles before a name; the name after them is a person's whatever its case.
SPANISH_TITLES = (
    r"(?:D\.|Dña\.|Dª|Don|Doña|Sr\.|Sra\.|Srta\.|Dr\.|Dra\.|Lic\.|Licda\.|Ing\.|Mtro\.|Mtra\.|Prof\.|Profa\.|"
    r"Abg\.|Abgda\.|Letrad[oa]|DON|DOÑA|DÑA\.|SR\.|SRA\.|DR\.|DRA\.)"
)
# Spanish escritos write the parties' names in capitals, particles included: "DOÑA NEREA BALLESTEROS DE PAZ".
_TITLED = re.compile(
    rf"(?<!\w){SPANISH_TITLES} (?P<name>[A-ZÀ-ÖØ-Þ][^\W\d_]+(?:['’\-][^\W\d_]+)*"
    rf"(?: (?:de la |del |de |y |i |DE LA |DE LOS |DE LAS |DEL |DE |Y |I )?"
    rf"(?:[A-ZÀ-ÖØ-Þ][^\W\d_]+(?:['’\-][^\W\d_]+)*|[A-Z]\.?)){{0,4}})"
)


_LOWER_TITLED = re.compile(
    r"(?<![\w.])(?:(?i:dr|dra|doctor|doctora|mr|mrs|ms|miss|sr|sra|srta|don|doña|dña|nurse|enfermera|enfermero|enf|"
    # Italian, French and German titles in a message written in English: "dott.ssa rinaldi", "mme girard"
    r"dott\.ssa|dott|sig\.ra|avv|mme|mlle|herr|frau|"
    r"lic|licda|prof|profe|maestra|maestro|miss|ciudadano|ciudadana)\.? "
    # typed in lower case only (capitalised, the rules read the whole name after them): "la licenciada paty", and
    # a ward sister, as British and Commonwealth hospitals title their senior nurses: "ask for sister mwangi"
    r"|(?:licenciada|licenciado|ingeniera|ingeniero|sister) )"
    # the name in a look ahead, so that a title read as a name's word ("his dr is dr patel") is a cue again
    r"(?=(?P<name>[^\W\d_]{2,}(?:[-'][^\W\d_]+)?(?: [^\W\d_]{2,}(?:[-'][^\W\d_]+)?)?))"
)
# Someone named by the sentence: "el niño se llama Mateo", "her son, named Kai", "una vecina de nombre Rosa".
# Things are named so too ("un dolor llamado ciática", "a condition called Lupus"), and "called" is a call
# after a pronoun ("I called Medicare", "he called back"), so the name is a given name of the lists.
_NAMED = re.compile(
    r"(?<![\w])(?i:se llama|se llamaba|de nombre|llamad[oa]|named|called|goes by) "
    r"(?P<name>[^\W\d_]{2,}(?:[-'][^\W\d_]+)?(?: [^\W\d_]{2,}(?:[-'][^\W\d_]+)?){0,2})"
)
_A_CALLER = re.compile(r"(?i)(?<![\w])(?:I|he|she|we|they|you|who|it)\s+$")
_INTRODUCED = re.compile(
    r"(?<!\w)(?:(?i:this is|i'm|i am|im|my name is|my name's|it's|soy|me llamo|mi nombre es|habla|le saluda|"
    r"le escribe|te escribe|firma|atentamente,?\n?|regards,?\n?|thanks,?\n?|gracias,?\n?|saludos,?\n?|cheers,?\n?|"
    # an account's or a parcel's holder: "in the name t wisniewski", "a nombre de mi madre"
    r"in (?:the )?name(?: of)?|under the name(?: of)?|a nombre de|en nombre de) "
    # a voicemail's hesitation between the cue and the name ("this is uh gurpreet")
    r"(?:(?i:uh|um|umm|er|erm|eh|ehm|este),? )?"
    # a letter's close with the signature on a line of its own, after blank lines
    r"|(?i:yours faithfully|yours sincerely|yours truly|sincerely|respectfully|kind regards|best regards|"
    r"warm regards|atentamente|cordialmente|un cordial saludo|reciba un cordial saludo),?[ \t]*\n"
    r"(?:[ \t]*\n){0,2}[ \t]*"
    r"(?=[^\W\d_]+(?:[-'][^\W\d_]+)?(?: [^\W\d_]+(?:[-'][^\W\d_]+)?){0,3}[ \t]*(?:\n|$)))"
    r"(?P<name>(?:[^\W\d_]\.? )?[^\W\d_]{2,}(?:[-'][^\W\d_]+)?(?: [^\W\d_](?: |\. ))?"
    r"(?: [^\W\d_]{2,}(?:[-'][^\W\d_]+)?){0,2})"
)
# A relative named after the word for them, as portal messages and chats are typed ("his dad cody", "moms of
# jaxon", "mi hija lucía", "lives w/ wife maureen"): the relationship is the cue, so the name may be in lower
# case.
_KIN = re.compile(
    r"(?<!\w)(?i:(?:my|his|her|their|our|your|mi|mis|su|sus|tu|tus|w/|with|con) (?:son|daughter|wife|husband|"
    r"mom|mum|mother|dad|father|brother|sister|grandson|granddaughter|grandma|grandpa|grandmother|grandfather|nephew|niece|"
    r"aunt|uncle|cousin|fiancée?|boyfriend|girlfriend|stepson|stepdaughter|stepmom|stepdad|kid|baby|hijo|hija|"
    r"esposo|esposa|marido|mamá|mama|papá|papa|madre|padre|hermano|hermana|nieto|nieta|abuela|abuelo|tía|tio|"
    r"tío|tia|sobrino|sobrina|primo|prima|novio|novia|bebé|bebe|nene|nena|"
    # the people a chat names beside its writer's family: "my neighbour dave", "our landlord gerry"
    r"neighbour|neighbor|landlord|landlady|boss|coworker|co-worker|roommate|flatmate|housemate|carer|caregiver|"
    r"vecino|vecina|jefe|jefa|compañero|compañera|cuñado|cuñada|suegro|suegra|yerno|nuera|padrino|madrina|"
    r"compadre|comadre)|(?:mom|mum|mother|dad|father|mamá|"
    r"mama|papá|madre|padre)s? (?:of|de)"
    # a relation used as a title, as many families say it: "aunty pare", "uncle tevita", "el primo beto"
    r"|aunty|auntie|uncle|nana|nanna|granny|cousin|(?:el|la) (?:tío|tía|tio|tia|primo|prima|vecino|vecina))"
    r"(?:[ -]in[ -]law)?(?:,| is| es| se llama| named| called)? "
    # the name in a look ahead, so that a relation read as the name ("his mum aunty pare") is a cue again
    r"(?=(?P<name>[^\W\d_]{2,}(?:[-'][^\W\d_]+)?(?: [^\W\d_]{2,}(?:[-'][^\W\d_]+)?)?))"
)
# The sign-offs before the writer's name ("atte. carolina", "besos, ana", "regards, tom", "thx jen").
_CLOSINGS = "atte|att|atentamente|saludos|cordialmente|bendiciones|besos|abrazos|regards|xoxo|thx|thnx|tks|grax"
# Whom a message or a call greets or thanks ("Hey Gail, it's Terrence", "thanks oliver", "hola fermín,"):
# the greeting is the cue, and the name ends at the first word that is not one.
_GREETED = re.compile(
    r"(?<![\w'’])(?i:hey|hi|hiya|hello|dear|thanks|thank you|cheers|good morning|good evening|hola|buenas|"
    r"buenos d[íi]as|buenas tardes|buenas noches|querido|querida|querid[oa]s|estimado|estimada|gracias|"
    r"muchas gracias|bon dia|bona tarda|kaixo|"
    # the greetings of the other languages the users' clients write in: "Kia ora Jess,", "Ciao Marco"
    # (not "bula", a medicine's leaflet in Spanish, nor "ola", a wave)
    r"kia ora|talofa|salaam|salam|namaste|shalom|ciao|bonjour|hallo|"
    # and the sign-offs before the writer's name
    rf"{_CLOSINGS})\.?,?[ \t]+"
    r"(?P<name>[^\W\d_]{2,}(?:[-'][^\W\d_]+)?(?: [^\W\d_]{2,}(?:[-'][^\W\d_]+)?)?)(?=[ \t]*(?:[,.!?:;\n—–-]|$)"
    # or the writer's own introduction after it, unpunctuated as a chat types it: "hi conor its agnieszka"
    r"|[ \t]+(?i:it'?s|it’s|it is|this is|soy|aqu[íi]|te escribe|le escribe)\b)"
)
# Whom a greeting addresses that is nobody's name: a role or a crowd ("Dear Colleague", "Hi all").
GREETED_ROLES = frozenset(
    "doctor doctora doc colleague colleagues colega colegas friend friends amigo amiga amigos team equipo all "
    "everyone everybody folks guys there both again nurse enfermera enfermero patient paciente family familia "
    "señor señora señores señorita sir sirs madam madame licenciado licenciada abogado abogada letrado letrada "
    "compañero compañera compañeros professor profesor profesora maestro maestra mum mom dad mama mamá papa "
    "papá sister brother hermano hermana tío tía tio tia abuela abuelo jefe jefa boss mate mates pal love hun buddy "
    "darling aunty auntie aunt uncle nana nanna granny cousin primo prima vecino vecina "
    # endearments: "hola linda", "hola bebe", "thanks angel"
    "bebe bebé linda lindo morena moreno reina rey corazón cielo vida gordo gorda flaco flaca nena nene chiquita "
    "mija mijo angel sweetie sweetheart petal babe hon".split()
)
# A title after a greeting: the title's own rule takes the name after it.
_GREETED_TITLES = frozenset("dr dra drs mr mrs ms miss mx sr sra srta srs sres don doña dña prof lic".split())
# The labels a typed message puts after a name ("jaxon dob 5/14/21"): where the name ends.
_FIELD_LABELS = frozenset("dob mrn ssn nhs tel ph phone cell yo dod edad fn dni rut curp".split())
# A chat's fillers after a relation or a title: "para mi jefa, porfa", "ask my mum pls".
_CHAT_WORDS = frozenset(
    "porfa porfis xfa xfavor pls plz please thx thanks gracias ok okay oki vale lol jaja jajaja haha hahaha xd "
    "asap tmrw mañana hoy ayer".split()
)
_NAME_STOPS = FUNCTION_WORDS | _FIELD_LABELS | _CHAT_WORDS
_PARTICLES = frozenset("de del la van von der den da das dos do di du le y i ter ten bin al el".split())


# Verbs that follow a role in a sentence and are also names somewhere ("Said"): the sentence goes on.
_SPEECH_VERBS = frozenset("said says told asked went came saw gave took made wants wanted needs thinks knows".split())
# Irregular past tenses that are rare enough words to pass for a nickname after a relation ("her sister rang",
# "my son swam"), typed in lower case: the sentence goes on. Capitalised, they stay names ("my son Drew").
_LOWER_CASE_PAST_TENSES = frozenset(
    "rang sang rode froze drank slid swam drew tore swore bore hid bent lent dreamt fled wept knelt dove clung "
    "flung stung strode sped spat shook woke".split()
)


# A number spelled out after a relation is an age, not a name: "my grandmother is ninety-three".
_SPELLED_NUMBER = re.compile(
    r"(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|one|two|three|four|five|six|seven|eight|nine|"
    r"ten|eleven|twelve)(?:-(?:one|two|three|four|five|six|seven|eight|nine))?|"
    r"veinti(?:uno|una|dós|dos|trés|tres|cuatro|cinco|séis|seis|siete|ocho|nueve)|"
    r"treinta|cuarenta|cincuenta|sesenta|setenta|ochenta|noventa|cien|ciento"
)


def _name_after_cue(text: str, match: re.Match) -> Entity | None:
    """The words after a title or an introduction that can be a name: not function words, not everyday words
    (unless on the name lists), the longest such start."""
    words = list(re.finditer(r"[^\W\d_]+(?:[-'][^\W\d_]+)?", match.group("name")))
    if words and a_field_label(text, match.start("name") + words[0].start(), match.start("name") + words[0].end()):
        return None  # "DR Desc:NIP/TRF": a debit's label after its "DR", no doctor
    # "don ramon aquino": after don or doña come a given name and the surnames, however rare the word
    spanish_honorific = re.match(r"(?i)(?:don|doña|dña)\.? ", match.group(0)) is not None
    # a sign-off closing the message or its line ("thx jen", "besos, majo"): what follows is the writer's name
    closing = match.re is _GREETED and _SIGN_OFF.match(match.group(0)) and _LINE_END.match(match.string, match.end())
    titled = match.re is _LOWER_TITLED
    strong_cue = match.re is _KIN or titled or bool(closing)
    base = match.start("name")
    kept = []
    for word in words:
        surface = word.group(0)
        lower = surface.lower()
        if strong_cue and lower in _PARTICLES and word is not words[-1]:
            kept.append(word)  # "dr de groot"; dropped if no name follows
            continue
        if kept and all(k.group(0).lower() in _PARTICLES for k in kept) and lexicon.zipf(surface) >= 3.5:
            break  # "el dr de guardia": a phrase of the language after the title, not a surname
        if (
            lower in _NAME_STOPS
            or _SPELLED_NUMBER.fullmatch(lower)
            or lower in GREETED_ROLES
            or lexicon.is_kept_term(surface)
            and not (titled and _a_titled_eponym(match.string, base + word.start(), base + word.end()))
            or lexicon.is_region(surface)
        ):
            break  # "Cheers mate", "soy doctora": a role, not a name
        if lower in _SPEECH_VERBS or surface in _LOWER_CASE_PAST_TENSES:  # "the nurse said …": not Said
            break
        if surface.islower() and len(surface) > 4 and re.search(r"(?:ed|ing)$", lower) and not _is_name(surface):
            break  # "my son vomited", "my boss texting": a verb's form, not a name (Fred and Ming are names)
        if len(surface) == 1 and surface.isalpha():  # an initial ("t wisniewski"); dropped if no name follows
            kept.append(word)
            continue
        if not (
            lexicon.is_name_word(surface)
            or lexicon.zipf(surface) < 3.0
            or (surface[0].isupper() or kept and spanish_honorific)
            and lexicon.zipf(surface) < 4.0
            # "don memo", "doña chela", "my landlord gerry", "la licenciada paty": after a title or a relation
            # the first word is a given name, often a nickname that is also a rare word
            or strong_cue
            and not kept
            and lexicon.zipf(surface) < 4.0
        ):
            break
        kept.append(word)
    while kept and (len(kept[-1].group(0)) == 1 or kept[-1].group(0).lower() in _PARTICLES):
        kept.pop()
    if not kept:
        return None
    return Entity(base + kept[0].start(), base + kept[-1].end(), T.PERSON)


# What follows a sign's or a score's author: "dr alvarado's score", "mcmurray test"; a possessive before
# anything else is a person's ("mrs alvarado's son").
_AN_EPONYMS_TAIL = re.compile(
    r"(?:['’]s)?[ \t]+(?i:score|scale|sign|test|manoeuvre|maneuver|syndrome|disease|criteria|classification|"
    r"grade|stage|index|type|fracture|view|position|needle|tube|airway|blade)\b"
)


def titled_eponyms(text: str, found: list[Entity]) -> list[Entity]:
    """The names in ``found`` (``find_cued_names``'s) that hold an eponym after their title ("mrs alvarado"):
    the title vouches for them, so they stand against the list of kept terms the eponym is on."""
    return [
        entity
        for entity in found
        if any(
            t.start("name") == entity.start for t in _LOWER_TITLED.finditer(text, max(0, entity.start - 12), entity.end)
        )
        and any(
            _a_titled_eponym(text, entity.start + word.start(), entity.start + word.end())
            for word in re.finditer(r"[^\W\d_]+", entity.text_in(text))
        )
    ]


def _a_titled_eponym(text: str, start: int, end: int) -> bool:
    """Whether the word at ``start:end``, after a title, is an eponym's surname that names a person here
    ("mrs alvarado", "dr gleason"): every eponym is someone's surname, so one with no sign, score or
    possessive after it."""
    return text[start:end].lower() in lexicon.EPONYMS and _AN_EPONYMS_TAIL.match(text, end) is None


_SIGN_OFF = re.compile(rf"(?i:thanks|thank you|cheers|gracias|{_CLOSINGS})\b")
_LINE_END = re.compile(r"[ \t]*[.!]*[ \t]*(?:\n|$)")


def _is_name(word: str) -> bool:
    return lexicon.is_name_word(word) and word.lower() not in FUNCTION_WORDS


def _rare_name(word: str) -> bool:
    """A name word seldom written as an ordinary word: a name even alone."""
    lower = word.lower()
    return _is_name(word) and lower not in lexicon.EVERYDAY_NAMES and lexicon.zipf(lower) < 3.6


@functools.lru_cache(maxsize=8)  # asked of the same text by many rules in one detection
def mostly_lower_case(text: str) -> bool:
    """Typed without capitals (a patient portal, a chat): fewer than one word in twenty-five capitalised
    other than at a sentence's start."""
    words = list(re.finditer(r"(?<![.!?:\n]\s)(?<!^)\b[^\W\d_]{2,}", text))
    if len(words) < 8:
        return text == text.lower()
    capitals = sum(1 for m in words if m.group(0)[0].isupper() and m.group(0) != "I")
    return capitals * 25 < len(words)


_QUOTED = re.compile(r"\"([^\"\n]{3,300})\"|“([^”\n]{3,300})”")


def lower_case_quotes(text: str) -> list[tuple[int, int]]:
    """Spans of speech quoted as it was typed or said, in lower case ("pt says "tell siobhan i'm grand""):
    a name there is written as the rest of it is, whatever the text around it."""
    spans = []
    for match in _QUOTED.finditer(text):
        group = 1 if match.group(1) is not None else 2
        if mostly_lower_case(match.group(group)):
            spans.append(match.span(group))
    return spans


# A chat export's line: its time and its speaker, then what they typed ("22/1/25 8:21 - Javi: vale, yo …",
# "[09:14] Kev: …", "Mum: …").
_CHAT_LABEL = re.compile(
    r"[ \t]*(?:[\[(]?[\d/.,:\- ]{4,24}(?:[ap]\.?m\.?)?[\])]?[ \t]*[-–]?[ \t]*)?(?:[^\W\d_][^:\n]{0,30}:[ \t]+)?", re.I
)


def lower_case_lines(text: str) -> list[tuple[int, int]]:
    """Lines typed in lower case inside a text that is not (a chat export whose speakers' names are
    capitalised, a portal message pasted into a letter): each line's words after its time and speaker."""
    spans = []
    offset = 0
    for line in text.split("\n"):
        body = offset + _CHAT_LABEL.match(line).end()
        rest = text[body : offset + len(line)]
        if len(re.findall(r"[^\W\d_]{2,}", rest)) >= 4 and mostly_lower_case(rest):
            spans.append((body, offset + len(line)))
        offset += len(line) + 1
    return spans


def lower_case_spans(text: str) -> list[tuple[int, int]]:
    """Where ``text`` was typed in lower case: all of it, or its quoted speech and chat lines that were."""
    if mostly_lower_case(text):
        return [(0, len(text))]
    return lower_case_quotes(text) + lower_case_lines(text)


_LONGEST_NAME_WORDS = 12

# A doctor or a patient named by a title and an initial alone, as a chart's column or a colleague's message
# does ("| Dr K |", "per Dr O,", "hiya dr s", "for miss p"): the initial is all the text says of their name.
# Not a street's abbreviated drive and its quarter ("Elm Dr N"), a title's number ("Mat. Prof. N° 4182"),
# "nurse w/ Dr. Okonjo", nor a full name after the initial ("Dr. A. Smith", which ``_TITLED`` reads).
_TITLED_INITIAL = re.compile(
    r"(?<![\w.])(?P<title>(?i:dr|dra|mr|mrs|ms|miss|mx|prof|sr|sra|srta|nurse))\.? (?P<initial>[A-Za-z])\.?"
    r"(?![\w'’&/°º\-]|\.?[ \t]?[A-Z][a-z])"
)
# Letters a chat types for a whole word after a lower-case title ("el dr d la upa": "de").
_WORD_LETTERS = frozenset("adeiknoquwxy")


# A staff member's initials or log-in name in a log's or a message's field for who wrote or took it: "from: SA
# (reception)", "CALLER: DJ (says …)", "Typist: ck", "RPh: tqtran", "Nota (K.):", "notas (VP):". The field
# vouches for letters no list holds; what follows must end the field (a bracket, a bar, a colon, the line).
_LABELLED_INITIALS = re.compile(
    r"(?<![\w])(?P<label>(?i:from|caller|typist|typed by|rph|operator|op|initials|entered by|reviewed by|"
    r"checked by|transcribed by|transcrito por|tomado por|atendi[óo]|user|usuario|nota|notas|note|notes|signed|"
    r"sgd|received by|recib[íi]|recibido por))"
    r"[ \t]*(?::[ \t]*|\([ \t]*)"
    r"(?P<initials>[A-Z]{2,3}|[A-Z]\.(?:[ ]?[A-Z]\.){0,2}|[a-z]{2,3}|[a-z]{4,12}(?=[ \t]*(?:\n|$)))"
    # (a signature's time after it: "Signed: ES 06:58 / LS 07:02")
    r"(?=[ \t]*(?:[()|:\n]|$|\d{1,2}:\d{2}\b))"
)
_A_BRACKET = re.compile(r"[ \t]*\(")
_NEXT_SIGNATURE = re.compile(r"[ \t]+\d{1,2}:\d{2}[ \t]*/[ \t]*(?P<initials>[A-Z]{2,3})(?=[ \t]+\d{1,2}:\d{2}\b)")
# Letters written with points that abbreviate no one: countries, times, companies' forms, eras, degrees.
_DOTTED_ABBREVIATIONS = frozenset(
    "US USA UK EU UAE NY NYC DC LA AM PM SA SL SRL SAS CV LLC PLC BV AG AD BC BCE CE NB PS RN MD DO NP PA QC KC "
    "JD PHD MBA BSC MSC BA MA ID IE EG VS ET AL ETC EEUU RIP ASAP".split()
)
# Dotted initials closing a table's row after the gap of a column, as a chart signs each entry ("… neg   –
# G.A.⏎16/04 …").
_ROW_SIGNING_INITIALS = re.compile(r"(?m)(?:[ \t]{2,}|\t)(?P<initials>[A-Z]\.[A-Z]\.(?:[A-Z]\.)?)[ \t]*$")
# The labels after which only a log-in name of more than three letters is taken ("RPh: tqtran"): after "from:"
# a longer word is a sender's name or a place, which the other rules read.
_LOG_IN_LABELS = frozenset("typist rph user usuario".split())
# The fields that hold only a person: "Typist: CK" is no creatine kinase.
_PEOPLES_FIELDS = _LOG_IN_LABELS | {
    "initials",
    "typed by",
    "entered by",
    "reviewed by",
    "checked by",
    "transcribed by",
    "transcrito por",
    "tomado por",
}


def find_labelled_initials(text: str) -> list[Entity]:
    """Initials and log-in names in a field for who wrote or took a record (``_LABELLED_INITIALS``), not a
    clinical abbreviation, a role or an everyday word ("from: GP", "from: home")."""
    found = []
    for match in _LABELLED_INITIALS.finditer(text):
        value = match.group("initials")
        plain = value.replace(".", "").replace(" ", "")
        if len(value) >= 4 and value.islower() and match.group("label").lower() not in _LOG_IN_LABELS:
            continue
        if len(value) >= 6 and value.islower() and _two_words(value):
            continue  # "User: autoverify", "Typed: dictaphone": a program's name made of words, no one's log-in
        # a role in brackets after the letters, or a field only people fill, says they are someone's ("from: SA
        # (reception)", "Typist: CK"), whatever else they abbreviate
        someones = _A_BRACKET.match(text, match.end()) is not None or match.group("label").lower() in _PEOPLES_FIELDS
        if (
            plain.upper() in lexicon.CLINICAL_ABBREVIATIONS
            and not someones
            or value.islower()
            and (value in _NAME_STOPS or value in GREETED_ROLES)
            or "." in value
            and plain.upper() in _DOTTED_ABBREVIATIONS
            or len(value) >= 4
            and lexicon.zipf(value) >= 3.0
        ):
            continue
        found.append(Entity(*match.span("initials"), T.PERSON))
        end = match.end("initials")
        # a signature's next initials and time: "Signed: ES 06:58 / LS 07:02"
        while (after := _NEXT_SIGNATURE.match(text, end)) is not None:
            found.append(Entity(*after.span("initials"), T.PERSON))
            end = after.end()
    found += [
        Entity(*m.span("initials"), T.PERSON)
        for m in _ROW_SIGNING_INITIALS.finditer(text)
        if m.group("initials").replace(".", "") not in _DOTTED_ABBREVIATIONS
    ]
    return found


def _two_words(word: str) -> bool:
    """Whether ``word`` is two everyday words written together ("autoverify", "nightshift")."""
    return any(lexicon.zipf(word[:cut]) >= 3.5 and lexicon.zipf(word[cut:]) >= 3.5 for cut in range(3, len(word) - 2))


def find_titled_initials(text: str) -> list[Entity]:
    """People named by a title and an initial alone ("Dr K"), title included as ``find_names``'s are."""
    found = []
    for match in _TITLED_INITIAL.finditer(text):
        before = text[max(0, match.start() - 40) : match.start()].split()
        if before and before[-1][0].isupper() and before[-1].isalpha() and match.group("title")[0].isupper():
            continue  # "Elm Dr N", "Oak St Dr S": a street's type and its quarter
        initial = match.group("initial")
        if initial.islower() and (match.group("title")[0].isupper() or initial in _WORD_LETTERS):
            continue
        found.append(Entity(match.start(), match.end(), T.PERSON))
    return found


def find_names(text: str, lower_spans: list[tuple[int, int]] | None = None) -> list[Entity]:
    """People named by name lists and titles (spaCy's entities and the rules find the rest). ``lower_spans``:
    ``lower_case_spans(text)`` where the caller has it already."""
    found = [entity for m in _TITLED.finditer(text) if (entity := _titled_name(m)) is not None]
    words = [(m.start(), m.end(), m.group(0)) for m in _WORD.finditer(text)]
    spans = lower_case_spans(text) if lower_spans is None else lower_spans
    lower_text = spans == [(0, len(text))]
    quoted_lower = [] if lower_text else spans
    index = 0
    # Whether a word joins the next depends on the two words and their neighbours only, so a run read from one
    # word holds from each later word in it: its end is read once (a long run of initials was quadratic).
    reach = 0
    while index < len(words):
        start, end, word = words[index]
        run = max(index, reach)
        # a run of name words with single spaces between them (an initial may stand inside)
        while (
            run + 1 < len(words)
            and _joined(text, words[run], words[run + 1])
            and (
                _is_name(words[run + 1][2])
                or (
                    len(words[run + 1][2]) == 1
                    and words[run + 1][2].isalpha()
                    and (words[run + 1][2].isupper() or lower_text)
                )
                or _rare_surname(words, run + 1)
                or _particle_inside(text, words, run + 1)
            )
        ):
            run += 1
        reach = run
        names = words[index : run + 1]
        while 1 < len(names) <= _LONGEST_NAME_WORDS and len(names[-1][2]) == 1 and names[-1][2].islower():
            names.pop()  # "maria jose a verla": a lower-case initial closing a name is the next word
        lower_here = lower_text or any(a <= start < b for a, b in quoted_lower)
        if _is_name(word) and _a_person(text, names, lower_here):
            found.append(Entity(names[0][0], names[-1][1], T.PERSON))
            index = run + 1
            continue
        # A run longer than any name (a list or a heading in capitals) is read whole once, not again from each
        # of its words: that was quadratic in its length.
        index = run + 1 if len(names) > _LONGEST_NAME_WORDS else index + 1
    return found


def _titled_name(match: re.Match) -> Entity | None:
    """A title and the name after it. In capitals every word looks like a name, so the name ends before the
    first ordinary word ("DON ÁLVARO PEÑALVER CONTRA LA EMPRESA")."""
    name = match.group("name")
    if not name.isupper():
        return Entity(*match.span(), T.PERSON)
    end = match.start("name")
    words = list(re.finditer(r"[^\W\d_]+(?:['’\-][^\W\d_]+)*\.?", name))
    for index, word in enumerate(words):
        surface = word.group(0).rstrip(".")
        if surface.lower() in _PARTICLES:
            continue
        if surface.lower() in FUNCTION_WORDS or not _is_name(surface) and lexicon.zipf(surface) >= 3.0:
            if _surnames_to_the_comma(match, words[index:]):
                end = match.end("name")
            break
        end = match.start("name") + word.end()
    return Entity(match.start(), end, T.PERSON) if end > match.start("name") else None


_NAME_CLOSES = re.compile(r"[ \t]*(?:[,;(\n]|$)")


def _surnames_to_the_comma(match: re.Match, rest: list[re.Match]) -> bool:
    """ "DOÑA ROSARIO HURTADO CALLE, mayor de edad": an everyday word that is also a surname (Calle, Prado,
    Iglesias) is one when the name runs on to the comma or the line's end after one name at least, with no
    word of a sentence among them ("DON ÁLVARO PEÑALVER CONTRA LA EMPRESA" goes on)."""
    return (
        len(rest) <= 2
        and rest[0].start() > 0  # a name's word before it
        and bool(_NAME_CLOSES.match(match.string, match.end("name")))
        and not any(word.group(0).rstrip(".").lower() in FUNCTION_WORDS for word in rest)
    )


def _rare_surname(words: list[tuple[int, int, str]], index: int) -> bool:
    """A capitalised word seldom seen in either language, after a given name: a surname the lists lack
    ("Trent W Halvorsen", "Leire Urquiza")."""
    word = words[index][2]
    if not word[:1].isupper() or lexicon.is_kept_term(word) or lexicon.zipf(word) >= 3.6:
        return False
    # back past particles and other rare surnames to the given name: "KARIM EL OUARIACHI HAMMOU"
    for _, _, before in reversed(words[max(0, index - 4) : index]):
        if len(before) == 1 or before.lower() in _PARTICLES:
            continue
        if before.lower() in lexicon.first_names():
            return True
        if not before[:1].isupper() or lexicon.is_kept_term(before) or lexicon.zipf(before) >= 3.6:
            return False
    return False


def _particle_inside(text: str, words: list[tuple[int, int, str]], index: int) -> bool:
    """ "de", "van", "y" between two capitalised name words ("Marloes de Vries-Bakker", "Ortega y Gasset")."""
    word = words[index][2]
    if word.lower() in ("y", "i") and _two_people(words, index):
        return False
    # in capitals, between words in capitals: "KARIM EL OUARIACHI", "MARÍA DE LOS ÁNGELES"
    in_capitals = word.isupper() and words[index - 1][2].isupper()
    return (
        (word in _PARTICLES or in_capitals and word.lower() in _PARTICLES)
        and index + 1 < len(words)
        and words[index - 1][2][:1].isupper()
        and words[index + 1][2][:1].isupper()
        and _joined(text, words[index], words[index + 1])
        and (_is_name(words[index + 1][2]) or lexicon.zipf(words[index + 1][2]) < 3.0)
    )


def _two_people(words: list[tuple[int, int, str]], index: int) -> bool:
    """ "Michael Burrows y David Wheeler": after the "y" a given name opens a name of its own, where a double
    surname's second half ("Ortega y Gasset", "Ramón y Cajal") is a surname."""
    if index + 2 >= len(words) or words[index + 2][0] - words[index + 1][1] != 1:
        return False
    return _and_another(words[index][2], words[index + 1][2], words[index + 2][2])


def _and_another(joint: str, given: str, rest: str = "") -> bool:
    """Whether "y"/"i" joins two people rather than a double surname's halves: the word after it is a given
    name with a name of its own after it ("… Burrows y David Wheeler", not "Ortega y Gasset")."""
    return (
        joint.strip().lower() in ("y", "i")
        and given.lower() in lexicon.first_names()
        and re.match(r" ?[A-ZÀ-ÖØ-Þ]", rest) is not None
    )


# The children, grandchildren or siblings a note lists by name after the word for them: "his grandchildren,
# Isla and Finlay", "children Princess (7) and Rhian (4)", "sus hijos Mateo y Lucía". The plural is the cue,
# so each capitalised word of the list is a name.
_KIN_LIST = re.compile(
    r"(?<!\w)(?i:children|grandchildren|kids|sons|daughters|siblings|brothers|sisters|grandsons|granddaughters|"
    r"twins|hijos|hijas|nietos|nietas|hermanos|hermanas|niños|niñas)(?: [a-z]+){0,2}[,:]? "
    r"(?P<list>[A-ZÀ-Þ][^\W\d_]{1,30}(?: \(\d{1,2}\))?(?:(?:, | and | & | y | e )[A-ZÀ-Þ][^\W\d_]{1,30}"
    r"(?: \(\d{1,2}\))?){1,5})"
)


def _listed_kin(text: str) -> list[Entity]:
    found = []
    for match in _KIN_LIST.finditer(text):
        for word in re.finditer(r"[^\W\d_]+", match.group("list")):
            surface = word.group(0)
            if surface.lower() in {"and", "y", "e"} or lexicon.is_kept_term(surface) or lexicon.is_region(surface):
                continue
            # "Siblings: Alive and Well", "visit Monday and Friday": a name on the lists or a rare word only
            if surface.lower() in CALENDAR_WORDS or not (lexicon.is_name_word(surface) or lexicon.zipf(surface) < 3.0):
                continue
            start = match.start("list") + word.start()
            found.append(Entity(start, start + len(surface), T.PERSON))
    return found


def find_cued_names(text: str) -> list[Entity]:
    """Names after a title, an introduction or a greeting in any case ("hi dr kowalski", "soy rosa elena ruiz",
    "hey Gail,"): the cue is the evidence, so they need not be on the name lists."""
    found = [
        entity
        for pattern in (_LOWER_TITLED, _INTRODUCED, _KIN)
        for m in pattern.finditer(text)
        if (entity := _name_after_cue(text, m)) is not None
    ]
    for m in _NAMED.finditer(text):
        first = m.group("name").split()[0]
        if _A_CALLER.search(text, max(0, m.start() - 8), m.start()):
            continue
        if first.lower() in lexicon.first_names(lower_case=True) and (entity := _name_after_cue(text, m)) is not None:
            found.append(entity)
    for m in _GREETED.finditer(text):
        if m.group("name").split()[0].lower().rstrip(".") in GREETED_ROLES | _GREETED_TITLES:
            continue
        if (entity := _name_after_cue(text, m)) is not None:
            found.append(entity)
    return found + _listed_kin(text)


_RARE_RUN = re.compile(
    r"(?<![\w'’-])(?P<run>[A-ZÀ-ÖØ-ÞŁŚŻ][^\W\d_]+(?:[-'’][A-ZÀ-ÖØ-Þa-z][^\W\d_]+)?"
    r"(?: (?:(?:de|del|van|von|der|den|da|dos|di|du|le|la|y|bin|al) )*"
    r"[A-ZÀ-ÖØ-ÞŁŚŻ][^\W\d_]+(?:[-'’][A-Za-zÀ-ÿ][^\W\d_]+)?){1,3})"
)


def find_rare_runs(text: str) -> list[Entity]:
    """Two or more capitalised words that are rare in both languages, side by side: a name no list holds
    ("Marloes de Vries-Bakker"), Philter's question turned on words the lists lack."""
    found = []
    for match in _RARE_RUN.finditer(text):
        words = [w for w in re.findall(r"[^\W\d_]+(?:[-'’][^\W\d_]+)?", match.group("run")) if w not in _PARTICLES]
        if len(words) < 2 or any(w.isupper() for w in words):
            continue
        if all(lexicon.zipf(w) < 2.5 and not lexicon.is_kept_term(w) for w in words) and not any(
            lexicon.is_region(w) for w in words
        ):
            found.append(Entity(*match.span("run"), T.PERSON))
    return found


# A name alone at the start of a line, then a column gap, a mailbox or a bracket — a list of people, as
# credits, copy lists, attendance lists and tables of contacts are laid out ("Amos Yahil<TAB>ayahil@…",
# "Phil Blundell, <…>", "Dov Grobgeld (Hebrew shaper)").
_LISTED_NAME = re.compile(
    r"^[ \t]*(?P<name>(?:[A-ZÀ-ÖØ-Þ][\wÀ-ÿ'’\-]*\.?|[A-Z]\.)(?: (?:[A-ZÀ-ÖØ-Þ][\wÀ-ÿ'’\-]*\.?|[A-Z]\.|"
    r"(?:de|del|van|von|der|da|di|le|la|y|bin|al)(?= [A-Z]))){1,3})"
    r"(?=[ \t]{2,}\S|\t|,? <|,? \(|,? [\w.+\-]+@|[ \t]*$)",
    re.M,
)


def find_listed_names(text: str) -> list[Entity]:
    """People listed one to a line: every word a name on the lists, an initial, a particle or a rare word —
    never a heading's or a label's everyday words ("Main Author", "Original Version")."""
    found = []
    for match in _LISTED_NAME.finditer(text):
        words = [w for w in re.findall(r"[^\W\d_]+(?:['’\-][^\W\d_]+)*", match.group("name")) if w not in _PARTICLES]
        if len(words) < 2 or any(w.lower() in FUNCTION_WORDS or lexicon.is_kept_term(w) for w in words):
            continue
        if any(w.lower() in _GENERIC_WORDS for w in words) or match.group("name").isupper():
            continue  # "Smith Clinic", "Records Office"; a heading in capitals ("FOLLOW-UP APPOINTMENTS")
        named = [w for w in words if len(w) > 1 and (_is_name(w) and w.lower() not in lexicon.EVERYDAY_NAMES)]
        rare = [w for w in words if len(w) > 1 and lexicon.zipf(w) < 3.0]
        # the other words may be given names the lists lack ("Phil", "Amos"), not everyday ones ("Main")
        ordinary = [w for w in words if len(w) > 1 and w not in named and w not in rare and lexicon.zipf(w) >= 4.5]
        if (named or rare) and not ordinary:
            found.append(Entity(*match.span("name"), T.PERSON))
    return found


_TITLE_CASE_RUN = re.compile(
    r"(?<![\w'’\-@./])(?P<run>[A-ZÀ-ÖØ-ÞÑ][\wÀ-ÿ'’\-]*(?:,? (?:&|and|of|the|de|del|de la|y|e|for|para) )?"
    r"(?: ?[A-ZÀ-ÖØ-ÞÑ][\wÀ-ÿ'’\-]*(?:,? (?:&|and|of|the|de|del|de la|y|e|for|para) )?){1,5})(?![\w@/])"
)
# Words that make a name generic, not anyone's: a department, a service, a document, a role, and the parties
# and terms a contract defines in capitals ("the Owner's Notice", "the Security Deposit").
_GENERIC_WORDS = frozenset(
    """
    department dept service services unit team office division section ward centre center program programme
    committee board member members customer customers patient patients care medicine surgery emergency intensive
    human resources accounts billing records privacy compliance legal claims policy plan benefits management
    utilization nursing pharmacy laboratory lab radiology imaging outpatient inpatient clinic clinics hospital
    general internal family medical health healthcare primary secondary public national federal state county city
    court courts district tribunal notice hearing order motion agreement contract lease schedule appendix exhibit
    section part chapter article clause act rule rules regulations code report summary letter form request
    application certificate statement affidavit complaint petition response reply appeal judgment decree
    social security medicare medicaid insurance mutual fund trust association society
    servicio servicios unidad equipo oficina departamento sección planta consulta consultas urgencias atención
    cliente clientes paciente pacientes medicina cirugía enfermería farmacia laboratorio radiología hospital
    clínica centro salud general interna familiar primaria pública público nacional provincial municipal
    juzgado tribunal audiencia sala sentencia auto demanda contrato anexo cláusula ley real decreto código
    reglamento artículo informe resumen carta solicitud certificado declaración recurso seguridad social
    recursos humanos cuidados paliativos domiciliarios área sanitaria instituto mexicano seguro
    owner owners vendor vendors purchaser purchasers seller sellers buyer buyers landlord landlords tenant
    tenants lessor lessee borrower borrowers lender lenders guarantor premises property deposit date period term
    rent fee fees payment deed title estate grant letters administration executor trustee beneficiary employer
    employee claimant defendant plaintiff respondent applicant appellant debtor creditor s
    arrendador arrendadora arrendatario arrendataria vendedor vendedora comprador compradora propietario
    propietaria inmueble fianza renta
    """.split()
)


def is_generic_word(word: str) -> bool:
    """A department's, a service's, a document's or a role's word ("Services", "Notice", "Tenant")."""
    return word.lower() in _GENERIC_WORDS


def find_title_case_runs(text: str) -> list[Entity]:
    """Two to six capitalised words inside a sentence ("at Precision Brake & Tire", "from Bright Harbor"):
    in prose a run of capitals is a proper name — a firm, a clinic, a place or a person — unless every word
    is generic ("the Emergency Department") or it is a medicine, a region or a statute."""
    found = []
    for match in _TITLE_CASE_RUN.finditer(text):
        run = match.group("run").rstrip(" ,")
        last = run.rfind(" ") + 1
        if a_field_label(text, match.start("run") + last, match.start("run") + len(run)):
            run = run[:last].rstrip(" ,")  # "DR Desc:NIP/TRF": the next field's label ends the run
        words = re.findall(r"[^\W\d_]+", run)
        capitals = [w for w in words if w[0].isupper()]
        if len(capitals) < 2 or opens_sentence(text, match.start()) or run.isupper():
            continue
        if "\n" in run or all(w.lower() in _GENERIC_WORDS or w.lower() in FUNCTION_WORDS for w in words):
            continue
        if any(lexicon.is_kept_term(w) for w in capitals[:1]) or lexicon.is_region(run):
            continue
        if all(w.isupper() and len(w) <= 5 and not lexicon.is_name_word(w) for w in capitals):
            continue  # abbreviations joined in prose: "8:00 AM and ORIF", "HR and BP"
        found.append(Entity(match.start("run"), match.start("run") + len(run), T.ORGANIZATION))
    return found


_A_UNIT = re.compile(r"[KMGT]bps|[KMGT]b/s|[kKMG]hz|[kKMG]Hz|[kKMG]?Wh|mAh|Kcal|Mpx")
_CAPITALISED = re.compile(
    r"(?<![\w'’\-@./])[A-ZÀ-ÖØ-ÞŁŚŻ][a-zà-öø-ÿłśżźćńą]{2,}(?:[-'’][A-Za-zÀ-ÿ][a-zà-ÿ]+)?(?![\w@/]|\.\w)"
)


# The words that name a kind of product before its make or model: "marca Haier", "el televisor Atec",
# "con dispositivo Solitaire", "una furgoneta Renault Trafic", "brand Dyson".
_PRODUCT_WORD_BEFORE = re.compile(
    # (not "coche", "moto" or "modelo": "en el coche Marta Lozano", "la modelo Valentina Ruiz")
    r"\b(?i:marca|dispositivo|furgoneta|camioneta|televisor|refrigerador|nevera|frigorífico|lavadora|secadora|"
    r"microondas|ventilador|impresora|aparato|brand|device)[ \t]$"
)


# Makes that are given names too, which the given-name lists lack: "Lincoln Pryce" is a man.
_MAKES_AND_NAMES = frozenset("lincoln ford".split())


def after_a_product_word(text: str, start: int) -> bool:
    """Whether the word at ``start`` follows the name of a kind of product, or a make ("Renault Trafic",
    "Medtronic Azure"): a make's or a model's name, not a person's or a place's."""
    if _PRODUCT_WORD_BEFORE.search(text, max(0, start - 16), start):
        return True
    before = re.search(r"([^\W\d_][\w\-]*) $", text[max(0, start - 24) : start])
    return (
        before is not None
        and before.group(1).lower() not in _MAKES_AND_NAMES
        and before.group(1)[0].isupper()
        and before.group(1).lower() in lexicon.MAKES
        and before.group(1).lower() not in lexicon.first_names()  # "Mercedes Xochitl" is a woman
    )


def find_rare_capitalised(text: str, language: str) -> list[Entity]:
    """A capitalised word inside a sentence that neither language uses as an ordinary word (Zipf < 3): a
    name, a town or a company the lists and the model missed ("Racine", "Quillion") — Philter's rule that
    what is not known to be safe is a candidate. Drugs, devices and kept terms are known to be safe."""
    found = []
    for match in _CAPITALISED.finditer(text):
        word = match.group(0)
        if lexicon.is_kept_term(word) or lexicon.is_region(word):
            continue
        if opens_sentence(text, match.start()) and not (
            _after_a_list_mark(text, match.start()) and (lexicon.zipf(word) < 2.0 or lexicon.is_name_word(word))
        ):
            continue  # a sentence's first word; a list item's only when a language uses it ("a) Venda…", not
            # "1) Okafor to chase the report")
        if a_cell_or_label(text, match.start(), match.end()):
            continue  # "| Profilaxis |", "Aseguradora: …": capitalised as a first word is
        if after_a_product_word(text, match.start()):
            continue
        if lexicon.is_clinical_word(word) or lexicon.zipf_in(word, language) >= 3.0 or lexicon.zipf(word) >= 3.4:
            continue
        if lexicon.a_derived_word(word):
            continue  # "Unwitnessed fall", "Laceration of the forearm": an everyday word, made from another
        if _A_UNIT.fullmatch(word):
            continue  # "Fibra 200 Mbps", "2.4 Ghz": a rate's or a frequency's unit
        before = text[max(0, match.start() - 4) : match.start()].lower()
        kind = T.LOCATION if re.search(r"(?:in|at|to|en|a|de) $", before) else T.PERSON
        found.append(Entity(match.start(), match.end(), kind))
    return found


def _joined(text: str, left: tuple[int, int, str], right: tuple[int, int, str]) -> bool:
    between = text[left[1] : right[0]]
    return between in (" ", ". ") and (between == " " or len(left[2]) == 1)


def _a_person(text: str, names: list[tuple[int, int, str]], lower_text: bool) -> bool:
    surfaces = [w for _, _, w in names if len(w) > 1 and w not in _PARTICLES]
    if not surfaces:
        return False
    capitalised = all(w[0].isupper() for w in surfaces)
    if not capitalised and not all(w.islower() for w in surfaces):
        return False
    if any(lexicon.is_kept_term(w) for w in surfaces):
        return False
    if len(surfaces) >= 2:
        firsts = lexicon.first_names(lower_case=not capitalised)
        if surfaces[0].lower() not in firsts and not capitalised:
            return False  # in lower case a person starts with a given name: "maria gonzalez"
        everyday = sum(w.lower() in lexicon.EVERYDAY_NAMES or lexicon.zipf(w) >= 4.6 for w in surfaces)
        if capitalised:
            return everyday < len(surfaces) and not _sentence_start_pair(text, names, everyday)
        return everyday == 0 and all(lexicon.zipf(w) < 4.6 for w in surfaces)
    word = surfaces[0]
    if capitalised:
        # a lone capitalised name word: rare as a word, and not just opening a sentence
        return _rare_name(word) and not opens_sentence(text, names[0][0]) and lexicon.zipf(word) < 3.0
    return (
        lower_text
        and _rare_name(word)
        and word.lower() in lexicon.first_names(lower_case=True)
        and lexicon.zipf(word) < 3.4
        and not after_a_clitic(text, names[0][0])
    )


def after_a_clitic(text: str, start: int) -> bool:
    """Whether the word at ``start`` follows an object pronoun ("me roza", "se queda"): a verb, not a name."""
    return _A_CLITIC_BEFORE.search(text, max(0, start - 4), start) is not None


_A_CLITIC_BEFORE = re.compile(r"(?<![\w])(?:me|te|se|le|les|nos) $")
# A dash opening a list's item or after a numbered clause's name opens its text ("– Llaves: 3 de portal",
# "CUARTA.– Gastos.", "TERCERO.– Decretar"); elsewhere an en or em dash joins a heading's parts ("Hostelería
# Giralda Sur — Gerente"), whose words may be names.
_CLAUSE_DASH = re.compile(r"(?:\.|(?:^|\n)[ \t]*)[–—][ \t]*$")
# (after the day too, as a log writes its entries: "08/04 10:55 Ingresa en URPA")
_LINE_TIME = re.compile(
    r"(?:^|\n)[ \t]*(?:\d{1,2}/\d{1,2}(?:/\d{2,4})?[ \t]+)?(?:[01]\d|2[0-3]):?[0-5]\d(?:[ \t]*(?:hrs?|h))?[ \t:–-]*$"
)


# An item's letter or number in a list: "a) Administre, alquile…", "FALLO: b) Condénase…", "(iv) Sell".
_LIST_MARK = re.compile(r"(?:^|[\s:;,])\(?(?:[a-zA-Z]|\d{1,2}|[ivx]{2,4}|[IVX]{2,4})\)$")


# What may stand between a sentence's end and its first word: spaces, quotes, a bracket, Spanish's opening marks
# ("¿Viene con informe?", "¡Claro que sí!").
_BEFORE_A_FIRST_WORD = " \t\"'(“¿¡"


def _text_before(text: str, start: int) -> str:
    """The text before ``start`` without what ``_BEFORE_A_FIRST_WORD`` allows there, as far as its last eight
    characters (all that is read of it); from a short window, since this is asked of every capitalised word."""
    before = text[max(0, start - 64) : start].rstrip(_BEFORE_A_FIRST_WORD)
    return before if len(before) >= 8 or start <= 64 else text[:start].rstrip(_BEFORE_A_FIRST_WORD)


def _ends_in_a_list_mark(before: str) -> bool:
    return before.endswith(")") and _LIST_MARK.search(before[-8:]) is not None


def _after_a_list_mark(text: str, start: int) -> bool:
    return _ends_in_a_list_mark(_text_before(text, start))


def opens_sentence(text: str, start: int) -> bool:
    """At a sentence's, a line's or a list item's start, or after a time opening a line ("0815 Pt
    ambulating")."""
    before = _text_before(text, start)
    return (
        not before
        or before[-1] in ".!?:\n•-*·"
        or _CLAUSE_DASH.search(before) is not None
        or _LINE_TIME.search(text, max(0, start - 16), start) is not None
        or _ends_in_a_list_mark(before)
    )


def a_cell_or_label(text: str, start: int, end: int) -> bool:
    """A word that is a table's item or heading or a form's label, and on no list of names."""
    return (a_table_item(text, start, end) or a_field_label(text, start, end)) and not lexicon.is_name_word(
        text[start:end]
    )


def a_field_label(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` is a form's label: before a colon, at the start of its line or of a field
    set apart by a tab or spaces ("Teléfono: …    Aseguradora: …"), or glued to its value; "Kaixo Ainhoa:"
    greets someone."""
    if text[end : end + 1] != ":":
        return False
    before = text[text.rfind("\n", 0, start) + 1 : start]
    # a bank's alert glues each label to its value: "Acct:021**975 Amt:NGN50,000.00 Desc:NIP/TRF"
    glued = text[end + 1 : end + 2].isalnum() and (not before or before.endswith(" "))
    return not before.strip() or before.endswith(("\t", "  ")) or glued


def a_table_item(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` is all a table cell holds and the table says it names no one: a heading
    in the first row of a table drawn with "|" and a "|---|" rule under it ("| Qty |"), or an item in a
    column headed by a kind of thing, not of person or place ("| Procedimiento |" over "| Exodoncia |"). A
    table's items are capitalised as a sentence's first word is; under "Municipio", "Seen by" or a heading
    this does not know, the same rare word may be a town or a name, and stays a candidate."""
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", end)
    line_end = len(text) if line_end < 0 else line_end
    if "|" not in text[line_start:line_end]:
        return False
    before = text[line_start:start].rstrip(" ")
    after = text[end:line_end].lstrip(" ")
    if not before.endswith("|") or not after.startswith("|"):
        return False
    header = _table_header(text, line_start)
    if header is None:
        return False
    header_start, header_line = header
    if header_start == line_start:
        return True  # a heading
    cells = header_line.strip().strip("|").split("|")
    column = before.lstrip().lstrip("|").count("|")
    if column >= len(cells):
        return False
    words = set(re.findall(r"[^\W\d_]+", cells[column].lower()))
    return bool(words) and words <= _ITEM_COLUMNS | {"de", "of", "the", "del", "la", "el", "y", "and"}


# The headings of a table's columns that hold things, not people or places: an item under one is a
# procedure, a drug, a test, a quantity.
_ITEM_COLUMNS = frozenset(
    """
    procedure procedures procedimiento procedimientos treatment treatments tratamiento tratamientos drug drugs
    medication medications medicine medicines medicamento medicamentos fármaco fármacos farmaco farmacos test
    tests prueba pruebas examen exámenes examenes result results resultado resultados diagnosis diagnóstico
    diagnostico diagnósticos item items description descripción descripcion qty quantity cantidad dose dosis
    unit units unidad unidades tooth diente dientes pieza piezas status estado type tipo category categoría
    categoria service servicio concept concepto amount importe monto price precio cost coste costo frequency
    frecuencia route vía via allergy allergies alergia alergias finding findings hallazgo hallazgos material
    materiales product producto productos brand marca model modelo indication indicación indicacion action
    acción accion bien bienes scale escala score puntuación puntuacion value valor reading lectura copay
    """.split()
)


def _table_header(text: str, line_start: int) -> tuple[int, str] | None:
    """The first line of the "|" table the line at ``line_start`` is in, as its start and text, when a
    "|---|" rule follows it; None otherwise (a run of "|" lines with no rule is no table to trust)."""
    start = line_start
    while start > 0:
        previous = text.rfind("\n", 0, start - 1) + 1
        if "|" not in text[previous : start - 1]:
            break
        start = previous
    end = text.find("\n", start)
    if end < 0:
        return None
    rule_end = text.find("\n", end + 1)
    rule = text[end + 1 : len(text) if rule_end < 0 else rule_end].strip()
    if not re.fullmatch(r"\|?\s*:?-{3,}:?\s*(?:\|\s*:?-{3,}:?\s*)*\|?", rule):
        return None
    return start, text[start:end]


def _sentence_start_pair(text: str, names: list[tuple[int, int, str]], everyday: int) -> bool:
    """ "Will Smith" is a person, "Will Payment" at a sentence's start is not: a pair whose first word opens
    the sentence needs both words to be names and the first not an everyday word."""
    return opens_sentence(text, names[0][0]) and names[0][2].lower() in lexicon.EVERYDAY_NAMES


# The words that join a name to a parent's or a late husband's: Malay and Tamil patronymics ("Siti Nurhaliza
# binte Osman", "Ravi Shankar s/o Muthusamy"), Arabic ones, and a widow's "viuda de Menjívar".
_DESCENT = (
    r"s/o |d/o |w/o |S/O |D/O |W/O |A/L |A/P |BIN |BINTI |a/l |a/p |"
    r"bin |binti |binte |bint |ibn |ben |viuda de |vda\. de "
)


# A person's name grows word by word; each word is matched where the name ends, not on a copy of the rest of
# the text (a long run of names in a pasted list made that quadratic).
_CAPITAL_PARTICLE = r"(?:y |i |de la |del |de |DE LA |DE LOS |DE LAS |DEL |DE |Y |I )"
_PARTICLE_OR_DESCENT = r"(?:y |i |de la |del |de |" + _DESCENT + r")"
_NAME_WORD = r"([A-ZÀ-ÖØ-Þ][^\W\d_]+(?:['’\-][^\W\d_]+)*|[A-Z]\.?(?= [A-ZÀ-ÖØ-Þ]))"
_NAME_WORD_AFTER = re.compile(rf"(?: {_PARTICLE_OR_DESCENT}?){_NAME_WORD}")
_CAPITAL_NAME_WORD_AFTER = re.compile(rf"(?: {_CAPITAL_PARTICLE}?){_NAME_WORD}")
_LOWER_LINKED_NAME_AFTER = re.compile(
    r" (?:de la|de las|de los|del|de|y|da|dos|van der|van|von) ([a-zñáéíóú]{2,})(?!\w)"
)
_LOWER_NAME_WORD_AFTER = re.compile(r" ([a-zñáéíóú]\.?|[a-zñáéíóú]{2,})(?![\w])")


def extend_names(text: str, found: list[Entity]) -> list[Entity]:
    """A person found grows over the name words and initials beside it: a second surname, a middle
    initial, "y Pérez", a given name before."""
    # Where a name grows to from a given edge depends on that edge alone, so each edge is walked once: in a
    # pasted list of hundreds of names every finding would otherwise walk the whole rest of it again.
    reached: dict[tuple[str, int], int] = {}
    out = []
    for entity in found:
        if entity.type is not T.PERSON:
            continue
        start, end = entity.start, entity.end
        if text[start:end].islower():
            end = _walk(reached, "lower", end, partial(_lower_name_word_after, text))
            while end > entity.end and len(text[start:end].split()[-1].rstrip(".")) == 1:
                end = start + text[start:end].rstrip(". ").rfind(" ")
        capitals = text[start:end].isupper() and len(text[start:end]) > 3
        end = _walk(reached, f"after {capitals}", end, partial(_name_word_after, text, capitals))
        start = _walk(reached, f"before {capitals} {end}", start, partial(_name_word_before, text, end, capitals))
        if (start, end) != (entity.start, entity.end):
            out.append(Entity(start, end, T.PERSON))
    return out


# An initial after a name, as a register lists a surname and a given name's initial ("Yazzie, K – collected
# in ER", "Usual GP: PENHALIGON, H", "PASCOE J neighbour consent.pdf") or a signature the second surname's
# ("M. A. Ramírez M."). Not a pronoun, an article or a conjunction ("Mater Dei, I would", "SALUD Y CONSUMO"),
# nor a sex in a list of a patient's particulars ("MOAGI, M, 34 yrs").
_INITIAL_AFTER_A_NAME = re.compile(r",? (?P<initial>[A-Z])\.?(?![\w'’.\-&/])")
_WORD_INITIALS = frozenset("IAYEOU")
_PARTICULARS_AFTER = re.compile(r"[ \t]*[,/]")


def initials_after_names(text: str, found: list[Entity]) -> list[Entity]:
    """Each person of ``found`` grown over an initial after it."""
    out = []
    for entity in found:
        if entity.type is not T.PERSON or (after := _INITIAL_AFTER_A_NAME.match(text, entity.end)) is None:
            continue
        initial = after.group("initial")
        if initial in _WORD_INITIALS or initial in "MFHV" and _PARTICULARS_AFTER.match(text, after.end()):
            continue
        out.append(Entity(entity.start, after.end("initial"), T.PERSON))
    return out


# The joints of a list of people: "kwame, adaeze and tunde", "Lupita y Marisol", "Ama & Kofi".
_LISTED_BEFORE = re.compile(r"(?<![\w'’\-])([^\W\d_]{2,})(?:,? and |,? & |,? y |,? e |, )$")
_LISTED_AFTER = re.compile(r"(?:,? and |,? & |,? y |,? e |, )([^\W\d_]{2,})(?![\w'’\-])")


def coordinated_names(text: str, found: list[Entity]) -> list[Entity]:
    """A given name listed beside a person found ("we saw kwame, adaeze and tunde", "Kwame and Adaeze are
    here"): the list is the cue, so a name too common a word to count alone in lower case counts there. Only a
    given name of the lists, written in the same case as its neighbour, and no everyday word."""
    out: list[Entity] = []
    people = [e for e in found if e.type is T.PERSON]
    taken = {(e.start, e.end) for e in people}
    queue = list(people)
    while queue:
        entity = queue.pop()
        surface = text[entity.start : entity.end]
        lower = surface.islower()
        before = _LISTED_BEFORE.search(text, max(0, entity.start - 40), entity.start)
        after = _LISTED_AFTER.match(text, entity.end)
        for match in (before, after):
            if match is None:
                continue
            span = match.span(1)
            if span in taken or not _listed_given_name(text, match.group(1), lower, span[0]):
                continue
            taken.add(span)
            listed = Entity(*span, T.PERSON)
            out.append(listed)
            queue.append(listed)
    return out


def _listed_given_name(text: str, word: str, lower: bool, start: int) -> bool:
    if word.islower() != lower or not (lower or word[0].isupper() and word[1:].islower()):
        return False
    key = word.lower()
    if key in FUNCTION_WORDS or key in _PARTICLES or lexicon.is_kept_term(word) or lexicon.is_region(word):
        return False
    if lexicon.is_clinical_word(word) or lexicon.zipf(key) >= 4.6 or key in lexicon.EVERYDAY_NAMES:
        return False
    return key in lexicon.first_names() or key in lexicon.first_names(lower_case=True)


def _walk(reached: dict[tuple[str, int], int], way: str, edge: int, step: Callable[[int], int | None]) -> int:
    """Where ``step`` leads from ``edge`` until it stops (None), remembering every edge passed on the way."""
    passed = []
    while (way, edge) not in reached and (following := step(edge)) is not None:
        passed.append(edge)
        edge = following
    final = reached.get((way, edge), edge)
    for position in [*passed, edge]:
        reached[(way, position)] = final
    return final


def _lower_name_word_after(text: str, end: int) -> int | None:
    """Where a name typed in lower case ends if the word after ``end`` belongs to it: a name word, or the small
    words of a surname before one ("alvaro mendez de la vega")."""
    linked = _LOWER_LINKED_NAME_AFTER.match(text, end)
    if linked is not None and lexicon.is_name_word(linked.group(1)) and linked.group(1) not in FUNCTION_WORDS:
        return linked.end()
    after = _LOWER_NAME_WORD_AFTER.match(text, end)
    if after is None:
        return None
    word = after.group(1).rstrip(".")
    if not (len(word) == 1 or lexicon.is_name_word(word)) or word in FUNCTION_WORDS:
        return None
    return after.end()


def _name_word_after(text: str, capitals: bool, end: int) -> int | None:
    """Where a name ends if the word after ``end`` (a surname, an initial, "y Pérez") belongs to it."""
    after = (_CAPITAL_NAME_WORD_AFTER if capitals else _NAME_WORD_AFTER).match(text, end)
    if after is None:
        return None
    word = after.group(1)
    if capitals and not word.isupper():
        return None
    descent = re.match(rf" (?:{_DESCENT})", after.group(0)) is not None  # the connector is the evidence
    if not (descent or _is_name(word) or len(word.rstrip(".")) == 1 or lexicon.zipf(word) < (3.5 if capitals else 2.0)):
        return None
    if lexicon.is_kept_term(word) or lexicon.is_region(word):
        return None
    if _and_another(after.group(0)[: -len(word)], word, text[after.end() : after.end() + 2]):
        return None
    return after.end()


# The everyday names that open a sentence as words more often than a name: "Will Smith go?", "May Jones".
_EVERYDAY_NAMES_NEVER_FIRST = frozenset("will may he son de la le do mark bill".split())
# What may stand before a name's first initial: a line's start, a label, a bracket or another initial.
_INITIAL_LEAD = re.compile(r"(?:^|\n|[:(]|\b[A-Z]\.)[ \t]*$")


def _name_word_before(text: str, end: int, capitals: bool, start: int) -> int | None:
    """Where a name starts if the word before ``start`` (a given name, an initial) belongs to it."""
    particle = _CAPITAL_PARTICLE if capitals else _PARTICLE_OR_DESCENT
    before = re.search(
        rf"([A-ZÀ-ÖØ-Þ][^\W\d_]+(?:['’\-][^\W\d_]+)*|[A-Z]\.?) {particle + '?' if capitals else ''}$",
        text[max(0, start - 40) : start],
    )
    if before is None:
        return None
    word = before.group(1)
    if capitals and not word.isupper():
        return None
    rare_capitals = capitals and lexicon.zipf(word) < 3.5 and word.lower() not in FUNCTION_WORDS
    # A given name that is also a word ("Luz", "Rosa", "Amparo") is one before a name of two words or more:
    # "Luz Marina Obando Picado", "Amparo Arango de Restrepo" ("Mark Jones" may be an instruction).
    whole_name = len(text[start:end].split()) >= 2 and word.lower() not in _EVERYDAY_NAMES_NEVER_FIRST
    named = _is_name(word) and (word.lower() not in lexicon.EVERYDAY_NAMES or whole_name)
    # an initial where a signature or a label puts one: "Proc.: X. M. Fernández Llaneza", "C. R. Quispe"
    lead_end = start - len(before.group(0))
    initial = re.fullmatch(r"[A-Z]\.", word) is not None and _INITIAL_LEAD.search(text, max(0, lead_end - 12), lead_end)
    if not (named or rare_capitals or initial) or lexicon.is_kept_term(word) or lexicon.is_region(word):
        return None
    first = text.find(" ", start, end)
    given, rest = (text[start:end], "") if first < 0 else (text[start:first], text[first + 1 : min(end, first + 3)])
    if _and_another(before.group(0)[len(word) :], given, rest):
        return None
    return start - len(before.group(0))
