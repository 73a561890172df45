"""Realistic stand-ins for identifiers: a name for a name, a date shifted by one offset, a number of the
same format — so the model still reads a letter about a person, with the intervals between dates intact.

A ``SurrogateMaker`` serves one conversation: it draws from its own seeded generator, shifts every date by
the same number of days, maps each name word to one other name word (so "Camille Collin", "Ms Collin"
and "COLLIN, Camille" stay one person), and never hands out a value that is an original in the same
conversation or already stands for another one.
"""

from __future__ import annotations

import functools
import importlib
import random
import re
from collections.abc import Callable

from app.identifiers import lexicon, spelled_numbers, towns
from app.identifiers.dates import RANGE_SEPARATOR, other_holiday, parse_date
from app.identifiers.entities import EntityType
from app.identifiers.rules import GENERIC_INSTITUTION_WORDS, HOST_DOT, LEGAL_FORM_ENDING, MAILBOX_AT

T = EntityType
# (and the honorifics, ranks and generational numbers the detector reads beside a name, kept as written: "Md.
# Alamgir Hossain" is "Md." and another name, "Nana Kofi Adjei III" another chief of the same stool's line)
_TITLES = lexicon.TITLES | frozenset(
    "professor judge justice abg abgda letrado letrada md mohd muhd nana haji hajjah alhaji alhaja togbe opanin "
    "oba mst mosammat sgt cpl const cst insp supt capt cllr revd ii iii iv jr advocate".split()
)
# A title says which first names read naturally after it: "Mrs Mario Walker" makes a model stumble.
_FEMALE_TITLES = frozenset(
    "mrs ms miss dame lady dña dª doña sra srta dra licda mtra profa abgda letrada lda señora señorita".split()
)
_MALE_TITLES = frozenset("mr sir lord don sr mtro letrado ldo señor".split())
# A name's particles, and the words that join it to a parent's or a late husband's ("binte", "s/o", "viuda de"):
# the stand-in keeps them, so the model still reads whose child or widow.
_PARTICLES = frozenset(
    "van von der den de del della di da du le la ter ten bin al el ap 't binte binti bint ibn ben s/o d/o a/l "
    "a/p viuda vda".split()
)
_PUBLIC_MAIL = frozenset(
    "gmail.com googlemail.com outlook.com hotmail.com hotmail.co.uk live.com yahoo.com yahoo.co.uk icloud.com "
    "proton.me protonmail.com btinternet.com aol.com mail.com nhs.net example.com example.net example.org".split()
)
_COMPANY_WORDS = frozenset(
    "ltd limited llp llc inc incorporated corp corporation plc gmbh kg ag sa sas bv nv co company group holdings "
    "partners partnership associates trust foundation hospital general royal infirmary medical centre center "
    "health surgery family practice clinic hospice nhs estates lettings builders logistics property software "
    "consulting foods capital technologies and & st of the".split()
)
# An institution's kind and its links stay, so the model still reads a court, a ward or a firm: "Juzgados de
# Valencia" becomes the courts of another town, not a surname.
_KEPT_IN_ORGANISATIONS = (
    _COMPANY_WORDS
    | _PARTICLES
    | GENERIC_INSTITUTION_WORDS
    | frozenset(
        "juzgados tribunales audiencias hospitales servicio servicios unidad registro notaría notaria colegio "
        "ilustre despacho abogados consultorio farmacia ayuntamiento universidad instituto fiscalía fiscalia "
        "clínico clinico court courts tribunal council university college school banco caja seguros supermercado "
        "supermercados aseguradora cooperativa hotel restaurante tienda taller bank".split()
    )
    # the kinds a name typed in lower case is found by, and a saint's word: "brookfield primary", "hartley & webb
    # solicitors", "clinica san rafael" stay a school, a firm and a clinic
    | frozenset(
        "care home nursing residential "
        "primary nursery solicitors solicitor advocates attorneys lawyers chambers academy pharmacy chemist farmacias "
        "clínica clinica clínicas clinicas centro salud sanatorio escuela residencia guardería guarderia "
        "policlínico policlinico san santa saint".split()
    )
    # a court's or a body's kind and the words joining its name: "CIRCUIT COURT FOR … COUNTY"
    | frozenset(
        "of for the and at in on county parish borough district city state circuit superior municipal probate "
        "magistrates crown supreme appeals appellate federal bankruptcy".split()
    )
)
_STREET_WORDS = frozenset(
    "street st road rd avenue ave lane ln close drive dr way court ct place pl crescent cres boulevard blvd terrace "
    "gardens grove square sq row walk path parade mews hill park rise view green loop shoals flat apt apartment unit "
    "suite c calle avenida avda av paseo plaza piso puerta bajo izq izquierda dcha derecha rua ul apto dpto depto "
    "carrera cra colonia col km carrer avinguda passeig plaça placa rambla travessera camí cami kalea etorbidea "
    "triq rúa praza rolda pasaje bloque casa zona plot box blk private locked mail bag pmb lp erf trace route clos "
    "rue ne nw se sw nb sb eb wb".split()
)
FAKER_LOCALES = ("en_GB", "en_US")
# A Spanish conversation's stand-ins are Spanish and Mexican names, towns and streets.
SPANISH_LOCALES = ("es_ES", "es_MX")
REALISTIC = "realistic"  # a name for a name, a shifted date, a number of the same format
TAGS = "tags"  # [PERSON_1], [DATE_2]: what redaction tools print; kept to measure against
STYLES = (REALISTIC, TAGS)
_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)?")
# A number, and its ordinal's suffix when it has one ("5th", not the "B" of "12B").
_NUMBER_AND_ORDINAL = re.compile(r"(\d+)((?i:st|nd|rd|th)(?![^\W\d_]))?")
# The words that join the two streets of a corner ("grand and 5th"): the model reads a corner still.
_THIS_MONTH_OR_YEAR = re.compile(
    r"(?<=\w) (?i:del (?:corriente|presente|actual|mismo)(?: mes)?|del presente año|del año en curso|de este año|"
    r"del corriente año|del año pasado|of this year|of last year)$"
)
_CORNER_WORDS = frozenset("and y & at on corner of por x con entre".split())


def _after_digit(match: re.Match) -> bool:
    """A word written onto a number ("12B", "5th"): the number's, not a name."""
    return match.start() > 0 and match.string[match.start() - 1].isdigit()


def _first_name_kind(words: set[str], given: str | None = None) -> str:
    """Which first names may stand in, judging by the title written with the name, else by the given name
    itself: "my dad teodoro" read back as "rebecca" would have the model write "she" of a father."""
    if words & _FEMALE_TITLES:
        return "first_female"
    if words & _MALE_TITLES:
        return "first_male"
    return given_name_kind(given) if given else "first"


# The given names Faker's person providers list by gender, in every locale written in the Latin alphabet
# (the offices' languages and those their patients and clients come from: Irish, Indian, Nigerian, Kenyan,
# South African, Latin American). A name goes with the gender at least three times as many locales give it
# ("Andrea", "Emma"); one the locales split on ("Jean", "Nicola") decides nothing.
_GENDERED_NAME_LOCALES = (
    "cs_CZ da_DK de_AT de_CH de_DE de_LI de_LU en en_GB en_IE en_IN en_KE en_NG en_NZ en_US es_AR es_CA es_CL "
    "es_CO es_ES es_MX et_EE fi_FI fr_BE fr_CA fr_CH fr_DZ fr_FR fr_QC ga_IE ha_NG hr_HR hu_HU id_ID ig_NG is_IS "
    "it_IT lv_LV nl_BE nl_NL no_NO pl_PL pt_BR pt_PT ro_RO sk_SK sl_SI sv_SE sw tr_TR tw_GH uz_UZ yo_NG zu_ZA"
).split()
# A given name no list knows: in the Romance languages (and many others) one ending in -a is a woman's and one
# in -o a man's; any other ending decides nothing.
_ENDING_KINDS = {"a": "first_female", "o": "first_male"}


@functools.cache
def _given_name_kinds() -> dict[str, str]:
    """A given name (lower case) -> the kind of first name that stands in for it."""
    votes: dict[str, dict[str, int]] = {}
    for locale in _GENDERED_NAME_LOCALES:
        provider = importlib.import_module(f"faker.providers.person.{locale}").Provider
        for kind, names in (("first_female", provider.first_names_female), ("first_male", provider.first_names_male)):
            for name in {n.lower() for n in names}:
                counts = votes.setdefault(name, {"first_female": 0, "first_male": 0})
                counts[kind] += 1
    kinds = {}
    for name, counts in votes.items():
        female, male = counts["first_female"], counts["first_male"]
        if female >= 3 * male:
            kinds[name] = "first_female"
        elif male >= 3 * female:
            kinds[name] = "first_male"
        else:
            kinds[name] = "first"
    return kinds


def given_name_kind(given: str) -> str:
    """The kind of first name that stands in for ``given``: by the lists, else by its ending."""
    lower = given.lower()
    known = _given_name_kinds().get(lower)
    if known is not None:
        return known
    return _ENDING_KINDS.get(lower[-1:], "first") if len(lower) > 2 and lower.isalpha() else "first"


_SPANISH_UNITS = "uno dos tres cuatro cinco seis siete ocho nueve".split()
_ENGLISH_UNITS = "one two three four five six seven eight nine".split()


def _spelled_nineties(unit: int, spanish: bool, units: list[str]) -> str:
    """90 + ``unit`` in words: "noventa y tres", "ninety-three", "noventa"."""
    if unit == 0:
        return "noventa" if spanish else "ninety"
    return f"noventa y {units[unit - 1]}" if spanish else f"ninety-{units[unit - 1]}"


# A name spelled out letter by letter ("p-e-n-n-i-n-g-t-o-n", "o apostrophe d o n o g h u e", "M.A.C.K.A.Y.").
_SPELLED_OUT = re.compile(r"[a-z](?:(?:[-–.]|\s(?:(?:apostrophe|hyphen|double)\s)?)[a-z](?![a-z])){3,}\.?", re.I)
_JOINING_WORD = re.compile(r"(?i)(?<=\s)(?:of|de|del)(?=\s)(?:\s+(?:19|20)\d{2}$)?")
# The kinds of number a deed may write in words ("ESCRITURA NÚMERO CIENTO OCHENTA Y SIETE"); an age in words
# has its own stand-in.
_SPELLABLE = frozenset({T.RECORD_NUMBER, T.CASE_NUMBER, T.LICENCE, T.NATIONAL_ID, T.ACCOUNT, T.OTHER})
# A name word's stand-in is drawn at most this many times before the last draw is kept
_DRAWS_FROM_A_POOL = 50


class SurrogateMaker:
    """Stand-ins for one conversation's identifiers; ``taken`` holds every original it must never produce."""

    def __init__(
        self, seed: int, taken: Callable[[str], bool], date_offset_days: int | None = None, style: str = REALISTIC
    ):
        from faker import Faker

        if style not in STYLES:
            raise ValueError(f"stand-in style must be one of {', '.join(STYLES)}")
        self.style = style
        self._tags: dict[EntityType, int] = {}

        self._rng = random.Random(seed)
        # One generator per locale, picked by this conversation's own random stream: a multi-locale Faker
        # proxy costs more per name than the name itself.
        self._english = [Faker(locale) for locale in FAKER_LOCALES]
        self._spanish = [Faker(locale) for locale in SPANISH_LOCALES]
        for index, fake in enumerate(self._english + self._spanish):
            fake.seed_instance(seed + index)
        self._fakes = self._english
        self._taken = taken
        self.date_offset_days = date_offset_days or self._rng.choice([-1, 1]) * self._rng.randrange(30, 400)
        self.words: dict[str, str] = {}  # an original name word (its name_key) -> its stand-in (as written)
        self._used: set[str] = set()
        self._ages: dict[int, str] = {}  # an age in years -> the age standing in for it
        self.month_first = False  # the conversation writes numeric dates month first (set by its pseudonymiser)

    # -- the public entry point ----------------------------------------------------------------------
    def remember(self, kind: EntityType, stand_in: str) -> None:
        """``stand_in`` was handed out before (a conversation reopened): never hand it out again."""
        self._used.add(stand_in.lower())
        if self.style == TAGS:
            self._tags[kind] = self._tags.get(kind, 0) + 1

    def make(self, kind: EntityType, original: str, spanish: bool = False) -> str:
        """A stand-in for ``original``: same kind, same shape, never an original nor another's stand-in.
        ``spanish``: the text it stands in is Spanish, so a name or a town is drawn from Spanish ones."""
        self._fakes = self._spanish if spanish else self._english
        if self.style == TAGS:
            self._tags[kind] = self._tags.get(kind, 0) + 1
            return f"[{kind.value.upper()}_{self._tags[kind]}]"
        if kind in _SPELLABLE and (spelled := self._spelled_number(original)) is not None:
            return spelled
        maker = {
            T.PERSON: self._person,
            T.ORGANIZATION: self._organization,
            T.ADDRESS: self._address,
            T.DATE: self._date,
            T.AGE: self._age,
            T.EMAIL: self._email,
            T.URL: self._url,
            T.LOCATION: self._place,
            T.CARD: self._card,
            T.IP_ADDRESS: self._ip,
            T.PHONE: self._phone,
            T.OTHER: self._other,
        }.get(kind, self._same_format)
        if kind in (T.PERSON, T.ORGANIZATION, T.ADDRESS, T.LOCATION, T.OTHER):
            for _ in range(20):
                made = maker(original)  # built word by word: each word's stand-in is already unique and free
                if kind in (T.PERSON, T.ORGANIZATION):
                    # a code a name or a firm was found with ("Hospital UHID KDAH-2025-0087341", "HC-558201")
                    # must not keep its digits: words are replaced word by word, so numbers are renumbered here
                    made = re.sub(r"\d+", self._other_digits, made)
                # its numbers are drawn afresh each time: "Unit 2" must not become "Unit 1" where the text has
                # a "Unit 1" of its own, which the answer's "Unit 1" would then be put back as
                if not re.search(r"\d", made) or not self._taken(made) and made.lower() not in self._used:
                    break
            if made.lower() != original.lower():
                if re.search(r"\d", made):
                    self._used.add(made.lower())
                return made
            # Only words kept as they are ("VAN DEN", "St"): the whole of it stands in as one name.
            return self.word(original, "place" if kind in (T.ADDRESS, T.LOCATION) else "last")
        attempts = 400 if kind is T.DATE else 50
        for attempt in range(attempts):
            if kind is T.DATE:
                candidate = self._date(original, attempt)
            elif kind is T.AGE:
                candidate = self._age(original, redraw=attempt > 0)  # a remembered age that is taken: another
            else:
                candidate = maker(original)
            if candidate != original and not self._taken(candidate) and candidate.lower() not in self._used:
                self._used.add(candidate.lower())
                return candidate
        if kind is T.DATE:
            # A day or a month alone ("the 12th", "marzo") has few forms, and a long text may already use every
            # one of them as a word: then a form no other identifier of the conversation has is enough.
            for attempt in range(attempts):
                candidate = self._date(original, attempt)
                if candidate != original and candidate.lower() not in self._used:
                    self._used.add(candidate.lower())
                    return candidate
        raise RuntimeError(f"no stand-in found for a {kind.value}")

    # -- names ---------------------------------------------------------------------------------------
    def word(self, original: str, kind: str) -> str:
        """The stand-in of one name word, the same every time it is asked for (in ``original``'s case)."""
        key = name_key(original)
        if key not in self.words:
            in_use = {v.lower() for v in self.words.values()}
            town_pool = self._town_pool(original) if kind == "place" else []
            for _ in range(_DRAWS_FROM_A_POOL):
                if kind == "acronym":  # capitals of the same length: a surname would read as no abbreviation
                    candidate = "".join(_random_letter(self._rng) for _ in original).upper()
                    if candidate.lower() != key and not self._taken(candidate) and candidate.lower() not in in_use:
                        break
                    continue
                if kind == "place" and town_pool:
                    candidate = self._rng.choice(town_pool)
                    # by its key: "Bogota" must not come back as "Bogotá"
                    if name_key(candidate) != key and not self._taken(candidate) and candidate.lower() not in in_use:
                        break
                    continue
                fake = self._rng.choice(self._fakes)
                candidate = {
                    "first": fake.first_name,
                    "first_female": fake.first_name_female,
                    "first_male": fake.first_name_male,
                    "last": fake.last_name,
                    "org": fake.last_name,
                    "place": fake.city,
                }[kind]()
                # a name's word stands in for one word: Faker's "María Dolores" or "de la Fuente" for "Siti" would
                # change the name's shape ("Mrs Siti Aminah binte Rahman" read as four given names)
                if kind != "place" and " " in candidate and " " not in original:
                    continue
                if candidate.lower() != key and not self._taken(candidate) and candidate.lower() not in in_use:
                    break
            self.words[key] = candidate
        return _same_case(original, self.words[key])

    def _spelled_number(self, original: str) -> str | None:
        """A number written in Spanish words (with its digits in brackets, where given) stands in as another
        number of as many digits, in words and digits alike; None for anything else."""
        number = spelled_numbers.value_of(original)
        if number is None:
            return None
        width = len(str(number))
        low, high = (0, 9) if width == 1 else (10 ** (width - 1), 10**width - 1)
        candidates = [n for n in (self._rng.randint(low, high) for _ in range(20)) if n != number]
        return spelled_numbers.restated(original, candidates[0]) if candidates else None

    def _town_pool(self, original: str) -> tuple[str, ...]:
        """The other towns of the country the original is a town of ("Lima": Peru's), or of the conversation's
        language where the original is no town on the list (Spain's and Mexico's for Spanish, Britain's and the
        United States' for English); empty where the list holds none. Faker's own towns would be "Vieja
        Hungría" in Spanish, and a Bolivian town read as Spain's moves the letter's country."""
        countries = towns.town_country(original)
        if countries is None:
            countries = ("ES", "MX") if self._fakes is self._spanish else ("GB", "US")
        pool = towns.stand_in_pool(countries)
        if len(pool) >= _DRAWS_FROM_A_POOL:
            return pool  # the draw itself skips the original; filtering 50,000 names took 70 ms a note
        # a country of a few towns may hold only the original ("Gibraltar"), which leaves none: Faker's then
        key = name_key(original)
        return tuple(name for name in pool if name_key(name) != key)

    def _person(self, original: str) -> str:
        if _SPELLED_OUT.fullmatch(original):  # "p-e-n-n-i-n-g-t-o-n": the stand-in of the name it spells, spelled
            letters = [w for w in re.split(r"[-–.\s]+", original) if len(w) == 1]
            stand_in = self.word("".join(letters), "last").replace("'", "")
            stand_in = stand_in.upper() if "".join(letters).isupper() else stand_in.lower()  # "M-O-R-R-I-S-O-N"
            mark = next((mark for mark in "-–." if mark in original), " ")
            return mark.join(stand_in) + ("." if original.endswith(".") else "")
        if re.fullmatch(r"[A-Z]{2,3}/[a-z]{2,4}(?:/[a-z]{2,4})?(?:/\d{1,6})?", original):
            # a letter's reference ("RJM/kcm", "PF/jm/ab", "DKM/ls/0423") stays initials and a serial
            return "/".join(
                re.sub(r"\d+", self._other_digits, part) if part.isdigit() else self._person(part)
                for part in original.split("/")
            )
        if re.fullmatch(r"[A-Z]{2,3}", original):  # a form signed with initials ("Actioned by: CW") stays initials
            initials = "".join(self._initial(letter) for letter in original)
            while initials == original:
                initials = "".join(_random_letter(self._rng).upper() for _ in original)
            return initials
        if re.fullmatch(r"[a-z]{2,4}", original) and not lexicon.is_name_word(original):
            # a typist's initials in lower case ("Transcrito por jmr") stay initials
            initials = "".join(_random_letter(self._rng) for _ in original)
            while initials == original:
                initials = "".join(_random_letter(self._rng) for _ in original)
            return initials
        matches = list(_WORD.finditer(original))
        titles = {m.group(0).lower() for m in matches}
        named = [i for i, m in enumerate(matches) if m.group(0).lower() not in _TITLES | _PARTICLES]
        whole = [matches[i].group(0) for i in named if len(matches[i].group(0)) > 1]  # initials aside
        if "," in original:  # "SURNAME SURNAME, Given …": the first name after the comma
            after = [matches[i].group(0) for i in named if matches[i].start() > original.index(",")]
            given = next((w for w in after if len(w) > 1), whole[-1] if whole else None)
        else:
            given = whole[0] if whole else None
        first = _first_name_kind(titles, given)
        # A given name alone ("tyrone", "my dad teodoro") stands in as a given name of its gender; any other
        # single word as a surname ("Dr Okafor").
        # (by the lists alone: by its ending "Garcia" or "Peña" would read as a woman's given name)
        alone_given = (
            len(named) == 1
            and _given_name_kinds().get((given or "").lower(), "first") != "first"
            and (given or "").lower() not in lexicon.every_surname()  # "Dr Silva", "Mr Grant": surnames
            # after any title one word is the surname: "Dr Tan", "Prof. Kim", "Lic. Paz" (and "Mrs Rose")
            and not titles & _TITLES
        )
        surname = set()
        if named and not alone_given:  # "SURNAME, First" names the surname first; otherwise it comes last
            end = named[0] if "," in original else named[-1]
            start = end
            # with the words a hyphen joins to it: "Okonkwo-Hart" is one surname, not a given name and a surname
            while start > 0 and original[matches[start - 1].end() : matches[start].start()] == "-":
                start -= 1
            while end + 1 < len(matches) and original[matches[end].end() : matches[end + 1].start()] == "-":
                end += 1
            surname = set(range(start, end + 1))
            if "," in original:  # "EL AMRANI BOUZIANE, Fatima": every word before the comma is a surname
                comma = original.index(",")
                surname |= {i for i in named if matches[i].start() < comma}
        out, cursor = [], 0
        for index, match in enumerate(matches):
            word = match.group(0)
            out.append(original[cursor : match.start()])
            cursor = match.end()
            lower = word.lower()
            if lower in _TITLES or lower in _PARTICLES:
                out.append(word)
            elif len(word) == 1:  # an initial: the initial of the stand-in of a name starting with it
                out.append(self._initial(word))
            else:
                out.append(self.word(word, "last" if index in surname else first))
        out.append(original[cursor:])
        return "".join(out)

    def _initial(self, letter: str) -> str:
        for original, stand_in in self.words.items():
            if original[:1] == name_key(letter):
                return stand_in[:1].upper()
        return self.word(f"{letter}.", "first")[:1].upper()

    def _place(self, original: str) -> str:
        zone = re.fullmatch(r"(zona|zone) (\d{1,2})", original, re.I)
        if zone:  # a city's numbered zone ("zona 10") stands in as another of its zones
            number = int(zone.group(2))
            return f"{zone.group(1)} {self._rng.choice([n for n in range(1, 26) if n != number])}"
        if not re.search(r"[^\W\d_]", original):
            # a position by its coordinates ("-147.36208", "40.7128, -74.0060") stands in as another position on
            # the globe written alike (a latitude within ±90, a longitude within ±180)
            return self._coordinates(original)
        return self.word(original, "place")

    def _coordinates(self, original: str) -> str:
        numbers = list(re.finditer(r"([-+]?)(\d+)\.(\d+)", original))
        out, cursor = [], 0
        for index, match in enumerate(numbers):
            sign, whole, decimals = match.groups()
            limit = 90 if (len(numbers) == 2 and index == 0) or int(whole) <= 90 else 180
            value = self._rng.uniform(0, limit - 10 ** -len(decimals))
            while f"{value:.{len(decimals)}f}" == f"{whole}.{decimals}":
                value = self._rng.uniform(0, limit - 10 ** -len(decimals))
            out += [original[cursor : match.start()], sign, f"{value:.{len(decimals)}f}"]
            cursor = match.end()
        return "".join(out) + original[cursor:] if numbers else self._same_format(original)

    def _other(self, original: str) -> str:
        """A term an office or a user hid: a code keeps its shape, words become surnames."""
        if re.search(r"\d", original):
            return self._same_format(original)
        return self._replace_words(original, frozenset(), "last")

    def _card(self, original: str) -> str:
        """A card number of the same length and grouping that passes Luhn's check, starting with 9: no
        payment network issues cards in that range (ISO/IEC 7812 leaves it to national use)."""
        digits = [c for c in original if c.isdigit()]
        body = ["9"] + [str(self._rng.randrange(10)) for _ in digits[1:-1]]
        total = 0
        for index, digit in enumerate(reversed(body)):
            value = int(digit) * (2 if index % 2 == 0 else 1)
            total += value - 9 if value > 9 else value
        body.append(str((10 - total % 10) % 10))
        out, next_digit = [], iter(body)
        for c in original:
            out.append(next(next_digit) if c.isdigit() else c)
        return "".join(out)

    def _ip(self, original: str) -> str:
        """An address from the ranges kept for documentation (RFC 5737, RFC 3849): it reaches no one."""
        if ":" in original:
            return f"2001:db8::{self._rng.randrange(1, 0xFFFF):x}:{self._rng.randrange(1, 0xFFFF):x}"
        network = self._rng.choice(("192.0.2", "198.51.100", "203.0.113"))
        return f"{network}.{self._rng.randrange(1, 255)}"

    def _organization(self, original: str) -> str:
        """Its distinctive words replaced, its kind kept ("Ltd", "Hospital"); an abbreviation ("HPI") by
        capitals of its length, the same every time. Its legal form stays as written ("S.L.", "S.A. de C.V."):
        its letters are no one's."""
        form = LEGAL_FORM_ENDING.search(original)
        cut = form.start() if form else len(original)
        return _WORD.sub(self._organisation_word, original[:cut]) + original[cut:]

    def _organisation_word(self, match: re.Match) -> str:
        word = match.group(0)
        if word.lower() in _KEPT_IN_ORGANISATIONS or lexicon.is_clinical_word(word):
            return word  # "Servicio de Cardiología", "Hospital Clínico": the ward's kind, no one's name
        # in a name written all in capitals an everyday word is a word, not an abbreviation to scramble
        heading = " " in match.string.strip() and match.string.isupper() and lexicon.zipf(word) >= 3.0
        made = self.word(word, "acronym" if word.isupper() and 2 <= len(word) <= 6 and not heading else "org")
        before = match.string[max(0, match.start() - 4) : match.start()].lower()
        particle = re.match(r"(?i)(de la|de los|del|de) ", made)
        if particle and re.search(r"\b(?:de|del)\s$", before):
            made = made[particle.end() :]  # "… de Valencia" as "… de Torre", not "de de la Torre"
        return made

    def _address(self, original: str) -> str:
        if what3words := re.fullmatch(r"(///)?[a-z]+\.[a-z]+\.[a-z]+", original):
            # three words of the map's grid stand in as three other words in its form
            words = [
                self.word(w, "last").lower().replace(" ", "").replace("'", "") for w in original.strip("/").split(".")
            ]
            return (what3words.group(1) or "") + ".".join(words)
        if not re.search(r"\d", original) and not any(w.lower() in _STREET_WORDS for w in _WORD.findall(original)):
            return self.word(original, "place")  # a town or a city
        numbers = _NUMBER_AND_ORDINAL.sub(self._renumbered, original)
        if any(w[0].isupper() for w in _WORD.findall(original)):
            # Names are capitalised; the lower-case words of an address are its kind and its links ("calle",
            # "de", "piso", "clinic"), kept so the model still reads an address. One typed all in lower case
            # ("2210 w north ave") has its words replaced but the street's kind.
            return _WORD.sub(
                lambda m: (
                    m.group(0)
                    if m.group(0).lower() in _STREET_WORDS | _PARTICLES
                    or m.group(0).islower()
                    or len(m.group(0)) == 1
                    or _after_digit(m)
                    # a post office's or a district's code ("Private Bag BO 134", "KN 1 Rd"): other capitals
                    else self._same_format(m.group(0))
                    if m.group(0).isupper() and len(m.group(0)) <= 3
                    else self.word(m.group(0), "last")
                ),
                numbers,
            )
        if not re.search(r"\d", original) and _SPOKEN_NUMBER.search(original):
            # read out ("twenty one forty grand concourse apartment five f"): other numbers in words, a flat's
            # letter kept, the street's name replaced
            spanish = any(word.lower() in _ES_NUMBER_WORDS for word in _WORD.findall(original))
            digits = (_ES_DIGITS if spanish else _EN_DIGITS)[1:]
            while (numbers := _SPOKEN_NUMBER.sub(lambda _: self._rng.choice(digits), original)) == original:
                pass
            kept = _STREET_WORDS | _CORNER_WORDS | _SPOKEN_ADDRESS_WORDS | frozenset(digits)
            return _WORD.sub(
                lambda m: (
                    m.group(0)
                    if m.group(0).lower() in kept | _PARTICLES or len(m.group(0)) == 1
                    else self.word(m.group(0), "last").lower()
                ),
                numbers,
            )
        return self._replace_words(numbers, _STREET_WORDS | _CORNER_WORDS, "last")

    def _renumbered(self, match: re.Match) -> str:
        """Another number of as many digits; an ordinal keeps its kind of suffix ("38th" → "41st")."""
        digits = match.group(1)
        # as many digits, a leading zero kept where one was written ("042" → "317" would read as another kind)
        low = 1 if len(digits) == 1 or digits.startswith("0") else 10 ** (len(digits) - 1)
        number = self._rng.randrange(low, 10 ** len(digits))
        while str(number).zfill(len(digits)) == digits:  # another number, always
            number = self._rng.randrange(low, 10 ** len(digits))
        suffix = match.group(2)
        if not suffix:
            return str(number).zfill(len(digits)) if digits.startswith("0") else str(number)
        right = "th" if 11 <= number % 100 <= 13 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
        return f"{number}{right.upper() if suffix.isupper() else right}"

    def _replace_words(self, text: str, kept: frozenset[str], kind: str) -> str:
        return _WORD.sub(
            lambda m: (
                m.group(0)
                if m.group(0).lower() in kept | _PARTICLES or _after_digit(m)
                else self.word(m.group(0), kind)
            ),
            text,
        )

    # -- dates and ages ------------------------------------------------------------------------------
    def _date(self, original: str, attempt: int = 0) -> str:
        """Shifted by the conversation's offset; a day or two more when that lands on a date already in use."""
        if said := _THIS_MONTH_OR_YEAR.search(original):
            # "el 5 del corriente", "marzo del presente año": the day or the month shifted, the phrase as written
            return self._date(original[: said.start()], attempt) + said.group(0)
        nudge = (attempt + 1) // 2 * (1 if attempt % 2 else -1)
        parsed = parse_date(original, self.month_first)
        if parsed is None:
            ranged = _shifted_range(original, self.date_offset_days + nudge, self.month_first)
            return ranged or other_holiday(original, attempt) or self._same_format(original)
        return parsed.shifted(self.date_offset_days + nudge)

    def _age(self, original: str, redraw: bool = False) -> str:
        both = re.fullmatch(r"(?i)(?P<words>noventa[a-zñ ]*|ninety[a-z\- ]*) \((?P<digits>9\d)\)", original)
        if both:  # "noventa y dos (92)": another age in the nineties, in words and digits alike
            years = int(self._aged(int(both.group("digits")), redraw))
            spanish = both.group("words").lower().startswith("noventa")
            words = _spelled_nineties(years - 90, spanish, _SPANISH_UNITS if spanish else _ENGLISH_UNITS)
            return f"{words} ({years})" if years < 100 else str(years)
        if re.search(r"\d", original):
            # the same age the same every time ("age 93", "a 93-year-old"), as a name is: one person, one age
            return re.sub(r"\d+", lambda m: self._aged(int(m.group(0)), redraw), original)
        # spelled out ("noventa y cuatro", "ninety-two"): another age in the nineties, in the same words
        spanish = re.match(r"(?i)noventa|cien", original) is not None
        units = _SPANISH_UNITS if spanish else _ENGLISH_UNITS
        choices = [n for n in range(10) if _spelled_nineties(n, spanish, units).lower() != original.lower()]
        spelled = _spelled_nineties(self._rng.choice(choices), spanish, units)
        return spelled[0].upper() + spelled[1:] if original[:1].isupper() else spelled

    def _aged(self, years: int, redraw: bool = False) -> str:
        """The age standing in for ``years``: an age over 89, another than the original and, while there are
        any left, than the ages standing in for other ages (two people of 93 and 95 stay two ages)."""
        if redraw or years not in self._ages:
            others = {v for k, v in self._ages.items() if k != years}
            choices = [str(n) for n in range(90, 105) if n != years and str(n) not in others]
            self._ages[years] = self._rng.choice(choices or [str(n) for n in range(90, 105) if n != years])
        return self._ages[years]

    # -- contact details and numbers -----------------------------------------------------------------
    def _email(self, original: str) -> str:
        """The same shape, written the same way: "jo@host.es", "jo at host.es", "jo (at) host (dot) es"; the
        mailbox's and the host's words replaced, the top-level domain and a public mail service kept."""
        user, at, domain = re.split(_AT, original, maxsplit=1) if re.search(_AT, original) else (original, "", "")
        # the mailbox's words replaced, a spelled-out dot in it kept ("john dot smith at …")
        user = _WORD.sub(
            lambda m: (
                m.group(0)
                if m.group(0) == "dot"
                else self.words.get(name_key(m.group(0)), self._letters(m.group(0))).lower()
            ),
            user,
        )
        user = re.sub(r"\d", lambda _: str(self._rng.randrange(10)), user)
        labels = re.split(f"({HOST_DOT})", domain)  # labels and, between them, the dots as written
        names = labels[0::2]
        plain = ".".join(names).lower()
        if plain not in _PUBLIC_MAIL and names:
            # every label but the suffix ("stcrispins.wokingham" of "….wokingham.sch.uk": a school and its town)
            kept = _suffix_labels(names) if len(names) > 1 else 0  # "jo@clinicasanjose": a host of one label
            for index in range(0, 2 * (len(names) - kept), 2):
                labels[index] = re.sub(r"[^\W_]+", lambda m: self._letters(m.group(0)).lower(), labels[index])
        return f"{user}{at}{''.join(labels)}"

    def _url(self, original: str) -> str:
        if original.startswith("@") or ("." not in original and "://" not in original):
            # a handle ("@travis_k_joliet"): one of its shape
            return re.sub(r"[^\W\d_]+", lambda m: self._letters(m.group(0)).lower(), self._same_digits(original))
        # a link of any scheme ("git://", "ldap://") or a host named alone ("ftp.uu.net"): its host's labels
        # replaced, its scheme and top-level domain kept
        scheme, rest = re.match(r"(?i)((?:[a-z][a-z0-9+.\-]*://)?(?:www\.)?)(.*)", original).groups()
        host, slash, path = rest.partition("/")
        login, at, host = host.rpartition("@")  # "user:pw@host": the login is someone's too
        login = self._same_format(login)
        host, colon, port = host.rpartition(":") if re.search(r":\d+$", host) else (host, "", "")
        address = re.fullmatch(r"\d{1,3}(?:\.\d{1,3}){3}|\[[0-9a-fA-F:.]+\]", host)
        if address:  # a link to a machine by its address ("http://10.44.2.18/pacs"): another address, reaching no one
            stand_in = self._ip(host.strip("[]"))
            host = f"[{stand_in}]" if ":" in stand_in else stand_in
        else:
            labels = host.split(".")
            kept = _suffix_labels(labels) if len(labels) > 1 else 0  # "http://myhospital:8080": one label, all its own
            labels = [
                re.sub(r"[^\W_]+", lambda m: self._letters(m.group(0)).lower(), label)
                for label in labels[: len(labels) - kept]
            ] + labels[len(labels) - kept :]
            host = ".".join(labels)
        host = f"{login}{at}{host}{colon}{port}"
        # the path's own words stay ("users", "view", "id") and a person's handle or a code in it does not
        # ("/users/rgutierrez79"); every digit is replaced
        path = re.sub(r"[^\W\d_]+", lambda m: self._path_word(m.group(0)), path)
        path = re.sub(r"\d", lambda _: str(self._rng.randrange(10)), path)
        return f"{scheme}{host}{slash}{path}"

    def _path_word(self, word: str) -> str:
        lower = word.lower()
        # a path's everyday words stay; a name in it ("/in/john-smith", "maria.garcia") does not
        named = lexicon.is_name_word(word) or name_key(word) in self.words
        if len(word) <= 2 or lexicon.zipf(lower) >= 3.0 and not named:
            return word
        letters = self._letters(word)
        return letters.upper() if word.isupper() else letters.lower()

    def _phone(self, original: str) -> str:
        if any(c.isdigit() for c in original):
            # the country's calling code stays ("+353 …" is still an Irish number): a country is no identifier,
            # and a model asked to ring someone in Cork should not read a number in Kiribati
            code = re.match(r"\s*\(?\s*(?:\+|00)\s?(\d+)", original)
            if code:
                keep = code.start(1) + _calling_code_length(code.group(1))
                if any(c.isdigit() for c in original[keep:]):  # "+44" alone is only a country
                    return original[:keep] + self._same_format(original[keep:])
            return self._same_format(original)
        # read out in words ("four oh four, five five five"): other digits in the same words and language
        spanish = re.search(r"(?i)\b(?:cero|uno|dos|tres|cuatro|cinco|seis|siete|ocho|nueve)\b", original)
        words = _ES_DIGITS if spanish else _EN_DIGITS
        return re.sub(
            r"(?i)\b(?:zero|oh|one|two|three|four|five|six|seven|eight|nine|cero|uno|dos|tres|cuatro|cinco|seis|siete|"
            r"ocho|nueve)\b",
            lambda m: _same_case(m.group(0), self._rng.choice(words)),
            original,
        )

    def _other_digits(self, match: re.Match) -> str:
        """As many digits, other than these."""
        digits = match.group(0)
        while (drawn := self._same_digits(digits)) == digits:
            pass
        return drawn

    def _same_digits(self, original: str) -> str:
        return re.sub(r"\d", lambda _: str(self._rng.randrange(10)), original)

    def _same_format(self, original: str) -> str:
        """Every digit and letter replaced by a random one of its kind; punctuation, spacing and case kept.
        A key's fingerprint or a digest stays hexadecimal, so the model still reads it as one."""
        letters = "abcdef" if _HEXADECIMAL.fullmatch(original) else "abcdefghijklmnopqrstuvwxyz"
        masked = {i for m in _MASK.finditer(original) for i in range(*m.span())}  # "xxx-xx-6621": hidden already
        # a serial's joining word and its year stay: "421 of 2024", "87 de 2023" (not "421 ok 7285"); a year
        # alone is no identifier
        masked |= {i for m in _JOINING_WORD.finditer(original) for i in range(*m.span())}
        return "".join(
            c
            if i in masked
            else str(self._rng.randrange(10))
            if c.isdigit()
            else (self._rng.choice(letters).upper() if c.isupper() else self._rng.choice(letters))
            if c.isalpha()
            else c
            for i, c in enumerate(original)
        )

    def _letters(self, word: str) -> str:
        return "".join(_random_letter(self._rng) for _ in word) or word


_EN_DIGITS = "zero one two three four five six seven eight nine".split()
_ES_DIGITS = "cero uno dos tres cuatro cinco seis siete ocho nueve".split()
_EN_NUMBER_WORDS = frozenset(
    _EN_DIGITS
    + "oh ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty thirty forty "
    "fifty sixty seventy eighty ninety hundred".split()
)
_ES_NUMBER_WORDS = frozenset(
    _ES_DIGITS
    + "una diez once doce trece catorce quince dieciséis diecisiete dieciocho diecinueve veinte veintiuno "
    "veintidós veintitrés veinticuatro veinticinco veintiséis veintisiete veintiocho veintinueve treinta cuarenta "
    "cincuenta sesenta setenta ochenta noventa cien ciento".split()
)
_SPOKEN_NUMBER = re.compile(
    rf"(?i)(?<![\w'’])(?:{'|'.join(sorted(_EN_NUMBER_WORDS | _ES_NUMBER_WORDS, key=len, reverse=True))})(?![\w'’])"
)
# The words of an address read out that say what it is: kept, as the street's kind is.
_SPOKEN_ADDRESS_WORDS = frozenset("concourse boulevard highway parkway y planta escalera letra portal number".split())


_AT = f"(@|{MAILBOX_AT})"  # how an address joins its mailbox to its host, written out or not


# A masked part of a number: a run of x or X (or * and the like, which are kept anyway) where digits were.
_MASK = re.compile(r"(?<![^\W\d_])(?:x{2,}|X{2,})(?![^\W\d_])|(?<=[\W\d_])[xX](?=[\W\d_])")

# ITU-T E.164's country calling codes are a prefix code: 1 and 7 are whole codes, these two-digit ones are,
# and every other code has three digits.
_TWO_DIGIT_CALLING_CODES = frozenset(
    "20 27 30 31 32 33 34 36 39 40 41 43 44 45 46 47 48 49 51 52 53 54 55 56 57 58 60 61 62 63 64 65 66 81 82 84 "
    "86 90 91 92 93 94 95 98".split()
)


def _calling_code_length(digits: str) -> int:
    if digits[:1] in ("1", "7"):
        return 1
    return 2 if digits[:2] in _TWO_DIGIT_CALLING_CODES else min(3, len(digits))


def _suffix_labels(labels: list[str]) -> int:
    """How many of a host's last labels are its public suffix: "com", or a country's second level before its
    code ("co.uk", "sch.uk", "gob.mx", "com.ar"); "kcl.com" and "mit.edu" are an institution's own."""
    if len(labels) > 2 and len(labels[-1]) == 2 and labels[-2].lower() in _SECOND_LEVELS:
        return 2
    return 1


_SECOND_LEVELS = frozenset(
    "co ac gov gob gv org or net ne com edu sch nhs mil nom ltd plc police mod nic med res int tm".split()
)


_HEXADECIMAL = re.compile(r"(?=(?:[\s:]*[0-9A-Fa-f]){16})[0-9A-Fa-f\s:]+")


def name_key(word: str) -> str:
    """A name word's key for its stand-in: "Pérez", "PEREZ" and "perez" are one person's, because text typed
    without accents names the same people, and the model should read one stand-in for them."""
    return lexicon.without_accents(word.lower())


def _random_letter(rng: random.Random) -> str:
    return rng.choice("abcdefghijklmnopqrstuvwxyz")


def _same_case(model: str, word: str) -> str:
    if model.isupper() and len(model) > 1:
        return word.upper()
    if model.islower():
        return word.lower()
    if model[:1].isupper() and word.isupper() and len(word) > 1:
        # made first for the word in capitals ("JUZGADO … DE GETAFE"), written now as the text writes it
        # ("28902 Getafe"): in capitals it could not be told back from the capitals' original
        return word[:1] + word[1:].lower()
    return word


_RANGE_PARTS = re.compile(rf"(?P<a>.+?)(?P<sep>{RANGE_SEPARATOR})(?P<b>.+)")
_BARE_HEAD = re.compile(r"\d{1,2}(?:st|nd|rd|th)?|[^\W\d_]+\.?")  # a range's end that is only a day or a month
_BARE_TAIL = re.compile(r"\d{1,2}(?:st|nd|rd|th)?$")


def _shifted_range(original: str, days: int, month_first: bool = False) -> str | None:
    """A range of dates moved as a whole ("2 and 9 October 2023", "May–August 2023", "Jan 3–5"): the end
    written as only a day or a month is moved within the other end's month and year, so the range stays a
    range. None where ``original`` is no range of dates."""
    parts = _RANGE_PARTS.fullmatch(original)
    if parts is None:
        return None
    first, sep, last = parts.group("a"), parts.group("sep"), parts.group("b")
    opening, closing = parse_date(first, month_first), parse_date(last, month_first)
    if opening is None or closing is None:
        return None
    if _BARE_HEAD.fullmatch(first) and not _BARE_HEAD.fullmatch(last):
        head = _BARE_HEAD.match(last)
        whole = parse_date(first + last[head.end() :], month_first) if head else None
        moved = _BARE_HEAD.match(whole.shifted(days)) if whole else None
        if moved:
            return moved.group(0) + sep + closing.shifted(days)
    tail = _BARE_TAIL.search(first)
    if _BARE_TAIL.fullmatch(last) and tail and not _BARE_TAIL.fullmatch(first):
        whole = parse_date(first[: tail.start()] + last, month_first)
        moved = _BARE_TAIL.search(whole.shifted(days)) if whole else None
        if moved:
            return opening.shifted(days) + sep + moved.group(0)
    return opening.shifted(days) + sep + closing.shifted(days)
