"""The speakers of a dialogue pasted without times: a text message thread, a chat copied by hand, a transcript.

A phone's export puts a time before each speaker, and ``rules.py`` reads that form. Copied by hand, a thread
keeps only the speakers: "tess: yes po, can i bring my philhealth", "Kalinga Family Clinic: noted". The form
is the evidence here too, but a form alone also fits a note's headings ("Plan:", "Dx:") and a transcript's
roles ("Q:", "Caller:"), so a line's opening word counts as a speaker only in a dialogue — at least two
labels that each open two lines or more — and only where it reads as a name: on the name lists and not an
everyday word, or a rare word, and no abbreviation, role, kin word or kind of firm.
"""

from __future__ import annotations

import re
from collections import Counter

from app.identifiers import lexicon, names
from app.identifiers.entities import Entity, EntityType

# A label of up to four words at a line's start, a role in brackets after it, a colon, and what was said.
_SPEAKER_LINE = re.compile(
    r"(?m)^[ \t]*(?P<speaker>[^\W\d_][^\W\d_'’\-]*(?: [^\W\d_][^\W\d_'’\-]*){0,3})(?: \([^()\n]{1,30}\))?:[ \t]+\S"
)
# Who speaks in a transcript or a support chat without being anyone in particular (beside the roles a greeting
# names, names.GREETED_ROLES: "Nurse:", "Mum:").
_ROLES = frozenset(
    "q a p r me yo you tu tú caller agent operator interpreter intérprete speaker user assistant system bot client "
    "cliente customer officer witness testigo court judge juez jueza counsel attorney defendant plaintiff claimant "
    "respondent interviewer interviewee entrevistador entrevistadora "
    "madre padre son daughter hijo hija wife husband esposa "
    "esposo reception recepción receptionist recepcionista admin pharmacy farmacia clinic clínica staff note nota "
    "unknown desconocido aseguradora insurer insurance seguros bank banco company empresa office oficina school "
    "escuela colegio hospital".split()
)
# A chart's headings, which a note repeats day after day: "Dx:", "Hx:", "Imp:".
_CHART_HEADINGS = frozenset("dx ddx hx sx tx rx fhx shx pmhx imp obs meds subj obj hpi pmh psh ros cc".split())


def find_dialogue_speakers(text: str) -> list[Entity]:
    """The speakers that read as people's names, each time they open a line of a dialogue."""
    lines = list(_SPEAKER_LINE.finditer(text))
    opened = Counter(m.group("speaker").lower() for m in lines)
    if sum(count >= 2 for count in opened.values()) < 2:
        return []
    return [
        Entity(*m.span("speaker"), EntityType.PERSON)
        for m in lines
        if opened[m.group("speaker").lower()] >= 2 and _reads_as_a_name(m.group("speaker"))
    ]


def _reads_as_a_name(speaker: str) -> bool:
    words = speaker.split()
    if any(_a_role_or_abbreviation(word) for word in words):
        return False
    # A name on the lists that is no everyday word ("Date" and "Amparo" are both on them), or a rare word
    return all(
        (everyday := lexicon.zipf(word)) < 3.3 or lexicon.is_name_word(word) and everyday < 4.5 for word in words
    )


def _a_role_or_abbreviation(word: str) -> bool:
    lower = word.lower()
    return (
        len(word) < 2
        or lower in _ROLES
        or lower in _CHART_HEADINGS
        or lower in names.GREETED_ROLES
        or word.upper() in lexicon.CLINICAL_ABBREVIATIONS
        or word.upper() in lexicon.EVERYDAY_ABBREVIATIONS
        or lexicon.is_kept_term(word)
        or lexicon.is_clinical_word(word)
    )
