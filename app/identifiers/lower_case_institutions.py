"""Hospitals, surgeries, schools, pharmacies and firms named in text typed in lower case: a patient portal's
message, a chat ("seen at st marys hospital", "dropped him at little acorns nursery", "fui a la clinica san
rafael", "el centro de salud las fuentes").

Capitalised, such names are found by their kind (``rules.py``). In lower case every word looks alike, so the
kind is the cue and the words beside it must name one place: English puts them before the kind, Spanish after
it, and at least one must read as a name — on the name lists and not everyday, a town, or too rare to be an
everyday word — so that "the hospital", "my dental practice", "the children's hospital" and "el centro de
salud" name no one.
"""

from __future__ import annotations

import re

from app.identifiers import descriptors, lexicon
from app.identifiers.entities import Entity, EntityType
from app.identifiers.towns import town_names

_ENGLISH_KINDS = (
    r"hospital|clinic|surgery|medical cent(?:re|er)|health cent(?:re|er)|pharmacy|chemist|nursery|primary|"
    r"primary school|high school|school|academy|college|university|solicitors|law firm|hospice|care home|"
    r"nursing home|infirmary|building society|credit union|dental practice|practice|elementary|middle school|"
    r"estate agents|funeral home|daycare|preschool|kindergarten|"
    # a care provider named before its trade ("this is derek from craven view care")
    r"care|home care|care services|lettings|plumbing|garage|"
    # insurers, suppliers, therapists, advice projects and shops a dictation or a chat names ("borinquen casualty
    # insurance", "lakeshore home medical", "eastside bone and joint", "la fiesta tortilleria")
    r"insurance|home medical|medical supply|medical supplies|rehab|physio|physical therapy|orthopedics|"
    r"orthopaedics|bone and joint|law project|legal aid|legal services|grocery|store|market|towing|auto body|"
    r"body shop|tortilleria|bakery|restaurant|cafe|deli"
)
_SPANISH_KINDS = (
    r"hospital|cl[íi]nica|farmacias?|centro de salud|centro m[ée]dico|consultorio|sanatorio|colegio|escuela|"
    r"despacho|notar[íi]a|residencia|policl[íi]nic[oa]|guarder[íi]a|laboratorio|"
    # a bank, an insurer or a health plan, a family clinic, a school, an employer by its trade: "banco guayaquil",
    # "seguro sancor", "eps sanitas", "cesfam la faena", "ies la florida", "maquila textiles san lucas"
    r"banco|seguros?|aseguradora|mutua|eps|ips|isapre|cesfam|cosam|ies|ceip|instituto|maquila|f[áa]brica|taller"
)
_WORD = r"[a-zà-ÿñ][a-zà-ÿñ'’\-]*"
# Up to three words before the kind; the words that cannot be a name's are dropped from their start below.
_ENGLISH = re.compile(
    rf"(?<![\w'’\-])(?P<name>(?:{_WORD}(?: & | and | )){{1,3}})(?P<kind>{_ENGLISH_KINDS})(?![\w'’\-])"
)
_SPANISH = re.compile(
    rf"(?<![\w'’\-])(?P<kind>{_SPANISH_KINDS}) (?P<name>(?:(?:de |del |de la |de los |las |los |la |el )?{_WORD})"
    rf"(?: (?:y |de |del |la |las |los )?{_WORD}){{0,2}})(?![\w'’\-])"
)
# Words that open a clause or a phrase before a kind: the institution's name starts after them.
_BEFORE_A_NAME = frozenset(
    """
    the a an my our your his her their its this that these same new old nearest local main other another every
    any at to in on from for of and or by with near next behind outside inside back up down is was are were be
    been being go went gone going get got seen saw see visit visited called call ring rang phoned from via
    en el la los las un una a al de del que por para con mi mis su sus tu es fue está esta estoy voy fui
    """.split()
)
# Words that close a clause after a kind, in Spanish's order: the name, if any, ended before them.
_AFTER_A_NAME = frozenset(
    """
    con sin para por a al en que x q pero porque cuando donde mañana hoy ayer luego ahora después despues antes
    es fue está esta estaba era son hay me te le se lo nos y
    poliza póliza cuenta tarjeta numero número nro n no nº afiliado socio cliente
    """.split()
)
# Words that stand inside an institution's name without naming one on their own: whose it is, what sort,
# where ("royal derby hospital", "the children's hospital", "el centro de salud").
_QUALIFIERS = frozenset(
    """
    little big children's childrens women's womens men's mens kids community district county city state general
    private public teaching university royal mental psych psychiatric maternity eye dental ent cancer heart rehab
    peds ortho vet veterans sixth secondary elementary middle junior infant infants nhs gp walk-in walk urgent
    emergency day night weekend sunday primary high school hospital clinic surgery
    de del la las los el y en san santa salud regional universitario universitaria comarcal municipal provincial
    privada privado pública publica público publico infantil materno militar central nuevo nueva viejo vieja
    mismo misma otro otra cerca aquí ahí allá urgencias barrio zona pueblo clinicas clínicas clinica clínica
    """.split()
)

_NO_NAME = _BEFORE_A_NAME | _QUALIFIERS
# The words that open an institution's name without naming it alone: a saint, a mount, a size, a crown.
_KEPT_AT_THE_START = _QUALIFIERS | frozenset("st saint san santa mount mt our lady holy sacred".split())


def find_lower_case_institutions(text: str, lower_spans: list[tuple[int, int]]) -> list[Entity]:
    """Institutions named in the stretches of ``text`` typed in lower case (``lower_spans``)."""
    found = []
    for pattern, kind_first in ((_ENGLISH, False), (_SPANISH, True)):
        for match in pattern.finditer(text):
            entity = _named(match, kind_first)
            if entity is None:
                continue
            if any(a <= match.start() and match.end() <= b for a, b in lower_spans) or _plainly_named(
                text[entity.start : entity.end]
            ):
                found.append(entity)
    return found


def _plainly_named(name: str) -> bool:
    """An institution typed in lower case inside capitalised text ("She was seen at st marys hospital"):
    there lower case is the writer's slip, not the text's habit, so only a saint's or a town's name counts
    — "the fracture clinic" and "the pain clinic" stay what they are."""
    words = re.findall(r"[^\s&]+", name)
    if words[0] in ("st", "st.", "saint", "san", "santa") and len(words) > 2 and _reads_as_a_name(words[1]):
        return True
    return any(word in town_names() and lexicon.zipf(word) < 4.2 for word in words)


def _named(match: re.Match, kind_first: bool) -> Entity | None:
    """The institution's span if its words name one, from its first word that can be a name's (English) or
    from its kind (Spanish)."""
    start, end = match.span("name")
    words = list(re.finditer(r"[^\s&]+", match.group("name")))
    if not kind_first:
        # "seen at the st marys": the name starts after the last word that cannot be a name's
        words = _until(words[::-1], _BEFORE_A_NAME)[::-1]
        # and after the clause's other words: "we used oakwood funeral home" (a qualifier or a saint stays)
        while words and not _reads_as_a_name(words[0].group(0)) and words[0].group(0) not in _KEPT_AT_THE_START:
            words = words[1:]
        if not words:
            return None
        start = match.start("name") + words[0].start()
    else:
        # "el hospital con ramon": the name ends before the first word that cannot be a name's
        words = _until(words, _AFTER_A_NAME)
    named = [w for w in words if _reads_as_a_name(w.group(0))]
    if not named:
        return None
    if kind_first:  # "la farmacia guadalajara ayer": the name ends with its last word that reads as one
        end = match.start("name") + named[-1].end()
    span = (start, match.end("kind")) if not kind_first else (match.start("kind"), end)
    return Entity(*span, EntityType.ORGANIZATION)


def _until(words: list[re.Match], stops: frozenset[str]) -> list[re.Match]:
    """The words before the first of ``stops``."""
    for index, word in enumerate(words):
        if word.group(0) in stops:
            return words[:index]
    return words


def _reads_as_a_name(word: str) -> bool:
    if (
        word in _NO_NAME
        or word in descriptors.DESCRIPTIVE_WORDS  # "the antenatal clinic", "la farmacia de guardia"
        or lexicon.is_kept_term(word)
        or lexicon.is_clinical_word(word)
    ):
        return False
    everyday = lexicon.zipf(word)
    if len(word) <= 2 or everyday >= 5.5:  # "we", "it": a gazetteer holds towns so named, a sentence holds words
        return False
    if word in town_names():
        return True
    return everyday < 3.5 or lexicon.is_name_word(word) and everyday < 5.0
