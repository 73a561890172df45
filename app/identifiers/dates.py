"""Dates as clinical and legal text writes them, in English and Spanish: finding them, reading them, and
writing another date exactly the way the original was written.

HIPAA counts every element of a date but the year as identifying, so a day and month without a year
("April 9th", "5 Nov", "el 3 de junio"), a month and year ("March 2023", "abril de 2023") and a weekday with
its day ("Friday 21st") are dates here, beside the full forms. A stand-in keeps its original's form: the
same order, separators, zero padding, ordinal suffix, case, language and abbreviation, so the model reads a
date where there was one and the intervals between a conversation's dates survive.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, timedelta
from enum import StrEnum

from app.identifiers.spelled_dates import (
    ENGLISH_DAY_WORDS,
    SPANISH_DAY_WORDS,
    find_spelled,
    parse_spelled,
    parse_spelled_day,
)

_EN_MONTHS = "January February March April May June July August September October November December".split()
_ES_MONTHS = "enero febrero marzo abril mayo junio julio agosto septiembre octubre noviembre diciembre".split()
# Catalan's months, as a Barcelona or Valencia office writes them in a Spanish text's company ("l'1 de setembre",
# "des del 15 d'agost"); their stand-ins are Catalan too.
_CA_MONTHS = "gener febrer març abril maig juny juliol agost setembre octubre novembre desembre".split()
# Galician's, as a Vigo or Santiago office writes them ("o 14 de xullo", "en setembro").
_GL_MONTHS = "xaneiro febreiro marzo abril maio xuño xullo agosto setembro outubro novembro decembro".split()
# The months only Catalan or Galician spells so: a month wherever they stand in lower case ("al setembre").
_REGIONAL_MONTHS = [m for m in dict.fromkeys(_CA_MONTHS + _GL_MONTHS) if m not in _ES_MONTHS]
_EN_WEEKDAYS = "Monday Tuesday Wednesday Thursday Friday Saturday Sunday".split()
_ES_WEEKDAYS = "lunes martes miércoles jueves viernes sábado domingo".split()
_CA_WEEKDAYS = "dilluns dimarts dimecres dijous divendres dissabte diumenge".split()
_GL_WEEKDAYS = "luns martes mércores xoves venres sábado domingo".split()
# The weekdays only Catalan or Galician spells so ("dijous 17", "o venres 11").
_REGIONAL_WEEKDAYS = [w for w in dict.fromkeys(_CA_WEEKDAYS + _GL_WEEKDAYS) if w not in _ES_WEEKDAYS]
# Weekdays in both languages (and Spain's other two written in its offices), lower case, also as typed without
# accents ("miercoles").
WEEKDAY_WORDS = frozenset(w.lower() for w in _EN_WEEKDAYS + _ES_WEEKDAYS + _REGIONAL_WEEKDAYS) | {
    "miercoles",
    "sabado",
    "mercores",
    "weds",  # as a message writes Wednesday short
}
# Months and weekdays in both languages, lower case, also as typed without accents.
CALENDAR_WORDS = (
    frozenset(w.lower() for w in _EN_MONTHS + _ES_MONTHS + _REGIONAL_MONTHS) | WEEKDAY_WORDS | {"setiembre"}
)
_EN_MONTH = (
    r"(?:January|February|March|April|May|June|July|August|September|October|November|December|"
    r"Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept|Sep|Oct|Nov|Dec)\.?"
)
_ES_MONTH = (
    r"(?:enero|febrero|marzo|abril|mayo|junio|julio|agosto|septiembre|setiembre|octubre|noviembre|diciembre|"
    r"ene|feb|mar|abr|may|jun|jul|ago|sept|sep|set|oct|nov|dic)\.?"
)
_ES_MONTH_WHOLE = (
    r"(?:enero|febrero|marzo|abril|mayo|junio|julio|agosto|septiembre|setiembre|octubre|noviembre|diciembre)"
)
_EN_WEEKDAY = r"(?:Mon|Tues|Tue|Wednes|Weds|Wed|Thurs|Thu|Fri|Satur|Sat|Sun)(?:day)?\.?"
_ES_WEEKDAY = r"(?:lunes|martes|mi[ée]rcoles|jueves|viernes|s[áa]bado|domingo)"
_ORDINAL = r"(?:st|nd|rd|th|(?<=[23])d)"  # "the 3d day of June", "the 22d of December": older letters write "d"
_YEAR4 = r"(?:1[89]|20)\d{2}"
_ROMAN_MONTHS = "I II III IV V VI VII VIII IX X XI XII".split()
_ROMAN_MONTH = "(?:" + "|".join(sorted(_ROMAN_MONTHS, key=len, reverse=True)) + ")"


class Precision(StrEnum):
    """What a date names: a day of a known year, a day and month alone, a month of a year, a weekday and
    a day of the month."""

    DAY = "day"
    DAY_NO_YEAR = "day_no_year"
    MONTH = "month"
    WEEKDAY = "weekday"
    DAY_ONLY = "day_only"  # "the 6th", "el pasado 3": a day of some month


# Each form names its parts; ``parse_date`` reads them and writes a new date into the same places.
_FORMS: tuple[tuple[str, int], ...] = (
    (r"(?P<a>\d{1,4})(?P<sep>[/.\-])(?P<b>\d{1,2})(?P=sep)(?P<c>\d{4}|\d{2})", 0),
    (
        # (and a deed's "the 4th day of March, 1998")
        rf"(?:(?P<weekday>{_EN_WEEKDAY}),? )?(?P<day>\d{{1,2}})(?P<ordinal>{_ORDINAL})?(?: day)?(?: of)?[ \-/]"
        rf"(?P<month>{_EN_MONTH})"
        rf"(?:[ \-/,]+(?P<year>{_YEAR4}|'?\d{{2}}(?![\d:])))?",
        re.I,
    ),
    (
        rf"(?:(?P<weekday>{_EN_WEEKDAY}),? )?(?P<month>{_EN_MONTH}) (?:the )?(?P<day>\d{{1,2}})(?P<ordinal>{_ORDINAL})?"
        # (a Canadian form's "Nov 6/24": the year after a slash; "Dec 2/12 history" is two months since December)
        rf"(?:(?:,? |/)(?P<year>{_YEAR4}|(?<=/)(?:1[3-9]|[2-9]\d)(?![\d:])))?(?![\d:.,]\d)",
        re.I,
    ),
    (rf"(?P<month>{_EN_MONTH}),? (?:of )?(?P<year>{_YEAR4}|'\d{{2}}(?![\d:]))", re.I),
    (
        rf"(?:(?P<weekday>{_ES_WEEKDAY}),? )?(?:d[íi]a )?(?P<day>\d{{1,2}})(?P<ordinal>º|°|ro\.?|er\.?|o\.?)? de "
        rf"(?P<month>{_ES_MONTH})"
        # (and a year of two digits after its "del": "el 2 de febrero del 85"; "de 25 a 50 mg" is a dose)
        # (the year may wrap onto the next line: "31 de diciembre de\n2024")
        rf"(?:,?[ \n](?P<of>del?|,)(?: |\n)"
        rf"(?P<year>{_YEAR4}|(?<=\w del )\d{{2}}(?![\d:%]|[.,]\d)(?! ?(?:a|al|y|o|mg|ml|%)\b)))?",
        re.I,
    ),
    # The month first, as Mexico and the United States write Spanish: "noviembre 12", "marzo 5, 2024"; only a
    # month spelled whole ("mar 5" is the sea), and not a dose or a share after it.
    (
        rf"(?:(?P<weekday>{_ES_WEEKDAY}),? )?(?P<month>{_ES_MONTH_WHOLE}) (?P<day>\d{{1,2}})"
        rf"(?:,? (?P<year>{_YEAR4}))?(?![\d:.,]\d)(?!\s?(?:%|mg|ml|kg|a[ñn]os|horas|h\b|d[íi]as|veces|semanas|"
        rf"meses|personas|pacientes|casos|unidades|"
        rf"dosis|tomas|comprimidos|pastillas|c[áa]psulas|sesiones|ciclos|puntos)\b)",
        re.I,
    ),
    (rf"(?P<day>\d{{1,2}})(?P<sep2>[ /\-.])(?P<month>{_ES_MONTH})(?P=sep2)(?P<year>{_YEAR4}|\d{{2}})", re.I),
    (
        rf"(?P<day>\d{{1,2}}) (?:de |d['’])(?P<month>{'|'.join(_CA_MONTHS + _REGIONAL_MONTHS)})"
        rf"(?:,? (?P<of>del?) (?P<year>{_YEAR4}))?",
        re.I,
    ),
    # The month in Roman numerals, as Latin American and Spanish deeds and records write it: "18-VI-2019",
    # "3.XII.1998"; capitals only, joined by a hyphen, a slash or a point, with its four-digit year ("VI" alone
    # is a grade or a cranial nerve, "3 X 10" a set of exercises).
    (rf"(?P<day>\d{{1,2}})(?P<sep2>[/\-.])(?P<month>{_ROMAN_MONTH})(?P=sep2)(?P<year>{_YEAR4})", 0),
    # A form's fields for day, month and year, with spaces around each slash: "19 / 11 / 1986".
    (rf"(?P<a>\d{{1,2}})(?P<sep> / )(?P<b>\d{{1,2}})(?P=sep)(?P<c>{_YEAR4})", 0),
    (rf"(?P<month>{_ES_MONTH}) (?P<of>del?) (?P<year>{_YEAR4})", re.I),
    (rf"(?P<month>{_ES_MONTH}),? (?P<year>{_YEAR4})", re.I),
    (rf"(?P<weekday>{_EN_WEEKDAY}),? (?:the )?(?P<day>\d{{1,2}})(?P<ordinal>{_ORDINAL})", re.I),
    (
        rf"(?P<day>\d{{1,2}})(?P<ordinal>{_ORDINAL})? day of (?P<month>{_EN_MONTH})(?:,? (?P<year>{_YEAR4}))?",
        re.I,
    ),
    (rf"(?P<weekday>{_ES_WEEKDAY}),? (?:d[íi]a )?(?P<day>\d{{1,2}})(?![\d:/]|[.,]\d)", re.I),
    (rf"(?P<weekday>{'|'.join(_REGIONAL_WEEKDAYS)}),? (?P<day>\d{{1,2}})(?![\d:/]|[.,]\d)", re.I),
)
# A date ends at a word's end, or at an ISO time stamp's "T" ("2025-02-11T03:15").
_COMPILED = tuple(re.compile(rf"(?<![\w/]){form}(?:(?![\w])|(?=T\d{{2}}:?\d{{2}}))", flags) for form, flags in _FORMS)
_WHOLE = tuple(re.compile(form, flags) for form, flags in _FORMS)


# "on 3/17", "el 16/01", "since 1/6": a day and a month without a year, only after a word that introduces a
# date — alone, "2/3" is a fraction and "15/15" a score.
_CUED_DAY_MONTH = re.compile(
    r"(?i:\b(?:on|from|since|until|till|by|before|after|dated|dob|el|del|al|desde|hasta|d[íi]a|fecha|the|seen|"
    r"visit|admitted|discharged|started|stopped|due|expires?|exp\.?|at)\b:?\s+)"
    # with a point, only after a word that names a date: "at 11.2" is a reading, "at 10.30" a time
    r"(?P<date>\d{1,2}/\d{1,2}|(?<![Aa]t )(?<![Tt]he )(?<![Bb]y )(?<![Ff]rom )\d{1,2}\.\d{1,2})(?![/.]?\d)"
    r"(?!\s*(?i:mg|mcg|ml|g|kg|%|mmol|mm|cm|units?|u|mEq|l|lb|lbs|°)\b)"  # "from 2.5 to 5 mg" is a dose
    # words that record an event, before a day and month with a slash ("signed 11/03", "Labs (13/05)") or in
    # German's form with its closing point ("al 7.3.", "am 28.2."): "note 1.5 mg" is a dose
    r"|(?i:\b(?:signed|filed|attended|note|nota|labs?|seguimiento|evoluci[óo]n|anal[íi]tica)\b:?\s+\(?)"
    r"(?P<recorded>\d{1,2}/\d{1,2})(?![/.]?\d)"
    r"|(?i:\b(?:al|am|zum|vom|bis|on|el|del|desde|hasta|since|until)\s+)(?P<dotted>\d{1,2}\.\d{1,2})(?=\.(?!\d))"
)
# A log's entry opened by its day and month ("3/4 – filed the motion", "28/02: spoke to the client"), or a
# record's words and then its day and month before a colon ("seguimiento telefonico 22/01: hablo con…").
_ENTRY_DAY_MONTH = re.compile(
    r"(?m)^[ \t]*(?:[-•*][ \t]*)?(?P<date>\d{1,2}/\d{1,2})(?=[ \t]*(?:[–—-][ \t]|:[ \t]))"
    r"|(?i:\b(?:note|nota|seguimiento|evoluci[óo]n|control|labs?|visita|consulta|llamada|call|visit|review|entry|"
    r"update|actualizaci[óo]n)\b)[^\n\d:]{0,30}?\s(?P<titled>\d{1,2}/\d{1,2})(?=:\s)"
)


# A day and month followed by a time of day ("7/23 8:00 AM", "10/10 at 3:15 PM"), or after the words that
# plan or record an event ("ORIF 10/14", "f/u: 11/20", "next session 6/23"): a date, as the cue above.
_TIMED_DAY_MONTH = re.compile(
    r"(?<![\w/.])(?P<date>\d{1,2}/\d{1,2})(?![/.]?\d)(?=,?\s+(?:at\s+|@\s*|a las\s+)?\d{1,2}(?::\d{2})?\s*"
    r"(?i:am|pm|a\.m\.|p\.m\.|h\b|hrs\b)|,?\s+(?:at|@|a las)\s+\d{1,2}:\d{2})"
    # after a comma, with a 24-hour time: "informe de la Dra. Sosa, 07/08 01:15" ("the score was 3/10 10:00" is a
    # score read at a time)
    r"|(?<=, )(?P<clocked>\d{1,2}/\d{1,2})(?![/.]?\d)(?=,?\s+(?:[01]?\d|2[0-3]):[0-5]\d(?![\d/]|:\d))"
    r"|(?i:\b(?:scheduled|appt|appointment|f/u|follow-?up|next|session|surgery|review|drawn|collected|filled|"
    r"refilled|returned|called|orif|procedure|cita|control|revisi[óo]n|ingreso|alta|consulta|last|effective)\b"
    r"\.?:?\s+(?:on\s+|el\s+)?)(?P<cued>\d{1,2}/\d{1,2})(?![/.]?\d)"
)
# A day and month after what a note records being done on it ("booked 17/02", "checked 07/04", "counseled
# 1/29", "by phone 22/5", "Date: 3/4"), after a 24-hour time ("14:31 4/15"), or in brackets after a test
# before a colon or a comma ("2D Echo (05/03): …", "Ecocardiograma (4/4, Dra. …)"). Weaker evidence than the
# cues above, so a score out of five or ten ("improved 3/5") is left as one (``_a_score``).
_NOTED_DAY_MONTH = re.compile(
    r"(?:(?i:\b(?:date|revisi[óo]n|control|cita|booked|checked|counsell?ed|reviewed|sent|received|requested|ordered|referred|rang|"
    r"phoned|emailed|e-mailed|faxed|posted|given|done|taken|repeated|inserted|removed|changed|re-?sited|"
    r"discussed|phone|telephone|email|letter|realizad[oa]|solicitad[oa]|enviad[oa]|recibid[oa]|revisad[oa]|"
    r"arrested|released|detained|charged|interviewed|died|transferred|detenid[oa]|trasladad[oa]|fallecid[oa]|"
    r"citad[oa]|programad[oa]|llamad[oa]|avisad[oa]|"
    # what is renewed, paid or planned for a day: "detention renewed 18/4", "payment accepted 2/28", "expected
    # discharge 16/3"
    r"renewed|extended|accepted|paid|lodged|served|issued|adjourned|discharge|renovad[oa]|pagad[oa])\b):?\s+"
    r"(?:on\s+|el\s+)?"
    r"|(?<![\d:])(?:[01]\d|2[0-3]):[0-5]\d\s+|(?P<open>\())"
    r"(?P<date>\d{1,2}/\d{1,2})(?![/.]?\d)(?(open)(?=\)\s*:|,\s|\) (?:o|or|y|and) ))"
)
# A log's or a table's day and month before its 24-hour time: "| 19/10 08:02 |", "03/11 14:30 Seen by …".
_LOGGED_DAY_MONTH = re.compile(r"(?m)(?:^|\|)[ \t]*(?P<date>\d{1,2}/\d{1,2})(?=[ \t]+\d{2}:\d{2}\b)")
# A day and month right after another, in a list: "(3/28, 4/2)", "on 6/1 and 6/8".
_LISTED_DAY_MONTH = re.compile(r"(?:,\s*|\s+(?:and|y|or|o|&)\s+)(?P<date>\d{1,2}/\d{1,2})(?![/.]?\d)")
# A list of days and months whose own shape says they are dates: one of them has a part over twelve, which
# no score out of five or ten has ("(3/28, 4/2)", "seen 12/19, 1/3 and 1/17"). A visual acuity's list is
# its Snellen fractions ("VA 6/18, 6/24"), and inches come in sixteenths ("3/16, 5/16 inch").
_DAY_MONTH_LIST = re.compile(
    r"(?<![\w/.])(?P<date>\d{1,2}/\d{1,2})(?P<rest>(?:(?:,\s*|\s+(?:and|y|&)\s+)\d{1,2}/\d{1,2})+)(?![/.]?\d)"
)
_MEASURE_AFTER = re.compile(r"\s*(?:in\.|inch|\"|”|″|mm\b|cm\b|bolts?|screws?)", re.I)
_ACUITY_BEFORE = re.compile(r"(?i:\b(?:va|bcva|ucva|acuity|vision|visus|agudeza|snellen)\b)[^\n]{0,12}$")


def _a_list_of_dates(text: str, match: re.Match) -> bool:
    parts = re.findall(r"\d{1,2}/\d{1,2}", match.group(0))
    return (
        all(parse_date(part) is not None for part in parts)
        and any(int(n) > 12 for part in parts for n in part.split("/"))
        and not _ACUITY_BEFORE.search(text, max(0, match.start() - 24), match.start())
        and not _MEASURE_AFTER.match(text, match.end())
    )


# Holidays name a day of the year as surely as a date does ("since Christmas", "antes de Nochebuena").
HOLIDAYS_EN = (
    "Christmas Eve",
    "Christmas Day",
    "Christmas",
    "Xmas Eve",
    "Xmas Day",
    "Xmas",
    "New Year's Eve",
    "New Year's Day",
    "New Year's",
    "New Years Eve",
    "New Years Day",
    "Thanksgiving",
    "Thanksgiving Day",
    "Easter Sunday",
    "Easter Monday",
    "Easter",
    "Good Friday",
    "Labor Day",
    "Labour Day",
    "Memorial Day",
    "Independence Day",
    "Fourth of July",
    "4th of July",
    "Halloween",
    "Valentine's Day",
    "Valentines Day",
    "St Patrick's Day",
    "St. Patrick's Day",
    "Boxing Day",
    "Mother's Day",
    "Mothers Day",
    "Father's Day",
    "Fathers Day",
    "Veterans Day",
    "Presidents Day",
    "Presidents' Day",
    "Martin Luther King Day",
    "MLK Day",
    "Columbus Day",
    "Juneteenth",
    "Bonfire Night",
    "Guy Fawkes Night",
    "Remembrance Day",
    "Canada Day",
    "Australia Day",
    "Anzac Day",
    "Waitangi Day",
    "Bank Holiday Monday",
    "Hanukkah",
    "Diwali",
    "Eid al-Fitr",
    "Eid al-Adha",
    "Lunar New Year",
    "Chinese New Year",
    "Ash Wednesday",
    "Black Friday",
    "Cyber Monday",
)
HOLIDAYS_ES = (
    "Nochebuena",
    "Navidad",
    "Navidades",
    "Nochevieja",
    "Año Nuevo",
    "Día de Reyes",
    "Reyes",
    "Semana Santa",
    "Jueves Santo",
    "Viernes Santo",
    "Domingo de Resurrección",
    "Lunes de Pascua",
    "Día de los Muertos",
    "Día de Muertos",
    "Todos los Santos",
    "Día de la Madre",
    "Día del Padre",
    "Día de la Independencia",
    "Día de la Hispanidad",
    "Día del Trabajo",
    "Día del Trabajador",
    "la Inmaculada",
    "la Constitución",
    "San Juan",
    "Día de San Valentín",
    "San Valentín",
    "Día de la Candelaria",
    "Carnaval",
    "Miércoles de Ceniza",
    "Día de Acción de Gracias",
    "Fiestas Patrias",
    "Día de la Raza",
)
_HOLIDAY = re.compile(
    r"(?<![\w'’])(?:"
    + "|".join(
        re.escape(h).replace(r"\ ", r"\s+").replace("'", "['’]?")
        for h in sorted(set(HOLIDAYS_EN), key=len, reverse=True)
    )
    + r")(?![\w'’])",
    re.I,
)
# Spanish holidays that are also saints' or places' names count only after a word that introduces a time.
_AMBIGUOUS_ES = {"Reyes", "San Juan", "la Inmaculada", "la Constitución", "Carnaval"}
_HOLIDAY_ES = re.compile(
    r"(?<![\w])(?:"
    + "|".join(
        re.escape(h).replace(r"\ ", r"\s+") for h in sorted(set(HOLIDAYS_ES) - _AMBIGUOUS_ES, key=len, reverse=True)
    )
    + r")(?![\w])"
    + r"|(?i:\b(?:desde|hasta|en|para|antes de|despu[ée]s de|por) )(?P<cued>Reyes|San Juan|Carnaval)(?![\w])",
    re.I,
)


def holiday(text: str) -> str | None:
    """The holiday ``text`` names, in the canonical spelling of its language's list, or None."""
    squeezed = re.sub(r"\s+", " ", text.strip()).replace("’", "'")
    for name in HOLIDAYS_EN + HOLIDAYS_ES:
        if squeezed.lower() == name.lower() or squeezed.lower().replace("'", "") == name.lower().replace("'", ""):
            return name
    return None


def other_holiday(original: str, attempt: int) -> str | None:
    """Another holiday of ``original``'s language, in its case: the stand-in of a holiday. A year after it
    stays (HIPAA keeps years): "Xmas 2019" becomes another holiday of 2019."""
    if (year := _HOLIDAY_YEAR_AFTER.search(original)) and year.end() == len(original):
        other = other_holiday(original[: year.start()], attempt)
        return None if other is None else other + year.group(0)
    name = holiday(original)
    if name is None:
        return None
    pool = [h for h in (HOLIDAYS_ES if name in HOLIDAYS_ES else HOLIDAYS_EN) if h.lower() != name.lower()]
    pool = sorted({h for h in pool if "'" not in h or "'" in original or "’" in original})
    chosen = pool[(sum(map(ord, name)) + attempt) % len(pool)]
    if original.islower():
        return chosen.lower()
    return chosen.upper() if original.isupper() and len(original) > 3 else chosen


_ANY_WEEKDAY = (
    r"(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday|Mon|Tues|Tue|Weds|Wed|Thurs|Thu|Fri|Sat|Sun|"
    r"lunes|martes|mi[ée]rcoles|jueves|viernes|s[áa]bado|domingo|lun|mi[ée]|jue|vie|s[áa]b|dom|"
    rf"{'|'.join(_REGIONAL_WEEKDAYS)})\.?"
)
_WEEKDAY_BEFORE = re.compile(rf"(?i:(?<![\w])(?P<weekday>{_ANY_WEEKDAY}),?[ \t]{{0,2}})$")
_WEEKDAY_CUED = re.compile(rf"(?i:(?<![\w]){_ANY_WEEKDAY},? )(?P<date>\d{{1,2}}[/.]\d{{1,2}})(?![/.]?\d)")
# A day alone where only a day can be meant: "the 6th because…", "el pasado 3", "del 12 al 13 de enero".
NOT_A_DAY_AFTER = (
    r"(?:floor|time|times|grade|century|edition|percentile|centile|decile|rib|toe|finger|day|week|month|year|cycle|"
    r"dose|line|amendment|circuit|district|ward|street|st|avenue|ave|birthday|anniversary|place|round|row|trimester|"
    r"cranial|lumbar|thoracic|cervical|intercostal|metatarsal|metacarpal|vertebra|nerve|percent|generation|"
    r"session|visit|attempt|episode|degree|inning|minute|hour|period|stage|tier|level|position|"
    # a filing's numbered parties and items: "the 1st Defendant", "the 2nd Respondent", "the 3rd Schedule"
    r"defendants?|plaintiffs?|respondents?|claimants?|applicants?|appellants?|petitioners?|parties|party|"
    r"interested|schedule|exhibit|witness|accused|count|ground|limb|paragraph|para|clause|article|section|"
    r"instalment|installment|payment|quarter|half|term|semester|option|choice|priority|reading|offence|offense|"
    # a count of the things a day's cue can come before too: "after 2nd surgery", "due 3rd injection"
    r"opinion|surgery|operation|injection|infusion|shot|jab|vaccine|vaccination|booster|course|admission|pregnancy|"
    r"baby|child|marriage|scan|test|review|appointment|appt|fraction|treatment|trial|set|lap|pass|draft|notice|"
    r"warning|letter|reminder|cent|centuries|tab|click|press|key|principles|principle|class|gear|base|rate|person)"
)
_OF_THIS_MONTH = re.compile(r" (?i:del (?:corriente|presente|actual)(?: mes)?|del mismo mes)\b")
_SHORT_MONTHS = "ene|feb|mar|abr|may|jun|jul|ago|sep|sept|set|oct|nov|dic|jan|apr|aug|dec"
# Months' short names in both languages, lower case ("mar", "ago", "dec").
SHORT_MONTH_WORDS = frozenset(_SHORT_MONTHS.split("|"))
_LONE_DAY = re.compile(
    rf"(?i:\bthe )(?P<date>\d{{1,2}}(?:st|nd|rd|th|(?<=[23])d))\b(?!\s+(?:of\s+)?(?i:{NOT_A_DAY_AFTER})\b)(?!\s+of\b)"
    # ("el día 5 del corriente": of this month)
    rf"|(?i:\bel pasado |\b(?:el|del) d[íi]a )(?P<es>\d{{1,2}})\b"
    rf"(?! de(?!l (?:corriente|presente|actual)\b))(?![.,/:]\d)"
    # a record's "on 9th": the day of the month it was done ("increased to 15mg on 9th"), and the words a message
    # plans a day with ("appt 28th", "due 10th", "by Weds 9th", "until 3rd"); a range's two days ("AL 11th–15th")
    rf"|(?i:\b(?:on|appt|appointment|due|by|until|till|til|from|before|after|since|{_EN_WEEKDAY}) )"
    rf"(?P<on>\d{{1,2}}(?:st|nd|rd|th))\b(?!\s+(?:of\s+)?(?i:{NOT_A_DAY_AFTER})\b)(?!\s+of\b)(?![\w-])"
    r"(?![ \t]*&)"  # "tent under i-5 by 6th & s jackson": a street's corner
    rf"|(?<![\w.,/])(?P<from_day>\d{{1,2}}(?:st|nd|rd|th))(?=[ \t]?[–-][ \t]?\d{{1,2}}(?:st|nd|rd|th)\b"
    rf"(?!\s+(?:of\s+)?(?i:{NOT_A_DAY_AFTER})\b))"
    rf"|(?<=\d(?:st|nd|rd|th)[–-])(?P<to_day>\d{{1,2}}(?:st|nd|rd|th))\b(?!\s+(?:of\s+)?(?i:{NOT_A_DAY_AFTER})\b)"
    # "el 5 del corriente", "en la fecha 15 del corriente", "el día 19 del mismo mes": a day of the month named
    # (not a law's or a contract's article: "artículo 12 del presente Reglamento", "la cláusula 4 del presente")
    rf"|(?<![\d/.,])(?<!(?i:artículo) )(?<!(?i:articulo) )(?<!(?i:cláusula) )(?<!(?i:clausula) )(?<!(?i:apartado) )"
    rf"(?<!(?i:punto) )(?<!(?i:anexo) )(?<!(?i:capítulo) )(?<!(?i:sección) )(?<!(?i:art\.) )(?<!(?i:núm\.) )"
    rf"(?P<current>\d{{1,2}})(?= (?i:del (?:corriente|actual|presente mes|mismo mes|presente(?=[,.;)]|$)))\b)"
    rf"|(?i:\b(?:del|entre el|desde el|from the|between the) )(?P<range>\d{{1,2}})(?:º|st|nd|rd|th)?"
    # the range's end is a day of a month named ("del 10 al 18 de enero"); "del 1 al 10 de cada mes" names none
    rf"(?=\s+(?:al|y el|y|hasta el|to the|and the|and|[–-])\s+(?:\d{{1,2}}/\d{{1,2}}(?:/(?:\d{{4}}|\d{{2}}))?(?![/\d])|"
    rf"\d{{1,2}}(?:º|st|nd|rd|th)?\s+(?:de\s+|of\s+)?(?i:{'|'.join(_EN_MONTHS + _ES_MONTHS)}|setiembre|"
    # or its month written short, as a chart does: "del 4 al 7/02", "las noches del 9 y 10 feb"
    rf"{_SHORT_MONTHS})\b))"
)
# A day alone after the words a message plans a day with: "el finde del 7", "hasta el 20 y después vuelvo", "la
# deposición del 24 choca con la vista", "a partir del 3" (not a count's or a reading's: "hasta el 20 %", "desde
# el 3 de la lista").
_PLANNING_WORDS_ES = (
    r"finde|fin de semana|puente|hasta|desde|a partir|antes|despu[ée]s|para|deposici[óo]n|audiencia|vista|cita|"
    r"turno|reuni[óo]n|juicio|firma"
)
_PLANNED_DAY_ES = re.compile(
    rf"(?i:\b(?:{_PLANNING_WORDS_ES})\s+(?:del|el|de el)\s+)(?P<day>[1-9]|[12]\d|3[01])"
    r"(?![\d.,:/%°ºª]\d|[\d%°ºª]|\s*[%°€$]|\s*(?i:de (?:la|los|las|cada)\b|años|meses|d[íi]as|semanas|horas|hs?\b|"
    r"mg|kg|km|euros|€|pesos|d[óo]lares|por ?ciento|puntos|a\.\s?m|p\.\s?m|am\b|pm\b|veces|unidades|ui\b|ml\b))"
)
# The same day spelled ("para el quince en la tarde", "tengo que presentarme el dieciséis"), and in English after
# the words that set a day and "the", ending there ("the hearing is on the twenty-first,"; not "due on the
# fifth day of each month", "on the fourth floor").
_SPELLED_PLANNED_DAY = re.compile(
    rf"(?i:\b(?:{_PLANNING_WORDS_ES}|presentarme|presentarse|presentarte)\s+(?:del|el|de el)\s+)"
    rf"(?P<es>(?i:{SPANISH_DAY_WORDS}))(?![\w-])"
    r"(?!\s*(?i:de (?:la|los|las|cada)\b|años|meses|d[íi]as|semanas|horas|por ?ciento|puntos|veces|unidades|"
    r"y (?:medio|media)\b|%))"
    r"|(?i:\b(?:on|by|until|till|due|appt|appointment|date is|date was|date's)\s+the\s+)"
    rf"(?P<en>(?i:{ENGLISH_DAY_WORDS}))(?![\w-])(?![ \t]*(?:of\b|[^\W\d_]))"
)
# A day alone before the words that say it is a day: "el 14 tiene cita", "la del 12 cae en sábado", "el 7 en la
# tarde", "llega el 4", "el 22 a las 10" (not "el 4 va por…", a list's item, or "del 1 al 10 de cada mes").
_DAY_BY_WHAT_FOLLOWS_ES = re.compile(
    r"(?i:(?<![\w])(?:el|del))\s(?P<day>[1-9]|[12]\d|3[01])"
    r"(?=\s(?i:(?:en|por) la (?:mañana|manana|tarde|noche)|a las? \d|cae en|tiene (?:cita|turno|consulta|control)|"
    r"(?:de|a) (?:la )?(?:mañana|manana|tarde|noche)\b))"
    r"|(?i:\b(?:llega|llegan|llego|llegamos|viene|vienen|vengo|vuelve|vuelven|vuelvo|regresa|regresan|ingresa|"
    r"ingresan|opera|operan)\s(?:el|del)\s)(?P<arrives>[1-9]|[12]\d|3[01])"
    r"(?![\d.,:/%°ºª]\d|[\d%°ºª]|\s*(?i:de (?:la|los|las|cada)\b|años|meses|d[íi]as|semanas|horas|hs?\b|veces|%))"
)
# The days listed before a day and its month: "los días 14, 15 y 21 de septiembre", "on the 3rd, 4th and 9th
# of May", "2, 9 and 16 June".
# A list is read from its first day only: read again from each later one, a long list of numbers was quadratic.
INSIDE_A_LIST_OF_DAYS = r"(?<!(?<![\w/.,])\d, )(?<!(?<![\w/.,])\d\d, )(?<!\d(?:st|nd|rd|th), )(?<!\dº, )"
_DAYS_BEFORE_A_DATE = re.compile(
    r"(?<![\w/.,])"
    + INSIDE_A_LIST_OF_DAYS
    + r"(?P<days>\d{1,2}(?:st|nd|rd|th|º)?(?:, ?\d{1,2}(?:st|nd|rd|th|º)?)*),? (?:y|e|and|&|or|o) "
    r"(?=\d{1,2}(?:st|nd|rd|th|º)? (?:days? )?(?:de |of )?(?i:"
    + "|".join(_EN_MONTHS + _ES_MONTHS + ["setiembre"])
    + r")\b)"
)
# A month and its year in figures: "stopped 1/2025", "desde 03/2024".
# "Ley 1/2007", "Real Decreto 3/2010", "expediente n.º 4/2023": a law's or a file's number and its year.
_NUMBERED_BEFORE = re.compile(
    r"(?i:\b(?:ley|law|decreto|decreto-ley|legislativo|org[áa]nica|orden|directiva|reglamento|circular|resoluci[óo]n|instrucci[óo]n|"
    r"sentencia|auto|expediente|exp\.|procedimiento|recurso|n\.?º|no\.|núm\.|number|case|docket)\s*)$"
)
_MONTH_YEAR = re.compile(
    r"(?<![\w/.,])(?:0?[1-9]|1[0-2])/(?:19|20)\d{2}(?![/\w])"
    # a month's short name and its year: "feb/2023", "nov-22", "Sept/2021"
    r"|(?<![\w/])(?i:ene|feb|mar|abr|may|jun|jul|ago|sep|sept|set|oct|nov|dic|jan|apr|aug|dec)\.?[/\-]"
    r"(?:19|20)?\d{2}(?![/\w])"
)
_RESULT_DAY_MONTH = re.compile(r"(?<=[^\W\d_] )(?P<date>\d{1,2}/\d{1,2})(?=:\s*[<>]?\d)")
# A day and month to another: "for 15/7 – 16/7", "del 3/2 al 9/2".
# (after a word for a period: "TA 13/7 - 14/8", "6/12 to 6/9" and "de 1/2 a 1/4" are readings and fractions)
_DAY_MONTH_RANGE = re.compile(
    r"(?i:\b(?:for|between|del|desde|entre|period|periodo|período|leave|baja|incapacidad)\s+)"
    r"(?P<from>\d{1,2}/\d{1,2})\s*(?:[–-]|to|al|a|hasta|y|and)\s*(?P<to>\d{1,2}/\d{1,2})(?![/.]?\d)"
)
# A day and a month of two digits each, as forms and logs write a date without its year ("insertado 03/02",
# "TURNO DE NOCHE 14/03", "| 25/08 |"): no fraction or score is written so. Not before a unit or a rate, not
# after a reading's label, and not a child's age in months ("18/12 old") or a span of weeks or months.
# (a part written with its leading zero, or a day past the twelfth before October to December, which no count
# is: "10/12 lymph nodes" and "11/12 stations" are counts, "21/11" a date)
_NO_COUNT_AFTER = (
    r"(?!\s*(?i:positiv[oe]s?|negativ[oe]s?|nodes?|ganglios?|stations|items|fractions?|fracciones|correct|"
    r"correctas?|aciertos)\b)"
    r"(?!\s*(?i:mg|mcg|ml|g|kg|%|mmol|mm|cm|mmhg|units?|u|meq|l|lbs?|°|per|/|x|ago|old|hx|history|months?|weeks?|"
    r"days?|hours?|hrs?|h|years?|times|d[íi]as?|semanas?|mes(?:es)?|años?|horas?|veces|sesiones|sessions|ciclos|"
    r"cycles|dosis|doses|tabs?|tablets?|comprimidos?|c[áa]psulas?|capsules?|gotas|drops|puffs?|ampollas?|sobres?)\b)"
)
_TWO_DIGIT_DAY_MONTH = re.compile(
    r"(?<![\w/.:,\-])(?P<date>(?=0|\d\d/0)\d{2}/\d{2}|(?:1[3-9]|2\d|3[01])/1[0-2])(?![\w/]|[.,]\d)" + _NO_COUNT_AFTER
)
# Any day and month, in a text that writes its dates with slashes (two of them with their years, or a chat's
# time stamps): "MRI 8/2 showed", "I'm out 9/9–9/13", "lmp 8/20", "at 3rd & pine 10/7". Such a writer's "8/2"
# is a date more often than anything else; a fraction ("1/2", "3/4"), a score out of five or ten, a British
# span of days or weeks and a reading's value are still no dates.
_DAY_MONTH_IN_DATED_TEXT = re.compile(
    r"(?<![\w/.:,\-$#+=^*])(?P<date>\d{1,2}/\d{1,2})(?![\w/%]|[.,]\d)" + _NO_COUNT_AFTER
)
_DATES_FOR_EVIDENCE = 2
_READING_BEFORE = re.compile(
    r"(?i:\b(?:bp|ta|tas|gcs|va|bcva|ucva|acuity|vision|visus|agudeza|snellen|score|scored|power|mmse|moca|phq-?9|"
    r"gad-?7|hx|h/o|ratio|fio2|pao2|peep|ie|i:e|pain|dolor|eva|vas|nrs|apgar|glasgow|for|over|aged?|x|durante|hace|"
    # each eye's acuity: "RE 06/09, LE 06/12", "OD 20/40"
    r"re|le|od|oi|os|ou|ao)\b)"
    r"[^\n\d]{0,6}$"
)
# Months written short from one to another: "Caregiver (Feb–Apr, 10 weeks)", "ene-mar".
_SHORT_MONTH_RANGE = re.compile(
    r"(?<![\w/])(?P<from>(?i:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec|ene|abr|ago|dic)\.?)"
    r"\s?[–-]\s?(?P<to>(?i:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec|ene|abr|ago|dic)\.?)(?![\w/])"
)
# A day and month that closes a bracket after a comma and a doctor's name, as a note dates an opinion: "(Dr.
# Warraich, 16/3)" ("(axila, 2/12)" and "(GOLD, 3/4)" are counts and grades).
_BRACKET_CLOSING_DAY_MONTH = re.compile(
    r"\((?=[^()\n]{0,20}\b(?:Dr|Dra|Drs|Prof|Mr|Mrs|Ms|Sr|Sra|Lic)\b)[^()\n]{2,60}, (?P<date>\d{1,2}/\d{1,2})\)"
)
# What dates a month named alone: "marzo del presente año", "in March of this year".
_THIS_YEAR_AFTER = re.compile(
    r" (?:del presente año|del año en curso|de este año|del corriente año|del año pasado|of this year|of last year)\b"
)
# A holiday and its year: "dated "Xmas 2019"", "Navidad de 2021".
_HOLIDAY_YEAR_AFTER = re.compile(r"\s(?:de\s)?(?:19|20)\d{2}(?!\d)")
# The English words that introduce a time before a month alone ("in May", "since October", "by end of Nov.").
_EN_TIME_BEFORE_A_MONTH = (
    "in|since|until|till|til|thru|through|by|from|early|mid|late|of|during|before|after|last|next|this"
)
# A month alone: the months no word is spelled like, and March, May and the Spanish months after a word that
# introduces a time ("in May", "en marzo", "entre octubre y diciembre").
_MONTH_ALONE = re.compile(
    r"(?<![\w])(?P<a>January|February|April|June|July|August|September|October|November|December)(?![\w])"
    rf"|(?i:\b(?:{_EN_TIME_BEFORE_A_MONTH}|til'|en|desde|hasta|durante|para|antes de|despu[ée]s de|entre|"
    r"principios de|mediados de|finales de|mes de|y|a|de|del)\s+)"
    r"(?P<b>March|May|enero|febrero|marzo|abril|mayo|junio|julio|agosto|septiembre|setiembre|octubre|noviembre|"
    r"diciembre)(?![\w])"
    # a Spanish month in lower case is a month wherever it stands ("debe febrero, marzo y abril"); capitalised,
    # "Julio" and "Abril" are people too, and "mayo" is a mayonnaise's short name
    r"|(?<![\w])(?P<c>enero|febrero|marzo|abril|junio|julio|agosto|septiembre|setiembre|octubre|noviembre|"
    rf"diciembre|{'|'.join(_REGIONAL_MONTHS)})(?![\w])"
    # a month written short, typed in lower case or in capitals, after a word that introduces a time ("in Jan",
    # "by end of Nov.", "since october", "MOVED FROM CORK IN AUGUST"): with no time word, "Jan" is a name and
    # "Mar" a word, and before a surname "by Jan Kowalski" still is
    rf"|(?i:\b(?:{_EN_TIME_BEFORE_A_MONTH})[ \t]+)"
    rf"(?P<d>(?:{'|'.join([m[:3] for m in _EN_MONTHS if m != 'May'] + ['Sept'])})(?![\w])(?! [A-ZÀ-Þ][a-zà-ÿ])"
    rf"|(?:{'|'.join([m.lower() for m in _EN_MONTHS if m not in ('March', 'May')] + [m.upper() for m in _EN_MONTHS])})"
    r"(?![\w]))"
)


# The most a score or a grade reaches: "Allred 8/8", "Katz ADL 2/6", "Nottingham 7/9", "Barthel 8/20",
# "Tinetti 12/28", "MMSE 27/30".
_SCORE_MAXIMA = frozenset({5, 6, 8, 9, 10, 15, 20, 21, 24, 27, 28, 30})
_SCORE_NAMED_BEFORE = re.compile(
    r"(?:[A-ZÀ-Þ][\w\-]*|=|(?i:murmur|soplo|grade|grado|systolic|diastolic|sist[óo]lico|diast[óo]lico))[ \t]*\(?$"
)
# A scan's or a test's name before its day, in capitals like a score's: "MRI 7/9 showed", "CT 8/5".
_A_TEST_BEFORE = re.compile(r"\b(?:MRI|CT|CXR|XR|ECG|EKG|EEG|ECHO|Echo|US|PET|EGD|OGD|RMN|TAC|TC|Rx|RX)[ \t]*\(?$")
# A page or a file's folios: "P. 3/3", "fs. 7/9", "pág. 2/4".
_PAGE_BEFORE = re.compile(r"(?i:\b(?:p|pp|pg|page|pages|p[áa]g|fs|fojas|folios?|hoja)\.?)[ \t]*$")
# Snellen's fractions of visual acuity, in metres and in feet.
_SNELLEN = frozenset(
    {(6, n) for n in (5, 6, 9, 12, 18, 24, 36, 60)} | {(20, n) for n in (20, 25, 30, 40, 50, 60, 70, 80, 100, 200)}
)


def _a_named_score_or_page(text: str, start: int, day_month: str) -> bool:
    """A day and month's shape that a score after its name, a page or an acuity has as well."""
    first, second = (int(part) for part in day_month.split("/"))
    line_before = text[max(0, text.rfind("\n", 0, start) + 1, start - 30) : start]
    if (first, second) in _SNELLEN or _PAGE_BEFORE.search(line_before):
        return True
    return (
        second in _SCORE_MAXIMA
        and first <= second
        and _SCORE_NAMED_BEFORE.search(line_before) is not None
        and not _A_TEST_BEFORE.search(line_before)
    )


def _a_fraction(day_month: str) -> bool:
    """ "1/2", "2/3", "3/4": a share of something before it is a date."""
    first, second = (int(part) for part in day_month.split("/"))
    return second <= 4 and first < second


def _a_score(day_month: str) -> bool:
    """ "4/5", "3/10": a score out of five or ten (muscle power, pain) before it is a date."""
    first, second = (int(part) for part in day_month.split("/"))
    return second in (5, 10) and first <= second


def _a_duration_or_share(text: str, start: int, day_month: str) -> bool:
    """ "3/7", "2/12", "4/52": days, months or weeks, as British notes write how long ("anticipate discharge
    3/7", "issued 2/12 supply"); "3/4 of", "1/3 of": a share. A day's zero says it is a date ("03/07")."""
    first, second = day_month.split("/")
    if text.startswith(" of ", start + len(day_month)):
        return True
    return second in ("7", "12", "52") and not first.startswith("0") and int(first) < int(second)


def _extra_spans(text: str) -> set[tuple[int, int]]:
    spans = {
        m.span(group)
        for m in _CUED_DAY_MONTH.finditer(text)
        if parse_date(m.group(group := next(g for g in ("date", "recorded", "dotted") if m.group(g)))) is not None
    }
    spans |= {m.span("date") for m in _WEEKDAY_CUED.finditer(text) if parse_date(m.group("date")) is not None}
    spans |= {
        m.span(group)
        for m in _ENTRY_DAY_MONTH.finditer(text)
        if parse_date(m.group(group := "date" if m.group("date") else "titled")) is not None
    }
    for match in _TIMED_DAY_MONTH.finditer(text):
        group = next(name for name in ("date", "clocked", "cued") if match.group(name))
        if parse_date(match.group(group)) is not None:
            spans.add(match.span(group))
    spans |= {m.span("date") for m in _DAY_MONTH_LIST.finditer(text) if _a_list_of_dates(text, m)}
    spans |= {
        m.span("date")
        for m in _NOTED_DAY_MONTH.finditer(text)
        if parse_date(m.group("date")) is not None
        and not _a_score(m.group("date"))
        and not _a_duration_or_share(text, m.start("date"), m.group("date"))
    }
    while True:  # each listed day and month after one found is one more
        listed = {
            m.span("date")
            for m in _LISTED_DAY_MONTH.finditer(text)
            if any(end == m.start() for _, end in spans) and parse_date(m.group("date")) is not None
        } - spans
        if not listed:
            break
        spans |= listed
    holidays = {m.span() for m in _HOLIDAY.finditer(text)}
    holidays |= {m.span("cued") if m.group("cued") else m.span() for m in _HOLIDAY_ES.finditer(text)}
    spans |= {(start, year.end() if (year := _HOLIDAY_YEAR_AFTER.match(text, end)) else end) for start, end in holidays}
    for match in _DAY_MONTH_RANGE.finditer(text):
        if parse_date(match.group("from")) and parse_date(match.group("to")) and not _a_score(match.group("to")):
            spans |= {match.span("from"), match.span("to")}
    for match in _LONE_DAY.finditer(text):
        group = next(g for g in ("date", "es", "range", "current", "on", "from_day", "to_day") if match.group(g))
        if 1 <= int(re.match(r"\d+", match.group(group)).group(0)) <= 31:
            start, end = match.span(group)
            if group in ("current", "es") and (month := _OF_THIS_MONTH.match(text, end)):
                end = month.end()  # "el 5 del actual": the phrase names the month
            spans.add((start, end))
    spans |= {m.span("day") for m in _PLANNED_DAY_ES.finditer(text)}
    for match in _SPELLED_PLANNED_DAY.finditer(text):
        day = parse_spelled_day(match.group("es") or match.group("en"))
        # "para el uno y el otro" is no day, and "by the second," or "on the third" is as often a count's
        if day is not None and (match.group("es") or day[0] > 3):
            spans.add(match.span("es" if match.group("es") else "en"))
    spans |= {m.span("day" if m.group("day") else "arrives") for m in _DAY_BY_WHAT_FOLLOWS_ES.finditer(text)}
    for match in _MONTH_ALONE.finditer(text):
        start, end = match.span(next(g for g in ("a", "b", "c", "d") if match.group(g)))
        spans.add((start, year.end() if (year := _THIS_YEAR_AFTER.match(text, end)) else end))
    for match in _SHORT_MONTH_RANGE.finditer(text):
        first, last = match.group("from").rstrip(".").lower(), match.group("to").rstrip(".").lower()
        if first != last and not {first, last} <= {"mar", "may"}:  # "mar-may" may be any two words
            spans |= {match.span("from"), match.span("to")}
    spans |= {
        m.span("date")
        for m in _BRACKET_CLOSING_DAY_MONTH.finditer(text)
        if parse_date(m.group("date")) is not None
        and not _a_score(m.group("date"))
        and not _READING_BEFORE.search(text, max(0, m.start("date") - 24), m.start("date"))
    }
    # a result's day and month before its value: "Litemia 11/03: 0.9 mEq/L"
    spans |= {
        m.span("date")
        for m in _RESULT_DAY_MONTH.finditer(text)
        if parse_date(m.group("date")) is not None and not _a_score(m.group("date"))
    }
    spans |= set(find_spelled(text))
    for match in _DAYS_BEFORE_A_DATE.finditer(text):
        spans |= {
            (match.start("days") + m.start(), match.start("days") + m.end())
            for m in re.finditer(r"\d{1,2}(?:st|nd|rd|th|º)?", match.group("days"))
            if 1 <= int(re.match(r"\d+", m.group(0)).group(0)) <= 31
        }
    spans |= {
        m.span()
        for m in _MONTH_YEAR.finditer(text)
        # "Resolución 3/2022" is a law's number; "resolución nov/2022" names its month
        if not m.group(0)[0].isdigit() or not _NUMBERED_BEFORE.search(text, max(0, m.start() - 24), m.start())
    }
    spans |= {m.span("date") for m in _LOGGED_DAY_MONTH.finditer(text) if parse_date(m.group("date")) is not None}
    if len(_NUMERIC_DATE.findall(text)) >= _DATES_FOR_EVIDENCE:
        # (a writer who puts the month first writes no British span of months: "out 8/12–8/16")
        british = month_first_evidence(text) <= 0
        spans |= {
            m.span("date")
            for m in _DAY_MONTH_IN_DATED_TEXT.finditer(text)
            if parse_date(m.group("date")) is not None
            and not _a_score(m.group("date"))
            and not _a_fraction(m.group("date"))
            and not _a_named_score_or_page(text, m.start("date"), m.group("date"))
            and not (british and _a_duration_or_share(text, m.start("date"), m.group("date")))
            and not _READING_BEFORE.search(text, max(0, m.start() - 24), m.start())
        }
    spans |= {
        m.span("date")
        for m in _TWO_DIGIT_DAY_MONTH.finditer(text)
        if parse_date(m.group("date")) is not None
        and not _a_score(m.group("date"))
        and not _READING_BEFORE.search(text, max(0, m.start() - 24), m.start())
    }
    return spans


def find_dates(text: str) -> list[tuple[int, int]]:
    """The spans of every date in ``text``, longest first where two forms overlap; a weekday written before
    a date is part of it ("Sat 15/03/2025", "vie, 16 may 2025")."""
    spans = sorted(
        {
            match.span()
            for pattern in _COMPILED
            for match in pattern.finditer(text)
            if _plausible(match) and not _a_version(text, match)
        }
        | _extra_spans(text),
        key=lambda span: (span[0], -span[1]),
    )
    spans = [_with_range(text, *_with_weekday(text, start, end), spans) for start, end in spans]
    spans.sort(key=lambda span: (span[0], -span[1]))
    kept: list[tuple[int, int]] = []
    for start, end in spans:
        if kept and start < kept[-1][1]:
            if end > kept[-1][1]:
                kept[-1] = (kept[-1][0], end)
            continue
        kept.append((start, end))
    return kept


_MONTH_WORD = (
    r"(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|Sep(?:t(?:ember)?)?|"
    r"Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)"
)
# The other end of a range that shares the date's month or year: "2 and 9 October 2023", "May–August 2023",
# "12 to 15 June" before it, "Jan 3–5" after it.
RANGE_SEPARATOR = r"[ \t]*(?:–|—|-|to|and|through|thru|till|until)[ \t]*"
_RANGE_START = re.compile(
    rf"(?<![\w.,/:])(?:(?:[12]\d|3[01]|0?[1-9])(?:st|nd|rd|th)?|{_MONTH_WORD}\.?){RANGE_SEPARATOR}$"
)
_RANGE_END = re.compile(
    r"[ \t]*(?:–|—|-)[ \t]*(?:[12]\d|3[01]|0?[1-9])(?:st|nd|rd|th)?\b(?![ \t]*(?:%|[.,:/]\d|[a-zA-Z]))"
)


def _with_range(text: str, start: int, end: int, dates: list[tuple[int, int]] = ()) -> tuple[int, int]:
    """A date with the other end of the range it closes or opens, where that end is only a day or a month —
    not the end of a whole date of its own ("Dec 22 to Dec 30" is two dates, each with its stand-in), and
    never before a date that opens with its year (":15 and 2025-01-28" is a time's minutes)."""
    before = _RANGE_START.search(text, max(0, start - 16), start)
    if (
        before
        and re.match(rf"(?:\d{{1,2}}(?!\d)|{_MONTH_WORD})", text[start:end])
        and not any(s < before.start() < e for s, e in dates)
    ):
        start = before.start()
    after = _RANGE_END.match(text, end)
    if after and text[start:end][-1:].isdigit() and re.search(rf"{_MONTH_WORD}\.? ?\d{{1,2}}$", text[start:end]):
        end = after.end()
    return start, end


def _with_weekday(text: str, start: int, end: int) -> tuple[int, int]:
    before = _WEEKDAY_BEFORE.search(text[max(0, start - 12) : start])
    if before and re.match(rf"(?i:{_ANY_WEEKDAY})\b", text[start:end]) is not None:
        return start, end  # the date itself opens with its weekday ("Friday 21st" found whole already)
    spelled = re.match(r"[^\W\d_]", text[start:end]) is not None
    if before and spelled and parse_date(text[start - len(before.group(0)) : end]) is None:
        return start, end  # a weekday the stand-in of a spelled date could not be written with
    return (start - len(before.group(0)), end) if before else (start, end)


_VERSION_CUE = re.compile(r"(?i)\b(?:version|versión|release|v|ver|rev|build|update to|upgrade to)\.?\s*$")


def _a_version(text: str, match: re.Match) -> bool:
    """ "version 2.2.40", "v1.4.12": a release's number written as a dotted date could be, not a date."""
    surface = match.group(0)
    return re.fullmatch(r"\d{1,2}\.\d{1,2}\.\d{1,4}", surface) is not None and bool(
        _VERSION_CUE.search(text[max(0, match.start() - 16) : match.start()])
    )


def _plausible(match: re.Match) -> bool:
    """A day of 1-31 and, in a numeric date, a month of 1-12 somewhere: "120/80" is a blood pressure."""
    groups = match.groupdict()
    if groups.get("a") is not None:
        return parse_date(match.group(0)) is not None
    day = groups.get("day")
    if day is not None and not 1 <= int(day) <= 31:
        return False
    month = groups.get("month")
    if month and month.lower().rstrip(".") in ("may", "mar", "jun", "sep", "set") and month[0].islower():
        # "may" and "mar" are words too; lower-case month names only in a date with a day and year
        return groups.get("day") is not None and (groups.get("year") is not None or "de" in match.group(0))
    return True


def sub_dates(text: str, replace: Callable[[str], str]) -> str:
    """``text`` with every date replaced by ``replace(date_text)``."""
    out, cursor = [], 0
    for start, end in find_dates(text):
        out += [text[cursor:start], replace(text[start:end])]
        cursor = end
    out.append(text[cursor:])
    return "".join(out)


@dataclass(frozen=True)
class ParsedDate:
    """The date a text names, how precisely, and how to write any other date the same way."""

    day: date
    render: Callable[[date], str]
    precision: Precision

    def __iter__(self):  # ``day, render = parse_date(...)`` reads as the pair it is
        return iter((self.day, self.render))

    def __getitem__(self, index: int):
        return (self.day, self.render)[index]

    def shifted(self, days: int) -> str:
        """This date moved by ``days`` (a month-and-year by whole months, so it can be moved back exactly)."""
        return self.render(shift(self.day, days, self.precision))

    def same_as(self, other: ParsedDate) -> bool:
        """The same date as far as both texts say (a day and month without a year match any year)."""
        if Precision.DAY_ONLY in (self.precision, other.precision):
            return self.day.day == other.day.day
        if Precision.MONTH in (self.precision, other.precision):
            return (self.day.year, self.day.month) == (other.day.year, other.day.month)
        if Precision.DAY_NO_YEAR in (self.precision, other.precision) or Precision.WEEKDAY in (
            self.precision,
            other.precision,
        ):
            return (self.day.month, self.day.day) == (other.day.month, other.day.day)
        return self.day == other.day


def shift(day: date, days: int, precision: Precision) -> date:
    if precision is Precision.MONTH:
        months = days // 30 if days >= 0 else -((-days) // 30)
        months = months or (1 if days >= 0 else -1)
        index = day.year * 12 + day.month - 1 + months
        return date(index // 12, index % 12 + 1, 1)
    return day + timedelta(days=days)


def parse_date(text: str, month_first: bool = False) -> ParsedDate | None:
    """The date ``text`` names, or None if it names none of the forms above. ``month_first``: a numeric date
    that reads either way ("02/09/2025") is read month first, as the rest of its conversation writes dates."""
    text = text.strip()
    weekday = re.match(rf"(?i:(?P<weekday>{_ANY_WEEKDAY})(?P<sep>,?\s?))(?=\d|[^\W\d_])", text)
    if weekday:
        rest = parse_date(text[weekday.end() :], month_first)
        if rest is not None and rest.precision is not Precision.DAY_ONLY:  # "Friday 21st": the forms below
            return _with_weekday_render(weekday.group("weekday"), weekday.group("sep"), rest)
    day_month = re.fullmatch(r"(\d{1,2})([/.])(\d{1,2})", text)
    if day_month:
        return _day_month(*day_month.groups(), month_first)
    month_year = re.fullmatch(r"(\d{1,2})/((?:19|20)\d{2})", text)
    if month_year and 1 <= int(month_year.group(1)) <= 12:
        width = len(month_year.group(1))
        return ParsedDate(
            date(int(month_year.group(2)), int(month_year.group(1)), 1),
            lambda d: f"{str(d.month).zfill(width)}/{d.year}",
            Precision.MONTH,
        )
    # "nov/2022", "Sept-21": a month's short name, a separator and a year, written again alike
    short = re.fullmatch(r"([^\W\d_]{3,4})(\.?[/\-])((?:19|20)?\d{2})", text)
    if short and (month := _month_number(short.group(1))) is not None:
        name, separator, year_text = short.groups()
        year = int(year_text) if len(year_text) == 4 else _full_year(year_text)
        spanish = name.lower() in _ES_ONLY or name.islower() and name.lower() in ("ene", "abr", "ago", "dic", "set")
        return ParsedDate(
            date(year, month, 1),
            lambda d: (
                _month_like(name, d.month, spanish)[: 4 if len(name) == 4 and d.month == 9 else 3]
                + separator
                + (str(d.year) if len(year_text) == 4 else f"{d.year % 100:02d}")
            ),
            Precision.MONTH,
        )
    # a day written without separators, as a file's name writes it: "20250502", "140324" (day first)
    compact = re.fullmatch(r"((?:19|20)\d{2})(\d{2})(\d{2})|(\d{2})(\d{2})(\d{2})", text)
    if compact:
        return _compact(compact)
    lone = re.fullmatch(r"(\d{1,2})(st|nd|rd|th|º|(?<=[23])d)?", text)
    if lone and 1 <= int(lone.group(1)) <= 31:
        return ParsedDate(
            date(2000, 1, int(lone.group(1))),
            lambda d, suffix=lone.group(2): str(d.day) + (_ordinal_like(suffix, d.day) or ""),
            Precision.DAY_ONLY,
        )
    spelled_day = parse_spelled_day(text)
    if spelled_day is not None:
        number, render = spelled_day
        return ParsedDate(date(2000, 1, number), render, Precision.DAY_ONLY)
    month_alone = _month_number(text) if re.fullmatch(r"[^\W\d_]+\.?", text) else None
    if month_alone is not None:
        spanish = text.lower().rstrip(".") in _ES_ONLY or text.islower()
        return ParsedDate(date(2000, month_alone, 1), lambda d: _month_like(text, d.month, spanish), Precision.MONTH)
    spelled = parse_spelled(text)
    if spelled is not None:
        day, render, with_year = spelled
        return ParsedDate(day, render, Precision.DAY if with_year else Precision.DAY_NO_YEAR)
    for pattern in _WHOLE:
        match = pattern.fullmatch(text)
        if match:
            parsed = _numeric(match, month_first) if match.groupdict().get("a") is not None else _named(match)
            if parsed is not None:
                return parsed
    return None


def _with_weekday_render(weekday: str, sep: str, rest: ParsedDate) -> ParsedDate:
    spanish = _plain(weekday.lower().rstrip(".")) in {_plain(w) for w in _ES_WEEKDAYS} or weekday.lower().rstrip(
        "."
    ) in ("lun", "mie", "mié", "jue", "vie", "sab", "sáb", "dom")

    def render(d: date) -> str:
        if spanish and len(weekday.rstrip(".")) <= 3:
            name = _ES_WEEKDAYS[d.weekday()][:3]
            name = name[:1].upper() + name[1:] if weekday[:1].isupper() else name
            shown = name + ("." if weekday.endswith(".") else "")
        else:
            shown = _weekday_like(weekday, d, spanish)
        return f"{shown}{sep}{rest.render(d)}"

    return ParsedDate(rest.day, render, rest.precision)


# A numeric date that can be read one way only: "3/17/2025" month first, "17/3/2025" day first.
# Only dates with their year count: "10-14 days", "1.25 mg" and "10.30" are no dates.
_NUMERIC_DATE = re.compile(r"(?<![\d/.\-])(\d{1,2})([/\-])(\d{1,2})\2(\d{4}|\d{2})(?![\d/\-]|\.\d)")


def month_first_evidence(text: str) -> int:
    """How many more of ``text``'s numeric dates can only be read month first than day first: above zero, the
    writer puts the month first (the United States), and a date that reads either way is read so too."""
    evidence = 0
    for match in _NUMERIC_DATE.finditer(text):
        first, second = int(match.group(1)), int(match.group(3))
        if 1 <= first <= 12 < second <= 31:
            evidence += 1
        elif 1 <= second <= 12 < first <= 31:
            evidence -= 1
    return evidence


def _day_month(first: str, sep: str, second: str, month_first_if_either: bool = False) -> ParsedDate | None:
    """ "3/17" (month first: the second cannot be a month) or "16/01" (day first, as most of the world, unless
    the conversation writes month first)."""
    month_first = int(first) <= 12 and (int(second) > 12 or month_first_if_either and int(second) <= 12)
    day, month = (int(second), int(first)) if month_first else (int(first), int(second))
    if not 1 <= month <= 12 or not _valid(2000, month, day):
        return None

    def render(d: date) -> str:
        a, b = (d.month, d.day) if month_first else (d.day, d.month)
        return f"{str(a).zfill(len(first))}{sep}{str(b).zfill(len(second))}"

    return ParsedDate(date(2000, month, day), render, Precision.DAY_NO_YEAR)


def _compact(match: re.Match) -> ParsedDate | None:
    """A day of eight digits (year first) or six (day first, a two-digit year), written again alike."""
    eight = match.group(1) is not None
    year, month, day = (
        (int(match.group(1)), int(match.group(2)), int(match.group(3)))
        if eight
        else (2000 + int(match.group(6)), int(match.group(5)), int(match.group(4)))
    )
    try:
        parsed = date(year, month, day)
    except ValueError:
        return None
    if eight:
        return ParsedDate(parsed, lambda d: f"{d.year}{d.month:02d}{d.day:02d}", Precision.DAY)
    return ParsedDate(parsed, lambda d: f"{d.day:02d}{d.month:02d}{d.year % 100:02d}", Precision.DAY)


def _numeric(match: re.Match, month_first_if_either: bool = False) -> ParsedDate | None:
    first, second, third = match.group("a"), match.group("b"), match.group("c")
    if len(first) == 3 or (len(first) == 4 and len(third) == 4):
        return None  # "2024-12-2024" is no date
    if len(first) == 4:
        order = "ymd"
    elif int(first) > 12:
        order = "dmy"
    elif int(second) > 12:
        order = "mdy"
    else:  # either way: day first, as in the UK, Spain and most of the world, unless the conversation says not
        order = "mdy" if month_first_if_either else "dmy"
    fields = dict(zip(order, (first, second, third), strict=True))
    if len(fields["y"]) not in (2, 4):
        return None
    year = _full_year(fields["y"])
    try:
        parsed = date(year, int(fields["m"]), int(fields["d"]))
    except ValueError:
        return None
    sep = match.group("sep")

    def render(d: date) -> str:
        values = {"y": d.year % 100 if len(fields["y"]) == 2 else d.year, "m": d.month, "d": d.day}
        return sep.join(str(values[key]).zfill(len(fields[key])) for key in order)

    return ParsedDate(parsed, render, Precision.DAY)


def _named(match: re.Match) -> ParsedDate | None:
    groups = match.groupdict()
    month_text = groups.get("month")
    if month_text is None and groups.get("weekday"):
        return _weekday_and_day(match)
    if month_text in _ROMAN_MONTHS:
        month = _ROMAN_MONTHS.index(month_text) + 1
    else:
        month = _month_number(month_text) if month_text else None
    if month is None:
        return None
    year_text = groups.get("year")
    day_text = groups.get("day")
    weekday_text = groups.get("weekday")
    year = _full_year(year_text.lstrip("'")) if year_text else 2000  # a leap year: 29 February reads
    try:
        parsed = date(year, month, int(day_text) if day_text else 1)
    except ValueError:
        return None
    if day_text is None:
        precision = Precision.MONTH
    elif year_text is None:
        precision = Precision.DAY_NO_YEAR
    else:
        precision = Precision.DAY
    spanish = month_text.lower().rstrip(".") in _ES_ONLY or " de " in match.group(0).lower()
    original = match.group(0)
    base = match.start()

    def render(d: date) -> str:
        pieces = {
            "month": _month_like(month_text, d.month, spanish),
            "day": str(d.day).zfill(len(day_text)) if day_text and day_text.startswith("0") else str(d.day),
            "year": _year_like(year_text, d.year) if year_text else None,
            "ordinal": _ordinal_like(groups.get("ordinal"), d.day),
            "weekday": _weekday_like(weekday_text, d, spanish) if weekday_text else None,
        }
        out, cursor = [], 0
        for name in sorted((n for n in pieces if groups.get(n)), key=lambda n: match.start(n)):
            start, end = match.start(name) - base, match.end(name) - base
            out += [original[cursor:start], pieces[name]]
            cursor = end
        out.append(original[cursor:])
        return "".join(out)

    return ParsedDate(parsed, render, precision)


def _weekday_and_day(match: re.Match) -> ParsedDate | None:
    """ "Friday 21st", "el viernes 21": a day of some month that falls on that weekday."""
    weekday_text, day_text = match.group("weekday"), match.group("day")
    spanish = weekday_text.lower() in _ES_WEEKDAYS_PLAIN
    stem = weekday_text.lower().rstrip(".")
    names = [n.lower() for n in (_ES_WEEKDAYS if spanish else _EN_WEEKDAYS)]
    if stem in _REGIONAL_WEEKDAYS:
        names = _CA_WEEKDAYS if stem in _CA_WEEKDAYS else _GL_WEEKDAYS
    weekday = next((i for i, n in enumerate(names) if n.startswith(stem[:3]) or _plain(n) == _plain(stem)), None)
    if weekday is None or not 1 <= int(day_text) <= 31:
        return None
    anchor = next(
        date(2000 + i // 12, i % 12 + 1, int(day_text))
        for i in range(48)
        if int(day_text) <= 28 or _valid(2000 + i // 12, i % 12 + 1, int(day_text))
        if date(2000 + i // 12, i % 12 + 1, int(day_text)).weekday() == weekday
    )
    original, base = match.group(0), match.start()

    def render(d: date) -> str:
        pieces = {
            "weekday": _weekday_like(weekday_text, d, spanish),
            "day": str(d.day),
            "ordinal": _ordinal_like(match.group("ordinal") if "ordinal" in match.groupdict() else None, d.day),
        }
        out, cursor = [], 0
        for name in sorted((n for n in pieces if match.groupdict().get(n)), key=match.start):
            out += [original[cursor : match.start(name) - base], pieces[name]]
            cursor = match.end(name) - base
        out.append(original[cursor:])
        return "".join(out)

    return ParsedDate(anchor, render, Precision.WEEKDAY)


def _valid(year: int, month: int, day: int) -> bool:
    try:
        date(year, month, day)
    except ValueError:
        return False
    return True


def _plain(word: str) -> str:
    return word.replace("é", "e").replace("á", "a")


def _weekday_like(original: str, day: date, spanish: bool) -> str:
    names = _ES_WEEKDAYS if spanish or original.lower() in _ES_WEEKDAYS_PLAIN else _EN_WEEKDAYS
    for regional in (_CA_WEEKDAYS, _GL_WEEKDAYS):
        if original.lower().rstrip(".") in _REGIONAL_WEEKDAYS and original.lower().rstrip(".") in regional:
            names = regional  # "dijous 17" becomes another Catalan weekday, not a Spanish one
    name = names[day.weekday()]
    stem = original.rstrip(".")
    if stem.lower() in ("weds", "tues", "thur", "thurs") and not spanish:
        # a message's own short forms, not a fixed width: "Weds 9th" becomes "Sat 8th", not "Satu 8th"
        name = _EN_INFORMAL_WEEKDAYS[day.weekday()] + ("." if original.endswith(".") else "")
    elif len(stem) <= 4 and not spanish:
        name = name[: len(stem)] + ("." if original.endswith(".") else "")
    return _case_like(stem, name)


_EN_INFORMAL_WEEKDAYS = "Mon Tues Weds Thurs Fri Sat Sun".split()


_ES_ONLY = frozenset(
    "enero febrero marzo abril mayo junio julio agosto septiembre setiembre octubre noviembre "
    "diciembre ene abr ago set dic".split()
)
_ES_WEEKDAYS_PLAIN = frozenset("lunes martes miércoles miercoles jueves viernes sábado sabado domingo".split())


def _month_like(original: str, month: int, spanish: bool) -> str:
    if original in _ROMAN_MONTHS:
        return _ROMAN_MONTHS[month - 1]
    stem = original.rstrip(".")
    dot = "." if original.endswith(".") else ""
    names = _ES_MONTHS if spanish else _EN_MONTHS
    if stem.lower() in _CA_MONTHS and stem.lower() not in _ES_MONTHS:
        names = _CA_MONTHS
    elif stem.lower() in _GL_MONTHS and stem.lower() not in _ES_MONTHS:
        names = _GL_MONTHS
    name = names[month - 1]
    full = stem.lower() in {n.lower() for n in names} or stem.lower() == "setiembre"
    if not full:
        name = name[: max(3, len(stem))] if not (stem.lower() == "sept" and month == 9) else name[:4]
        name = name[:3] if len(stem) == 3 else name
    return _case_like(stem, name) + dot


def _year_like(original: str, year: int) -> str:
    digits = original.lstrip("'")
    prefix = original[: len(original) - len(digits)]
    return prefix + (f"{year % 100:02d}" if len(digits) == 2 else str(year))


def _ordinal_like(original: str | None, day: int) -> str | None:
    if not original:
        return None
    if original.rstrip(".") in ("º", "°", "ro", "er", "o"):
        return original if day == 1 else ""  # "1º de mayo", "1ro. de mayo", but "15 de junio"
    older = original.lower() == "d"
    suffix = (
        "th"
        if 11 <= day % 100 <= 13
        else {1: "st", 2: "d" if older else "nd", 3: "d" if older else "rd"}.get(day % 10, "th")
    )
    return suffix.upper() if original.isupper() else suffix


def _case_like(model: str, word: str) -> str:
    if model.isupper() and len(model) > 1:
        return word.upper()
    if model[:1].isupper():
        return word[:1].upper() + word[1:]
    return word.lower()


def _full_year(text: str) -> int:
    value = int(text)
    if len(text) == 2:
        return value + (2000 if value < 50 else 1900)
    return value


def _month_number(name: str) -> int | None:
    key = name.lower().rstrip(".")
    if key == "setiembre" or key == "set":
        return 9
    for names in (_EN_MONTHS, _ES_MONTHS):
        for index, month in enumerate(names, start=1):
            if month.lower() == key or (len(key) >= 3 and month.lower().startswith(key)):
                return index
    for regional in (_CA_MONTHS, _GL_MONTHS):
        if key in regional:
            return regional.index(key) + 1
    return None
