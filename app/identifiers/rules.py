"""Identifier patterns the NLP model and the checked numbers of ``numbers.py`` do not cover.

spaCy's named-entity model brings people and organisations; ``numbers.py`` the numbers whose check digits
prove them. What they lack, for clinical and legal text, is written here: record and member numbers and case
references after the words that introduce them, account numbers and sort codes, ages over 89, street
addresses, UK postcodes and US ZIP codes in an address, dates in every common format, people named
with a title or as SURNAME, First, and companies, hospitals and practices by their suffixes.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from app.identifiers import lexicon, names
from app.identifiers.entities import EntityType

T = EntityType
# A capitalised word: letters, with apostrophes and hyphens inside ("O'Neill", "Smith-Jones", "Noël").
# At most 48 characters: a name is no longer, and read from each capital of a long run of letters ("McMcMc…",
# "Ana-Ana-…") an unbounded word made every pattern quadratic in its length.
_CAPITAL_NAME = r"[A-ZÀ-ÖØ-ÞŁŚŻŹĆŠŽ](?:[^\W\d_]|['’\-](?=[^\W\d_])){0,47}"
_PARTICLE = r"(?:van|von|der|den|de|del|della|di|da|du|le|la|ter|ten|bin|al|el|ap)"
# A capitalised name of up to four words, with lower-case particles inside ("van den Heuvel").
# A hyphen between its words is inside a capitalised word already: as a separator too it gave the regex
# exponentially many ways to read "Ana-Ana-Ana-…".
_PERSON_NAME = rf"{_CAPITAL_NAME}(?: (?:{_PARTICLE} ){{0,3}}{_CAPITAL_NAME}){{0,3}}"
# (with the words a Spanish filing puts before a person: "el señor HO CHI-WAI", "Proc. F. J. Alcántara")
_TITLE = (
    r"(?:(?:Mr|Mrs|Ms|Miss|Mx|Dr|Prof|Professor|Sir|Dame|Judge|Justice|Dra|Sr|Sra|Srta|Dña|Lic|Licda|Ing|Proc|Ldo|"
    r"Lda)\.?|"
    # Mohammad written short in Bangladesh and Malaysia, part of the name it opens ("Md. Alamgir Hossain",
    # "MD. ALAMGIR HOSSAIN", "Mohd Faizal")
    r"(?<!, )(?:Md|MD|Mohd|MOHD|Muhd)\.(?= [A-Z])|"
    r"(?:Mohd|MOHD|Muhd)(?= [A-Z])|(?<=\b[Ee]l )señor(?=\s)|(?<=\b[Ll]a )señora(?=\s))"
)
# Ranks and honorifics that police statements, court papers and letters put before a name in the countries the
# product's offices serve ("Sgt. Banda", "Const. Mweemba", "Revd Jones", "Haji Ghulam", "Mst. Parveen", "Cllr
# Okafor", "Sgto. Paz"); outside the name, as the annotators and the stand-ins keep them. ("Col." is Mexico's
# colonia, "Gen" a general ward, "Lt" and "Insp." a note's left side and inspiratory pressure, "Fr" a
# catheter's size after its number.)
_RANK = (
    r"(?:(?:Sgt|SGT|Sgto|Cpl|CPL|Const|CONST|Cst|Det|Supt|Capt|Cdr|Rev|Revd|Cllr|Haji|Hajjah|Mst|Engr|Atty|"
    r"Sheikh|Imam|Rabbi|Lcdo|Lcda|Abog|Mtro|Mtra|Subinsp|Subof|(?<![\d ] )Fr)\.?|"
    # a chief's, an elder's or a pilgrim's honorific: "Nana Kofi Adjei III", "NANA OSEI BONSU", "Togbe Afede"
    r"(?:Nana|NANA|Togbe|TOGBE|Opanin|Oba|OBA|Alhaji|ALHAJI|Alhaja|Hajia|Mosammat|Nutar|Lt\.? ?Col\.?|"
    # the forms of address of the European clients a bank or a firm writes about ("Herr Reto Gschwend")
    r"Herr|Herrn|Frau|Signor|Signora|Mme\.?|Mlle\.?|Monsieur|Madame)"
    r"(?= [A-ZÀ-Þ]))"
)
# A rank written whole, which is also a word of other phrases ("Inspector General", "Agente Naranja"): only a
# name after it, a word on the lists or one too rare to be everyday.
_RANK_WORD = (
    r"(?:Sargento|Teniente|Capit[áa]n|Inspector|Inspectora|Subinspector|Subinspectora|Comisario|Comisaria|Agente|"
    r"Sor|Fray|Sergeant|Constable|Corporal|Detective|Reverend|Councillor|Notary(?! Public)|Insp\.)(?= [A-ZÀ-Þ])"
)
_RANKED_NAME = (
    rf"(?:[A-Z]\. ){{0,3}}(?:{_PARTICLE} ){{0,3}}{_PERSON_NAME}"
    r"(?:(?<=\b[A-Z])\.(?:[A-Z]\.){1,2}(?!\w)|(?: (?:[A-Z]\.){1,3}(?!\w)))?"
    # a stool's or a family's number after the name ("Nana Kofi Adjei III", "Alphonse Thibodeaux, Jr.")
    r"(?:,? (?:II|III|IV|V|VI|Jr\.?|Sr\.?|JR\.?|SR\.?)(?![\w]))?"
)
_MONTH = (
    r"(?:January|February|March|April|May|June|July|August|September|October|November|December|"
    r"Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)\.?"
)
_STREET_SUFFIX = (
    r"(?:Street|St|Road|Rd|Avenue|Ave|Lane|Ln|Close|Drive|Dr|Way|Court|Ct|Place|Pl|Crescent|Cres|Boulevard|"
    r"Blvd|Terrace|Gardens|Grove|Square|Sq|Row|Walk|Path|Parade|Mews|Hill|Park|Rise|View|Green|Loop|Shoals)"
)
# A company's legal form, which only a firm's name ends with.
_LEGAL_FORM = (
    r"(?:Ltd|Limited|LLP|LLC|L\.L\.C\.|PLLC|P\.L\.L\.C\.|L\.L\.P\.|P\.C\.|P\.A\.|L\.P\.|APC|Inc|Incorporated|"
    r"Corp|Corporation|plc|PLC|GmbH|KG|AG|"
    r"S\.A\.(?:B\.|P\.I\.)? ?de C\.V\.|S\. de R\.L\.(?: de C\.V\.)?|S\.A\.S\.|S\.L\.U\.|S\.L\.L\.|S\.L\.P\.|"
    r"S\.L\.|S\.A\.T\.|"
    r"Pte\.? Ltd|Sdn\.? Bhd|"
    r"S\.R\.L\.|S\.A\.C\.|E\.I\.R\.L\.|S\. ?Coop\.|S\.A\.|S\.C\.|A\.C\.|"
    # a Spanish community of goods and a Venezuelan company after their comma: "Assessoria Túria, C.B.",
    # "Inversiones Lacustre 2020, C.A."
    r"(?<=, )C\.B\.|(?<=, )C\.A\.|"
    # without its points or its comma after a name in lower case letters ("Forn Bertran Solé CB", "Lozano &
    # Vidal Arquitectos SLP"), and Japan's kabushiki kaisha ("Hoshizora Retail K.K.")
    r"(?-i:(?<=[a-zà-ÿ] )CB(?![\w.])|SLP(?![\w.])|K\.K\.)|"
    r"SLU|SL|SA de CV|SA|SAS|SRL|SAC|EIRL|Ltda|S\.p\.A\.|BV|B\.V\.|NV|AB|Oy|ApS|Sp\. z o\.o\.|Lda|Pvt Ltd|"
    r"Pvt\. Ltd\.|Pty Ltd|Co Ltd|S\.r\.l\.?|Srl|S\.a\.s\.?|S\.n\.c\.?|Oyj|A/S|ASA|Kft\.|s\.r\.o\.|d\.o\.o\.|SARL|EURL|"
    # a US professional corporation in capitals ("MARLOWE COLLINS PC"), Central America's "R.L."
    r"(?<=[A-Z]{2} )PC(?![\w.])|R\.L\.)"
)
_COMPANY_SUFFIX = (
    rf"(?:{_LEGAL_FORM}|& Co|and Co|& Sons?|& Daughters?|& Partners|& Associates|"
    rf"Co(?!\.? {lexicon.IRISH_COUNTY}\b)|Company|Group|Holdings|Partners|Partnership|Associates|Trust|"
    r"Foundation|Abogados|Asociados)\.?"
)
# A party's role in brackets, which a firm's name after it does not hold: "RIBAS, Leocadia (Claimant) and …".
_PARTY_ROLE = r"(?i:claimant|respondent|defendant|plaintiff|applicant|appellant|petitioner|debtor|creditor)"
# A name ending in a legal form is a firm's, however its other words are written ("NUEVA EPS S.A.").
LEGAL_FORM_ENDING = re.compile(rf"[\s,](?:{_LEGAL_FORM})\.?$")
# Institutions named by their kind first, as Spanish writes them: "Juzgado de Primera Instancia nº 4 de
# Getafe", "Clínica San Rafael", "Hospital Universitario de Getafe". A name made only of generic words
# ("el Tribunal Supremo") names no one.
_SPANISH_INSTITUTION = (
    r"(?:Hospital(?: General| Universitario| Cl[íi]nico| Regional)?|Cl[íi]nica|Centro de Salud|"
    r"Centro de Diagn[óo]stico|"
    r"Polic[íi]a (?:Municipal|Local)|Registro de la Propiedad|Registro Civil|Ayuntamiento|Funeraria|Isapre|CESFAM|"
    r"Comisar[íi]a|Fiscal[íi]a|Centro|Red Asistencial|Mutualista|Cooperativa|Transportes|Consultorio|Policl[íi]nico|"
    # Costa Rica's basic care teams and a health centre written short: "EBAIS Tacares", "C. S. Arucas"
    r"EBAIS|C\. ?S\.|"
    r"Unidad Judicial|Juez|Notario|Colegio de Abogados|Colegio Oficial|Ilustre Colegio|CAP|EBAP|ABS|Hospital de Día|"
    r"Mutua(?: Laboral)?|Banco|Caja|Seguros|Abarrotes|Tienda|Taller|Ferreter[íi]a|Panader[íi]a|Restaurante|"
    r"Hotel|Centro M[ée]dico|Sanatorio|"
    r"Consultorio|Policl[íi]nica|Despacho|Bufete|Notar[íi]a|Inmobiliaria|Juzgado|Tribunal|Audiencia|Farmacia|"
    r"Colegio|Universidad|Fundaci[óo]n|Asociaci[óo]n|Grupo|Instituto|Residencia|Laboratorio|Mutua|Aseguradora|"
    r"Gestor[íi]a|Constructora|Cooperativa|Escuela|Sociedad|Corporaci[óo]n|Empresa|Comercial|Distribuidora|"
    r"Supermercados?|Ortopedia|Óptica|Optica|Pesquera|Clínica Dental|Cl[íi]nica Ambulatoria|"
    # the kinds in Catalan, Galician and Basque ("Escola La Maduixera", "Hospital Comarcal Terras do Miño")
    r"Escola|Col·legi|Institut|Ikastola|Llar d'Infants|Hospital Comarcal|Centro de Saúde|Casa de Saúde)"
)
# Firms whose kind first makes even an everyday word their name: "Banco Nacional", "Farmacia Central",
# "Supermercados La Colonia" are one bank, one pharmacy, one chain where "Juzgado de Primera Instancia" is
# any court.
_COMMERCIAL_KINDS = frozenset(
    "banco caja seguros supermercado supermercados farmacia hotel restaurante tienda taller ferretería ferreteria "
    "panadería panaderia abarrotes distribuidora constructora inmobiliaria comercial aseguradora ortopedia óptica "
    "optica pesquera".split()
)
GENERIC_INSTITUTION_WORDS = frozenset(
    "supremo constitucional nacional provincial superior justicia primera instancia instrucción instruccion social "
    "mercantil penal contencioso-administrativo contencioso administrativo laboral familia general universitario "
    "universitaria central regional militar civil salud médico medico público publico pública publica privado "
    "privada menores violencia mujer vigilancia penitenciaria paz juzgado tribunal audiencia hospital clínica "
    "clinica centro de del la las los y e nº núm número".split()
)
INSTITUTION_KINDS = (
    r"General Hospital|Hospital|Royal Infirmary|Infirmary|Medical Centre|Medical Center|Health Centre|"
    r"Surgery|Family Practice|Practice|Clinic|Hospice|NHS Foundation Trust|NHS Trust|Institute|Centre|Center|"
    r"Credit Union|Bank|Building Society|Mutual|Insurance|Assurance|Solutions|Services|Pharmacy|Chemist|Pediatrics|"
    r"Paediatrics|Dental|Orthodontics|Physiotherapy|Physical Therapy|PT|Chiropractic|Law|Legal|Chambers|"
    r"School District|Unified School District|School|Academy|University|College|Nursery|Learning Center|Church|"
    r"Motors|Auto|Autos|Garage|Tire|Tyres|Realty|Properties|Lettings|Estates|Care Home|Nursing Home|Home Care|"
    r"Labs|Laboratories|Laboratory|Health|Healthcare|Medical Group|Logistics|Freight|Construction|Builders|"
    r"Plumbing|Electrical|Consulting|Consultants|Analytics|Software|Technologies|Systems|Media|Agency|Bakery|"
    r"Restaurant|Hotel|Transport|Haulage|Removals|Cleaning|Security|Staffing|Recruitment|Foods|Farms|Pain & Spine|"
    r"Family Medicine|Medicine|Health Plan|Health Team|Health System|Health Services|Health Network|Health Clinic|"
    r"Plan|Team|System|Network|Alliance|Association|Society|Federation|Club|Fund|Cooperative|Co-op|Collective|"
    r"Brake & Tire|Tire & Auto|Body Shop|sjukhus|sjukhuset|vårdcentral|Krankenhaus|Klinikum|Praxis|ziekenhuis|"
    r"Hôpital|Clinique|Ospedale|EPS|IPS|ESE|Police Department|Police Service|Police|Fire Department|Fire Service|"
    r"Sheriff's Office|Medical Scheme|Scheme|Health TPA|TPA|Parish|Mosque|Temple|Synagogue|Market|Supermarket|"
    r"Dentistry|Physicians|Imaging|Rugby Club|Football Club|Golf Club|Schools|Union Local \d+|Union|Local \d+|"
    # the trades and shops a tenant, a claimant or a patient names
    r"Plumbing & Gas|Plumbing & Heating|Heating & Cooling|Heating & Air|Auto Repair|Auto Repairs|"
    r"Pizza|Pizzeria|Cafe|Café|Coffee|Diner|Deli|Bar & Grill|Grill|Salon|Hair Salon|Barbers|Barbershop|Florist|"
    r"Hardware|Dry Cleaners|Cleaners|Towing|Roofing|Landscaping|Heating|Fitness|Gym|Daycare|Childcare|Kennels|"
    r"Vets|Veterinary|Carpets|Tailors|Laundry|Bistro|Taquería|Taqueria|Panadería|Ferretería|Lavandería|"
    # care, therapy and advice as firms and boards name themselves ("Laganside Dental Care", "Umhlanga Rocks
    # Physio & Rehab", "Hywel Dda University Health Board", "Prairie Gateway Immigration", "Lindo Surveys")
    r"Dental Care|Eye Care|Health Care|Healthcare Facility|Health Care Facility|Care Facility|Facility|Aged Care|"
    r"Senior Care|Foot Care|Skin Care|Care|"
    r"Physio & Rehab|Physio|Rehab|Rehabilitation|Respiratory|Medical Supplies|Medical Supply|Health Board|"
    r"Immigration|Immigration Services|Migration|Surveys|Surveyors|Tenancy Advice|Advice Centre|Law Centre|"
    r"Auto Works|Motor Works|Engineering Works|Medical Suites|Textiles|"
    # the agents, advisers and schools a letter or a chart names ("Harbour Estate Agents", "Riverbend
    # Elementary", "Sunshine Coast TAFE")
    r"Estate Agents|Estate Agency|Real Estate|Realtors|Property Management|Solicitors|Accountants|Opticians|"
    # the Channel Islands' and the Isle of Man's law firms ("Mauger De Garis Advocates")
    r"Advocates|"
    r"Optometrists|Funeral Home|Funeral Directors|Brokers|Movers|Kindergarten|Preschool|Montessori|Elementary|"
    r"TAFE|Polytechnic|Medical Practice"
)
# Longest first: the first kind that fits ends the name, and "Health" must not end "Bloor West Family Health
# Team" before "Health Team" is tried.
_INSTITUTION_SUFFIX = "(?:" + "|".join(sorted(INSTITUTION_KINDS.split("|"), key=len, reverse=True)) + ")"


@dataclass(frozen=True)
class Rule:
    """A pattern whose group ``value`` (or whole match) is an identifier of ``type``, if ``accept`` agrees."""

    type: EntityType
    pattern: re.Pattern
    accept: Callable[[str], bool] | None = None
    # The words before it are the evidence ("Employer: UMC"): neither its shape nor a list of kept terms
    # (makers, chains) overrules them.
    cued: bool = False
    # How many characters of a match's start are not part of it (a verb before a firm's "en": "Trabaja en"),
    # given the text and the match's span.
    lead: Callable[[str, int, int], int] | None = None
    # Whether the words the pattern read around the identifier make it one ("Victoria is 93", not "Pulse is 98").
    context: Callable[[re.Match], bool] | None = None

    def find(self, text: str) -> list[tuple[int, int]]:
        spans = []
        for match in self.pattern.finditer(text):
            if self.context is not None and not self.context(match):
                continue
            group = "value" if "value" in self.pattern.groupindex else 0
            start, end = match.span(group)
            if self.lead is not None:
                start += self.lead(text, start, end)
            if end > start and (self.accept is None or self.accept(text[start:end])):
                spans.append((start, end))
        return spans


# What the organisation labels are also followed by without naming anyone.
_NOT_ORGANISATIONS = frozenset(
    "none n/a na unknown self self-employed retired unemployed student yes no pending medicare medicaid private "
    "ninguno ninguna ninguna. desconocido jubilado jubilada desempleado desempleada estudiante autónomo autonomo "
    "sí si no pendiente privado privada".split()
)


# Words before "and 5th" that are no street: "between the 4th and 5th", "the 4th and 5th toes".
_NOT_A_STREET = frozenset("the between both his her their its day days week weeks".split())


# The kind of place that closes a heading in capitals, which "SURNAME, Given" must not read as a surname:
# "MONTGOMERY COUNTY, MARYLAND", "HARRIS COUNTY, TEXAS". Alone it may be one ("PARISH, Emma").
_PLACE_HEADING_WORDS = frozenset("county city district parish borough province".split())


def _a_numbered_heading(surface: str) -> bool:
    """ "I. DATOS DEL DENUNCIANTE": a Roman numeral and words no one is named by."""
    numeral, _, rest = surface.partition(". ")
    words = [w for w in re.findall(r"[^\W\d_]+", rest) if w.lower() not in ("de", "del", "la", "el", "of", "the")]
    return (
        numeral in ("I", "V", "X")
        and bool(words)
        and all(
            not lexicon.is_name_word(w)
            and (max(lexicon.zipf(w.lower()), lexicon.zipf_in(w.lower(), "es")) >= 3.0 or lexicon.is_clinical_word(w))
            for w in words
        )
    )


_VEHICLE_WORDS = re.compile(
    r"(?i:\b(?:plates?|tag|registration|licen[cs]e plate|vehicle|car|truck|van|pickup|sedan)\b)"
)


def _a_states_plate(match: re.Match) -> bool:
    """The words before the code name a US state or its postal code, and a vehicle is spoken of just before."""
    state = re.match(r"[A-Za-z]+(?: [A-Z][a-z]+)?", match.group(0)).group(0)
    words = state.split()
    named = lexicon.is_region(state) or lexicon.is_region(words[0]) or state in _US_STATE_CODES
    before = match.string[max(0, match.start() - 80) : match.start() + len(state) + 14]
    return named and _VEHICLE_WORDS.search(before) is not None


_US_STATE_CODES = frozenset(
    "AL AK AZ AR CA CO CT DE DC FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND OH OK "
    "OR PA PR RI SC SD TN TX UT VT VA WA WV WI WY".split()
)


def _partners(surface: str) -> bool:
    """Whether "X & Y" joins names, not everyday words: each side has a word on the lists of people's names or
    one no everyday text uses, and no side is a kept term or a clinical abbreviation."""
    sides = surface.split(" & ")
    for side in sides:
        words = [w for w in re.findall(r"[^\W\d_][\w'’\-]*", side) if len(w) > 1]
        if not words or any(lexicon.is_kept_term(w) or w.upper() in lexicon.CLINICAL_ABBREVIATIONS for w in words):
            return False
        if not any(lexicon.is_name_word(w) or lexicon.zipf(w.lower()) < 2.0 for w in words):
            return False
    return True


def _town_names() -> frozenset[str]:
    from app.identifiers.towns import town_names  # towns reads this module's patterns through places

    return town_names()


# Ninety-one to ninety-nine spelled out, in either language (the round ninety is too often a count).
_SPELLED_NINETIES = (
    r"noventa y (?:un[oa]?|dos|tres|cuatro|cinco|seis|siete|ocho|nueve)|"
    r"ninety[- ](?:one|two|three|four|five|six|seven|eight|nine)"
)
# The words that go on a sentence, in either language, which no given name is.
_SENTENCE_WORDS = frozenset(
    "a al quien quienes que por para una uno un en se lo le les con sin y o el los las su sus the of and who which "
    "that to in on for with as at by".split()
)
# The words that join a surname's parts ("DE LA CRUZ", "DE LOS SANTOS"), which a sentence's words are not here.
_NAME_LINKS = frozenset("de del la las los el y e van von der den da di du le".split())
# The labels of identity numbers written after a name in capitals.
_ID_LABELS = frozenset(
    "DNI NIE INE CI CC RUT RUN CURP RFC NSS NIF CUIL CUIT DUI NIT SSN NHS MRN DOB ID TIN PPS".split()
)


def _a_rare_capital_word(word: str) -> bool:
    """A word in capitals that abbreviates nothing, names no place on its own and no dictionary holds."""
    return (
        word not in lexicon.CLINICAL_ABBREVIATIONS
        and word not in lexicon.EVERYDAY_ABBREVIATIONS
        and not lexicon.is_kept_term(word)
        and not lexicon.is_region(word.title())
        and max(lexicon.zipf(word.lower()), lexicon.zipf_in(word.lower(), "es")) < 2.5
    )


def _a_field_not_a_clause(match: re.Match) -> bool:
    """ "SURNAME, GIVEN" in capitals where a field ends after it (a column's gap, a bar, the line's end, an
    identity number's label), or with no everyday word after its comma: in a note typed in capitals the same
    shape is a clause ("MOTIVO: FLEMÓN, CARA HINCHADA, ALÉRGICO…", "24 WKS PREGNANT, BOOKED WITH THE ROTUNDA")."""
    given = match.group(0).split(", ", 1)[-1]
    if not given.isupper() or _FIELD_END.match(match.string, match.end()):
        return True
    return not any(
        len(w) >= 4
        and not lexicon.is_name_word(w.lower())
        and max(lexicon.zipf_in(w, "es"), lexicon.zipf_in(w, "en")) >= 3.0
        for w in re.findall(r"[^\W\d_]+", given)
        if w.lower() not in _NAME_LINKS
    )


_FIELD_END = re.compile(
    r"[ \t]*(?:$|\n|\||\t|[ \t]{2}|[;:)]|,? (?i:dob|d\.o\.b|dni|nie|nss|mrn|ssn|nhs|id|born|age|edad|nacid[oa]|"
    r"c\.?i|cc|rut|curp)\b)"
)


def _surname_then_given(surface: str) -> bool:
    """Whether "SURNAME, Given" is a person's: not a county and its state, nor a surname before a state."""
    surname, given = surface.split(", ", 1)
    words = surname.split()
    given_words = [w for w in re.findall(r"[^\W\d_]+", given) if len(w) > 1]
    first_given = given_words[0] if given_words else ""
    # a clause's word as a deed in capitals writes it ("A QUIEN"), not a given name as a chart writes one
    # ("DAWSON, Les", "CAPONE, Al")
    a_clause = first_given.lower() in _SENTENCE_WORDS and not first_given.istitle()
    if not given_words or a_clause or given_words[0].upper() in _ID_LABELS:
        # a deed's clause or an identity number's label after the comma: "TEPOX HERNÁNDEZ, A QUIEN EN LO
        # SUCESIVO…", "GORDILLO MÁRQUEZ, DNI 80074321M", "SALAZAR RONDÓN, C.I. V-14.827.395"
        return False
    surname_words = [w for w in re.findall(r"[^\W\d_]+", surname) if len(w) > 1]  # (the "O" of "O'SULLIVAN")
    a_given_name = given_words[0].lower() in lexicon.first_names()
    if (
        # (or a clinical abbreviation before a dosed medicine: "PRN, Rifinah 300/150")
        any(w.lower() in _SENTENCE_WORDS - _NAME_LINKS or w in lexicon.CLINICAL_ABBREVIATIONS for w in surname_words)
        or not a_given_name
        and all(
            not lexicon.is_name_word(w)
            and (max(lexicon.zipf_in(w, "es"), lexicon.zipf_in(w, "en")) >= 3.0 or lexicon.is_clinical_word(w))
            for w in surname_words
            if w.lower() not in _NAME_LINKS
        )
    ):
        # a list of findings in capitals, not a surname: "INSUFICIENCIA CARDIACA, FIBRILACION AURICULAR",
        # "ON ANTICOAG, POSS HEAD INJ" (a given name after the comma vouches for an everyday surname: "PARISH,
        # Emma")
        return False
    if len(given_words) == 1 and not lexicon.is_name_word(given_words[0]):
        word = given_words[0]
        credential = (
            word.isupper() and len(word) <= 7 and lexicon.zipf(word.lower()) < 3.0 and word.title() not in _town_names()
        )
        a_tests_reading = re.fullmatch(r"[A-Z0-9]{2,5}", surname) is not None and lexicon.zipf(word.lower()) >= 3.5
        if credential or a_tests_reading:
            return False  # "KWAME ASANTE-BOATENG, DMD", "PTH, INTACT": a degree or a word after the comma
    return not (
        len(words) == 2
        and words[-1].lower() in _PLACE_HEADING_WORDS
        or lexicon.is_region(given.strip())
        and not lexicon.is_name_word(given.split()[0])
    )


def _not_a_country_after(surface: str) -> bool:
    """ "Bank of Valletta", not "Bank of England": what follows the kind is no country or state."""
    tail = re.sub(r"^(?:.*? of (?:the )?|NHS )", "", surface)
    return not lexicon.is_region(tail)


def _not_a_heading(surface: str) -> bool:
    """An institution's name, not a heading or a sentence in capitals around its kind ("YOU WERE IN THE
    HOSPITAL", "DECLARATION BY HOSPITAL", "HOSPITAL FOR TWO DAYS"): a clause's verbs, pronouns and joining words
    are no name's."""
    if not surface.isupper():
        # "My physio at Metrotown Active Rehab": a possessive and a kind in lower case are a sentence's words,
        # the place after "at" the name (which the kind at its own end reads)
        if re.match(r"(?:My|Our|Your|His|Her|Their|Mi|Su|Tu|Nuestr[oa]) [a-záéíóúñ]", surface):
            return False
        # "the school Asthma Action Plan form", "Safety Plan": a plan a clinician writes, not a health plan
        if _A_WRITTEN_PLAN.search(surface):
            return False
        # "llevó al SAMUR al hospital": Spanish's "to the" before an institution's kind in lower case ends a
        # sentence's phrase, not a name ("Clínica del Sol" has its kind first)
        return not re.search(r" (?:al|el|a la|en el|en la|del) [a-záéíóúñ]+$", surface)
    return not any(w.lower() in _CLAUSE_WORDS for w in re.findall(r"[^\W\d_]+", surface))


_A_WRITTEN_PLAN = re.compile(
    r"\b(?:Action|Care|Treatment|Safety|Crisis|Birth|Payment|Management|Discharge|Support|Behaviou?r|Education|"
    r"Recovery|Emergency|Relapse|Transition|Service|Exercise|Feeding|Nutrition|Pain) Plan$"
)


# English only: a Spanish name in capitals holds "SU", "SE" and "ES" as a word or an initialism.
_CLAUSE_WORDS = frozenset(
    "you your yours we were was is are be been being have has had will would shall should can could may might "
    "must do does did i me my he she it they them their this that these those who which when where if by days "
    "before after against with booked seen sent".split()
)


# The legal forms that stand for a firm however they are typed ("bluefin data llc", "Acme ltd."); the rest are
# also words or clinical abbreviations ("Gestational sac", "a small apc", "co", "sa", "ab"), and close
# a firm's name only written as a firm writes them.
_FORMS_IN_ANY_CASE = frozenset(
    "ltd limited llc l.l.c. pllc llp inc incorporated corp corporation plc gmbh ltda srl s.r.l. slu s.l.u. eirl "
    "e.i.r.l. s.l. s.a. s.a.c. s.a.s. s.l.l. s.a.t. o.o.".split()
)


def _a_legal_form_as_written(surface: str) -> bool:
    """A firm's name closing in its form: an abbreviation also used as a word counts in capitals or title case
    only. A kind spelled out ("Scottish Widows group scheme") is read in any case, as before. A person's
    degree before it makes the "form" a state's code: "Teresa Marsh, PharmD, NV" is a pharmacist in Nevada."""
    last = surface.rsplit(None, 1)[-1]
    bare = last.lower().rstrip(".")
    if any(part.strip().rstrip(".").lower() in _DEGREES for part in surface.split(",")[1:]):
        return False
    return not last.islower() or len(bare) > 4 or last.lower() in _FORMS_IN_ANY_CASE or bare in _FORMS_IN_ANY_CASE


# The degrees and credentials written after a person's name, between commas.
_DEGREES = frozenset(
    "md do phd pharmd dds dmd dnp np rn bsn msn lpn cna pa pa-c lcsw lmft lpc psyd mph mba jd esq esquire cpa "
    "emt emt-p paramedic od dpm dc facs facp mbbs mrcp frcp frcs mrcgp frcr franzcr fracp mcnz".split()
)


# What a chart reports as "X is 94": readings, not someone's age.
_READINGS = frozenset(
    "sats sat saturation sao2 spo2 hb hgb glucose sugar temp temperature pulse weight height score rate level count "
    "result reading total sodium potassium calcium bp".split()
)
_TITLE_BEFORE = re.compile(rf"\b{_TITLE} $")


def _a_nickname_of_the_name_before(match: re.Match) -> bool:
    """``_a_nickname_after`` read from the nickname: the capitalised words before its brackets are the name."""
    name = re.search(
        r"[A-Z][\w'’\-]*(?: [A-Z][\w'’\-]*){0,3}$", match.string[max(0, match.start() - 60) : match.start()]
    )
    if name is None:
        return True
    words = [w for w in name.group(0).split() if w.lower().rstrip(".") not in lexicon.TITLES]
    return _shortened_by(words, match.group("value"))


def _a_nickname_after(match: re.Match) -> bool:
    """Whether the quoted word in brackets after a name is a nickname, not the short name a contract defines:
    none of the name's own words, and each of the name's words a given name or no everyday word ("Tyson ("Ty")",
    "Bernadette Mary ("Bernie")"; not "The Terminal Date ("Termination")" or "Long Covid ("Long")")."""
    return _shortened_by(match.group("value").split(), match.group("nick"))


def _shortened_by(words: list[str], nickname: str) -> bool:
    """Whether ``nickname`` is none of the name's own ``words`` and each of them a given name or no everyday
    word."""
    if nickname.lower() in (w.lower() for w in words):
        return False
    return all(w.lower() in lexicon.first_names() or lexicon.zipf(w.lower()) < 4.0 for w in words)


def _no_reading_before(match: re.Match) -> bool:
    """Whether no reading's word stands in the few words before an age found by its verb ("Heart rate turns
    ninety-six", "la glucemia capilar tiene noventa y cinco")."""
    before = match.string[max(0, match.start() - 40) : match.start()].lower()
    return not any(word in _READING_WORDS for word in re.findall(r"[^\W\d_]+", before))


# The words of a reading that has a value, as a chart writes it in either language: the readings after which a
# number is no age, and the words around them.
_READING_WORDS = _READINGS | frozenset(
    "glucemia glucosa capilar frecuencia cardíaca cardiaca saturación saturacion tensión tension presión presion "
    "pressure temperatura peso nivel puntuación puntuacion hr fc ta".split()
)


def _said_of_someone(match: re.Match) -> bool:
    """ "Victoria is 93", "Mrs Ogden is 94": a person's age; "Pulse is 98", "Sats is 94": a reading. A name after
    a title or on the lists, or a word too rare to be everyday that no chart reports."""
    who = match.group("who")
    if who is None or _TITLE_BEFORE.search(match.string, max(0, match.start() - 12), match.start()):
        return True
    return lexicon.is_name_word(who) or (
        lexicon.zipf(who) < 3.5 and who.lower() not in _READINGS and not lexicon.is_kept_term(who)
    )


def _a_signatorys_body(match: re.Match) -> bool:
    """ "Marta Guardado – JVPE 8811": a person's name before a body's initials that are no clinical reading's
    ("Creatine Kinase (CPK 1200)" names no one)."""
    body = match.group("body").replace(".", "")
    if body in lexicon.CLINICAL_ABBREVIATIONS or lexicon.is_kept_term(body):
        return False
    who = match.group("who")
    return who is None or (
        any(lexicon.is_name_word(word) for word in who.split())
        and not any(lexicon.is_kept_term(word) for word in who.split())
    )


def _named_around_a_nickname(surface: str) -> bool:
    """ "Robert (Bob) Hale": a name word before or after the brackets, and no kept term ("Troponin (I) Assay")."""
    words = re.findall(r"[^\W\d_]+", surface)
    return any(lexicon.is_name_word(w) for w in (words[0], words[-1])) and not any(
        lexicon.is_kept_term(w) for w in words
    )


def _written_as_a_firm(surface: str) -> bool:
    """ "TEXTILES PAUTE, con RUC": a name in capitals, or one whose words are not all everyday ("La Empresa,
    con CIF" names no one), that does not open with a given name."""
    words = re.findall(r"[^\W\d_]+", surface)
    if len(words) < 2 or lexicon.is_name_word(words[0]):  # "Juan Pérez, con RUC …" is a person's
        return False
    return surface.isupper() or not all(lexicon.zipf(w) >= 4.0 for w in words)


_TEMPERATURE_BEFORE = re.compile(r"(?i:\b(?:temp|temperature|t|tmax|fever|febrile|pyrexi\w*|°))[^\n]{0,12}$")


def _no_temperature_before(match: re.Match) -> bool:
    """ "91F with sepsis" opens a case; "Temp: 99F with rigors" is a temperature in Fahrenheit."""
    return _TEMPERATURE_BEFORE.search(match.string, max(0, match.start() - 20), match.start()) is None


# What a patient "c/o" (complains of) at a line's start: no firm in care of whom a letter goes.
_COMPLAINTS = frozenset(
    "pain pains ache aches headache headaches fever cough sob nausea vomiting dizziness swelling bleeding rash "
    "fatigue weakness numbness palpitations discomfort tightness injury fall falls breathlessness".split()
)


def _not_a_label(surface: str) -> bool:
    """A chat line's speaker, not a word the line opens with ("Note:", "Messages:", "Clinic:"): a name on the
    lists, or a word not everyday."""
    return any(
        lexicon.is_name_word(w) or lexicon.zipf(w) < 4.0 and not lexicon.a_derived_word(w) for w in surface.split()
    )


def _no_place(surface: str) -> bool:
    """Whether ``surface`` is no region's or town's name ("Wiltshire ("Wilts")" shortens a county)."""
    from app.identifiers.towns import town_names

    return not lexicon.is_region(surface) and surface not in town_names()


# Two consonants no English or Spanish word opens with: an initial before a surname ("jmacisaac", "rboudreau").
_NO_WORD_OPENS = re.compile(
    r"(?!bl|br|ch|cl|cr|dr|fl|fr|gl|gn|gr|kl|kn|kr|ll|ph|pl|pn|pr|ps|rh|sc|sh|sk|sl|sm|sn|sp|st|sw|th|tr|ts|tw|wh|wr)"
    r"[b-df-hj-np-tv-z][b-df-hj-np-tv-xz]"
)


def _a_login(surface: str) -> bool:
    """Whether ``surface`` is an initial or two and a surname, with a second surname's initial or a number
    after it ("jmacisaac", "mjruizc", "kflett2"), and no word of either language: it opens with two consonants
    no word opens with ("jm", "rb", "hp"), or ends in digits ("diuretics", "essalud", "inyector" are words)."""
    letters = surface.rstrip("0123456789")
    if lexicon.zipf(letters) > 0 or lexicon.is_kept_term(letters):
        return False
    if letters == surface and not _NO_WORD_OPENS.match(letters):
        return False
    surnames = lexicon.every_surname()
    return any(len(rest) >= 4 and rest in surnames for cut in (1, 2, 3) for rest in (letters[cut:], letters[cut:-1]))


def _a_users_name(surface: str) -> bool:
    """A user's or a typist's name in lower case: no word of either language ("lmk", "gphiri", "sreeja.k"),
    no abbreviation a chart writes, no word that says the field is empty ("illegible", "unsigned") and no
    system's account ("sysadmin", "autoverify")."""
    letters = surface.rstrip("0123456789")
    return (
        2 <= len(surface) <= 25
        and _SYSTEM_ACCOUNT.search(surface) is None
        and letters.upper() not in lexicon.CLINICAL_ABBREVIATIONS
        and letters.upper() not in lexicon.EVERYDAY_ABBREVIATIONS
        and not lexicon.is_kept_term(letters)
        and max(lexicon.zipf(letters), lexicon.zipf_in(letters, "es")) < 2.5
    )


def _signs_someone(surface: str) -> bool:
    """What stands between a form's marks of signature is someone's: initials, an initial and a surname, a
    name, or a user's name, and not an everyday word ("...and...", "..etc..")."""
    if surface[0].islower() and len(surface) <= 3:  # initials, which read as words online often ("jg", "hk")
        return _a_typists_initials(surface)
    if surface[0].islower():
        return _a_users_name(surface)
    words = re.findall(r"[^\W\d_]+", surface)
    if all(len(word) == 1 for word in words):
        return len(words) >= 2
    return any(
        lexicon.is_name_word(word) or max(lexicon.zipf(word.lower()), lexicon.zipf_in(word.lower(), "es")) < 4.0
        for word in words
        if len(word) > 1
    )


def _a_letters_reference(match: re.Match) -> bool:
    """ "EBJ/sl", "NG/kd   dictated 13.11.24": the writer's initials, which may read as an abbreviation ("PF/jm")
    only where the foot says the letter was dictated or typed, and a typist's two or three letters, which read as
    words online often ("jm", "kd") but not as a word of prose."""
    writer, *typists = [part for part in match["value"].split("/") if not part.isdigit()]
    dictated = re.match(r"[ \t]+(?i:typed|dictated)\b", match.string[match.end() :]) is not None
    # (two typists' letters or a serial after them make it a reference whatever the writer's letters read as)
    shaped = len(match["value"].split("/")) > 2
    return (dictated or shaped or _initials_not_a_word(writer)) and all(
        max(lexicon.zipf(typist), lexicon.zipf_in(typist, "es")) < (4.5 if shaped else 4.0)
        and typist.upper() not in lexicon.CLINICAL_ABBREVIATIONS - {"SL"}
        for typist in typists
    )


def _a_given_name_first(surface: str) -> bool:
    """A given name on the lists that is no everyday word ("maria", "Tom"; not "back", "here", "sorry"), and
    the word after it, if any, no everyday word either."""
    words = surface.split()
    first = words[0].lower()
    if first not in lexicon.every_given_name() or first in lexicon.EVERYDAY_NAMES:
        return False
    if max(lexicon.zipf(first), lexicon.zipf_in(first, "es")) >= 5.5:
        return False  # "soy una carga": a word of the sentence that a list also holds as a name
    return all(
        max(lexicon.zipf(word.lower()), lexicon.zipf_in(word.lower(), "es")) < 5.0 or lexicon.is_name_word(word)
        for word in words
    )


def _a_given_name_in_lower_case(surface: str) -> bool:
    """A given name on the lists, typed in lower case, that is no everyday word ("gary", "inma"; not "will",
    "is", "and")."""
    return (
        surface in lexicon.every_given_name()
        and surface not in lexicon.EVERYDAY_NAMES
        and max(lexicon.zipf(surface), lexicon.zipf_in(surface, "es")) < 5.0
        and not lexicon.is_kept_term(surface)
    )


def _vouched_by_a_relation(everyday: float) -> Callable[[str], bool]:
    """What a relation's word beside a lower-case word vouches for as a name: a given name of the lists, or a
    word rarer than ``everyday`` that is no kept term."""
    return lambda surface: (
        _a_given_name_in_lower_case(surface) or lexicon.zipf(surface) < everyday and not lexicon.is_kept_term(surface)
    )


def _a_typists_initials(surface: str) -> bool:
    """Two or three letters in lower case that sign a line ("bt", "kh"): they read as words online often, but
    not as a word of prose or an abbreviation a chart writes."""
    return (
        surface.upper() not in lexicon.CLINICAL_ABBREVIATIONS
        and surface.upper() not in lexicon.EVERYDAY_ABBREVIATIONS
        and max(lexicon.zipf(surface), lexicon.zipf_in(surface, "es")) < 4.0
    )


def _a_chat_author(surface: str) -> bool:
    """A team chat's author before the time: a name or a rare word, and no medicine, test or clinical word
    ("Insulin 8:00", "Troponin 06:00", "Hipoglucemia 03:00" open a schedule's or a timeline's line)."""
    words = [w for w in surface.split() if len(w) > 1]
    if not words or any(lexicon.is_kept_term(w) or lexicon.is_clinical_word(w) for w in words):
        return False
    return _not_a_label(surface)


def _not_marked_up(surface: str) -> bool:
    """A signature between marks, not a chat's struck-through or bold word ("~dysuria~", "__appendicectomy__"):
    no clinical word, medicine or kept term."""
    return not any(
        lexicon.is_kept_term(w) or lexicon.is_clinical_word(w) for w in re.findall(r"[^\W\d_]+", surface) if len(w) > 3
    )


# Accounts a system signs with, which are no one: "User: sysadmin", "Operator: autoverify", "Typed: dictaphone".
_SYSTEM_ACCOUNT = re.compile(r"(?i)admin|auto|system|sys|bot|verif|signed|dictaphone|centralita|operator|interface")


def _initials_not_a_word(surface: str) -> bool:
    """Initials in capitals that abbreviate nothing clinical or everyday ("JLP", not "ICU"), or in lower case
    that no language writes as a word ("kcm", not "ok")."""
    return (
        surface.upper() not in lexicon.CLINICAL_ABBREVIATIONS
        and surface.upper() not in lexicon.EVERYDAY_ABBREVIATIONS
        and (surface.isupper() or max(lexicon.zipf(surface), lexicon.zipf_in(surface, "es")) < 2.5)
    )


# The kinds of a health plan or an account, and the public schemes, that a bank's or an insurer's field may hold
# instead of its name.
_PLAN_KINDS = frozenset(
    "PPO HMO EPO POS HDHP HSA FSA HRA NHS VA ACA CHIP SNP PFFS MSA ISA IRA LLC GP PIN ID NO NA TBC TBD N/A YES "
    "SS IMSS ISSSTE SIS EPS ARS IPS".split()
)


def _no_everyday_word_alone(surface: str) -> bool:
    """A name after a relation's word, not the first word of what a transcript's speaker says ("HIJA: Sí, …",
    "WIFE: Tell them …"): one word that is an everyday word of either language, and on no name list, is none."""
    words = surface.split()
    everyday = max(lexicon.zipf(surface), lexicon.zipf_in(surface, "es")) >= 4.5
    return len(words) > 1 or lexicon.is_name_word(surface) or not everyday


def _rule(
    kind: EntityType,
    pattern: str,
    flags: int = 0,
    accept: Callable[[str], bool] | None = None,
    cued: bool = False,
    lead: Callable[[str, int, int], int] | None = None,
    context: Callable[[re.Match], bool] | None = None,
) -> Rule:
    return Rule(kind, re.compile(pattern, flags), accept, cued, lead, context)


_WORD_BEFORE_LINK = re.compile(r"([^\W\d_]+) (?:a|en|al) (?=[A-ZÀ-Þ]|la |el )")


def _verb_before_link(text: str, start: int, end: int) -> int:
    """A firm's name may hold "a", "en" or "al" ("Rent a Car Costa Sol SL"); an everyday Spanish word before
    the first of them, opening the sentence, is the sentence's verb ("Trabaja en Transportes Gutiérrez S.L.")."""
    match = _WORD_BEFORE_LINK.match(text, start, end)
    if match and names.opens_sentence(text, start) and lexicon.zipf_in(match.group(1), "es") >= 3.5:
        return match.end() - start
    return 0


_SPOKEN_DIGIT = (
    r"(?:zero|oh|one|two|three|four|five|six|seven|eight|nine|double (?:zero|oh|one|two|three|four|five|six|"
    r"seven|eight|nine)|cero|uno|dos|tres|cuatro|cinco|seis|siete|ocho|nueve)"
)


# The top-level domains a host name in running text ends with: the generic ones and the country codes of
# the places splitchat's users write from and to — less those that are also files' extensions (.py, .pl, .do).
_TOP_LEVEL_DOMAIN = (
    r"(?:com|org|net|edu|gov|mil|int|info|biz|io|ai|app|dev|co|me|tv|us|uk|ie|ca|au|nz|za|ng|in|de|fr|es|it|pt|nl|"
    r"be|ch|at|se|no|dk|fi|cz|ru|jp|cn|kr|br|mx|ar|cl|pe|ve|ec|uy|bo|cr|pa|gt|hn|sv|ni|cu|pr|eu|cat|gal|eus|"
    # Africa, Asia and the Caribbean, the rest of Europe and a link shortener's ("bit.ly"); not those that are
    # also words a sentence opens with, typed after a point with no space ("the patient.my son", "si", "care")
    r"ly|ke|sg|ph|jm|gh|ug|tz|rw|zw|pk|bd|lk|vn|hk|tw|ae|il|tr|gr|hu|ro|bg|hr|sk|lv|ee|lu|mt|cy|gy|bz|xyz)"
)


# How an address written so that robots miss it joins its mailbox to its host ("jo at host", "jo (at) host",
# "jo.a-t.host", "jo (arroba) host"), and its host's labels ("host (dot) es"): the detector reads these forms
# and a stand-in is written in the same one (surrogates.py).
MAILBOX_AT = r" at | AT | ?[\[({<]at[\])}>] ?|\.a-t\.| ?\(arroba\) | arroba "
HOST_DOT = r"\.| ?[\[({]dot[\])}] ?| dot "


def _on_the_globe(surface: str) -> bool:
    """A latitude within ±90° and a longitude within ±180°, whichever way they are written."""
    numbers = [float(n) for n in re.findall(r"-?\d+(?:\.\d+)?", surface)]
    if "°" in surface and len(numbers) >= 6:  # degrees, minutes, seconds
        latitude, longitude = numbers[0], numbers[3]
        return latitude <= 90 and longitude <= 180 and all(0 <= n < 60 for n in numbers[1:3] + numbers[4:6])
    return len(numbers) >= 2 and abs(numbers[0]) <= 90 and abs(numbers[1]) <= 180


def _a_mailbox(surface: str) -> bool:
    """ "adam at cafe21.org" names a mailbox; "available at example.com" is a sentence's words before a host."""
    name = re.split(MAILBOX_AT, surface, maxsplit=1)[0]
    if re.search(r"[\d._+\-]", name):
        return True
    return lexicon.is_name_word(name) or lexicon.zipf(name) < 3.5


_YEARS = re.compile(r"(?:1[89]|20)\d{2} ?[-–] ?(?:(?:1[89]|20)\d{2}|\d{2})")


def _a_phone(surface: str) -> bool:
    """Telephone numbers have 7 to 15 digits; a year or a dose does not, nor a span of years ("1992-1996")."""
    return 7 <= sum(c.isdigit() for c in surface) <= 15 and _YEARS.fullmatch(surface) is None


# Abbreviations written with points that follow the same words ("Patient: N.P.O.", "Paciente: D.N.I. …").
_DOTTED_ABBREVIATIONS = frozenset(
    "NPO PO IV IM SC SL PRN BID TID QID QD HS AC PC DOB AKA NKA NKDA DNR DNI NIE NIF CIF RUT RUC CI CC SS NSS "
    "USA UK EEUU SA SRL CV MD RN DO PA NP".split()
)
# What a form's field holds when it names no one ("No" too: a capitalised value stops before "consta").
PLACEHOLDER_VALUES = frozenset("no desconocido desconocida ninguno ninguna n/a na none unknown pendiente".split()) | {
    "no consta",
    "no aplica",
    "sin datos",
}
# The parts a person plays in a record or a case, as the label before their initials.
_INITIALS_LABELS = (
    r"Ofendid[oa]|Agraviad[oa]|V[íi]ctima|Menor|Imputad[oa]|Acusad[oa]|Denunciante|Testigo|Paciente|Usuari[oa]|"
    r"Niñ[oa]|Iniciales|Patient|Pt|Victim|Minor|Child|Defendant|Plaintiff|Claimant|Respondent|Witness|Initials|"
    r"Subject|Client|Received|Recib[íi]|Recibido|Recibida|Conforme"
)
_INITIALS_PEOPLE = (
    r"menor|niñ[oa]|adolescente|joven|paciente|v[íi]ctima|ofendid[oa]|agraviad[oa]|imputad[oa]|testigo|"
    r"minor|child|patient|victim|defendant|witness"
)
# What makes a number after "she's", "the age of" or "edad de" no age: a span of time, a reading, a share.
# An office's letters before a file's serial and its year, a space between: "SWMZ 417/24", "CR 2291/24", "LC
# 11204 P2" (in capitals, so that "ref range 3.5-5.0" is no file's).
_OFFICE_LETTERS = (
    r"(?:(?!(?-i:ICD|DSM|CPT|ISO|CIE) )(?-i:[A-Z]{2,6}) (?!\d{1,2}/\d{1,2}/\d{2,4})(?=\d[\d/\-]*[/\-]\d|\d{4,}))?"
)
_STATUTE_BEFORE = re.compile(
    r"(?i:\b(?:act|acts|instrument|notice|regulations?|ordinance|decree|rules|order|bill|law|ley|decreto|"
    r"reglamento|gazette|supplement)\b)[^\n]{0,12}$"
)
# A law's or an order's short word before its number: "RD 1093/1997", "Orden SND/399/2020", "Directiva 2011/24".
_A_LAWS_SHORT_WORD = re.compile(r"(?i:\b(?:rd|rdl|lo|l\.o\.|directiva|orden|circular|art\.?|arts\.?)\b)[^\n]{0,6}$")
_NOT_YEARS_AFTER = (
    r" ?(?i:%|percent|per cent|days?|weeks?|months?|hours?|hrs?|minutes?|mins?|seconds?|secs?|d[íi]as?|semanas?|"
    r"meses|horas?|minutos?|on\b|sats?\b|saturation|kg|lbs?|cm)"
)
RULES: tuple[Rule, ...] = (
    # Ages over 89 are identifying (HIPAA); younger ones are not.
    _rule(T.AGE, r"\b(?P<value>(?:9\d|1[01]\d)[- ](?:years?|yrs?)(?:[- ]old)?)\b", re.I),
    # "aged 93", "at the age of 96", "Age/Sex: 92 Y / M", "Age / Sex: 91F", "Age/Sex : 91 Y / M", "Age: 94yrs"
    _rule(
        T.AGE,
        r"\b(?:aged?|age:?|age of|age ?/ ?sex ?:?|age ?& ?sex ?:?)\s+(?P<value>(?:9\d|1[01]\d))"
        r"(?:\b|(?=[MFY]\b|yrs?\b|yo\b|y/o))"
        rf"(?! ?(?:%|mg|kg|mmhg|/min))(?!{_NOT_YEARS_AFTER})",
        re.I,
    ),
    # "He's 93", "she's 95 now", "I'm 93 and can't get in"; not a weight or a reading after it ("she's 92% on
    # air")
    _rule(
        T.AGE,
        r"(?:\b(?:he|she)['’]s|\bi['’]m|\bi am) (?P<value>(?:9\d|1[01]\d))\b"
        r"(?! ?(?:%|mg|kg|lbs?|mmhg|bpm|/|\.\d|st\b|pounds|kilos|dollars|bucks|euros|quid|k\b|miles|mi\b|km|"
        r"kilomet|metres|meters|feet|ft\b|yards|steps))"
        rf"(?!{_NOT_YEARS_AFTER})",
        re.I,
    ),
    # "o sea tiene 94", "tengo 91 y vivo sola" (not a reading: "tiene 92 de saturación", "tiene 95 pulsaciones")
    _rule(
        T.AGE,
        r"(?i:\b(?:tiene|tengo)) (?P<value>(?:9\d|1[01]\d))(?![\w%/.,]\d|[\w%/])"
        r"(?!\s*(?i:de\b|del\b|pulsaciones|latidos|lpm|ppm|puntos|mg|kg|x\b|por\b|sobre\b|euros|pesos|"
        r"d[óo]lares|soles|bolivianos|quetzales|lempiras|colones|mil\b|[€$]|km|kil[óo]metros|metros|pasos|cuadras))"
        rf"(?!{_NOT_YEARS_AFTER})",
    ),
    # a dispatch's or a chart's age and sex in one word: "93YOM", "91 yof", "94 YO F"
    _rule(T.AGE, r"(?<![\w.])(?P<value>(?:9\d|1[01]\d)) ?(?=(?i:yo ?[mf]|y/o ?[mf])\b)"),
    # a form's field: "Age at death: 93", "Age (years): 91", "Edad al ingreso: 94"
    _rule(
        T.AGE,
        r"\b(?:age|edad)(?: at (?:death|admission|onset|diagnosis)| \(years\)| al (?:fallecer|ingreso|fallecimiento))"
        r"\s*:?\s+(?P<value>(?:9\d|1[01]\d))\b(?! ?(?:%|mg|kg))",
        re.I,
    ),
    # (Catalan's "anys" too: a Spanish office's notes mix it in)
    _rule(T.AGE, r"(?<!\w)(?P<value>(?:9\d|1[01]\d)\s?(?:años|añitos|a\.|añas|anys))(?!\w)", re.I),
    # a lab report's and a chart's shortest forms: "(94 y)", "(92 a)", "94y", and an age in brackets after the
    # date of birth it follows from ("DOB: 02/14/1931 (94)")
    _rule(T.AGE, r"(?<![\w.])(?P<value>(?:9\d|1[01]\d)(?: ?[ya](?=\))|y(?![\w/])))"),
    # and a Spanish list's short age after the name: "rafaela moreno cortés 92a · nuhsa …", "Celia Carrillo 92a:",
    # "FUNES, Argentina · 93 a · DNI …"
    _rule(T.AGE, r"(?<=[^\W\d_] |· )(?P<value>(?:9\d|1[01]\d))(?= ?a(?:\s*[·:;]|,\s))"),
    _rule(T.AGE, r"(?<=\d{4}) \((?P<value>(?:9\d|1[01]\d))\)"),
    # a specimen label's age and sex: "DOB 03/14/1934 | 91Y F", "94Y/F"
    _rule(T.AGE, r"(?<![\w.])(?P<value>(?:9\d|1[01]\d))(?=Y ?/?[MF]\b)"),
    # a chart's short forms: "91 y/o", "93yo", "92 y.o."
    _rule(T.AGE, r"(?<![\w.])(?P<value>(?:9\d|1[01]\d)\s?(?:y/o|y\.o\.?|yo(?=[\s,.;)]|$)|yr old|yr-old))", re.I),
    # an age and a sex opening a case: "91F with sepsis", "92 M, DNR" (a temperature in Fahrenheit, "98F, HR
    # 80", is followed by other readings, not by the case)
    _rule(
        T.AGE,
        r"(?:^|(?<=\n)|(?<=[.:;] )|(?<=\b[Aa] )|(?<=\b[Pp]t ))(?P<value>(?:9\d|1[01]\d) ?(?:[MF]|yo [MF]))"
        r"(?=,? (?i:with|w/|presenting|presents|who|admitted|brought|BIBA|from|c/o|complaining|DNR|lives|widow|"
        r"widower|retired|nursing|resident|known|pmh|hx|s/p)\b)",
        re.M,
        context=_no_temperature_before,
    ),
    # an age and a sex between commas in a handover's or a list's line: "Mr J. Ó Súilleabháin, 94M, MRN …",
    # "WIŚNIEWSKA-KOWAL, Zofia, 101F, MRN …" ("T 37.9, 99F, HR 80" is a temperature)
    _rule(
        T.AGE,
        r"(?<=, )(?P<value>(?:9\d|1[01]\d) ?[MF])(?=,\s)",
        context=_no_temperature_before,
    ),
    # an age in brackets after the relative it is said of: "my dad (91) needs a carer", "la abuela (94)"
    _rule(
        T.AGE,
        r"(?<!\w)(?i:dad|mum|mom|mother|father|gran|granny|nan|nana|grandma|grandmother|grandad|granddad|grandpa|"
        r"grandfather|husband|wife|aunt|auntie|uncle|neighbour|neighbor|pap[áa]|mam[áa]|padre|madre|abuel[oa]|"
        r"esposo|esposa|marido|t[íi][oa]|vecin[oa]) \((?P<value>(?:9\d|1[01]\d))\)(?! ?(?:%|mg|kg|mmhg|/))",
    ),
    # an age in brackets after the person it is said of: "Mrs Kaur (96)", "Doris Pell (93) lives alone"
    _rule(
        T.AGE,
        r"(?<!\w)(?P<who>[A-Z][a-zà-ÿ'’-]*(?:[A-Z][a-zà-ÿ'’-]+)?) \((?P<value>(?:9\d|1[01]\d))\)"
        r"(?! ?(?:%|mg|kg|mmhg|/))",
        context=_said_of_someone,
    ),
    # an age between commas after the person it is said of: "Megan Lloyd-Prys, 95, lives alone"
    _rule(
        T.AGE,
        r"(?<!\w)(?P<who>[A-Z][a-zà-ÿ'’-]*(?:[A-Z][a-zà-ÿ'’-]+)?), (?P<value>(?:9\d|1[01]\d)),"
        # and the sentence goes on in words: "Mrs Hughes, 93, confirms the leak" ("Smith, 95, 96" is a list)
        r"(?= [a-záéíóúñ]{2,}\b)",
        context=_said_of_someone,
    ),
    # "At 93 she still drives", "a los 92 vive sola"
    _rule(
        T.AGE,
        # a sentence that opens with it ("Sats at 92, she was started on oxygen" is a reading)
        r"(?:(?:^|(?<=[.!?] )|(?<=\n))At|\b(?i:a los)) (?P<value>(?:9\d|1[01]\d)),? "
        r"(?i:she|he|they|my|his|her|mum|mom|dad|vive|sigue|todav[íi]a)\b",
        re.M,
    ),
    # "Edad: 93", "de edad 91", and a chart's "Edad: 90a"
    _rule(
        T.AGE, rf"\b(?:edad:?|de edad|edad de)\s+(?P<value>(?:9\d|1[01]\d))(?:\b|(?=a\b))(?!{_NOT_YEARS_AFTER})", re.I
    ),
    # an age and a sex in one field, either way round: "Age/Sex: F/92", "Edad/Sexo: 93/M"
    _rule(
        T.AGE,
        r"(?i:\b(?:age|edad) ?/ ?(?:sex|sexo|gender|g[ée]nero) ?:?)\s*(?:[MFHmfh] ?/ ?)?(?P<value>(?:9\d|1[01]\d))"
        r"(?= ?(?:/ ?[MFHmfh]\b|[MFYAmfya]?\b))",
    ),
    # "Paciente de 95a, vive sola": a chart's short age after "de"
    _rule(T.AGE, r"(?i:\bde )(?P<value>(?:9\d|1[01]\d))a(?=[\s,.;)])"),
    _rule(T.AGE, r"\b(?P<value>(?:9\d|1[01]\d)(?:st|nd|rd|th)) (?:birthday|bday)\b", re.I),
    _rule(T.AGE, r"\b(?:cumple|cumplir[áa]?|cumpli[óo]) (?P<value>(?:9\d|1[01]\d)(?: años)?)\b", re.I),
    # a birthday to come: "she'll be 92 on saturday", "he will be 95 next week", "turning 91"
    _rule(
        T.AGE,
        r"\b(?:(?:she|he|mum|mom|dad|nan|gran)(?:'ll| will) be|turning) (?P<value>(?:9\d|1[01]\d))"
        r"(?= (?:on|next|this|in|tomorrow|today|years?)\b|[.!,]|$)",
        re.I,
    ),
    _rule(
        T.AGE,
        r"\b(?:mom|mum|mam[áa]|dad|pap[áa]|mother|father|grand(?:ma|pa|mother|father)|abuel[oa]|madre|padre|she|he|"
        r"patient|paciente|husband|wife|esposo|esposa|who|quien) (?:is|was|turned|turns|es|tiene|ten[íi]a|cumpli[óo]) "
        r"(?P<value>(?:9\d|1[01]\d))(?! ?(?:%|mg|kg|mmhg|lpm|bpm|/|\.\d))\b",
        re.I,
    ),
    # Record, hospital, member, insurance and policy numbers, named by the words before them.
    _rule(
        T.RECORD_NUMBER,
        r"\b(?:MRN|hospital (?:no\.?|number)|patient (?:id|no\.?|number)|NHI|member(?:ship)?(?: id| no\.?| number)?|"
        r"insurance(?: member)?(?: id| no\.?| number)?|policy(?: no\.?| number)?|identification number|ID)"
        r"[\s:#.]*(?:is\s+|on file\s+)?(?P<value>[A-Z]{0,4}-?\d[\dA-Z\-]{3,}\d)\b",
        re.I,
    ),
    # Tickets, bugs, orders, bookings, parcels, patents: numbers named by the words before them ("[Bug 837]",
    # "Confirmation code: 7HX2KQ", "Patent No. 6,123,456", "localizador ZK3P9Q"). An order or an invoice
    # only with its number's word: "order 500 mL" is a prescription.
    _rule(
        T.RECORD_NUMBER,
        r"(?i:\b(?:bug|ticket|incident|incidencia|confirmation(?: code| number| no\.?)?|"
        r"booking(?: ref(?:erence)?| code| number)?|reservation(?: code| number)?|tracking(?: code| number| no\.?)?|"
        r"patent(?: no\.?| number)?|"
        r"pat\. no\.?|application (?:no\.?|number)|(?:order|invoice|pedido|factura)(?: no\.?| number| n[º°]\.?| id|"
        r" #)|localizador|n[º°] de pedido)(?![\w-]))[\s:#.]*"
        r"(?P<value>(?=[\w\-,/]*\d)[A-Z\d][A-Z\d\-,/]{1,}[A-Z\d])\b",
    ),
    # Court, tribunal and claim references.
    _rule(
        T.CASE_NUMBER,
        r"\b(?:case|claim|docket|index|file|matter|appeal|petition)(?: no\.?| number| ref(?:erence)?)?[\s:#.]*"
        rf"(?:(?:\w+\s+){{0,4}}?is\s+)?(?P<value>{_OFFICE_LETTERS}[A-Z]{{0,4}}[\-]?\d[\dA-Z:/\-]{{3,}}[\dA-Z])\b",
        re.I,
    ),
    _rule(
        T.CASE_NUMBER,
        rf"\b(?:our |your )?ref(?:erence)?\.?[\s:#]*(?P<value>{_OFFICE_LETTERS}[A-Z]{{0,4}}[\-]?\d[\dA-Z:/\-]{{3,}}"
        r"[\dA-Z])\b",
        re.I,
    ),
    # A court's serial and its year in words, as common-law registries number suits: "Civil Suit No. 0087 of
    # 2023", "DC (Civ) No. 421 of 2024", "MISCELLANEOUS APPLICATION NO. 0412 OF 2024", and after the filing's
    # own word without a number's, with the registry's letter: "Petition 15 of 2023", "Appeal E045 of 2023".
    _rule(
        T.CASE_NUMBER,
        r"(?i:\b(?:no|nos|number|n[º°])\.?[ \t]*:?|\b(?:petition|appeal|suit|cause|application|case|claim|"
        r"complaint|revision|reference|misc|cr|crim|civ)\.?)[ \t]*"
        r"(?P<value>(?-i:[A-Z]{1,3})?\d{1,6}[ \t]+(?i:of)[ \t]+(?:19|20)\d{2})(?!\d)",
        # (an Act's, an instrument's or a notice's number is public: "Employment Act No. 11 of 2007")
        context=lambda match: _STATUTE_BEFORE.search(match.string, max(0, match.start() - 40), match.start()) is None,
    ),
    _rule(T.CASE_NUMBER, r"\b\d:\d{2}-(?:cv|cr|mc|bk)-\d{3,6}(?:-[A-Z]{2,4})?\b", re.I),
    # a state court's number in spaced groups, the year, the division's letters, the serial: "Case No. 2024 L
    # 008813", "Index No. 24 CV 01234"
    _rule(
        T.CASE_NUMBER,
        r"(?i:\b(?:case|docket|index|cause|matter|file)(?: no\.?| number| #)[\s:#.]*)"
        r"(?P<value>(?:19|20)?\d{2} ?(?-i:[A-Z]{1,3}) ?\d{3,7})(?![\w-])",
    ),
    _rule(T.CASE_NUMBER, r"\bCLM-\d{6,}\b"),
    # A notary's deed by its number in the protocol: "con el n.º 87 de su protocolo", "ESCRITURA NÚMERO 2.317"
    _rule(
        T.CASE_NUMBER,
        r"(?i:\b(?:n\.?[º°]|número|numero|núm\.?) (?P<value>\d{1,3}(?:[.,]\d{3})?|\d{1,6}) "
        r"de (?:su |mi )?protocolo)",
    ),
    _rule(
        T.CASE_NUMBER,
        r"(?i:\bescritura(?: p[úu]blica)?(?: de [a-záéíóúñ]+){0,3},? (?:n[úu]mero|n\.?[º°]|núm\.?) "
        r"(?P<value>\d{1,3}(?:[.,]\d{3})?|\d{1,6}))(?![\d.,]\d)",
    ),
    # A deed's number as its heading, alone on its line: "NÚMERO 2.317", "NÚMERO: CIENTO CUARENTA Y SIETE (147)".
    _rule(
        T.CASE_NUMBER,
        r"(?m)^[ \t]*(?:(?:ESCRITURA|ACTA|INSTRUMENTO|TESTIMONIO)(?: P[ÚU]BLIC[AO])? )?(?:N[ÚU]MERO|N[ÚU]M\.|N\.?[º°])"
        r":?[ \t]+(?:[A-ZÁÉÍÓÚÑ][A-ZÁÉÍÓÚÑ ]{2,80}\()?(?P<value>\d{1,3}(?:\.\d{3})?|\d{1,6})\)?[ \t]*$",
    ),
    # A signatory's registration after their name, by a body's initials that no list here knows: "Marta
    # Guardado – JVPE 8811", "Dr. Ana Uzcátegui (MPPS 67.342 / CMDC 21.870)", "Álvaro Pintos – C.J.P.P.U. 45.218".
    # Four digits at least, so that a reading beside a name ("(BP 140/90)") is none.
    _rule(
        T.LICENCE,
        r"(?:(?P<who>[A-ZÀ-Þ][^\W\d_]{1,47}(?: [A-ZÀ-Þ][^\W\d_]{1,47}){1,4}),? ?(?:[–—]|\(|,) ?|(?<=\d / ))"
        r"(?P<body>[A-Z]{2,6}|(?:[A-Z]\.){2,8}) (?P<value>\d{1,3}\.\d{3}|\d{4,7})"
        r"(?![\d.,]\d)(?!\s?(?i:mg|mcg|ml|u|ui|iu|mmol|kg|g|pg|ng|%|mm|cm)\b)",
        context=_a_signatorys_body,
    ),
    # Where a deed or a plat is recorded: "Deed Book 1234, Page 567", "Plat Book 12, Pages 45-46".
    _rule(
        T.RECORD_NUMBER,
        r"(?<!\w)(?:(?:Deed|Plat|Map|Official Records|O\.R\.|Will|Mortgage) )?Book (?P<value>\d{1,5}),? (?:at )?Pages? "
        r"\d{1,5}(?!\d)",
    ),
    _rule(
        T.RECORD_NUMBER,
        r"(?<!\w)(?:(?:Deed|Plat|Map|Official Records|O\.R\.|Will|Mortgage) )?Book \d{1,5},? (?:at )?Pages? "
        r"(?P<value>\d{1,5}(?:\s?[-–]\s?\d{1,5})?)(?!\d)",
    ),
    # A serial number and its year, as courts and registries number matters ("169647/2025"), and with three
    # digits where no law's word stands before it ("Provisión de apoyos 318/2025"; "Ley 100/1993" is a law's).
    _rule(T.CASE_NUMBER, r"\b\d{4,}/(?:19|20)\d{2}\b"),
    _rule(
        T.CASE_NUMBER,
        r"(?<![\w/.\-])\d{3}/(?:19|20)\d{2}(?![\w/]|[.,]\d)",
        context=lambda match: (
            _STATUTE_BEFORE.search(match.string, max(0, match.start() - 40), match.start()) is None
            and _A_LAWS_SHORT_WORD.search(match.string, max(0, match.start() - 16), match.start()) is None
        ),
    ),
    # A shorter serial after the word naming the proceedings: "Juicio Verbal 412/2024", "Sentencia n.º 88/2025".
    _rule(
        T.CASE_NUMBER,
        r"(?i:\b(?:procedimiento|juicio|autos|recurso|sentencia|auto|expediente|exp\.|rollo|diligencias|"
        r"ejecuci[óo]n|causa|radicado|proceso|case|docket)\b[^\n\d]{0,30}?)(?P<value>\d{1,6}/(?:19|20)\d{2})\b",
    ),
    # The same with the year in two digits after a file's short word: "Exp. 456/23", "Autos 78/24".
    _rule(
        T.CASE_NUMBER,
        # right after the word and its sign only: "a causa de hipotensión, TA 85/50" is a reading
        r"(?i:\b(?:expediente|expte|exp|autos|rollo|juicio|procedimiento|diligencias|denuncia|atestado|recurso)"
        r"\.?(?!\w)\s?(?:n\.?\s?[º°]\.?|nº|no\.|núm\.?|número)?\s?:?\s?)(?P<value>\d{1,6}/\d{2})(?![\d/])",
    ),
    # A year and a serial, as hospitals and registries number episodes and entries: "Episodio 2024/123456".
    _rule(T.RECORD_NUMBER, r"(?<![\w/.-])(?:19|20)\d{2}/\d{4,9}(?![\w/])"),
    # Courts' long references of hyphenated digit groups: "05001-40-03-018-2025-00231-00", "09209-2025-01873".
    _rule(
        T.CASE_NUMBER,
        r"(?<![\w-])\d{2,6}(?:-\d{1,6}){2,}(?![\w-])",
        accept=lambda surface: sum(c.isdigit() for c in surface) >= 12,
    ),
    # Any other code of capitals and digits with a run of at least four digits: a record, claim or
    # reference number whatever word introduces it.
    # (bounded: read from every digit of a long run of "1-1-1-…", unbounded look-aheads were quadratic)
    # An ISO time stamp's date and hour ("2025-02-11T03:15") are a date and a time, not a code.
    _rule(
        T.RECORD_NUMBER,
        r"\b(?!\d{4}-\d{2}-\d{2}T\d)(?=[A-Z\d\-/]{0,40}[A-Z])(?=[A-Z\d\-/]{0,40}\d{4})[A-Z\d][A-Z\d\-/]{4,40}[A-Z\d]\b",
    ),
    # Bank accounts and sort codes.
    _rule(T.ACCOUNT, r"\baccount(?: number| no\.?)?[\s:#]*(?P<value>\d{6,12})\b", re.I),
    _rule(T.ACCOUNT, r"\bsort[ -]code[\s:#]*(?P<value>\d{2}-\d{2}-\d{2})\b", re.I),
    _rule(T.ACCOUNT, r"\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){3,7}(?: ?[A-Z0-9]{1,3})?\b"),
    # National identifiers.
    _rule(T.NATIONAL_ID, r"\b(?!000|666|9\d\d)\d{3}-(?!00)\d{2}-(?!0000)\d{4}\b"),
    _rule(T.NATIONAL_ID, r"\b(?!BG|GB|NK|KN|TN|NT|ZZ)[A-CEGHJ-PR-TW-Z]{2} ?\d{2} ?\d{2} ?\d{2} ?[A-D]\b"),
    # Contact details.
    # A mailbox's name has at most 64 characters (RFC 5321): unbounded, every word of a long run of "1-1-…" was
    # read to its end.
    _rule(T.EMAIL, r"\b[\w.+\-]{1,64}@[\w\-]+(?:\.[\w\-]+)+\b"),
    # A social-media handle names its owner as an address does: "@travis_k_joliet", "(@abdi.warsame.official)".
    _rule(T.URL, r"(?<![\w@.])@(?=[\w.]*[^\W\d_])[A-Za-z0-9_](?:[A-Za-z0-9_.]{0,28}[A-Za-z0-9_])?(?![\w@]|\.\w)"),
    # A telephone number read out, as a voicemail transcript writes it: "four oh four, five five five, …".
    _rule(T.PHONE, rf"(?<![\w-])(?P<value>{_SPOKEN_DIGIT}(?:[ ,\-]{{1,2}}{_SPOKEN_DIGIT}){{6,14}})(?![\w-])", re.I),
    # A plate after the state that issued it, where the text speaks of a vehicle: "I wrote the plate in the
    # log. California 4TRL829", "Texas tag KLM-4821".
    _rule(
        T.VEHICLE,
        r"(?<!\w)(?:[A-Z][a-z]+(?: [A-Z][a-z]+)?|[A-Z]{2})(?: (?i:plates?|tag|registration))?[ :]+"
        r"(?P<value>(?=[A-Z0-9\-]*\d)(?=[A-Z0-9\-]*[A-Z])[A-Z0-9](?:[A-Z0-9]|-(?=[A-Z0-9])){4,8})(?![\w\-])",
        context=_a_states_plate,
    ),
    # Its digits one by one, as a chat spells a number out to be read: "el telf es 6 4 5 2 1 8 3 9 0".
    _rule(
        T.PHONE,
        r"(?i:\b(?:tel[ée]fono|telf|tlf|tel|cel(?:ular)?|m[óo]vil|whatsapp|phone|mobile|cell|n[úu]mero|number|"
        r"landline|fono))\b"
        r"[^\n\d]{0,12}?(?P<value>(?<!\d)\d(?: \d){6,11})(?![ \d]*\d)",
    ),
    # "she's 97", "Victoria is 93;": an age over 89 given of someone, closing its clause.
    _rule(
        T.AGE,
        r"(?:\b(?:she|he)['’]s|(?<!\w)(?P<who>[A-Z][a-zà-ÿ]+)(?:, [A-Z][a-zà-ÿ]+)? is) (?P<value>(?:9\d|1[01]\d))"
        r"(?=[;,.]\s|[;,.]?$|\s+(?:and|but|years|yrs|y\.?o\.?)\b)",
        re.M,
        context=_said_of_someone,
    ),
    # Spelled out: "de noventa y cuatro años de edad", "ninety-two years old", "cien años".
    _rule(
        T.AGE,
        # after any word but one that makes it a span of time ("hace noventa años", "for ninety years"), on the
        # line before too ("a la edad de⏎noventa y un años"); in lower case, where a title ("Cien años de soledad")
        # is capitalised
        r"(?:(?i:\b(?:de|tiene|ten[íi]a|cumpli[óo]|cumple|con|aged|is|was|turned|turns|i['’]m|i am|she['’]s|he['’]s|"
        r"is herself|is himself)\s)"
        r"|\(|(?<!\w)(?<!(?i:hace) )(?<!(?i:durante) )(?<!(?i:for) )(?<!(?i:over) )(?<!(?i:last) )(?<!(?i:past) )"
        r"(?=[a-z]))"
        r"(?P<value>(?i:noventa(?: y (?:un[oa]?|dos|tres|cuatro|cinco|seis|siete|ocho|nueve))?|cien|"
        r"ciento (?:un[oa]?|dos|tres|cuatro|cinco)|ninety(?:[- ](?:one|two|three|four|five|six|seven|eight|nine))?|"
        r"(?:one )?hundred(?: and (?:one|two|three|four|five))?)(?: \((?:9\d|1[01]\d)\))?)"
        # and what follows says it is said of someone: "who is herself ninety and frail", "(ninety-three, lives
        # with family)"
        r"(?= (?i:años|añitos|years?|now|today)\b|(?<=[a-z])(?:,| and| y)\s(?i:lives|vive|frail|fr[áa]gil|"
        r"still|todav[ía]a|sigue|widow|viud[oa]|bedbound|encamad[oa])\b|(?<=[a-z]) and frail)",
    ),
    # ... spelled after the verb that gives it, with nothing after but a pause ("la nona tiene noventa y uno, es
    # mejor operar"), unless a reading is what has it ("la glucemia capilar tiene noventa y cinco"); or opening a
    # sentence before its years of age ("Ninety-two years old, and tired")
    _rule(
        T.AGE,
        r"(?:\b(?i:tiene|ten[íi]a|cumpli[óo]|turned|turns) |(?:(?<=[.!?:]\s)|^)(?=[A-Z]))"
        rf"(?P<value>(?i:{_SPELLED_NINETIES}))"
        r"(?=\s*[,.;:!?)]|\s+(?:y|and|pero|but)\b|(?<=[a-z]) (?i:years old|años de edad)\b)",
        re.M,
        context=_no_reading_before,
    ),
    # An age over 89 after the verb that gives it, with no unit after: "tiene 93 y no puede moverse".
    _rule(
        T.AGE,
        r"\b(?:tiene|ten[íi]a|cumpli[óo]|turned|turns|is now|was now) (?P<value>(?:9\d|1[01]\d))"
        r"(?! ?(?:%|mg|kg|mmhg|lpm|bpm|/|\.\d|[-–]))(?!\s+(?!y\b|and\b|e\b|but\b|pero\b)[^\W\d_]{2,})\b",
        re.I,
    ),
    _rule(
        T.URL,
        r"\b(?:(?:https?|ftp|sftp|ftps|git|svn|ssh|rsync|ldaps?|telnet|gopher|nntp|news|irc|file)://|www\.)"
        r"[^\s<>\"')]+[^\s<>\"').,;:!?]",
    ),
    # A host named without a scheme: "ftp.uu.net", "ldap.itd.umich.edu", "procmail.org" — lower case, ending in
    # a top-level domain, not a file's name ("setup.py") nor a part of an address or a web link found above.
    _rule(
        T.URL,
        rf"(?<![\w@./:\-])(?:[a-z0-9](?:[a-z0-9\-]{{0,61}}[a-z0-9])?\.)+{_TOP_LEVEL_DOMAIN}(?::\d{{2,5}})?"
        r"(?:/[^\s<>\"')]*[^\s<>\"').,;:!?])?(?![\w@\-]|\.[a-z0-9])",
    ),
    # An address written so that robots miss it: "adam at cafe21.org", "jo (at) example (dot) com",
    # "thisisnotapipe.a-t.hotmail.com". The left part is a mailbox's name, not an everyday word ("available at").
    _rule(
        T.EMAIL,
        # (a caller reads a mailbox's letters apart: "bernie dot o d at hotmail dot co dot uk")
        rf"(?<![\w.@])(?P<value>[\w.+\-]{{2,64}}(?: dot [\w+\-]{{1,32}}(?: [a-z](?= ))*){{0,3}}(?:{MAILBOX_AT})"
        rf"[a-z0-9\-]+(?:(?:{HOST_DOT})[a-z0-9\-]+)*(?:{HOST_DOT}){_TOP_LEVEL_DOMAIN})(?![\w@\-]|\.[a-z0-9])",
        accept=_a_mailbox,
    ),
    _rule(
        T.PHONE,
        # a country's code or a city's in brackets too: "(+57) 314 226 9080", Santiago's "(2) 2576 8800"
        r"(?<![\w/.-])(?:\+\d{1,3}[ .\-]?|\(\+\d{1,3}\) ?|\b1[ .\-])?(?:\(0\) ?)?(?:\(\d{1,5}\)|\d{1,5})"
        r"(?:[ .\-]?\d{2,5}){1,5}"
        r"(?:,? ?(?:x|ext\.?|extn\.?|extension|ext|int\.?) ?\d{1,5})?(?![\w/])",
        accept=_a_phone,
    ),
    # A pager's or an internal extension's short number after its word: "busca 45812", "Bleep 4521", "ext.
    # 2210", "extensión 4410" (a ward's pager reaches one person on shift).
    _rule(
        T.PHONE,
        r"(?i:\b(?:busca(?:personas)?|bleep|pager|beeper|bíper|biper|ext\.?|extn\.?|extension|extensión|"
        r"extension no\.?|anexo)):?[ \t]*(?:n\.?º[ \t]*|no\.?[ \t]*|#[ \t]*)?(?P<value>\d{3,6})(?![\w/.,]\d|\w)",
    ),
    # A place by its coordinates, which name a house as surely as its street does: with the hemispheres
    # ("40.7128° N, 74.0060° W"), signed ("-33.8688, 151.2093") or after their word ("GPS 40.7128, 74.0060"),
    # four decimals or more; and in degrees, minutes and seconds ("40°42'46\"N 74°0'22\"W").
    _rule(
        T.LOCATION,
        r"(?<![\w.])\d{1,2}\.\d{3,}°? ?[NS],? ?\d{1,3}\.\d{3,}°? ?[EW](?!\w)"
        r"|(?<![\w.\-])(?<!CI )(?<!IC )(?:-\d{1,2}\.\d{4,},\s?-?|\d{1,2}\.\d{4,},\s?-)\d{1,3}\.\d{4,}(?![\w.])"
        r"|(?<!\w)\d{1,2}° ?\d{1,2}['′’] ?\d{1,2}(?:\.\d+)?(?:\"|″|”|'')? ?[NS],? ?\d{1,3}° ?\d{1,2}['′’] ?"
        r"\d{1,2}(?:\.\d+)?(?:\"|″|”|'')? ?[EW](?!\w)",
        accept=_on_the_globe,
    ),
    _rule(
        T.LOCATION,
        r"\b(?i:gps|coordinates|coords|lat/long|lat/lon|latitude/longitude|geo|geolocation|ubicaci[óo]n|"
        r"coordenadas|pin)\b[:=]?\s*(?P<value>-?\d{1,2}\.\d{4,},\s?-?\d{1,3}\.\d{4,})(?![\w.])",
        accept=_on_the_globe,
    ),
    # A caller's position as a dispatch system prints it, each number after its word: "LAT 64.79214 LON
    # -147.36208", "Lat: 40.41678 Long: -3.70379".
    _rule(
        T.LOCATION,
        r"(?<![\w.])(?i:lat|latitude|latitud|lon|long|lng|longitude|longitud)(?:/(?i:lon|long|lng))?\.?:?[ \t]*"
        r"(?P<value>[-+]?\d{1,3}\.\d{4,}(?:/[-+]?\d{1,3}\.\d{4,})?)(?!\w|\.\d)",
    ),
    # An account's or a record system's user in letters alone after its label: "(usuario NEZQUERROM)",
    # "User ID: JSMITH4" is the rule after this one's; a word of the sentence is no user ("usuario nuevo").
    _rule(
        T.PERSON,
        r"(?:(?<=\()(?i:user ?name|user ?id|login|usuario|usuaria)[ \t]*:?[ \t]*|"
        r"(?i:\b(?:user ?name|user ?id|login|usuario|usuaria))[ \t]*:[ \t]*)"
        r"(?P<value>(?-i:[A-Z]{5,12}|[a-z]{5,12}))(?![\w@.])",
        accept=lambda surface: (
            max(lexicon.zipf(surface.lower()), lexicon.zipf_in(surface.lower(), "es")) < 2.5
            and not lexicon.is_kept_term(surface)
            and surface.upper() not in lexicon.CLINICAL_ABBREVIATIONS
        ),
        cued=True,
    ),
    # An online account's name after its label ("Username: jdoe_1985", "usuario: m.lopez77"): one with a digit,
    # a dot or an underscore, which no ordinary word has ("username is required" names no one).
    _rule(
        T.ACCOUNT,
        r"(?i:\b(?:user ?name|user ?id|login(?: name| id)?|screen ?name|handle|gamertag|nombre de usuario|usuario)\b)"
        r"(?:\s*(?:is|es|:|=)\s*|\s+)@?(?P<value>(?=[\w\-]*(?:\d|_|\.\w))[A-Za-z][\w.\-]{1,30}[A-Za-z0-9])(?![\w@])",
    ),
    # Street addresses, then postcodes.
    _rule(
        T.ADDRESS,
        rf"(?:\b(?:Flat|Apt|Apartment|Unit|Suite) \d+[A-Z]?,? |(?<![\w#])#\d{{1,4}}[A-Z]?,? |\b)\d{{1,5}}[A-Z]?,? "
        rf"(?:(?:{_PARTICLE}|'t) ){{0,3}}"
        rf"(?:{_CAPITAL_NAME} (?:(?:{_PARTICLE}|'t) ){{0,3}}){{1,4}}{_STREET_SUFFIX}\b\.?",
    ),
    # A numbered street with its direction ("westbound on S 38th", "at W 4th"), and a corner of a numbered
    # street ("on grand and 5th", "at Elm & 3rd"): US cities' streets, written with no street's word.
    _rule(T.ADDRESS, r"(?<![\w/])(?P<value>[NSEW]\.? \d{1,3}(?:st|nd|rd|th))\b(?! (?:floor|grade|percentile))"),
    _rule(
        T.ADDRESS,
        r"(?i:\b(?:on|at|of|off) )(?P<value>[A-Za-z][a-z]{2,} (?:and|&) \d{1,3}(?:st|nd|rd|th))\b"
        r"(?! (?:floor|grade|percentile|time|day|week|month|year|dose|cycle))",
        accept=lambda s: s.split()[0].lower() not in _NOT_A_STREET,
    ),
    # A numbered street named alone, as Latin American towns number theirs, or a corner of two: "en la Farmacia X
    # de la calle 21", "calle 19 por 24", "carrera 7 con calle 45" (not a distance or a count after it)
    _rule(
        T.ADDRESS,
        r"(?<![\w])(?P<value>(?i:calle|carrera|avenida) \d{1,3}[A-Z]?"
        r"(?: (?:por|x|con|entre) (?:(?i:calle|carrera) )?\d{1,3}[A-Z]?(?: y \d{1,3}[A-Z]?)?)?)"
        r"(?![\w/]|[.,-]\d|\s*(?:%|(?i:metros?|m|km|mm|cm|minutos?|min|cuadras?|bloques?|kil[óo]metros?|veces|personas|"
        r"casas|años|meses|d[íi]as|semanas|horas|noches)\b))",
    ),
    # A nickname in quotes after the words that give it: (called "A.J."), todos le llaman "el Rubio", aka "Sandy"
    # (a capital after them: "a condition called "long covid"" names no one)
    _rule(
        T.PERSON,
        r"(?i:\b(?:called|known as|aka|a\.k\.a\.|nicknamed|le dicen|llaman|apodad[oa]|conocid[oa] como|alias))\s+"
        r"[\"“](?P<value>(?:(?i:el|la) )?[A-ZÀ-Þ](?:\.[A-ZÀ-Þ]\.?|[a-zà-ÿ]+(?: [A-ZÀ-Þ][a-zà-ÿ]+)?))[\"”]",
        cued=True,
    ),
    # A what3words address, three words after its three slashes: "///rumble.ferns.twigs"
    _rule(
        T.ADDRESS,
        r"(?:(?<![\w/])///|(?i:\bwhat3words:?\s+))(?P<value>[a-zà-ÿ]{2,}\.[a-zà-ÿ]{2,}\.[a-zà-ÿ]{2,})(?!\w|\.\w)",
    ),
    # The initials an affidavit marks its exhibits with, derived from the deponent's name, in their quotes:
    # marked "YBA 1", Exhibit "RMA 2" ("Exhibit AOB1" may be anything's code)
    _rule(
        T.PERSON,
        r"(?i:\b(?:marked|exhibits?|exhibited as|anexo|documento))\s+[\"“](?P<value>(?-i:[A-Z]{2,4}))[ -]?\d{1,2}[\"”]"
        r"(?![\w/])",
        accept=lambda surface: surface not in lexicon.CLINICAL_ABBREVIATIONS,
        cued=True,
    ),
    # A Spanish flat named by its floor and door alone, as neighbours and chats name each other's homes: "Maribel
    # 1ºB:", "los del 2ºC", "del 1º dcha."; the ordinal's own mark, not a degree's ("2°C" is a temperature)
    _rule(
        T.ADDRESS,
        # (floors to 25: "38ºC" and "39 ºC" are temperatures; a door by its number too, "el 2º 1ª")
        r"(?<![\w/.,])(?P<value>(?:[1-9]|1\d|2[0-5]) ?[ºª] ?(?:[A-H](?![\w'’])|[1-9]ª(?!\w)|"
        r"(?i:izq(?:da|do)?\.?|izquierda|dcha\.?|dcho\.?|derecha|centro|interior|ext(?:erior)?\.?)(?!\w)))",
    ),
    # A post-office box in Spanish: "Apdo. de Correos 123", "Apartado Postal 45-B", "Casilla 1120", "A.P. 88".
    _rule(
        T.ADDRESS,
        r"(?<!\w)(?:(?i:apdo\.?|apartado)(?: (?i:de correos|postal|a[ée]reo))?|Casilla|A\.P\.)"
        r" (?:(?i:n\.?[º°]|núm\.?|no\.?) ?)?\d{1,6}(?:-[A-Z])?\b",
    ),
    # any country's postcode after its name and a verb or a label: "El código postal es 78577", "ZIP code:
    # 78577", "post code is 2196"
    _rule(
        T.POSTCODE,
        r"(?i:\b(?:c[óo]digo postal|postcode|post code|postal code|zip code|zip)\b)(?:\s*(?:es|is|:|#)\s*|\s+)"
        r"(?P<value>(?=[A-Z0-9 \-]*\d)[A-Z0-9](?:[A-Z0-9]|[ \-](?=[A-Z0-9])){2,9})(?![\w\-])",
    ),
    _rule(T.POSTCODE, r"\b(?:GIR ?0AA|[A-PR-UWYZ][A-HK-Y]?\d[A-Z\d]? ?\d[ABD-HJLNP-UW-Z]{2})\b"),
    # Canada's postal codes, letter and digit in turn, never D, F, I, O, Q or U: "M5V 2T6", typed "m5v 2t6"
    _rule(
        T.POSTCODE,
        # not a coma score's parts in their bracket or after "GCS", "GCS 15 (E4V5M6)"; "E1V2M3" alone is Moncton's
        r"(?<![\w-])(?!(?<=\()E\dV\dM\d|(?<=GCS )E\dV\dM\d)"
        r"[ABCEGHJ-NPRSTVXY]\d[ABCEGHJ-NPRSTV-Z] ?\d[ABCEGHJ-NPRSTV-Z]\d(?![\w-])",
        re.I,
    ),
    # A person the writer names by initials alone to protect them, a minor or a victim above all: after the
    # label of their part ("Ofendida: K.M.R.S.", "Patient: J.D.") or the word for who they are ("el menor
    # J.A.P., de 9 años"). Their letters still narrow who it is.
    _rule(
        T.PERSON,
        rf"(?:(?:^|\n|\t|(?<=[ \t][ \t])|[,;(]\s?)(?i:{_INITIALS_LABELS}):[ \t]*"
        rf"|(?i:\b(?:el|la|los|las|the|a|al|del|our|my|su|mi)\s+(?:{_INITIALS_PEOPLE})\s+)"
        # a person named so by the writer's word: "sus hijos de iniciales A.R.H. y D.R.H.", "initials J.D."
        r"|(?i:\b(?:de |con |las |sus |the |with )?(?:iniciales|initials)\s+)"
        r"|(?<=[A-ZÁÉÍÓÚÑ]\.) (?i:y|e|and|&) )"
        r"(?P<value>[A-ZÁÉÍÓÚÑ]\.(?: ?[A-ZÁÉÍÓÚÑ]\.){1,4})(?![\w.])",
        accept=lambda surface: re.sub(r"[.\s]", "", surface) not in _DOTTED_ABBREVIATIONS,
        cued=True,
    ),
    # A registry's name fields, each part of the name in its own ("Nombre(s): MARÍA JOSÉ    Primer Apellido:
    # CANCHÉ    Segundo Apellido: MAY", "Apellido 1.º: MARTÍNEZ", "Middle initial: G"): the field vouches for a
    # surname that is also a word or as short as a code ("MAY", "PUC", "CAN"), which the name tests refuse.
    # The value ends at the line's end or at the gap before the next field.
    _rule(
        T.PERSON,
        r"(?:^|\n|\t|(?<=[ \t][ \t]))"
        r"(?i:Nombres?\(s\)|Nombres|Nombres y apellidos|(?:Primer|Segundo|1er\.?|2do\.?) apellido|"
        r"Apellido (?:[12]\.?[ \t]?[º°o]?|paterno|materno)|"
        r"Nombre del (?:registrad[oa]|menor|niñ[oa]|alumn[oa]|trabajador[a]?|causante|fallecid[oa]))[ \t]*:[ \t]*"
        rf"(?P<value>{_CAPITAL_NAME}(?: (?:(?i:de la|de los|del|de|y) )?{_CAPITAL_NAME}){{0,4}})(?![^\W\d_])",
        accept=lambda surface: surface.lower() not in PLACEHOLDER_VALUES,
        cued=True,
    ),
    _rule(
        T.PERSON,
        r"(?:^|\n|\t|(?<=[ \t][ \t]))(?i:Middle initial|Initial)[ \t]*:[ \t]*(?P<value>[A-Z])\.?(?![\w.])",
        cued=True,
    ),
    # The initials a form's entry is signed with, after the verb that records it: "Actioned by: CW", "Checked
    # by: JT 03/02", "Revisado por: MLG".
    # A transcript's or a letter's typist is written in lower case as often ("Transcribed by: dlk", "Transcrito
    # por: kcm"), anywhere on the line.
    _rule(
        T.PERSON,
        r"(?:(?:^|\n)[ \t]*|(?<=\s\s))(?i:[a-z]+ed by|read by|(?:revisad|realizad|elaborad|firmad|atendid|transcrit|"
        r"dictad|mecanografiad)[oa] por):[ \t]*(?P<value>[A-Z]{2,3}|(?-i:[a-z]{2,4}|[a-z]{2,12}\d{1,3}))(?=[ \t(]|$)",
        re.M,
        accept=_initials_not_a_word,
        cued=True,
    ),
    # Initials after the verb that records who wrote or took it, anywhere on the line and with no colon: "typed by
    # kh", "PHONE NOTE – taken by FJ", "dictated by RM".
    _rule(
        T.PERSON,
        r"(?i:\b(?:typed|transcribed|dictated|entered|taken|keyed|logged|written) by)[: \t]+"
        r"(?P<value>(?-i:[a-z]{2,3}|[A-Z]{2,3}))(?![\w.])",
        accept=lambda surface: _a_typists_initials(surface) if surface.islower() else _initials_not_a_word(surface),
        cued=True,
    ),
    # A record system's user, an initial or two and a surname in lower case, after the word that signs the entry:
    # "Entered by: hpostlethwaite", "completed … by jmacisaac. Reviewed rboudreau", "Transcrito por: mjruizc".
    _rule(
        T.PERSON,
        # (and after the word for the staff member who wrote it: "Note from agent jsandberg:")
        r"(?i:\b(?:by|por|reviewed|entered|revisado|revisada|agent|agente|rep|asesor|asesora|advisor|adviser|"
        r"analyst|clerk))[:\s]+"
        r"(?P<value>(?-i:[a-z]{4,17}\d{0,3}))(?![\w@\-]|\.\w)",
        accept=_a_login,
        cued=True,
    ),
    # A letter's reference on a line of its own, or with the day it was typed: the writer's initials and the
    # typist's, a second typist's, the office's serial ("RJM/kcm", "AB/cd   typed 30/10/2024", "PF/jm/ab",
    # "DKM/ls/0423")
    _rule(
        T.PERSON,
        r"(?m)(?:^[ \t]*|(?<![\w/])(?i:our ref|your ref|ref|n/ref|ntra\. ref\.?|s/ref)[:.]?[ \t]*)"
        r"(?P<value>[A-Z]{2,3}/[a-z]{2,4}(?:/[a-z]{2,4})?(?:/\d{1,6})?)"
        # what a letter's foot writes beside it: when it was dictated and typed, what is enclosed
        r"(?=[ \t]*$|[ \t]{2,}|[ \t]+(?i:typed|dictated|enc|encl|cc)\b)",
        context=_a_letters_reference,
        cued=True,
    ),
    # A signature written between a form's marks, its dots, its line or tildes: "Signature: ..kbanda..",
    # "____/H.T./____", "~jg~", "....LQuispe....", "___V. Arce___". A line of dots is where a hand signs.
    _rule(
        T.PERSON,
        # (a run of marks read from its start only: read from each of a long line's underscores, it was quadratic)
        r"(?:(?<![.\w])\.{2,}|(?<!_)_{2,}/?|(?<![~\w])~)"
        r"(?P<value>[A-Z]\.(?: ?[A-Z]\.?){1,3}|[A-Z]\.? ?[A-ZÀ-Þ][a-zà-ÿ'’\-]{1,30}(?:[A-Z]\.?)?"
        r"|[A-ZÀ-Þ][a-zà-ÿ'’\-]+ [A-ZÀ-Þ][a-zà-ÿ'’\-]+|[a-z][a-z0-9]*(?:[._][a-z0-9]+)*)"
        r"(?:\.{2,}(?!\w)|/?_{2,}|~(?![~\w]))",
        accept=lambda surface: _signs_someone(surface) and _not_marked_up(surface),
        cued=True,
    ),
    # A record's user, its typist or its filer after the field's label, in lower case and any shape ("Typed:
    # sreeja.k", "Transcripción: agutierrez", "Filer: athibault88", "Signature: gphiri").
    _rule(
        T.PERSON,
        r"(?:(?:^|\n)[ \t]*|(?<=[ \t][ \t])|(?<=\t)|(?<=[(,;] ))"
        r"(?i:typed(?: by)?|typist|transcribed(?: by)?|transcription|transcripci[óo]n|transcrit[oa](?: por)?|"
        r"mecanografiad[oa](?: por)?|digitad[oa] por|digitador[a]?|filer|filed by|user(?:name)?|usuari[oa]|"
        r"operator|operador[a]?|oper\.?|op\.|login|signature|signed|firma|tandatangan|entered by|scribe)"
        r"(?::[ \t]*|(?<=\.)[ \t]+)"
        # (or two, as a call centre's shift lists its operators: "Oper: cjh / mpv")
        r"(?:(?-i:[a-z][a-z0-9]*)[ \t]*/[ \t]*)?"
        r"(?P<value>(?-i:[a-z][a-z0-9]*(?:[._][a-z0-9]+)*))(?=[ \t]*(?:$|\n|[,;|–—-]|[ \t]{2}|[ \t]\d))",
        accept=_a_users_name,
        cued=True,
    ),
    # A name spelled letter by letter, as a caller spells it for the one writing it down: "k-a-t-r-i-n-a",
    # "O-B-R-I-E-N" (three letters at least; "x-ray" and "t-shirt" have words in them).
    _rule(T.PERSON, r"(?<![\w\-.])[A-Za-zÑñ](?:-[A-Za-zÑñ]){2,24}(?![\w\-])", cued=True),
    # A caller or a writer who gives their name: "hi its maria from reception", "this is tom at the
    # pharmacy", "soy lucía de la clínica" — a name, on the lists, before where they are from.
    _rule(
        T.PERSON,
        r"(?i:\b(?:it'?s|it is|this is|i'?m|i am|my name is|soy|le habla|te habla|habla) )"
        r"(?P<value>[^\W\d_]{2,20}(?: [^\W\d_]{2,20})?)(?= (?i:from|at|with|here|de|del|desde|en)\b|[,.])",
        accept=_a_given_name_first,
        cued=True,
    ),
    # Initials signing a note's last line after a dash: "INR 1,3 el 17/1. — JLP", "Email ok. – O.A."
    _rule(
        T.PERSON,
        r"(?<=[.!)]) +[—–-] ?(?P<value>[A-Z]\.?[A-Z]\.?(?:[A-Z]\.?){0,2}|(?-i:[a-z]{2,3})(?=\.?[ \t]*(?:\n|$)))"
        r"\.?[ \t]*(?=\n|$)",
        # with points they are someone's ("O.A."); without, an abbreviation is one ("– ICU", "- BP"); in lower
        # case, a nurse's signature unless a word ("Diuresis espontánea. – jla", not "– ok")
        accept=lambda surface: "." in surface or _initials_not_a_word(surface),
        cued=True,
    ),
    # People: with a title, as SURNAME, First, or as an initial and a surname.
    # a title after a title is no name ("Prof. Dr. Ayesha Siddiqa Butt"); initials may close the name, as a
    # police or an army record writes it ("Sgt. Banda J.M.")
    _rule(
        T.PERSON,
        rf"\b{_TITLE} (?:{_TITLE} ){{0,2}}(?:[A-Z]\. ){{0,3}}(?:{_PARTICLE} ){{0,3}}{_PERSON_NAME}"
        r"(?:(?<=\b[A-Z])\.(?:[A-Z]\.){1,2}(?!\w)|(?: (?:[A-Z]\.){1,3}(?!\w)))?",
    ),
    # a rank is the evidence, whatever the name's words are elsewhere ("Cpl. Zulu", "Sgt. Banda")
    _rule(
        T.PERSON,
        rf"(?<![\w.])(?:{_RANK} )+(?:{_TITLE} )?(?P<value>{_RANKED_NAME})",
        cued=True,
    ),
    _rule(
        T.PERSON,
        rf"(?<![\w.]){_RANK_WORD} (?:{_TITLE} )?(?P<value>{_RANKED_NAME})",
        accept=lambda surface: (
            lexicon.is_name_word(first := surface.split()[0].rstrip("."))
            or max(lexicon.zipf(first.lower()), lexicon.zipf_in(first.lower(), "es")) < 4.0
        ),
        cued=True,
    ),
    _rule(
        T.PERSON,
        # with a particle before it ("EL AMRANI BOUZIANE, Fatima Zahra") or joined to it ("DeSOUSA, MARIA DA
        # CONCEIÇÃO"), and up to three given names with theirs
        rf"(?<!\w)(?:(?:EL|AL|DE|DEL|DA|DI|DOS|LA|LE|VAN|VON|BEN|BIN|ABU|IBN) )?(?:Mc|Mac|De|Di|Da|Du|Le|La|O['’])?"
        rf"[A-ZÀ-ÞŁŚŻŹĆŠŽ][A-ZÀ-ÞŁŚŻŹĆŠŽ'’\-]{{2,}}(?: [A-ZÀ-ÞŁŚŻŹĆŠŽ][A-ZÀ-ÞŁŚŻŹĆŠŽ'’\-]{{2,}})?, "
        rf"{_CAPITAL_NAME}(?: (?:(?:DA|DE|DEL|DOS|DAS|da|dos|das) )?{_CAPITAL_NAME}){{0,2}}(?: [A-Z](?!\w))?",
        accept=_surname_then_given,
        context=_a_field_not_a_clause,
    ),
    # A chat's sender at the start of its line: "[16/5/24, 9:02 p.m.] Memo:", "Mar 2, 12:05, Kwame:", a
    # phone's export "10/05/2024, 06:52 - kiri:" typed in lower case, "… - Anahera (midwife):". The export's
    # form is the evidence: a sender's name need be on no list.
    _rule(
        T.PERSON,
        # (indented only where its date stands first, as a pasted export: "   12/1/24, 9:41 pm - Lim CK:"; an
        # indented schedule's "  08:00 - Paracetamol:" is no chat)
        r"(?m)^(?:[ \t]+(?=\[?\d{1,4}[/.\-]\d))?\[?"
        r"(?:[A-Z][a-z]{2} \d{1,2}, |\d{1,4}[/.\-]\d{1,2}(?:[/.\-]\d{2,4})?,? )?\d{1,2}:\d{2}(?::\d{2})?"
        r"(?: ?[apAP]\.? ?[mM]\.?)?\]?[,\-– ]+(?:(?i:t[íi]a|t[íi]o|abuela|abuelo|mam[áa]|pap[áa]|aunt|uncle|"
        r"nurse|dr\.?) )?(?P<value>(?!(?i:me|mum|mom|dad|mam[áa]|pap[áa]|yo)\b)[^\W\d_]{2,}"
        # (a contact saved with the role beside the name: "gary landlord", "rosa vecina"; or with a surname's
        # initial, "Marisol T")
        r"(?: (?!(?i:landlord|landlady|tenant|neighbou?r|boss|work|carer|plumber|vecin[oa]|jefe|jefa|trabajo|"
        r"casero|casera)\b)(?:[^\W\d_]{2,}|[A-Z]\.?(?=[ \t:]))){0,3})(?: (?i:landlord|landlady|tenant|neighbou?r|"
        r"boss|work|carer|plumber|vecin[oa]|jefe|jefa|trabajo|casero|casera))?"
        # (and the emoji a contact is saved with: "Marisol T 🌵:")
        r"(?: \([^()\n]{1,30}\))?(?: ?[^\w\s:()]{1,4})?:",
        # (a nickname with its article is a contact's, never a line's label: "- el flaco:", "- la negra:")
        accept=lambda surface: _not_a_label(surface) or re.match(r"(?i:el|la) \S", surface) is not None,
        cued=True,
    ),
    # A name before the date of birth that identifies its holder, as lists and registers write them: "- Duc
    # Minh Nguyen, DOB 17/08/1982", "| van der Berg, Pieter | PRK6155 | 30/09/1944", "Ana Ruiz, nacida el …".
    _rule(
        T.PERSON,
        rf"(?<![\w.])(?P<value>(?:(?:{_PARTICLE} ){{1,3}})?(?=\w\w){_PERSON_NAME}"
        rf"(?:, {_CAPITAL_NAME}(?: {_CAPITAL_NAME})?)?)"
        rf",? (?:DOB|D\.O\.B\.?|dob|born|b\.|F\. ?N\.?|FN|nacid[oa]|fecha de nacimiento)\b",
        accept=_not_a_label,
    ),
    # Who wrote a note, by login before their role or the day in its bracket: "--- internal note (dgarza, front
    # desk, 3/12) ---".
    _rule(
        T.PERSON,
        r"(?i:\b(?:notes?|notas?|follow-?ups?|handover|entrega|recepci[óo]n|to-?do|pendientes))\b[^\n()]{0,30}"
        r"\((?P<value>(?-i:[a-z][a-z0-9]*(?:[._][a-z0-9]+)*)),",
        accept=_a_users_name,
        cued=True,
    ),
    # ... or alone in the bracket with a point inside, or as initials after the desk's word: "Recruiter note
    # (priya.m):", "Intake note (reception, KW):"
    _rule(
        T.PERSON,
        r"(?i:\b(?:notes?|notas?|follow-?ups?|handover|entrega|to-?do|pendientes))\b[^\n()]{0,30}"
        r"\((?:(?i:reception|recepci[óo]n|front desk|admin|intake|triage|enfermer[íi]a|nursing)[ \t]*[,/–-][ \t]*)?"
        r"(?P<value>(?-i:[a-z][a-z0-9]*[._][a-z0-9]+(?:[._][a-z0-9]+)*|(?<=[,/–-] )[A-Z]{2,3}))\)",
        accept=lambda surface: _a_users_name(surface) if surface.islower() else _initials_not_a_word(surface),
        cued=True,
    ),
    # Who took a call or a request, after the desk's word and a dash inside the bracket: "(llamada, anotada por
    # recepción – Bea)", "(front desk – Aoife Byrne)"
    _rule(
        T.PERSON,
        r"\([^()\n]{0,40}\b(?i:recepci[óo]n|reception|front desk|admin|centralita|switchboard|call centre|"
        r"call center|triage|secretar[íi]a)[ \t]*[–—-][ \t]*"
        r"(?P<value>[A-ZÀ-Þ][a-zà-ÿ'’]+(?: [A-ZÀ-Þ][a-zà-ÿ'’]+){0,2})\)",
        # (a short name is a word somewhere too, "Bea", "Fran": after the desk and its dash, only a word of the
        # note's own languages is not a name)
        accept=lambda surface: all(
            lexicon.is_name_word(w) or lexicon.zipf(w) < 3.5 and not lexicon.is_kept_term(w) for w in surface.split()
        ),
        cued=True,
    ),
    # A message signed at its end with a dash and a short name or an initial, on its own line or after the last
    # sentence: "—bt", "…is the issue. –M", "— Gaby".
    _rule(
        T.PERSON,
        r"(?:(?m:^)[ \t]*|(?<=[.!?)\"”’]) )[—–][ \t]?"
        r"(?P<value>[A-Z](?=[ \t]*$)|(?-i:[a-z]{2,3})|[A-ZÀ-Þ][a-zà-ÿ]{2,12}|(?-i:[a-z][a-z0-9]*[._][a-z0-9]+))"
        r"[ \t]*(?=\n|$)",
        accept=lambda surface: (
            len(surface) == 1
            or ("." in surface or "_" in surface)
            and _a_users_name(surface)
            or (
                _a_typists_initials(surface)
                if surface.islower()
                else _not_a_label(surface) and lexicon.is_name_word(surface)
            )
        ),
        cued=True,
    ),
    # Who wrote a note, by initials in brackets after the note's word: "my notes so far (LM):", "notas (VP):",
    # "Follow-ups (MT):", "NOTA RECEPCIÓN — 10/7/24 9:10 am — (gm)".
    _rule(
        T.PERSON,
        r"(?i:\b(?:notes?|notas?|follow-?ups?|seguimiento|handover|entrega|recepci[óo]n|to-?do|pendientes|"
        r"tasks?|tareas))\b[^\n()]{0,30}\((?P<value>(?-i:[A-Z]{2,3}|[a-z]{2,3}))\)(?=[ \t]*(?::|$|\n|-{2,}|—))",
        accept=lambda surface: (
            surface.upper() not in lexicon.CLINICAL_ABBREVIATIONS
            and surface.upper() not in lexicon.EVERYDAY_ABBREVIATIONS
        ),
        cued=True,
    ),
    # The first of two operators a shift lists: "Oper: cjh / mpv", "Op. mgimenez / lrojas".
    _rule(
        T.PERSON,
        r"(?i:\b(?:operators?|operador[ae]s?|oper\.?|op\.))(?::[ \t]*|(?<=\.)[ \t]+)"
        r"(?P<value>(?-i:[a-z][a-z0-9]*(?:[._][a-z0-9]+)*))[ \t]*/[ \t]*(?-i:[a-z])",
        accept=_a_users_name,
        cued=True,
    ),
    # The day a team chat's message was posted, between its author and its time: "Ceci Pintos 17/6 19:05".
    _rule(
        T.DATE,
        r"(?m)^[A-ZÀ-Þ][a-zà-ÿ'’]+(?: [A-ZÀ-Þ][a-zà-ÿ'’]+){0,2},?[ \t]{1,3}"
        r"(?P<value>(?:0?[1-9]|[12]\d|3[01])/(?:0?[1-9]|1[0-2]))[ \t]\d{1,2}:\d{2}[ \t]*$",
        cued=True,
    ),
    # A relative, a carer or a student named in lower case after the word for them, as a handover types it: "son
    # gary staying", "wife joan mobile …", "hija inma se queda", "student chloe out with lou".
    _rule(
        T.PERSON,
        r"(?<![\w'’])(?:son|daughter|wife|husband|partner|mum|mom|dad|sister|brother|carer|nok|student|neighbour|"
        r"neighbor|grandson|granddaughter|niece|nephew|hijo|hija|esposa|esposo|marido|mujer|madre|padre|hermano|"
        r"hermana|nieto|nieta|sobrino|sobrina|vecino|vecina|cuidadora|cuidador|yerno|nuera)[ \t]+"
        r"(?P<value>[a-zñáéíóú]{2,15})(?![\w'’\-])",
        accept=_a_given_name_in_lower_case,
        cued=True,
    ),
    # The same before the relation in brackets, as a message signs with who is writing: "ring me on 0412 555 309
    # – mel (granddaughter)", "bev (daughter in law)", "nerea (hija)".
    _rule(
        T.PERSON,
        r"(?<![\w'’\-])(?P<value>[a-zñáéíóú]{2,15})[ \t]*\((?i:son|daughter|wife|husband|partner|mum|mom|dad|"
        r"sister|brother|carer|nok|next of kin|neighbour|neighbor|grandson|granddaughter|niece|nephew|friend|"
        r"hijo|hija|esposa|esposo|marido|mujer|madre|padre|hermano|hermana|nieto|nieta|sobrino|sobrina|vecino|"
        r"vecina|cuidadora|cuidador|yerno|nuera|suegra|suegro|cuñada|cuñado)(?:[ \-]in[ \-]law)?\)",
        # the bracket vouches for a short name that is also a word ("mel", "bev"), not for a common one
        accept=_vouched_by_a_relation(everyday=4.0),
        cued=True,
    ),
    # A name in lower case before its relation to someone named: "hablo con montse, hija de rosa pujol", "spoke
    # to gaz, son of the patient".
    _rule(
        T.PERSON,
        r"(?<![\w'’\-])(?P<value>[a-zñáéíóú]{2,15}),[ \t]+(?i:hij[oa]|espos[oa]|marido|mujer|madre|padre|"
        r"herman[oa]|niet[oa]|sobrin[oa]|cuidador[a]?|yerno|nuera|suegr[oa]|cuñad[oa]|pareja|"
        r"son|daughter|wife|husband|partner|mother|father|sister|brother|grandson|granddaughter|niece|nephew|"
        # (not "vecina de": a deed's "jubilada, vecina de Gijón" says where she lives)
        r"carer)[ \t]+(?:de|del|of)\b",
        accept=_vouched_by_a_relation(everyday=3.0),
        cued=True,
    ),
    # A relative's or a neighbour's nickname in quotes after the word for them: 'Neighbour "Dot" drops in',
    # 'su vecina «Cuca»'.
    _rule(
        T.PERSON,
        r"\b(?i:daughter|son|wife|husband|partner|carer|mother|father|sister|brother|mum|mom|dad|aunt|uncle|"
        r"cousin|grandson|granddaughter|grandma|grandpa|nan|nana|nephew|niece|neighbou?r|friend|tío|tía|primo|"
        r"prima|sobrin[oa]|niet[oa]|vecin[oa]|amig[oa]|hij[oa]|herman[oa]|abuel[oa]|cuñad[oa]|suegr[oa]) "
        r"[\"“«'‘](?P<value>[A-ZÀ-Þ][a-zà-ÿ]{1,14}(?: [A-ZÀ-Þ][a-zà-ÿ]{1,14})?)[\"”»'’]",
        cued=True,
    ),
    # A team chat's author above each message, by handle or name, and the day and time it was posted:
    # "jmendoza  8:03 AM", "dr.okafor  9:05 AM", "Tasha Williams  10:12", "Priya N 16:44", "Sofía Lara 17/6 19:02",
    # "Bec Sorensen, 8:10 AM"; a messenger's "Gabo 🇪🇸, 08:30: …" with what was said after it.
    _rule(
        T.PERSON,
        r"(?m)^(?P<value>[a-z][a-z0-9]*(?:[._\-][a-z0-9]+)*|[A-ZÀ-Þ][a-zà-ÿ'’]+(?: [A-ZÀ-Þ][a-zà-ÿ'’]+){0,2}"
        r"(?: [A-Z]\.?)?)(?: ?[^\w\s:,()]{1,4})?,?[ \t]{1,3}(?:\d{1,2}/\d{1,2}(?:/\d{2,4})? )?"
        r"\d{1,2}:\d{2}(?: ?[APap]\.?[Mm]\.?)?(?:[ \t]*$|:[ \t])",
        accept=lambda surface: _a_users_name(surface) if surface[0].islower() else _a_chat_author(surface),
        cued=True,
    ),
    # ... and in lower case after the words that offer it: "that's p-e-n-n-i-n-g-t-o-n",
    # "o apostrophe d o n o g h u e".
    _rule(
        T.PERSON,
        r"(?i:\b(?:that['’]s|that is|spelt|spelled|spelling(?: is)?|surname is|last name is)|(?<=[a-z]),)[ \t]+"
        r"(?P<value>[a-z](?:(?:-|[ \t](?:(?:apostrophe|hyphen|double)[ \t])?)[a-z](?![a-z])){3,})",
        cued=True,
    ),
    # "Surname, Given" in a table's cell: "| van der Berg, Pieter |", "| LI, Jian Hao |".
    _rule(
        T.PERSON,
        rf"(?<=\| )(?P<value>(?:{_PARTICLE} ){{0,3}}{_CAPITAL_NAME}(?: {_CAPITAL_NAME})?, {_CAPITAL_NAME}"
        rf"(?: {_CAPITAL_NAME})?)(?= +\|)",
        accept=_surname_then_given,
    ),
    # A surname in capitals and the initials after it, as registers and African and Asian forms write a name:
    # "Client ATUHAIRE P. K. (ART No. …)", "MUTASA T.R."
    _rule(
        T.PERSON,
        r"(?<![\w.])(?P<value>[A-ZÀ-Þ]{3,}(?:[ \-][A-ZÀ-Þ]{3,})?(?: [A-Z]\.(?: ?[A-Z]\.){0,2}))(?![\w])",
        accept=lambda surface: all(_a_rare_capital_word(w) for w in re.findall(r"[A-ZÀ-Þ]{3,}", surface)),
    ),
    # A sole trader before the business's name: "KAUPA WAPI trading as KAUPA BROTHERS TRANSPORT", "Dawn Reid t/a
    # Reid's Cleaning".
    _rule(
        T.PERSON,
        rf"(?<![\w'’])(?P<value>{_CAPITAL_NAME}(?: {_CAPITAL_NAME}){{1,3}}) (?:trading as|t/a)\b",
        accept=_not_a_label,
        cued=True,
    ),
    # A nickname in quotes after a name, alone in its brackets or first: "Mr Desmond Kilpatrick ("Des")",
    # "Tyson ("Ty", gr. 3)".
    _rule(
        T.PERSON,
        r"(?<=[a-z]) \([\"“'‘«](?P<value>[A-Z][a-zà-ÿ]{1,15})[\"”'’»](?=\)|[,;] )",
        context=_a_nickname_of_the_name_before,
    ),
    # ... and the name it shortens, wherever the sentence puts it: "Tyson ("Ty", gr. 3) arrived with …" (the
    # nickname its first letters), "Bernadette Mary ("Bernie")" (a name on the lists); a product's quoted brand
    # after it is neither, nor a defined term's short name ("The Terminal Date ("Termination")", "Consejo Superior
    # («Consejo»)")
    _rule(
        T.PERSON,
        r"(?<![\w.])(?P<value>(?P<first>[A-Z][a-zà-ÿ])[a-zà-ÿ]+(?: [A-Z][a-zà-ÿ]+){0,3}) "
        r"\([\"“'‘«](?P<nick>(?P=first)[a-zà-ÿ]{0,14})[\"”'’»](?=\)|[,;] )",
        accept=_no_place,
        context=_a_nickname_after,
    ),
    _rule(
        T.PERSON,
        r"(?<![\w.])(?P<value>[A-Z][a-zà-ÿ]+(?: [A-Z][a-zà-ÿ]+){0,3}) "
        r"\([\"“'‘«](?P<nick>[A-Z][a-zà-ÿ]{1,15})[\"”'’»](?=\)|[,;] )",
        accept=lambda surface: any(lexicon.is_name_word(w) for w in surface.split()),
        context=_a_nickname_after,
    ),
    # A nickname in quotes the text then says is whom: "Q. "Thibs" is Mr. Thibodeau?"
    _rule(
        T.PERSON,
        r"[\"“«](?P<value>[A-Z][a-zà-ÿ]{2,15})[\"”»] (?:is|was|es|era) "
        r"(?:Mr|Mrs|Ms|Miss|Dr|Sr|Sra|Srta|Dra|D|Dña|el señor|la señora)\.? [A-Z]",
        cued=True,
    ),
    # A nickname or a name someone is called by.
    _rule(
        T.PERSON,
        r"(?:\b(?:called|named|known as|nicknamed|alias|"
        r"goes by|apodad[oa]|llamad[oa]|llamar|le dicen|conocid[oa] como))"
        r",? (?:him |her |them |me |el |la )?[\"“«']?(?P<value>[A-ZÀ-ÞÑ][^\W\d_]+(?: [A-ZÀ-ÞÑ][^\W\d_]+)?)[\"”»']?",
    ),
    # ... and any nickname in quotes after them, of any case ("conocido en la colonia como "El Chele"", "Alias
    # 'Neto'", "known as "Big Mike"") and a widow's married name ("Ma. Elena Zúñiga Vda. de Anaya").
    _rule(
        T.PERSON,
        r"(?i:\b(?:alias|apodo|apodad[oa]|conocid[oa](?: en [\w ]{2,20}?)? como|known as|a\.?k\.?a\.?|nicknamed|"
        # "un tal 'Pelado'", "le dicen "el Chino"", "a guy called 'Smiley'"
        r"goes by|un[a]? tal|le (?:dicen|llaman)|(?:a )?(?:guy|man|woman|lad|bloke) (?:called|named)|"
        # "People call him "Alu Bus"" (not "call Housing", "calls Mum": a name in quotes after the pronoun)
        r"calls? (?:him|her|them|me)))[:\s]+(?=[\"“«'‘](?-i:[A-Z]))"
        r"[\"“«'‘](?P<value>[^\"”»'’\n]{2,30})[\"”»'’]",
        cued=True,
    ),
    _rule(T.PERSON, rf"{_PERSON_NAME} (?:Vda\.?|viuda) de {_CAPITAL_NAME}"),
    # the same in a deed's capitals, after the woman's own surnames: "PORTILLO VIUDA DE ALFARO"
    _rule(T.PERSON, r"(?<=[A-ZÁÉÍÓÚÑ]{2} )(?:VIUDA|VDA\.) DE [A-ZÁÉÍÓÚÑ][A-ZÁÉÍÓÚÑ\-]+(?: [A-ZÁÉÍÓÚÑ][A-ZÁÉÍÓÚÑ\-]+)?"),
    # a maiden name: "Mrs Ifeoma Nwachukwu (née Adeyemi-Coker)", "de soltera Etxeberria"
    _rule(T.PERSON, rf"(?i:\bn[ée]e|de soltera) (?P<value>{_CAPITAL_NAME}(?: {_CAPITAL_NAME})?)"),
    # who dictated or typed a note, by initials: "Transcrito por jmr", "typed by KL", "Dict: A.B."
    _rule(
        T.PERSON,
        r"(?i:\b(?:transcrit[oa] por|dictad[oa] por|mecanografiad[oa] por|typed by|transcribed by|dictated by))"
        r" (?!(?i:our|the|my|his|her|their|an|el|la|los|las|su|sus|un|una|mi)\b)"
        r"(?P<value>(?:[a-z]{2,4}|[A-Z]{2,4}|(?:[A-Z]\.){2,3}))(?!\w|\.\w)",
        cued=True,
    ),
    _rule(
        T.PERSON,
        rf"(?<![\w.])[A-Z]\. (?:{_PARTICLE} ){{0,3}}{_PERSON_NAME}(?: (?:{_PARTICLE} )+{_CAPITAL_NAME})?",
        # a heading's Roman numeral before everyday words is no initial: "I. DATOS DEL DENUNCIANTE", "I.
        # Dislipidemia mixta"
        accept=lambda surface: not _a_numbered_heading(surface) and not a_side_before_a_word(surface),
    ),
    # People named by the role a letter, a filing or a statement gives them. A relation with a name after it
    # introduces that name: in "lives in Ballincollig, daughter Aoife nearby" the town is no one's.
    _rule(
        T.PERSON,
        rf"(?P<value>{_PERSON_NAME}),? \(?(?:Counsel|Plaintiff|Defendant|Claimant|Respondent|Applicant|Director|"
        rf"Partner|Solicitor|Attorney|Barrister|Witness|Landlord|Tenant|Executor|daughter|son|wife|husband|"
        rf"partner|mother|father|sister|brother|carer)\b(?![ \t]+[A-Z][a-z])",
        # "10:32 Called mother at …", "Reached father at work": a log's verb before the relation, no name
        accept=lambda surface: not all(lexicon.zipf(w) >= 4.0 and not lexicon.is_name_word(w) for w in surface.split()),
    ),
    _rule(T.PERSON, rf"(?:\bI, |\bSTATEMENT OF |\bstatement of |\breport for |\bREPORT FOR )(?P<value>{_PERSON_NAME})"),
    _rule(
        T.PERSON,
        rf"\b(?i:daughter|son|wife|husband|partner|carer|mother|father|sister|brother|witness|counsel|sitter|"
        rf"girlfriend|boyfriend|fianc[ée]e?|dad|mom|mum|aunt|uncle|cousin|grandson|granddaughter|grandma|grandpa|"
        rf"nephew|niece|neighbou?r|friend|colleague|co-?worker|boss|manager|supervisor|worker|therapist|chaplain|"
        rf"pastor|priest|imam|rabbi|caseworker|assistant|interpreter|tío|tía|primo|prima|sobrin[oa]|niet[oa]|"
        rf"vecin[oa]|amig[oa]|novi[oa]|pareja|jef[ea]|compañer[oa]|hij[oa]|herman[oa]|espos[oa]|marido|mujer|"
        rf"cuñad[oa]|suegr[oa]|yerno|nuera|madre|padre|mamá|papá|abuel[oa]|cuidador[a]?)[:,]? "
        rf"(?P<value>{_PERSON_NAME})",
        accept=_no_everyday_word_alone,
    ),
    # A nickname in quotes inside a name: Harold "Buzz" Lindqvist, Ricardo «el Güero» Anaya.
    _rule(
        T.PERSON,
        rf"(?P<value>{_CAPITAL_NAME} [\"“«'‘](?:el |la )?{_CAPITAL_NAME}[\"”»'’] (?:(?:{_PARTICLE}|Van|Von|De|Da|"
        rf"Del) )*"
        rf"{_CAPITAL_NAME}(?: {_CAPITAL_NAME})?)",
    ),
    # A chat's sender before the time in brackets: "Deb (Mon, Feb 3, 8:14 PM):", "Kev (8:33 PM):".
    _rule(
        T.PERSON,
        r"(?m)^(?P<value>[A-ZÀ-ÞÑ][^\W\d_]+(?: [A-ZÀ-ÞÑ][^\W\d_]+)?) \([^()\n]{0,30}\d{1,2}:\d{2}[^()\n]{0,8}\):",
    ),
    # A name followed by its own e-mail address, and a letter's or e-mail's bare salutation line.
    _rule(T.PERSON, rf"(?P<value>{_PERSON_NAME}) (?:at |<|\()[\w.+\-]+@[\w\-]+(?:\.[\w\-]+)+"),
    _rule(T.PERSON, rf"(?:^|\n\n)(?P<value>{_CAPITAL_NAME}(?: {_CAPITAL_NAME})?),[ \t]*\n"),
    # A name with its nickname between its given name and its surname: "Konstantinos (Con) Papadimitriou",
    # "Robert (Bob) Hale", "María José (Pepa) García López".
    _rule(
        T.PERSON,
        rf"(?<![\w-])(?P<value>{_CAPITAL_NAME}(?: {_CAPITAL_NAME})? \({_CAPITAL_NAME}\) {_CAPITAL_NAME}"
        rf"(?: (?:{_PARTICLE} ){{0,3}}{_CAPITAL_NAME})?)",
        accept=_named_around_a_nickname,
    ),
    # A merchant named in quotes on a statement or in a complaint: 'el comercio "ELECTRO SUR ONLINE"',
    # 'a merchant called "ML*TIENDAONLINE"'.
    _rule(
        T.ORGANIZATION,
        r"(?i:\b(?:comercio|establecimiento|merchant|vendor|retailer|comerciante|tienda|store)"
        r"(?: (?:llamado|denominado|called|named))?) [\"“](?P<value>[^\"”\n]{2,40}?)[\"”]",
        cued=True,
    ),
    # A bank or an insurer named by its letters after the word for it: "Bank: ASB.", "Health insurance is TK",
    # "insured with FBD", "mutua: ASISA". (Not a plan's kind: "insurance: PPO", "Medicare HMO".)
    _rule(
        T.ORGANIZATION,
        r"(?:(?i:\b(?:bank|banco|insurer|insurance|health fund|aseguradora|mutua|caja|krankenkasse))"
        r"(?:[ \t]*:[ \t]*|[ \t]+(?:is|es|with|con)[ \t]+)|(?i:\binsured with)[ \t]+)"
        r"(?P<value>[A-Z][A-Z&]{1,5})(?![\w&-])",
        accept=lambda surface: surface not in _PLAN_KINDS and surface not in lexicon.CLINICAL_ABBREVIATIONS,
        cued=True,
    ),
    # A firm or a person before its tax number in a contract: "por una parte, TEXTILES PAUTE, con RUC …".
    _rule(
        T.ORGANIZATION,
        rf"(?<![\w-])(?!(?:Y|E|O|And|Or) )"
        rf"(?P<value>(?:{_CAPITAL_NAME} (?:(?:{_PARTICLE}|y|&) )?){{0,5}}{_CAPITAL_NAME}),? "
        r"(?i:con|with|titular del?|provist[oa] de(?: la)?) (?:(?i:el|la) )?"
        r"(?:RUC|NIT|CIF|RFC|RIF|CUIT|EIN|RUT|R\.U\.C\.|N\.I\.T\.)\b",
        accept=_written_as_a_firm,
    ),
    # Whom a letter is sent in care of, on an address's line: "c/o Cardinal Community Management", "c/o Marta
    # Ruiz". In a note's sentence "c/o" is "complains of" ("Pt c/o Chest Pain").
    _rule(
        T.PERSON,
        rf"(?:^|(?<=\n)|(?<=, ))[ \t]*(?i:c/o) (?P<value>{_PERSON_NAME})",
        re.M,
        accept=lambda surface: lexicon.is_name_word(surface.split()[0]) and " " in surface,
        cued=True,
    ),
    _rule(
        T.ORGANIZATION,
        rf"(?:^|(?<=\n)|(?<=, ))[ \t]*(?i:c/o) (?P<value>{_CAPITAL_NAME}(?: (?:(?:&|and|of|de|del|y) )?"
        rf"{_CAPITAL_NAME}){{0,5}})",
        re.M,
        accept=lambda surface: (
            not lexicon.is_name_word(surface.split()[0])
            and not lexicon.is_region(surface)
            and not any(lexicon.is_clinical_word(w) or w.lower() in _COMPLAINTS for w in surface.split())
        ),
        cued=True,
    ),
    # A health board or trust named after "NHS": "NHS Greater Glasgow and Clyde", "NHS Lothian", "NHS Highland"
    # (the service's own national bodies, "NHS England", "NHS Digital", name no place of a patient's).
    _rule(
        T.ORGANIZATION,
        rf"(?<!\w)NHS (?!England\b|Digital\b|Scotland\b|Wales\b|Direct\b|Choices\b|Number\b|No\b|number\b|App\b|"
        rf"Login\b|Account\b|Website\b|Trust\b|Foundation\b|Pension\b|Jobs\b|Pay\b|"
        rf"[A-Z]{{2,}}\b)(?:Greater )?{_CAPITAL_NAME}(?: (?:and|&) {_CAPITAL_NAME})?",
        accept=lambda surface: not any(lexicon.is_kept_term(w) for w in surface.split()[1:]),
    ),
    # Organisations by their suffixes.
    _rule(
        T.ORGANIZATION,
        rf"(?<!\w)(?:(?:{_PARTICLE}|'t) ){{0,3}}"
        # The small words inside a firm's name: "Rent a Car Costa Sol SL", "Pescados a la Plancha SL" ("of"
        # would join a person to the firm after).
        # A year may close the name before its form: "REFORMAS TXANTREA 2010, S.L."
        # a region in brackets before the form: "KESTREL FREIGHT SOLUTIONS (MIDLANDS) LIMITED"
        rf"(?:(?:S[Tt]\.? )?(?:{_CAPITAL_NAME}|\d{{1,4}}(?=,? (?:{_LEGAL_FORM}))"
        rf"|\((?!{_PARTY_ROLE}\))[A-Z][A-Za-z]+\)(?= ))(?:'s)?"
        rf"(?:,? (?:(?:&|and|y|e|und|et) )?| (?:a|en|al) (?=[A-ZÀ-Þ]|la |el ))"
        rf"(?:(?:{_PARTICLE}|'t) ){{0,3}}){{1,4}}"
        rf"(?i:{_COMPANY_SUFFIX})(?![\w])",
        accept=_a_legal_form_as_written,
        lead=_verb_before_link,
    ),
    _rule(
        T.ORGANIZATION,
        rf"(?<!\w)(?:(?:{_PARTICLE}|'t) ){{0,3}}(?:St\.? )?"
        rf"(?:(?:{_CAPITAL_NAME}|[a-z][A-Z][a-z]+)(?:'s|(?<=s)['’](?= [A-Z]))? "
        rf"(?:(?:{_PARTICLE}|'t|and|&|\d{{1,2}}) )*)"
        rf"{{1,4}}"
        rf"(?i:{_INSTITUTION_SUFFIX})\b(?: (?:of|for|at|de|del) (?:the )?{_CAPITAL_NAME}(?: {_CAPITAL_NAME}){{0,3}})?",
        accept=_not_a_heading,
    ),
    # A public institution named by its kind and its number, as Mexico's IMSS, Cuba's and many countries'
    # schools and courts are: "Unidad de Medicina Familiar No. 171", "Hospital General Regional No. 46",
    # "Consultorio del Médico de Familia n.º 14", "Escuela Primaria Núm. 5", "PLUMBERS UNION LOCAL 57".
    _rule(
        T.ORGANIZATION,
        r"(?<!\w)(?i:Unidad|Hospital|Cl[íi]nica|Centro|Consultorio|Policl[íi]nic[oa]|Sanatorio|Escuela|"
        r"Liceo|Instituto|Juzgado|Notar[íi]a|Oficial[íi]a|Agencia|Fiscal[íi]a|Parroquia|Estaci[óo]n|"
        r"Jurisdicci[óo]n|School|Station|Precinct|District|Local|UMF|HGZ|HGR|HGZMF|UMAA)"
        r"(?: (?:de|del|de la|de los|y|e|of|the|for|No|[A-ZÁÉÍÓÚÑ][\wáéíóúñ]+)){0,6}?"
        r"(?:,? (?i:No\.|N[º°]\.?|Núm\.|Num\.|Nro\.|n\.[º°]|#) ?\d{1,4}\b|(?<=\b[Ll]ocal|LOCAL) \d{1,4}\b)"
        r"(?![-/.]\d)",
    ),
    # An institution named by its kind first and its place after: "University Medical Center of El Paso",
    # "Delta Dental of California", "First Reformed Church of Holland".
    _rule(
        T.ORGANIZATION,
        rf"(?<!\w)(?:{_CAPITAL_NAME} ){{1,4}}(?i:Church|Parish|Center|Centre|Hospital|Associates|Dental|Shield|Cross|"
        rf"Physicians|Schools|School|University|College|Union|Bank|Police Department|Police Service|Fire Department|"
        rf"Fire|Police|Sheriff's Office|Department)(?: Plc| PPO| HMO)? (?:of|"
        rf"for) (?:the )?{_CAPITAL_NAME}(?: {_CAPITAL_NAME}){{0,3}}",
    ),
    # A Spanish professional's college by its initials, after the registration number or "del": the
    # Ilustre Colegio de Abogados de Madrid is the ICAM, the Colegio Oficial de Médicos de Barcelona the COMB,
    # and either names the city ("colegiada nº 4.812 del REICAZ", "núm. col. 38.417 (COMB)", "del ICAV").
    _rule(
        T.ORGANIZATION,
        r"(?:(?i:colegiad[oa]s?|col\.)[^\n]{0,25}?(?:\bdel |\(| )|(?<=, )del )"
        r"(?P<value>(?:REICA|ICA|COM|COF|COE|CGC|ICO)[A-Z]{0,4}(?:[A-ZÁÉÍÓÚ][a-záéíóúñ]+)?)\b",
        cued=True,  # initials alone read as an abbreviation: the number before them is what says whose
    ),
    # A court named with its place ("Superior Court of the State of California, County of Alameda", "County
    # Court at Central London"): the whole name, as far as its capitalised words go (in a letter's paragraph
    # the line goes on: "… at Coventry unless the sum is paid"). "The High Court" names no place.
    _rule(
        T.ORGANIZATION,
        r"(?i:\b(?:superior|district|county|circuit|magistrates'?|crown|family|probate|municipal|justice|bankruptcy|"
        r"sheriff|state|federal|juvenile|housing|small claims|employment) (?:court|tribunal)s? "
        r"(?:of|at|for|in|sitting at) )"
        rf"(?:the )?{_CAPITAL_NAME}(?:(?:,? (?:(?:of|the|for|and|de|del|la|y) )*){_CAPITAL_NAME}){{0,8}}",
    ),
    # An organisation after the label or the words that introduce one, to the field's end: "Employer: Rogers
    # Communications", "Bank: Capitec", "HEALTH INS: BCBS of Texas", "works at Medtronic", "Aseguradora: Mapfre",
    # "Lender: Nationwide", "— Empleador: Florícola Rosas del Cotopaxi Cía. Ltda. —".
    # A plan only with its kind: "Plan:" alone heads a clinical note's plan ("Plan: Admit under medics").
    _rule(
        T.ORGANIZATION,
        # (the label at a line's start, after a field's gap or separator, or after whose it is: "Dmytro's employer:")
        r"(?:(?:(?:^|\n)[ \t]*|(?<=[ \t][ \t])|(?<=\t)|(?<=[—–|] )|(?<=\w['’]s ))"
        r"(?i:employer|employed by|company|bank|insurer|insurance|health ins(?:urance)?|lender|mortgage lender|"
        r"carrier|health plan|plan name|insurance plan|dental plan|payer|payor|school|pharmacy|preferred pharmacy|"
        r"workplace|place of work|"
        # "Plan:" alone where an insurance field follows within two lines
        r"plan(?=[ \t]*:(?:[^\n]*\n){0,2}[^\n]*\b(?:(?i:member|group|policy|subscriber)(?: (?i:id|no|number))?"
        r"[ \t]*[:#]|(?i:insurance|insurer|payer|coverage|copay)\b))|"
        r"empresa|empleador|banco|entidad|aseguradora|mutua|compañía|compania|cobertura|obra social|prepaga|eps|"
        r"isapre|centro de trabajo|lugar de trabajo|colegio|farmacia|prestamista|mutualista|emergencia m[óo]vil)"
        r"[ \t]*:[ \t]*"
        r"|(?i:\b(?:works at|working at|worked at|work at|works for|worked for|employed (?:by|at)|employee of|"
        r"adjuster from|adjuster at|filled at|refilled at|duty at|job at|shifts? at|position at|employed with|"
        r"hired by|volunteers? at|student at|enrolled at|trabaja en|trabajaba en|empleado de|empleada de|"
        r"labora en|labora como [a-záéíóúñ]+ en|trabaja como [a-záéíóúñ]+ en|estudia en|"
        # a business's trading name after its owner's, and a law office's holder ("Declan Hession t/a Hession
        # Plant Hire", "LAW OFFICES OF RENATA OKAFOR")
        r"t/a|trading as|d/b/a|dba|law offices? of|bufete)) )"
        # a full stop after a word of three letters or more ends the sentence ("by Amazon. Ruby Swift called")
        # unless the word is a firm's abbreviation ("Transportes Costa Azul Cía. Ltda")
        r"(?P<value>[A-Z0-9][\w&'’.\-]*(?:(?:(?<!\w\w\w\.)|(?<=Cía\.)|(?<=Inc\.)|(?<=Ltd\.)|(?<=Corp\.)"
        r"|(?<=Bros\.)|(?<=Hnos\.)|(?<=Ltda\.))(?: (?:&|and|of|de|del|y|the|la|los))? "
        r"[A-Z0-9][\w&'’.\-]*){0,5})"
        r"(?=[ \t]*(?:[,;.()\n\t–—#-]| {2,}| [a-z]|$))",
        accept=lambda s: (
            len(s) > 1
            and bool(re.search(r"[^\W\d_]", s))
            and s.lower() not in _NOT_ORGANISATIONS
            and s not in _PLAN_KINDS  # "Insurance: PPO": the plan's kind, no insurer's name
        ),
        cued=True,
    ),
    # A firm named by two names joined by "&", as partnerships of solicitors, accountants and agents are
    # ("O Conchuir & Breathnach", "HARWOOD & PIKE"); two everyday words so joined are a heading ("Health &
    # Safety", "Terms & Conditions").
    _rule(
        T.ORGANIZATION,
        r"(?<![\w&'’])(?:O['’ ])?[A-ZÀ-Þ][\w'’\-]+(?: [A-ZÀ-Þ][\w'’\-]+)? & (?:O['’ ])?[A-ZÀ-Þ][\w'’\-]+"
        r"(?: [A-ZÀ-Þ][\w'’\-]+)?(?![\w&])",
        accept=lambda surface: _partners(surface),
    ),
    # An organisation after the words that say one holds an account, a record or a patient: "account at BOK
    # Financial", "records from UMC", "transferred to St Luke's", "insured with Allianz", "cuenta en
    # Bankinter". Not cued: a department ("transferred to ICU") is still dropped as a kept term.
    _rule(
        T.ORGANIZATION,
        r"(?i:\b(?:account (?:at|with)|accounts (?:at|with)|records (?:from|to)|(?:transferred|transfer|discharged|"
        r"admitted) (?:from|to)|seen at|treated at|followed at|insured (?:with|by)|policy with|loan from|"
        r"mortgage with|customer of|client of|member of|cuenta (?:en|con)|historia clínica de|trasladad[oa] (?:a|al|"
        r"desde)|atendid[oa] en|asegurad[oa] (?:con|por)|póliza con|préstamo de|cliente de|socio de|socia de) )"
        r"(?:the |el |la |los |las )?"
        # a full stop after a word of three letters or more ends the sentence, not an abbreviation ("St.")
        r"(?P<value>[A-Z][\w&'’.\-]*(?:(?<!\w\w\w\.)(?: (?:&|and|of|de|del|y|the|la|los))? [A-Z0-9][\w&'’.\-]*){0,5})"
        r"(?=[ \t]*(?:[,;.()\n\t–—#-]| {2,}| [a-z]|$))",
        accept=lambda s: len(s) > 1 and s.lower() not in _NOT_ORGANISATIONS,
    ),
    # An institution named by its kind and a place or a name after "of": "Bank of Valletta", "University of
    # Otago", "Diocese of Kerry"; a Scottish or Welsh health board: "NHS Greater Glasgow and Clyde". A country or
    # a state after "of" is a national body's ("Bank of England", "NHS Scotland").
    _rule(
        T.ORGANIZATION,
        rf"(?<!\w)(?:(?:(?:Royal|National|Commonwealth|Allied|First) )?Bank|University|Diocese|Archdiocese|College|"
        rf"Polytechnic) of (?:the )?(?P<tail>{_CAPITAL_NAME}(?: {_CAPITAL_NAME}){{0,2}})"
        rf"|(?<!\w)NHS (?P<board>(?!(?:Number|No|Trust|Foundation|Digital|App|Direct|Choices|Login|Account)\b)"
        rf"{_CAPITAL_NAME}(?: (?:and )?{_CAPITAL_NAME}){{0,3}})",
        accept=_not_a_country_after,
    ),
    # Companies written in lower case: "bluefin data llc", "7 hills analytics inc".
    _rule(
        T.ORGANIZATION,
        r"(?<![\w.])(?:[a-z0-9][a-z0-9&'\-]* ){1,3}(?:llc|inc|ltd|corp|gmbh|plc|llp|s\.l\.|s\.a\.|sl|sa de cv)\b\.?",
    ),
    _rule(
        T.ORGANIZATION,
        rf"(?<!\w)(?i:{_SPANISH_INSTITUTION})"
        rf"(?: (?:de|del|de la|de los|de las|de lo|lo|y|por|para|en|do|da|dos|das|DE|DEL|LA|LOS|LAS|Y|"
        rf"n\.?[º°]\.?|N\.?[º°]\.?|núm\.|No\.|\d+|e|E|[A-ZÁÉÍÓÚÑÜ][\wáéíóúñü\-]*))* [A-ZÁÉÍÓÚÑÜ][\wáéíóúñüÁÉÍÓÚÑÜ\-]*",
        accept=lambda s: (
            _not_a_heading(s)
            and (
                s.split()[0].lower() in _COMMERCIAL_KINDS
                or any(
                    w.lower() not in GENERIC_INSTITUTION_WORDS
                    for w in re.findall(r"[^\W\d_]+", s)[1:]
                    if w[0].isupper()
                )
            )
        ),
    ),
)

LOWER_CASE_COMPANY = re.compile(r"\b(?:llc|inc|ltd|corp|gmbh|plc|llp|s\.l\.|s\.a\.|sl|sa de cv)\.?$")

# Words that open a line naming a person: what follows them on the line is a name.
NAME_LABELS = re.compile(
    rf"(?:(?:^|\n)[ \t]*(?i:Dear|Signed(?: by)?|Attn\.?|Cc|Fdo\.?|Firmado|Estimad[oa]|Querid[oa]|Hola|Hi|Hello)[ \t]+"
    # (a form's column: the label right after a tab or two spaces, looked back at; " {2,}[ \t]*" read a long run
    # of spaces in cubic time)
    rf"|(?:(?:^|\n)[ \t]*|(?<=[ \t][ \t])|(?<=\t))"
    rf"(?i:Patient(?: name)?|Name|Full name|Last name|First name|First|Surname|Given names?|"
    rf"Middle name|Middle initial|Preferred(?: name)?|Goes by|Nickname|Alias|Known as|Apodo|Apellidos y nombres?|"
    rf"Re|To|From|Signed(?: by)?|Signature|Witness(?:es)?|Tenant|Landlord|Lessee|Lessor|"
    rf"Pharmacist|Consultant|Referrer|Referring (?:doctor|physician|clinician)|GP|Cc|Attn\.?|Carer|"
    rf"Next of kin|NOK|Emergency contact|Contact|Insured|Your insured|Policyholder|Claimant|Respondent|Guarantor|"
    rf"Employee|Parent|Guardian|Mother|Father|Nurse|Physician|Doctor|Author|Reviewer|Interpreter|Applicant|"
    rf"Pt|Resident|Provider|Assistant|Assist|Surgeon|Anesthesiologist|Anaesthetist|Scrub|Circulator|Account holder|"
    rf"Tenants?|Owner|Driver|Passenger|Victim|Suspect|Officer|Adjuster|Agent|Caseworker|Social worker|Chaplain|"
    rf"Subscriber|Member name|Beneficiary|Insured name|Prescriber|Attending|Referred by|Seen by|Dictated by|"
    rf"Cirujan[oa]|Anestesista|Ayudante|Conductor[a]?|Testigo|V[íi]ctima|Denunciante|Investigad[oa]|Afiliad[oa]|"
    rf"Asegurad[oa]|Tomador[a]?|Beneficiari[oa]|Solicitante|Interesad[oa]|Representante|Apoderad[oa]|"
    rf"Paciente|Nombre(?: y apellidos| completo)?|Apellidos?|Titular|Enfermer[oa]|M[ée]dic[oa](?: de guardia)?|"
    rf"Doctor[a]?|Facultativ[oa]|Cuidador[a]?(?: principal)?|Acompañante(?: responsable)?|Contacto|Familiar|"
    rf"Madre|Padre|Tutor[a]?|Responsable|Arrendador[a]?|Arrendatari[oa]|Demandante|Demandad[oa]|Fdo\.?|Firmado|"
    rf"Atendid[oa] por|Remitente|Destinatari[oa]|De|Para|Firma|Firmado por|"
    # the parties and their lawyers as a filing or a chart labels them ("Attorney for Debtors:", "PARTE
    # SOLICITADA:", "Acudiente:", "Familiar responsable:")
    rf"(?:Attorney|Counsel|Solicitor)s? for (?:the )?[A-Za-z]+(?: [A-Za-z]+)?|"
    rf"Parte (?:actora|demandada|demandante|solicitante|solicitada|requerida|requirente|denunciante)|"
    rf"Abogad[oa](?: de la parte \w+)?|Letrad[oa]|Procurador[a]?|Acudiente|Familiar responsable|"
    rf"Persona de contacto|Contacto de emergencia|Representante legal):[ \t]*)"
    # (a preferred name in quotes: 'Preferred name: "Dot"')
    rf"(?:{_TITLE} )?(?P<quote>[\"“])?"
    rf"(?P<value>(?:[A-Z]\. ){{0,3}}{_PERSON_NAME}(?: [A-Z]\.?)?(?: {_CAPITAL_NAME}){{0,2}})(?(quote)[\"”])"
)
# In a line that holds a street address, a city before a postcode and a five-digit ZIP are address parts.
# Four digits too after the town (Australia, New Zealand, much of Europe: "Rototuna, Hamilton 3210").
ZIP_AFTER_STREET = re.compile(
    rf"(?:,? (?:{_CAPITAL_NAME}[ \-]?){{1,4}})?(?:,? [A-Z]{{2}})?,? (?P<value>\d{{5}}(?:-\d{{4}})?|\d{{4}})\b"
    rf"(?![ \-.,/:]?\d)"
)
CITY_AFTER_STREET = re.compile(
    rf",? (?P<value>(?:{_CAPITAL_NAME}[ \-]?(?:{_PARTICLE} ){{0,3}}){{1,5}}?)"
    rf"(?=[,.;)]|\s+\d{{4,5}}\b|\s+[A-Z]{{1,2}}\d|\s*$|\n)"
)

# What looks like a name or an organisation but is the text's medicine or law.
EPONYM = re.compile(
    # a possessive before a disease's or a sign's word ("Crohn's disease", "Graves' disease"); before any other
    # noun it is a person's ("Mr Doherty's tests", "Aoife's line")
    r"\b[A-Z][a-z]+(?:[-–][A-Z][a-z]+)?(?:'s|s') (?:Disease|Syndrome|disease|syndrome|palsy|lymphoma|thyroiditis|"
    r"sign|signs|phenomenon|ulcer|contracture|triad|law|algorithm|theorem|coding)\b"
    r"|\b[A-Z][a-z]+(?:[-–][A-Z][a-z]+)?(?: [A-Z][a-z]+){0,2} (?:Disease|Syndrome|Scale|Score|"
    r"disease|syndrome|palsy|lymphoma|thyroiditis|oesophagus|esophagus|score|scale|catheter|sign|test|"
    r"manoeuvre|maneuver|criteria|grade|grading|"
    r"classification|class|index|fracture|repair|procedure|technique|tube|needle|stain|protocol|rule|method|"
    r"position|reflex|phenomenon|tumou?r|ulcer|pouch|operation|incision|approach|line|device|bundle|cyst|"
    # a method named after its inventor: "Huffman coding", "Dijkstra's algorithm"
    r"algorithm|coding|encoding|transform|theorem|"
    r"enfermedad|síndrome|sindrome|escala|signo|maniobra|criterios|clasificación|prueba|test)s?\b"
    r"|\b(?i:enfermedad|síndrome|sindrome|escala|signo|maniobra|criterios|clasificación|índice|test|prueba|"
    r"fractura|sonda|técnica|cuestionario|score|puntuación|regla|triángulo|pinza|aguja|posición|monofilamento|"
    r"algoritmo|codificador|codificación|transformada|teorema|"
    # a fever or a virus named after the place it was found: "fiebre de Oropouche", "virus del Nilo"
    r"fiebre|virus|fever) (?:de |del |of )?"
    # "Índice de O'Leary", "escala de Hunt y Hess", "Monofilamento de Semmes-Weinstein"
    r"(?:[A-Z]['’])?[A-Z][a-zá-ú]+(?:(?:[-–]| y | e )(?:[A-Z]['’])?[A-Z][a-zá-ú]+)?\b"
    # a triage or a scale named after it in Spanish's order: "Triaje Manchester", "escala Glasgow"
    r"|\b(?i:triaje|triage|escala|índice|clasificación) [A-Z][a-zá-ú]+\b"
    # a test's or a sign's author after what it is called: "Test de la Figura Humana de Machover", "globo de
    # seguridad de Pinard"
    r"|\b(?i:test|escala|signo|maniobra|globo de seguridad)(?: de la| del| de)?(?: [A-Z][a-zá-ú]+){1,2} de "
    r"[A-Z][a-zá-ú]+\b|\b(?i:globo de seguridad) de [A-Z][a-zá-ú]+\b"
    # a make after the word for one: "brand Orbea", "modelo Schindler 3300" (with its number: "la modelo Irene
    # Cuesta" is a woman who models)
    r"|\b(?i:marca|brand) [A-Z][a-z]{3,}\b|\b(?i:modelo|model) [A-Z][a-z]{3,}(?= \d{3,5}\b)"
    # a maker before its model's code or the device it makes: "Sysmex XN-1000", "Hillrom pump", "Tunstall
    # bed-leave sensor"
    # (a model's code has three digits or more, or a hyphen: "Carmarthen SA31 2AF" is a town and its postcode)
    r"|\b[A-Z][a-z]{3,}(?= (?:[A-Z]{1,4}-\d{2,5}\b|[A-Z]{1,4}\d{3,5}\b|(?:[a-z\-]+ )?(?:pump|sensor|monitor|"
    r"analy[sz]er|defibrillator|ventilator|hoist|mattress|glucometer|glucómetro|bomba|camera|breathalyser|breathalyzer)s?\b))"
)
# An organism's Latin name, its genus capitalised and its species not: "Streptococcus pneumoniae", "Plasmodium
# falciparum", "Candida albicans" (``organisms`` checks that the species is no everyday word: "María ella").
_BINOMIAL = re.compile(
    r"\b(?P<genus>[A-Z][a-z]{2,}(?:us|um|a|as|es|is|er|on))"
    r" (?P<species>[a-z]{3,}(?:ae|ii|um|us|is|i|ensis|oides|ella|ans))\b"
)


# A genus named alone, as a laboratory reports it: "Legionella negativo", "Pseudomonas spp.", "Staphylococcus
# coagulasa negativo". "-ella" ends given names and towns too ("Estella", "Marbella"): such a genus is one only
# where a result follows it.
_GENUS = re.compile(
    r"\b[A-Z][a-z]{3,}(?:ella|coccus|cocci|monas|bacter|bacterium|bacillus|myces|plasma|vibrio|spora|idium|"
    r"obacteria)\b"
)


_LAB_RESULT_AFTER = re.compile(
    r"[ \t]+(?i:spp?\b|negativ[eoa]|positiv[eoa]|detected|not detected|detectad[oa]|"
    r"no detectad[oa]|antigen|antígeno|pcr|ig[mg]|serolog)"
)


def a_side_before_a_word(surface: str) -> bool:
    """ "L. Lumbar flexion", "R. Reflexes": a note's left or right before an everyday or clinical word, not an
    initial before a surname."""
    side = re.match(r"[LR]\. ([^\W\d_]+)", surface)
    if side is None:
        return False
    word = side.group(1)
    if lexicon.is_name_word(word):
        return False  # "R. Power (social worker)"
    return word.lower() in _BODY_AND_EXAMINATION or lexicon.is_clinical_word(word)


# The parts of the body and the findings an examination records on one side: "L. Lumbar flexion", "R. Knee
# effusion", "L. Reflexes: patellar 2+".
_BODY_AND_EXAMINATION = frozenset(
    """
    lumbar cervical thoracic sacral spine neck shoulder shoulders arm arms elbow forearm wrist hand hands finger
    fingers thumb hip hips thigh knee knees leg legs calf ankle foot feet toe toes heel eye eyes ear ears lung
    lungs chest breast kidney flank groin buttock upper lower base apex side pupil pupils hemithorax ventricle
    atrium reflexes reflex power tone sensation flexion extension abduction adduction rotation grip gait plantar
    patellar achilles biceps triceps quadriceps hamstring deltoid sided effusion swelling tenderness
    """.split()
)


# Makers named by two words, one of them a town's or a person's: kept as the phrase, where the town alone
# ("moved to Boston") is one.
MAKER_PHRASES = re.compile(
    r"\b(?:Boston Scientific|Becton,? Dickinson|Welch Allyn|Hamilton Medical|Edwards Lifesciences|"
    r"Abbott Laboratories|Smith ?(?:\+|&) ?Nephew|Land Rover|Lincoln Navigator|Hill-Rom|Fisher ?& ?Paykel)\b"
    r"(?: [A-Z][\w\-]+)?"  # and the model after it: "Boston Scientific Accolade"
)


def organisms(text: str) -> list[tuple[int, int]]:
    """The spans of the organisms' Latin names in ``text``."""
    return [
        m.span()
        for m in _BINOMIAL.finditer(text)
        if max(lexicon.zipf(m.group("species")), lexicon.zipf_in(m.group("species"), "es")) < 2.5
        and not lexicon.is_name_word(m.group("species"))
    ] + [
        m.span()
        for m in _GENUS.finditer(text)
        if not lexicon.is_name_word(m.group(0))
        and (not m.group(0).endswith("ella") or _LAB_RESULT_AFTER.match(text, m.end()) is not None)
    ]


# A test, a fracture or a manoeuvre named after its describer with a possessive ("Colles' fracture", "Cozen's
# test"), and an operation or a sign with its "de" ("intervención de Hartmann", "reflejo de Babinski"). A
# given name, a title or a result after it makes it someone's ("Siobhan's test results", "Mr Doherty's test",
# "la intervención de Fernández" — a surname of the lists, which an eponym of the kept terms is not).
_POSSESSED_EPONYM = re.compile(
    r"\b(?P<name>[A-Z][a-z]+(?:[-–][A-Z][a-z]+)?)(?:'s|s'|’s|s’) (?:test|fracture|manoeuvre|maneuver|reflex|node|"
    r"cyst|hernia|operation|procedure|classification|criteria|scale|space|canal|duct|layer|fascia|gland)\b"
    r"(?! (?:results?|scores?|dates?|appointment|booking)\b)"
    r"|\b(?i:intervención|operación|procedimiento|reflejo|fenómeno|tríada|úlcera|quiste|hernia) (?:de |del )"
    r"(?P<author>(?:[A-Z]['’])?[A-Z][a-zá-ú]+(?:[-–][A-Z][a-zá-ú]+)?)\b"
)


# Operations and signs named after surgeons and physicians whose surnames are on the name lists too.
_OPERATIONS_BY_NAME = frozenset(
    "hartmann whipple nissen miles bassini lichtenstein billroth roux kasai bentall fontan glenn jatene mohs "
    "shouldice mcvay burch wertheim babinski hoffmann romberg murphy blumberg rovsing mcburney lasègue".split()
)


def possessed_eponyms(text: str) -> list[tuple[int, int]]:
    """The spans of the eponyms ``_POSSESSED_EPONYM`` finds that no title, given name or listed surname makes
    someone's."""
    found = []
    for match in _POSSESSED_EPONYM.finditer(text):
        if _TITLE_BEFORE.search(text, max(0, match.start() - 12), match.start()):
            continue
        if name := match.group("name"):
            if name.lower() in lexicon.first_names():
                continue
        elif (
            lexicon.is_name_word(match.group("author"))
            and not lexicon.is_kept_term(match.group("author"))
            and match.group("author").lower() not in _OPERATIONS_BY_NAME
        ):
            continue
        found.append(match.span())
    return found


# A scale or a classification named after its author and read as a grade in Roman numerals: "Hinchey IV",
# "Killip II", "Forrest Ia", "Mallampati III", after a sentence's word or a bracket and before a stop (after a
# comma or opening a line it is a place as often: "…, Wuse II, Abuja"; with words after it, anyone's: "against
# Thibodeaux III in court"). A given name or an initial before them is a person's or a king's ("Carlos I",
# "T. Rocha V.").
_GRADED = re.compile(
    r"(?:(?<=\()|(?<=[a-záéíóúñ]{2} ))"
    r"(?P<name>[A-Z][a-z]{3,}(?:[-–][A-Z][a-z]+)?) (?:I{1,3}|IV|VI?)[ab]?\b(?=[),.;:])"
)


def graded_eponyms(text: str) -> list[tuple[int, int]]:
    """The spans of the grades ``_GRADED`` finds whose name is no given name."""
    return [
        m.span()
        for m in _GRADED.finditer(text)
        if m.group("name").lower() not in lexicon.first_names()
        and not lexicon.is_region(m.group("name"))
        and lexicon.zipf(m.group("name").lower()) < 3.5  # "Partners II", "System V": words, not authors
        and not _TITLE_BEFORE.search(text, max(0, m.start() - 12), m.start())  # "Mr Hinchey IV"
        # a capitalised word before it is a given name the lists lack: "Nana Kofi Adjei III"
        and not re.search(r"[A-ZÀ-Þ][^\W\d_]* $", text[max(0, m.start() - 30) : m.start()])
    ]


# A disease named after a person in Spanish's order, the disease's word ending as diseases do: "tiroiditis de
# Hashimoto", "osteocondrosis de Scheuermann", "miocardiopatía de Takotsubo". A given name after "de" is the
# patient's ("la artritis de Carmen").
_DISEASE_OF = re.compile(
    r"\b[A-ZÁÉÍÓÚa-záéíóúñ][a-záéíóúñ]{2,}(?:itis|osis|patía|plejía|algia|distrofia|ataxia)\s+de\s+"
    r"(?P<name>[A-Z][a-zá-úñ]+(?:[-–][A-Z][a-zá-úñ]+)?)\b"
)


def eponymous_diseases(text: str) -> list[tuple[int, int]]:
    """The spans of the diseases ``_DISEASE_OF`` finds, names and all."""
    from app.identifiers.towns import town_names  # (towns reads this module's lists)

    return [
        m.span()
        for m in _DISEASE_OF.finditer(text)
        if not lexicon.is_name_word(m.group("name"))
        # an outbreak is named after its town ("gastroenteritis de Torrelodones"), a thyroiditis after its
        # describer, whatever town shares his name ("tiroiditis de Hashimoto")
        and not (m.group(0).split()[0].lower() in _OUTBREAK_WORDS and m.group("name").lower() in town_names())
    ]


_OUTBREAK_WORDS = frozenset(
    "gastroenteritis hepatitis meningitis encefalitis conjuntivitis parotiditis legionelosis salmonelosis "
    "brucelosis tuberculosis leptospirosis".split()
)


# A medicine named by how a note doses it, whatever list it is on: after its form ("Tab. Ecosprin", "Inj.
# Human Actrapid", "IV Tazocin", "Comp. Neurobión") or before its dose ("Atorva 40 mg", "Coloxyl 2 tabs").
# Indian, Latin American and other countries' brands are on no list this project ships.
MEDICINE_DOSED = re.compile(
    r"(?<![\w.])(?i:tab|tabs|tablet|cap|caps|inj|syp|syr|susp|amp|comp|gtt|iv|po)\.?\s+"
    r"(?!(?i:box|bag)\b)[A-Z][\w\-]+(?: [A-Z][\w\-]+)?"
    # before its form ("Biotene gel", "Bepanthen crema") or after a count of doses ("2 x Buccolam")
    r"|(?<![\w.])[A-Z][\w\-]+(?= (?i:gel|cream|ointment|spray|drops|patch|patches|syrup|inhaler|lozenges?|mouthwash|"
    r"pessar(?:y|ies)|suppositor(?:y|ies)|crema|pomada|jarabe|gotas|parches?|colirio|sobres?|inhalador)\b)"
    r"|(?<=\d x )[A-Z][\w\-]+|(?<=\d× )[A-Z][\w\-]+"
    # before its dose, its strength ("Rifinah 300/150" in hundreds, an insulin's mix "Mixtard 30/70": no day and
    # month, score or duration), its pen ("Metoject pluma"), a brand's or a release's suffix and a closing bracket
    # between ("Panadeine Forte 500 mg", "Tegretol CR 200 mg", "(Acfol) 5 mg"); how often it is taken only after
    # a brand's suffix ("Panadeine Forte nocte PRN": "Phoned Oyelaran mane" is a person rung in the morning)
    r"|(?<![\w.])[A-Z][\w\-]+(?: (?:Forte|Retard|Plus|Duo|Rapide|Mite|Junior|Flexpen|Penfill|CR|SR|XL|XR|LA|MR|ER))?"
    r"(?=\)? (?:\d+(?:[.,]\d+)?\s?(?i:mg|mcg|µg|g|ml|ui|iu|units?|unidades|gotas|drops|puffs?|"
    r"tabs?|tabletas?|comprimidos?|caps)\b|(?:\d{3,4}/\d{2,4}|(?:10/90|20/80|25/75|30/70|50/50|70/30|75/25))"
    r"(?![/.\-]?\d)|pluma\b))"
    r"|(?<![\w.])[A-Z][\w\-]+ (?:Forte|Retard|Mite)(?= (?:nocte|mane|PRN|prn|od|bd|tds|qds)\b)"
)
# A product by its maker and model, named before its serial number: "Boston Scientific Accolade (n.º de serie
# 783421)", "Worcester Bosch Greenstar 30i, serial 4740631", "Geotab GO9, serial G9A3B21C7F04". The serial
# identifies; the maker and the model are anyone's.
PRODUCT_BEFORE_SERIAL = re.compile(
    r"(?<![\w.])(?:[A-Z][\w\-]* ){0,3}[A-Z][\w\-]*(?: [A-Z0-9][\w\-]{0,8})?"
    r"(?=\s*[,(]\s*(?i:n\.?\s?[º°o]\.? (?:de )?serie|n[úu]mero de serie|serial(?: no\.?| number| #)?|s/n\b|sn\b|"
    r"serie\b))"
)
STATUTE = re.compile(
    # "the Sale of Goods Act 1979", "Landlord and Tenant Act": the small words of a title belong to it.
    r"\b(?:the )?[A-Z][a-z]+ (?:(?:of|and|for|on|in|the) )?(?:[A-Z][a-z]+ (?:(?:of|and|for|on|in|the) )?){0,5}"
    r"(?:Act|Rules|Regulations|Code|Directive)(?: (?:of )?\d{4})?\b|"
    r"\b(?:GDPR|HIPAA|Federal Rules of Civil Procedure)\b|"
    # a state's law by its title ("the Motor Vehicle Financial Responsibility Law"), not a firm named so
    # ("Hartley Law Group", "Harbour & Lowe Relocation Law"): three words or more, no "&" before
    r"(?<!& )(?<!and )\b(?:[A-Z][a-z]+ (?:(?:of|and|for|on|in|the) )?){3,6}Law\b"
    r"(?! (?:Group|Firm|Office|Offices|Partners|Centre|Center|Clinic|Chambers|Practice|Associates)\b)"
    r"(?!,? (?:GmbH|Ltd|Limited|Inc|LLC|LLP|PLLC|plc|PLC|P\.?C\.?)\b)|"
    # A protocol, practice direction or convention by its title: "the Pre-Action Protocol for Possession
    # Claims", "Practice Direction 51Z", "the Hague Convention on the Civil Aspects of International Child
    # Abduction". The title names the instrument, and its capitalised words no one.
    # A company named so is a company: "g10 Code GmbH".
    r"\b(?:[A-Z][a-z]+(?:-[A-Z][a-z]+)? ){0,4}(?:Protocol|Practice Direction|Convention|Treaty|Regulations|Rules|"
    # (a whole word: "Metrotown Active Rehab" and "Codeine" hold no "Act" or "Code")
    r"Directive|Act|Code)\b(?: \d{1,4}[A-Z]?\b)?(?: (?:for|of|on|relating to) (?:the )?[A-Z][a-z]+(?:-[A-Z][a-z]+)?"
    r"(?: (?:of |and |the |for |in ){0,2}(?!(?:Mr|Mrs|Ms|Miss|Dr|Prof|Sir|Dame)\b)[A-Z][a-z]+(?:-[A-Z][a-z]+)?){0,6})?"
    r"(?!,? (?:GmbH|Ltd|Limited|Inc|LLC|LLP|plc|PLC|AG|BV|Corp|S\.?[AL]\.?)\b)|"
    # a law by its number as Latin America writes it, with the day it was passed: "Ley Núm. 75 de 2 de julio de
    # 1987", "Ley N.º 8590", "Decreto Supremo N° 28699", "Ley 210-2015"
    r"\b(?:Ley|Decreto(?: Supremo| Legislativo| Ley| Ejecutivo)?|Acuerdo Gubernativo)(?: Orgánica| General| Federal)? "
    r"(?:(?i:n\.?\s?[º°]|núm\.?|no\.?|número)\s?)?(?>\d+(?:[/-]\d{2,4})?)\b"
    r"(?>(?:,? de \d{1,2} de (?i:enero|febrero|marzo|abril|mayo|junio|julio|agosto|septiembre|setiembre|octubre|"
    r"noviembre|diciembre)(?: de \d{4})?)?)(?![ ,]+(?:de|del|de la|de los|de las|sobre|para|por) [A-ZÁÉÍÓÚÑ])|"
    # Spanish and Latin American laws, codes and collective agreements: "Ley de Arrendamientos Urbanos", "Real
    # Decreto Legislativo 1/2013", "Código General del Proceso", "Convenio Colectivo de Hostelería".
    r"\b(?:Ley(?: Orgánica| General| Federal)?|Real Decreto(?: Legislativo| Ley|-ley)?|Decreto(?: Legislativo| Ley|"
    r" Supremo)?|Código|Reglamento|Convenio Colectivo|Constitución|Directiva|Estatuto|Texto Refundido)"
    r"(?: (?:n\.?º |N\.?º |No\. )?\d+(?:/\d{2,4})?)?,?"
    # the day it was passed, before its title: "Ley 29/1994, de 24 de noviembre, de Arrendamientos Urbanos"
    r"(?: de \d{1,2} de [a-záéíóú]+(?: de \d{4})?,)?"
    r"(?: (?:de|del|de la|de los|de las|y|e|sobre|para) [A-ZÁÉÍÓÚÑ][\wáéíóúñ]+"
    r"| (?!(?:Núm|No|N)\b)[A-ZÁÉÍÓÚÑ][\wáéíóúñ]+)"
    r"{1,6}\b"
    r"|\b(?:Ley|Real Decreto(?: Legislativo)?|Decreto) (?:n\.?º |N\.?º )?\d+/\d{2,4}\b"
)
