"""Words that say what an office, a unit or a person does rather than which one it is: specialties,
departments, services, roles, the kinds of institution. A capitalised phrase made of these alone ("Family
Medicine", "Case Manager", "Claims Adjuster", "Servicio de Neonatología", "Recursos Humanos") is a heading or
a job, and names no one: an organisation's name has at least one word of its own ("Northside Family Health",
"Sacred Heart Hospital", "Clínica Santa Rita").

Hand-written because no package lists them: they are the closed vocabulary of how clinics, firms and courts
describe themselves, in English and Spanish.
"""

from __future__ import annotations

import re

from app.identifiers import lexicon, rules

_WORD = re.compile(r"[^\W\d_]+")
_CONNECTORS = frozenset("of and the for at in on to de del la las los el y e a al en para por con".split())

_SPECIALTIES = """
medicine medical internal family general emergency accident urgent acute primary secondary tertiary care
critical intensive palliative hospice clinical health mental behavioral behavioural psychiatry psychiatric
psychology psychological cardiology cardiac cardiothoracic vascular neurology neurosurgery oncology
haematology hematology nephrology renal urology gynaecology gynecology obstetrics maternity midwifery neonatal
paediatric paediatrics pediatric pediatrics peds geriatric geriatrics gerontology orthopaedic orthopaedics
orthopedic orthopedics ortho orth trauma surgery surgical surg anaesthesia anesthesia anaesthetics
anesthesiology radiology imaging pathology laboratory lab labs pharmacy dermatology ophthalmology eye ent
dental dentistry physiotherapy physio rehab rehabilitation occupational therapy speech respiratory
pulmonology gastroenterology endocrinology diabetes rheumatology infectious diseases disease sexual
outpatient outpatients inpatient inpatients day unit ward wards theatre theatres theater recovery triage
admissions discharge records nursing nurse nurses community district visiting outreach wellbeing wellness
stroke coronary spine pain sleep fertility transplant dialysis oncological med
immunization immunisation immunizations vaccination vaccinations vaccine antenatal prenatal postnatal perinatal
anticoagulation warfarin ivf audiology podiatry asthma allergy allergies wound wounds smoking cessation weight
memory fracture falls continence diabetic foot hearing travel
medicina interna familiar familia urgencias emergencias atención atencion primaria especializada cuidados
intensivos intensiva intensivo paliativos paliativo domiciliarios domiciliaria salud psiquiatría psiquiatria
psicología psicologia cardiología cardiologia neurología neurologia neurocirugía oncología hematología
nefrología urología ginecología obstetricia ginecoobstetricia neonatología neonatologia pediatría pediatria
geriatría geriatria traumatología traumatologia ortopedia cirugía cirugia anestesia anestesiología
radiología radiologia diagnóstico diagnostico imagen imágenes laboratorio análisis clínicos clinicos
clínico farmacia dermatología oftalmología otorrinolaringología odontología fisioterapia rehabilitación
terapia ocupacional neumología digestivo gastroenterología endocrinología reumatología infecciosas
enfermedades unidad coronaria servicio servicios planta guardia externa externas externo consultas
consulta hospitalización hospitalizacion admisión admision archivo historias enfermería enfermeria
nutrición nutricion dietética sanitaria sanitario área area pediátrica pediátrico pediatrica pediatrico
pediátricas pediátricos
"""
_FUNCTIONS = """
department dept departments service services team teams office offices desk reception front line helpline
hotline advice support customer customers member members patient patients relations claims claim billing
accounts finance payroll human resources compliance quality safety risk management manager managers case
adjuster adjusters coordinator coordinators worker workers social work legal student students staff
employee employees benefits pension welfare review reviewer panel committee business records enquiries
inquiries complaints notary public commissioner oaths guardianship probate senior junior bodily injury
injuries home visit visits services portal control unit operations administration admin registration
registry security protection treatment treating assessment liaison crisis memory resolution banking
postnatal antenatal referral referrals transfer specialty speciality domestic violence sexual
departamento equipo multidisciplinario multidisciplinar oficina atención cliente clientes usuario usuarios
reclamaciones siniestros automóviles automoviles recursos humanos producción produccion supervisora
supervisor jefe jefa jefatura sección seccion gerencia dirección direccion administración administracion
protección proteccion datos delegado delegada trabajo social registro propiedad certificado vehículo
vehiculo telecomunicaciones control calidad seguridad prevención prevencion riesgos laborales
inspectorate inspection commissioner ombudsman regulator tráfico trafico penados departament salut
attorneys attorney barristers barrister notaries law deputy registered acting assistant chief associate
comunitaria comunitario comunitarias comunitarios temprana temprano emergencia emergencias estadística estadistica
gestión gestion programa programas coordinación coordinacion coordinadora coordinador agrupación agrupacion
personal subdirección subdireccion división division archivo sociales asilo refugio
"""
# The state's offices and the documents it issues, named by what they do: "Ministerio de Trabajo", "Caja
# Nacional de Salud", "Citizenship and Immigration Services", "Número de Identificación Tributaria",
# "Documento Único de Identidad". One per country: the name says where a person deals with the state, not
# which person, and as a stand-in ("Schmidt and Edwards Andrews") it changes what the letter is about.
_PUBLIC = """
ministry government public citizenship immigration naturalization naturalisation asylum customs revenue tax
taxes taxation insurance identity identification number licensing registrar notarial prosecution prosecutor
prosecutors police policing victim victims crime crimes witness witnesses pensions disability affairs division
bureau policy manual
ministerio gobierno público pública públicos públicas fiscalía fiscal procuraduría defensoría defensa
contraloría tesorería superintendencia secretaría policía ciudadanía inmigración migración migraciones
extranjería asilo aduana aduanas tributaria tributario tributos impuestos hacienda renta rentas seguro
seguros sociales identidad identificación documento documentos único única cédula civil civiles matrícula
comercio mercantil gestora pensiones previsión caja tránsito transito vial víctima víctimas delito delitos
audiencia preliminar juicio sello asistencia notarial notariado abogados abogacía registros catastro
catastral empleo penal penales familia menores violencia género número
"""
# Nationality words: "Agencia Española de Protección de Datos", "Canadian C-spine", "Instituto Salvadoreño
# del Seguro Social".
_NATIONALITIES = """
american canadian british english scottish welsh irish australian mexican spanish
mexicano mexicana español española argentino argentina colombiano colombiana chileno chilena peruano peruana
venezolano venezolana ecuatoriano ecuatoriana cubano cubana salvadoreño salvadoreña guatemalteco guatemalteca
hondureño hondureña nicaragüense costarricense panameño panameña dominicano dominicana puertorriqueño
puertorriqueña boliviano boliviana paraguayo paraguaya uruguayo uruguaya
"""
# The state's agencies named by their kind and the country or region they serve: "Instituto Salvadoreño del
# Seguro Social", "Centro Nacional de Registros", "Servicio Andaluz de Salud". The kind and the adjective
# alone make no office of the state ("Instituto Mexicano de Cardiología", "Centro Nacional de Cirugía" are one
# hospital each): the rest must say what the state does.
_AGENCY_KINDS = frozenset(
    """
    institute instituto centre center centro service servicio agency agencia administration administración
    fund fondo board junta council consejo commission comisión directorate dirección office oficina system
    sistema registry registro authority autoridad corporation corporación servizo
    """.split()
)
_REGIONAL = frozenset(
    """
    andaluz andaluza catalán catalana gallego gallega vasco vasca madrileño madrileña valenciano valenciana
    canario canaria aragonés aragonesa asturiano asturiana balear murciano murciana navarro navarra
    extremeño extremeña cántabro cántabra riojano riojana castellano castellana manchego manchega estatal
    galego galega foral
    """.split()
)
_STATE_WORK = frozenset(
    "salud saúde salut health social estado state nación nation república republic judicial".split()
)
# The words that, beside an institution's kind, make one place's name: "City Hospital", "University
# Hospital", "County Court", "Royal Infirmary", "Hospital General", "Hospital Universitario".
_LEVELS = frozenset(
    """
    national federal state municipal county city provincial regional district community royal general central
    university memorial
    nacional federal estatal municipal provincial regional comarcal general central universitario universitaria
    """.split()
)
# Whom a service is for: alone a department ("Adult Community Mental Health Team"), beside an institution's
# kind one place's name ("Children's Hospital", "Women's and Children's Hospital", "Hospital Infantil").
_POPULATIONS = frozenset(
    """
    adult adults child children childrens adolescent adolescents youth young older elderly women womens men
    perinatal infant infants maternity
    adultos infantil infanto juvenil mujer mujeres niñez niños adolescencia materno maternidad
    """.split()
)


def _kind_words() -> frozenset[str]:
    """The words of the institution kinds the organisation rules end a firm's name with ("Hospital",
    "Medical Group", "Clínica")."""
    return frozenset(w.lower() for w in _WORD.findall(rules.INSTITUTION_KINDS)) | rules.GENERIC_INSTITUTION_WORDS


_KINDS = _kind_words()
_PUBLIC_WORDS = frozenset(_PUBLIC.split())
_NATIONAL_LEVELS = frozenset("national nacional federal".split())
_NATIONALITY_WORDS = frozenset(_NATIONALITIES.split())
DESCRIPTIVE_WORDS = frozenset((_SPECIALTIES + _FUNCTIONS + _NATIONALITIES).split()) | _LEVELS | _POPULATIONS | _KINDS
_AGENCY_DESCRIPTIVE = DESCRIPTIVE_WORDS | _PUBLIC_WORDS | _AGENCY_KINDS | _REGIONAL | _STATE_WORK
# The state written before its office's name: "U.S. Citizenship and Immigration Services", "EE. UU.".
_STATE_BEFORE = re.compile(r"^(?:the |The |THE )?(?:U\.\s?S\.(?:\s?A\.)?|US|USA|U\.\s?K\.|UK|EE\.\s?UU\.)\s+")


def names_nothing(surface: str, as_person: bool = False) -> bool:
    """Whether every word of ``surface`` says what a unit or a person does, so that it names no one
    ("Internal Medicine", "Claims Adjuster", "Servicio de Digestivo"); any word of its own makes it a name,
    and so does a level beside an institution's kind ("City Hospital", "County Court").
    Read ``as_person``, a word on the lists of people's names is one too ("Paz", "Ward", "Case")."""
    state = _STATE_BEFORE.match(surface)
    words = [w for w in _WORD.findall(surface[state.end() if state else 0 :]) if w.lower() not in _CONNECTORS]
    lower = {w.lower() for w in words}
    # The state's office is one by its head: "Caja Nacional de Salud", "National Insurance", "U.S. Citizenship
    # and Immigration Services". Its words count as descriptive only there: "Clínica del Seguro", "US Bank" and
    # "Border Insurance Agency" are one clinic, one bank, one agency.
    public, agency = _the_states(words)
    if agency:
        return all(len(w) > 1 and w.lower() in _AGENCY_DESCRIPTIVE for w in words)
    if state and not public:
        return False  # "US Bank": the country's name is part of the firm's
    if not public and lower & (_LEVELS | _POPULATIONS) and lower & (_KINDS - _LEVELS - _POPULATIONS):
        return False  # "University Hospital", "Children's Hospital": one hospital, named by its kind
    descriptive = DESCRIPTIVE_WORDS | _PUBLIC_WORDS | _STATE_WORK if public else DESCRIPTIVE_WORDS
    return bool(words) and all(
        len(w) > 1
        and (w.lower() in descriptive or lexicon.is_clinical_word(w))
        and not (as_person and lexicon.is_name_word(w))
        for w in words
    )


# The heads only the state's offices have: a firm may be "Seguros del Estado" or "Caja Rural", never a ministry.
_ONLY_THE_STATES = frozenset(
    "ministry ministerio fiscalía fiscalia procuraduría procuraduria defensoría defensoria contraloría contraloria "
    "tesorería tesoreria superintendencia secretaría secretaria policía policia prosecution".split()
)


def names_the_state(surface: str) -> bool:
    """Whether ``surface`` is one of the state's offices by its head ("Fiscalía General del Estado", "Servizo
    Galego de Saúde") and names no one: whatever label or list found it, its stand-in would change whom the
    text deals with, and it locates no one more closely than the country."""
    state = _STATE_BEFORE.match(surface)
    words = [w for w in _WORD.findall(surface[state.end() if state else 0 :]) if w.lower() not in _CONNECTORS]
    public, agency = _the_states(words)
    only_the_states = bool(words) and words[0].lower() in _ONLY_THE_STATES
    if _a_regional_government(surface):
        return True
    return (agency or public and only_the_states) and names_nothing(surface)


# The heads of bodies only the state has: courts, police forces, regulators' commissions, public registries,
# inspectorates ("Tribunal Unitario Agrario", "Tasmania Police", "Jersey Care Commission", "Registro Agrario
# Nacional", "Inspección de Trabajo y Seguridad Social"). Spanish names them first, English last.
_STATE_BODY_FIRST = frozenset(
    "tribunal juzgado registro inspección inspeccion jefatura comisaría comisaria gendarmería gendarmeria "
    "policía policia fiscalía fiscalia ministerio ministry secretaría secretaria superintendencia consejería "
    "consejeria procuraduría procuraduria defensoría defensoria contraloría contraloria servicio".split()
)
_STATE_BODY_LAST = frozenset("police constabulary commission court tribunal inspectorate ombudsman registry".split())
# Heads a firm takes as often, a state body's only beside the region or the country it serves: "Zambia Police
# Service", "Tasmania Ambulance Service", not "Premier Cleaning Service".
_REGIONAL_BODY_LAST = frozenset("service department authority agency".split())

_STATE_BODY = re.compile(
    r"(?<![\w'’\-])(?:[A-ZÁÉÍÓÚÑ][\w'’\-]*\.? (?:(?i:of|and|the|for) )?){1,5}"
    r"(?=[A-Z])(?i:police|constabulary|commission|court|tribunal|inspectorate|ombudsman|registry|service|"
    r"department|authority|agency)\b"
    # Spanish names the kind first, and so do the state's offices named by ``names_the_state``: "Servicio
    # Cántabro de Salud", "MINISTRY OF HEALTH", "Policía del Chubut"
    r"|(?<![\w'’\-])(?=[A-Z])(?i:tribunal|juzgado|registro|inspecci[óo]n|jefatura|comisar[íi]a|gendarmer[íi]a|"
    r"servicio|instituto|ministerio|secretar[íi]a|superintendencia|consejer[íi]a|fiscal[íi]a|polic[íi]a|"
    r"procuradur[íi]a|defensor[íi]a|contralor[íi]a|tesorer[íi]a|ministry|department)"
    r"(?: (?:(?i:de|del|de la|de los|de las|y|e|of|the|for|and) )?[A-ZÁÉÍÓÚÑ][\w\-]*){1,6}"
)


def state_bodies(text: str) -> list[tuple[int, int]]:
    """The spans of the state's bodies ``_a_state_body`` or ``names_the_state`` tell from a firm or a town's
    office: what is found inside one ("SIERRA LEONE" of "SIERRA LEONE POLICE", "Jersey Care" of "Jersey Care
    Commission", "CÁNTABRO DE SALUD" of "SERVICIO CÁNTABRO DE SALUD") is the body's, not a person's or a
    firm's."""
    spans = []
    for match in _STATE_BODY.finditer(text):
        # an English body's name may follow a person's or a rank's ("Sgt. Hamon of States of Jersey Police"):
        # its longest run of words that ends in the head and passes is the body's
        starts = [match.start()] + [
            match.start() + m.start() for m in re.finditer(r"(?<= )[A-ZÁÉÍÓÚÑ]", match.group(0))
        ]
        for start in starts:
            words = [w for w in _WORD.findall(text[start : match.end()]) if w.lower() not in _CONNECTORS]
            if _a_state_body(words, text[start : match.end()]) or names_the_state(text[start : match.end()]):
                spans.append((start, match.end()))
                break
    return spans


# The institutions a body's name may hold that make it one place's: "Waikato Hospital Emergency Department".
_PLACES_OF_CARE_OR_STUDY = frozenset(
    "hospital hospitals infirmary clinic clínica clinica surgery practice school escuela colegio university "
    "universidad college".split()
)


def _a_state_body(words: list[str], phrase: str = "") -> bool:
    """Whether ``words`` (connectors left out) are a state body's head and, beside it, only words that say what
    it does or which region or country it serves: a town among them ("Juzgado de Instrucción nº 1 de Zafra",
    "Gasparillo Police") locates whom the text deals with, and a word of its own names one body."""
    if len(words) < 2:
        return False
    lower = [w.lower() for w in words]
    if lower[0] in _STATE_BODY_FIRST:
        rest = words[1:]
    elif lower[-1] in _STATE_BODY_LAST | _REGIONAL_BODY_LAST:
        rest = words[:-1]
    else:
        return False
    from app.identifiers.towns import town_names

    towns = town_names()

    if any(w.lower() in _PLACES_OF_CARE_OR_STUDY for w in rest):
        return False  # "Waikato Hospital Emergency Department": one hospital's department

    def serves_or_says(word: str) -> bool:
        if lexicon.is_region(word) or word.lower() in _AGENCY_DESCRIPTIVE | _COURT_LEVELS:
            return True  # (the state's words before the lists of names: "Secretaría de Salud")
        # a town named by an everyday word is a town here: "Reading Police", "Juzgado de Paz de Progreso"
        if lexicon.is_name_word(word) or word in towns or word.title() in towns:
            return False
        return max(lexicon.zipf_in(word.lower(), "es"), lexicon.zipf_in(word.lower(), "en")) >= 3.0

    if lower[-1] == "court" and all(lexicon.is_region(w) for w in rest):
        return False  # "Jersey Court": a block of flats as often as a court
    # (a region's name may hold a hyphen or a connector: "Castilla-La Mancha")
    regions = _regions_in(" ".join(rest)) + [w for r in _regions_in(phrase) for w in re.split(r"[ \-]", r)]
    if _a_town_of_words(rest, towns, regions):
        return False  # "Princes Town Magistrates' Court": a town of everyday words
    if lower[-1] in _REGIONAL_BODY_LAST and lower[0] not in _STATE_BODY_FIRST:
        if not regions and not any(lexicon.is_region(w) for w in rest):
            return False
    return all(serves_or_says(w) or any(w in region.split() for region in regions) for w in rest)


# A court's level, which the gazetteer also lists as a town ("Superior", Wisconsin).
_COURT_LEVELS = frozenset("superior supreme high crown magistrates".split())


def _a_town_of_words(words: list[str], towns: frozenset[str], regions: list[str]) -> bool:
    """Whether two or three of ``words`` in a row are a town's name that is no region's."""
    return any(
        (phrase := " ".join(words[i : i + n])) in towns and phrase not in regions
        for n in (2, 3)
        for i in range(len(words) - n + 1)
    )


def _regions_in(phrase: str) -> list[str]:
    """The regions or countries of two or three words in ``phrase`` ("Sierra Leone", "Baja California")."""
    words = phrase.split()
    return [
        " ".join(words[i : i + n])
        for n in (3, 2)
        for i in range(len(words) - n + 1)
        if lexicon.is_region(" ".join(words[i : i + n]))
    ]


# A region's own government, which locates no one more closely than the region: "Gobierno de Navarra", "Junta
# de Andalucía", "Xunta de Galicia", "Generalitat de Catalunya", "Gobierno Vasco", "Scottish Government".
_REGIONAL_GOVERNMENT = re.compile(
    r"(?:Gobierno(?: Foral)?|Govern|Junta|Xunta|Generalitat|Generalidad|Diputación Foral|Principado|"
    r"Comunidad Autónoma|Ciudad Autónoma|State Government|Government) (?:de |del |de la |d'|of (?:the )?)?"
    r"(?P<region>[A-ZÁÉÍÓÚÑ][\w'’ \-]{2,40})"
)
_REGIONAL_ADJECTIVE = re.compile(
    r"Gobierno (?:Vasco|Canario|Balear|Riojano|Cántabro|Navarro)|(?:Scottish|Welsh) Government"
)


def _a_regional_government(surface: str) -> bool:
    if _REGIONAL_ADJECTIVE.fullmatch(surface):
        return True
    match = _REGIONAL_GOVERNMENT.fullmatch(surface)
    return match is not None and lexicon.is_region(match.group("region").strip())


def _the_states(words: list[str]) -> tuple[bool, bool]:
    """Whether the words head an office of the state (``public``) or an agency by its kind and the country or
    region it serves (``agency``)."""
    heads = [w.lower() for w in words[:2]]
    public = bool(heads) and (
        heads[0] in _PUBLIC_WORDS
        or heads[0] in _NATIONAL_LEVELS
        and len(heads) > 1
        and heads[1] in _PUBLIC_WORDS | _STATE_WORK
    )
    agency = (
        len(heads) > 1
        and heads[0] in _AGENCY_KINDS
        and heads[1] in _NATIONAL_LEVELS | _NATIONALITY_WORDS | _REGIONAL
        and bool({w.lower() for w in words[2:]} & (_PUBLIC_WORDS | _STATE_WORK))
    )
    return public, agency


# The words that name a document, a part of one or what it asks for: a heading in capitals holding one of
# them, and otherwise only everyday words, is the document's ("ORDER APPOINTING LIMITED GUARDIAN",
# "IN-HOSPITAL CLAIM AND MEMBER REFUND REQUEST", "RE: DEMAND FOR ARREARS OF RENT", "HOSPITAL DETAILS").
_DOCUMENT_WORDS = frozenset(
    """
    order orders appointing motion notice demand claim claims request refund details particulars statement
    affidavit application answers answer reply response objection petition complaint summons judgment judgement
    ruling decision hearing proceedings minutes memorandum schedule exhibit appendix annex certificate
    declaration summary report history medications medication allergies findings impression recommendations
    assessment review referral discharge admission consent form section part support arrears possession
    intention custody guardian guardianship interrogatories invoice receipt notes instructions
    datos solicitud demanda escrito sentencia recurso informe resumen certificado declaración declaracion acta
    diligencia comparecencia alegaciones hechos fundamentos fallo antecedentes tratamiento exploración
    exploracion evolución evolucion diagnóstico diagnostico juicio medidas pruebas cuantía cuantia otrosí
    """.split()
)
# Where a heading's segment ends: a line's end, a dash between parts, a colon, a bracket, a bar.
_SEGMENT_EDGE = re.compile(r"\n|[ \t][—–-][ \t]|[:|()\[\]]")


_LEGAL_FORM_LAST = re.compile(r"(?i:ltd|llc|llp|inc|plc|corp|co|sa|sl|slu|sas|srl|gmbh|pty|lp|pc|pa)\.?$")


def in_a_heading(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` holds a document's word and lies in a heading in capitals of everyday words
    ending in no firm's legal form: the document's heading, no one's name, however a rule for firms or places
    reads its words ("Sunrise Care Home" before "REFERRAL" is still a home)."""
    if not {w.lower() for w in _WORD.findall(text[start:end])} & _DOCUMENT_WORDS:
        return False
    edges = [m.end() for m in _SEGMENT_EDGE.finditer(text, max(0, start - 200), start)]
    left = edges[-1] if edges else max(0, start - 200)
    right_edge = _SEGMENT_EDGE.search(text, end)
    right = right_edge.start() if right_edge else len(text)
    segment = text[left:right]
    words = _WORD.findall(segment)
    if len(words) < 2 or any(c.islower() for c in segment) or _LEGAL_FORM_LAST.search(segment.rstrip(" .,;")):
        return False
    lower = [w.lower() for w in words]
    if not set(lower) & _DOCUMENT_WORDS:
        return False
    return all(
        w in _CONNECTORS
        or w in _DOCUMENT_WORDS
        or len(w) > 1
        and not lexicon.is_name_word(w)
        and max(lexicon.zipf(w), lexicon.zipf_in(w, "es")) >= 3.0
        or w in ("s", "in")  # "OWNER'S", "IN-HOSPITAL"
        for w in lower
    )
