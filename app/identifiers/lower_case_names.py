"""A person's given name and surname typed in lower case with no cue ("spoke to sipho ngcobo (id …)", "mikel
urkiola, dni …", "hey its ngozi eze again").

In lower case every word looks alike, so ``names.py`` counts a lone word only where it is a rare given name on
the lists. A pair is better evidence: a given name of any community the lists know (the census's too common
ones included, "kofi", "mikel", "rowena") followed by a surname of the lists or a word too rare to be an
everyday one; or two words never seen as words at all ("sipho ngcobo"), as names from outside the lists are.
"""

from __future__ import annotations

import re

from app.identifiers import lexicon
from app.identifiers.entities import Entity, EntityType
from app.identifiers.names import FUNCTION_WORDS
from app.identifiers.towns import town_names

T = EntityType

# the surname in a look ahead: every word is tried as a given name ("nan rowena bautista")
# (letters of any Latin alphabet: "małgorzata wiśniewska", "zofia dąbrowska"; the finder keeps lower case only)
_PAIR = re.compile(
    r"(?<![\w'’\-@./])([^\W\d_]{3,})(?= ([^\W\d_]{2,}(?:-[^\W\d_]{2,})?)(?:['’]s\b)?(?![\w'’@]|\.[a-z]))"
)
# Rarer than this in both languages is a word never written as one: a name from outside the lists, or a typo
# (the typos of chat are frequent enough to be counted, "tmrw" 2.3, "becuase" 2.6).
_UNSEEN = 1.5
# A surname the lists lack is a word rarer than this; rarer words of Spanish typed without accents are
# common enough to pass it ("enfermeria" 2.7, "contadora" 2.9).
_RARE = 2.5
_ACCENTED = re.compile(r"[áéíóúàèìòùâêîôû]")
_DERIVED_ENDINGS = (
    "cion",
    "sion",
    "mente",
    "miento",
    "mientos",
    "ante",
    "ente",
    "oso",
    "osa",
    "ico",
    "ica",
    "icos",
    "icas",
    "ivo",
    "iva",
    "al",
    "ar",
    "ura",
    "ado",
    "ada",
    "ido",
    "ida",
    "ismo",
    "itis",
    "osis",
    "emia",
    "algia",
    "tomia",
    "ular",
    "ea",
    "eo",
    "ial",
    "ical",
    "ous",
    "ive",
    "tion",
    "ment",
    "ness",
    "ing",
    "ed",
    "ly",
    "ology",
    "logia",
)
# Words of chat, units and forms that the lists hold as names or that no list holds but are no one's.
_NOT_NAMES = frozenset(
    """
    pls plz thx thanks ok okay lol yes yeah nah hey hola buenas bueno vale gracias dale sip nop porfa xfa
    dob nhc dni nie curp rfc nif nss cuil cuit rut mrn nhs ssn dpi cedula cédula tel cel cell mob movil móvil
    mg ml mcg kg cm mm mmhg bpm rpm rut run
    pasame mandame dime avisame llamame escribeme mandale pasale dile avisale llamale diles mandalo pasalo
    """.split()
)


# A label before a name typed in lower case: "paciente: jesus alberto rosas tlapale", "titular maria del carmen
# tlapale", "pac beto salvatierra (91 años)". The label vouches for the words, however common, up to the
# first that goes on with the sentence.
_LABELLED = re.compile(
    r"(?<![\w])(?:paciente|pac|pte|patient|pt|titular|afiliad[oa]|asegurad[oa]|cliente|client|nombre|name|"
    r"usuari[oa]|beneficiari[oa]|tomador[a]?|member|insured)(?:\s*[:\-–]\s*|\s+)"
    r"(?P<name>[a-zà-ÿ]{2,}(?: (?:(?:de|del|de la|de los|de las|y|i|van|von|da|dos) )?[a-zà-ÿ]{2,}){1,4})"
)
# The same after a role's label and its colon or dash, at a line's start or after a clause: "médico de
# cabecera: koldo arana", "social worker - dwayne kessler", "abogada: lucía ferrer". Without the colon the role
# goes on with a sentence ("the nurse said", "el médico de guardia").
_ROLE_LABELLED = re.compile(
    r"(?:^|(?<=[\n;|(•·]))[ \t]*(?:[-*][ \t]+)?"
    r"(?i:(?:médic[oa]|medic[oa])(?: de (?:cabecera|familia|referencia|atención primaria|guardia))?|"
    r"pediatra|enfermer[oa](?: referente| gestora?)?|trabajador[a]? social|abogad[oa]|letrad[oa]|procurador[a]?|"
    r"tutor[a]?(?: legal)?|cuidador[a]?|contacto(?: de emergencia)?|persona de contacto|supervisor[a]?|"
    r"encargad[oa]|jef[ea]|gerente|casero|casera|propietari[oa]|arrendador[a]?|perit[oa]|"
    r"gp|pcp|doctor|physician|primary care(?: physician| provider)?|nurse|social worker|case ?worker|"
    r"case manager|care coordinator|care manager|supervisor|manager|adjuster|attorney|lawyer|solicitor|"
    r"counsel|landlord|landlady|guardian|carer|caregiver|(?:emergency )?contact|next of kin|nok|"
    r"referring (?:doctor|physician|clinician)|referred by|seen by|therapist|counsellor|counselor)"
    r"[ \t]*(?::|[-–][ \t])[ \t]*"
    r"(?P<name>[a-zà-ÿ]{2,}(?: (?:(?:de|del|de la|de los|de las|y|i|van|von|da|dos) )?[a-zà-ÿ]{2,}){1,4})"
)
_NAME_PARTICLES = frozenset("de del la los las y i van von da dos".split())


def find_labelled_lower_case_names(text: str) -> list[Entity]:
    """Names typed in lower case after the label of the person they name, or of their role."""
    found = []
    for match in (*_LABELLED.finditer(text), *_ROLE_LABELLED.finditer(text)):
        words = list(re.finditer(r"\S+", match.group("name")))
        kept = []
        for word in words:
            surface = word.group(0)
            if surface in _NAME_PARTICLES and kept:
                kept.append(word)
                continue
            if not _may_be_a_label_name(surface):
                break
            kept.append(word)
        # the label vouches for the place, the words must still read as a name's: "paciente refiere dolor" does
        # not, and "paciente maria lopez acude" ends before "acude"
        if not kept or not _label_given(kept[0].group(0)):
            continue
        for index, word in enumerate(kept[1:], start=1):
            if word.group(0) not in _NAME_PARTICLES and not _label_surname(word.group(0)):
                kept = kept[:index]
                break
        while kept and kept[-1].group(0) in _NAME_PARTICLES:
            kept.pop()
        if len([w for w in kept if w.group(0) not in _NAME_PARTICLES]) >= 2:
            base = match.start("name")
            found.append(Entity(base + kept[0].start(), base + kept[-1].end(), T.PERSON))
    return found


def _label_given(word: str) -> bool:
    return word in lexicon.every_given_name() or lexicon.zipf(word) < 3.0


def _label_surname(word: str) -> bool:
    return (
        word in lexicon.every_given_name()
        or _is_surname(word)
        or lexicon.zipf(word) < _RARE
        or _a_town_as_surname(word)
    )


def _may_be_a_label_name(word: str) -> bool:
    return _may_be_a_name(word, everyday=5.0, regions=False)


def find_lower_case_pairs(text: str, lower_spans: list[tuple[int, int]]) -> list[Entity]:
    """Given name and surname pairs in the stretches of ``text`` typed in lower case (``lower_spans``)."""
    found = []
    for start, end in lower_spans:
        for match in _PAIR.finditer(text, start, end):
            given, surname = match.group(1), match.group(2)
            if given.islower() and surname.islower() and _a_pair(given, surname):
                found.append(Entity(match.start(), match.end(2), T.PERSON))
    return found


def _a_pair(given: str, surname: str) -> bool:
    given_names = lexicon.every_given_name()
    listed = given in given_names or lexicon.without_accents(given) in given_names
    # a common given name and a surname, both on the lists, typed in a message ("sean murphy", "maria lopez"):
    # the web writes them so often that their frequency alone read them as words; a given name that is a word
    # ("will", "grace") or a surname that is one ("brown", "green") is left to the cues
    if (
        listed
        and given not in lexicon.EVERYDAY_NAMES
        and _may_be_a_name(given, everyday=5.5)
        and _is_surname(surname)
        and _may_be_a_name(surname, everyday=4.7)
    ):
        return True
    if not (_may_be_a_name(given) and _may_be_a_name(surname)):
        return False
    if listed and lexicon.zipf(given) < 4.6 and given not in lexicon.EVERYDAY_NAMES:
        return _is_surname(surname) or lexicon.zipf(surname) < _RARE or _a_town_as_surname(surname)
    # two words no one writes as words: names the lists lack ("sipho ngcobo"; "faadumo cali", a given name the
    # lists lack before a surname they hold). Words of a science are unseen too ("escotadura intercondílea"):
    # their endings and accents tell them.
    if lexicon.zipf(given) >= _UNSEEN or len(given) < 4 or _a_coined_word(given):
        return False
    if _is_surname(surname) and lexicon.zipf(surname) < 4.0:
        return True
    return lexicon.zipf(surname) < _UNSEEN and len(surname) >= 4 and not _a_coined_word(surname)


def _a_town_as_surname(word: str) -> bool:
    """Many surnames are towns' names ("fontana", "salvatierra"), which the name lists leave out as towns."""
    return word in town_names() and lexicon.zipf(word) < 3.2


def _a_coined_word(word: str) -> bool:
    """A word of a science or a derivation ("intercondílea", "femorotibial", "pinzamiento"), not a name."""
    return _ACCENTED.search(word) is not None or word.endswith(_DERIVED_ENDINGS)


def _may_be_a_name(word: str, everyday: float = 4.0, regions: bool = True) -> bool:
    """No chat's word, function word, everyday word (Zipf ``everyday`` or more), kept term, clinical word,
    medicine or (with ``regions``) state."""
    return not (
        word in _NOT_NAMES
        or word in FUNCTION_WORDS
        or lexicon.zipf(word) >= everyday
        or lexicon.is_kept_term(word)
        or lexicon.is_clinical_word(word)
        or word in lexicon.drug_names()
        or regions
        and lexicon.is_region(word)
    )


def _is_surname(word: str) -> bool:
    """On the lists, as written or without its accents ("dąbrowska" is the census's "dabrowska")."""
    surnames = lexicon.every_surname()
    return all(part in surnames or lexicon.without_accents(part) in surnames for part in word.split("-"))
