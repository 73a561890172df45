"""Numbers and codes that identify someone, found by their checks or by the words that introduce them.

A number is taken on its own when its check digits prove what it is (a payment card by Luhn's sum, an IBAN
by ISO 7064, a Spanish DNI or NIE by its letter, a CIF, a Mexican CURP, an NPI, a VIN by its shape) and
otherwise when a cue names it: "serial no.", "IMEI", "NPI", "GMC", "nº de colegiado", "matrícula",
"plate", "NHC", "tarjeta sanitaria", "póliza", "NSS", "passport". python-stdnum holds the check
algorithms; the cues in English and Spanish are this product's, written for clinical and legal text.
"""

from __future__ import annotations

import functools
import ipaddress
import re
from collections.abc import Callable

from stdnum import iban, luhn
from stdnum.ar import cbu
from stdnum.be import nn as be_nn
from stdnum.es import cif, dni, nie
from stdnum.fi import hetu
from stdnum.fr import nir
from stdnum.gb import nhs
from stdnum.it import codicefiscale
from stdnum.mx import curp, rfc
from stdnum.se import personnummer

from app.identifiers import lexicon
from app.identifiers.credentials import find_credentials
from app.identifiers.entities import Entity, EntityType
from app.identifiers.plates import find_plates

T = EntityType
# A code after its cue: letters and digits with inner separators, at least one digit.
_CODE = (
    # the digit in its first word, or in the word after a word of letters ("QQ 12 34 56 C", "registral
    # 34.871"); not further on, where the word of letters is itself a cue ("(CIP POVI 280328 6017)")
    r"(?=[A-Za-z0-9./\-]*\d|[A-Za-z][A-Za-z\-]{0,11} \d)[A-Za-z0-9](?:[A-Za-z0-9]|[./\-](?=[A-Za-z0-9])|(?<=\d) (?=\d)"
    # a health card's version code after its digits ("OHIP: 4826 119 374 KR")
    r"|(?<=[A-Z]) (?=\d)|(?<=\d) (?=[A-Z]{1,3}\d)|(?<=\d{3}) (?=(?-i:[A-Z]{2})(?!\w))"
    # a check letter after its digits ("QQ 12 34 56 C", "DNI 07234561 A")
    r"|(?<=\d{2}) (?=(?-i:[A-Z])(?![\w.]))"
    # a prosecution's number in spaced groups, the force's letters in the middle ("URN: 12 YC 0417 24")
    r"|(?<=\d) (?=(?-i:[A-Z]{2}) \d)|(?<=(?-i:[A-Z]{2})) (?=\d{3})"
    # thousands written with a comma, as a registry in Puerto Rico or the US numbers ("finca número 18,472")
    r"|(?<=\d),(?=\d{3}(?!\d|\.\d))){2,30}"
)
_SEP = (
    # the document the number is on may stand between ("Medicare card 2123 45670 1", "carné 85031212345")
    r"(?:\s(?:card|tarjeta|carn[ée]t?)(?!\w))?"
    r",?\s*(?:[:#=]|number|número|n\.?[º°o]\.?(?![^\W\d_])|no\.?(?![^\W\d_])|num\.?(?![^\W\d_])|"
    r"núm\.?(?![^\W\d_])|is|es el|es)?\s*(?:[:#]\s*)?"
)


_NOT_A_VERSION = r"(?!(?:version|versi[óo]n|rev\.?)\s|v\d+(?:\.\d+)*(?![\w\-]| \d))"


# Every cue's words, each list as written: ``names_a_number`` reads a word against them all.
_CUE_WORDS: list[str] = []


def _cued(kind: EntityType, cues: str) -> tuple[EntityType, re.Pattern]:
    _CUE_WORDS.append(cues)
    return kind, re.compile(
        # "License, Version 3", "licence v2": a document's version, not a number of anyone's
        rf"(?<!\w)(?:{cues})(?!\w){_SEP}(?:\([^)\n]{{1,20}}\)[:\s]*)?\(?{_NOT_A_VERSION}(?P<value>{_CODE})(?![\w])",
        re.I,
    )


_CUED: tuple[tuple[EntityType, re.Pattern], ...] = (
    _cued(
        T.DEVICE,
        r"serials?(?: numbers?| no)?|s/n|sn|imei|udi|device id|device identifier|n\.?[º°]\.? de serie|"
        r"n[úu]mero de serie|serie|mac address|mac|device serial|pump serial|generator serial|lead serial",
    ),
    _cued(
        T.LICENCE,
        r"npi|dea(?: number| no)?|gmc(?: number| no)?|nmc(?: pin)?|hcpc|licen[cs]e(?: number| no)?|lic|"
        r"certificate(?: number| no)?|registration(?: number| no)?|reg\.? no|bar(?: number| no)|sra(?: id| number)?|"
        r"driver'?s licen[cs]e|driving licen[cs]e|(?:n\.?[º°]\.? de |n[úu]mero de )?colegiad[oa]|col\.|"
        r"c[ée]dula profesional|c[ée]dula de especialidad|matr[íi]cula profesional|permiso de conducir|"
        r"carn[ée] de conducir|sbn|cpso|"
        r"commission|m\.n\.|m\.p\.|m\.e\.|legitimationsnummer|n[úu]m\. col\.|n\.?[º°]\.? col\.|col\. n\.?[º°]|"
        r"colegiad[oa] n\.?[º°]|registro m[ée]dico|rne|cmp|tip|state licen[cs]e|medical licen[cs]e|badge|lic\.|"
        r"carn[ée](?: profesional)?|t\.p\.|tarjeta profesional|mpps|cmdm|caja prof\.?|registro profesional|"
        r"exequ[áa]tur|exeq\.?|"
        # Peru's nursing college and Colombia's medical register after a name, a Chilean provider's register
        # (and not before a date: "RM 12/03/2024" is a scan's)
        r"(?-i:CEP|RM)(?!\s*\d{1,2}[/.\-]\d{1,2}[/.\-]\d)|registro(?: de la)? superintendencia(?: de salud)?|"
        r"cmd|registro sis|m\.n\.|m\.p\.|con el n\.?[º°]|reg\. prof\.|c[ée]d\. prof\.|"
        r"licen[cs]e #|juris(?: no)?|oba(?: no)?|imc(?: no)?|mcnz|mdcn(?: reg\.?)?(?: no)?|hpcsa(?: no)?|hpi-cpn|"
        r"mmc reg\.?(?: no)?|ahpra|nmbi|dea #|"
        # a registration written short after the body's name ("College reg. 04327", "KMPDC reg. A7843", "Gas
        # Safe reg. 611482"), a prescriber's or a practice's number, an architect's warrant, an Argentine
        # matrícula or a ministry's code after its body's initials ("Mat. C.P.C.E. 12.345", "Cód. MINSA 12345")
        r"reg\.|regn\.?|reg\. no\.?|(?:prescriber|provider|practitioner|practice)(?: [a-z]{2,5})? (?:#|no\.?|number)|"
        r"warrant(?: no\.?)?|mat\.(?: (?-i:(?:[A-Z]\.){2,8}))?|"
        r"c[óo]d\.(?!\s*(?:postal|post\.|de\b))(?: (?-i:[A-Z]{2,8}))?|"
        r"c[óo]digo(?!\s+(?:postal|de\b))(?: (?-i:[A-Z]{2,8}))?",
    ),
    _cued(
        T.VEHICLE,
        r"(?:licen[cs]e |registration |number |reg\.? )?plates?|reg(?:istration)?(?: no| number| mark)?|"
        r"matr[íi]cula|placas?|vin|tag|n\.?[º°]\.? de bastidor|bastidor|chassis(?: number| no)?|"
        # the plate's own word in Puerto Rico, Argentina, Chile, Paraguay and Uruguay
        r"tablilla|patente|dominio|chapa",
    ),
    _cued(
        T.RECORD_NUMBER,
        r"nhc|hc|h\.c\.|historia cl[íi]nica|n\.?[º°]\.? (?:de )?historia|tarjeta sanitaria|cipa?|tsi|p[óo]liza|"
        r"afiliaci[óo]n|"
        r"expediente cl[íi]nico|n\.?[º°]\.? de afiliado|beneficiary(?: id| number)?|group(?: number| no)|"
        r"member id|episode(?: number| no)?|encounter(?: number| no)?|account(?: number| no)|acct|folio|"
        r"n\.?[º°] de paciente|medicare(?: number| no)?|medicaid(?: number| no)?|mbi|"
        r"study uid|uid|accession(?: number| no)?|"
        r"emp|employee(?: id| number| no)?|staff(?: id| number| no)?|tis|ccc|legajo|finca|afiliad[oa]|"
        r"tarjeta sanitaria(?: europea)?|n\.?[º°]\.? de cliente|cliente|contrato|invoice|factura|ticket|"
        r"policy(?: number| no)?|member(?: number| no)?|group|claim(?: number| no)?|siniestro|referencia catastral|"
        # a register's entry for a birth, a marriage or a death: "registered Cardiff, entry no. 214"
        r"entry(?= (?:no|number))|"
        r"ref\. catastral|protocolo|nhi|chi|ihi|ppsn|rin|nusha|nuhsa|sip|cic|ficha|socio|n\.?[º°]\.? de socio|acta|"
        r"padr[óo]n|chart(?: #| no\.?| number)|visit(?: #| no\.?| number)|episodio|n\.?[º°]\.? de episodio|"
        r"hospital (?:number|no\.?|id)|unit number|patient (?:number|no\.?|id)|case ?note number|"
        r"fojas|hc n\.?[º°]|hoja|folio|"
        # an order's and a payment's authorisation ("anticipo pedido 1187", "Autorización 482193")
        r"pedido|order(?: #| no\.?| number)|autorizaci[óo]n|authori[sz]ation(?: code| no\.?)?|"
        # a deed's and a land registry's volume, book, plot and the notary's own registration ("Tomo 908",
        # "LIBRO CUARENTA", "Volume 1187", "Solar número 14", "Registro Notarial N° 412", "RUA número 14,882");
        # capitalised, and before three digits, where the word is also a verb or a measure ("Tomo 20 gotas",
        # "volume 500 ml")
        r"(?-i:Tomo|TOMO|Libro|LIBRO|Volume|VOLUME|Vol\.|Solar|SOLAR)(?=\D{0,12}\d{3})|registro notarial|rua|"
        r"escritura(?: p[úu]blica)?|"
        r"inscripci[óo]n|asiento|partida(?: registral)?|matr[íi]cula de comercio",
    ),
    _cued(
        T.ACCOUNT,
        r"branch code|transit|bsb|routing(?: number| no)?|aba|swift|bic|account no|acc(?:oun)?t\.? no|acct #|"
        # "my POSB account 188-41327-4": the word alone before digits in groups
        r"account(?= \d{2,}[-\s]\d)|"
        r"n\.?[º°]\.? de cuenta|n[úu]mero de cuenta|cuenta(?: corriente| de ahorros?| vista)?|caja de ahorros?|cbu|cci|"
        r"alias(?: cbu)?|clabe|philhealth(?: no| number)?",
    ),
    _cued(
        T.NATIONAL_ID,
        r"passport(?: number| no)?|pasaporte|dni|nie|nif|cif|curp|rfc|ssn|social security(?: number| no)?|"
        r"national insurance(?: number| no)?|ni number|nino|id card|c[ée]dula de identidad|"
        r"c[ée]dula(?! (?i:profesional|de especialidad))|ine|personnummer|"
        r"pesel|nss|naf|nuss|nass|seguridad social|n\.?[º°]\.? de afiliaci[óo]n(?: ss)?|cc|c\.c\.|nit|rut|run|cuit|"
        r"cuil|"
        r"cart[ãa]o de cidad[ãa]o|identity card|personalausweis|documento(?: de identidad)?|n[úu]mero de documento|"
        r"tax id|ein|itin|aadhaar|pan|a-number|alien number|henkil[öo]tunnus|bsn|nir|"
        r"c\.i\.|rnc|rif|ruc|dui|c[ée]dula de ciudadan[íi]a|c[ée]dula de extranjer[íi]a|"
        r"identity card(?:,? number)?|id card(?:,? number)?|carta d'identit[àa]|carte d'identit[ée]|"
        # Canada's provincial health cards and Australia's Centrelink reference
        r"ohip|health card(?: number| no)?|crn|centrelink(?: crn)?|"
        # Hong Kong's identity card, South Africa's identity number, India's PAN card
        r"hkid|hkic|id number|identity number|id no|carn[ée]t? de identidad|"
        # Pakistan's computerised national identity card
        r"cnic",
    ),
    _cued(
        T.CASE_NUMBER,
        r"expediente|expte\.?|procedimiento(?: \w+){0,2}|autos|recurso(?: de \w+)?|juicio(?: \w+){0,2}|rollo|"
        r"sentencia|auto|"
        r"atestado|sumario|denuncia|diligencias(?: previas)?|ejecutoria|ejecuci[óo]n|nig|docket(?: no| number)?|"
        r"index(?: no| number)?|case(?: no| number)?|charge(?: no| number)?|"
        r"incident(?: no| number)?|report(?: no| number)?|"
        r"crime reference|police ref(?:erence)?|urn|citation|occurrence book(?: no)?|petition(?: no| number)?|"
        r"con el n[úu]mero|cuij|iue|nurej|rit|rol|"
        # a parking fine's notice, a referral's or a file's number, a South African police case ("CAS 412/06/2022")
        r"pcn|penalty charge notice(?: no| number)?|referral(?: no| number)|file (?:no|number|ref)|cas|"
        r"aktenzeichen|az\.|radicado|radicaci[óo]n|n[úu]mero de radicado",
    ),
)
# A code of letters and digits in groups ("6HJ2-QM8-WT41", "AIC/PROP/25/017"): a record, claim or member
# number whatever introduces it — three digits and a letter at least, so "ICD-10" and "COVID-19" are not.
# A registration in thousands, as Latin American colleges write it: "Col. 14,552", "colegiado activo número
# 14,552", "M.P. 12.345". (A number in thousands after other words is money.)
_THOUSANDS_LICENCE = re.compile(
    r"(?i:\b(?:col\.|colegiad[oa](?: activo| activa)?(?: n[úu]mero| n\.?[º°])?|m\.p\.|m\.n\.|"
    r"matr[íi]cula(?: profesional)?(?: n\.?[º°])?|cjppu))\s*(?P<value>\d{1,3}(?:[.,]\d{3})+)(?![\d.,]\d)"
)
# Argentina's bank key (CBU), 22 digits whose two checks prove it, wherever it stands.
_CBU = re.compile(r"(?<![\d-])\d{22}(?![\d-])")
# A file's own code after the word alone: letters, a dash and digits ("file sfhmca-129455"); "the file was
# 12MB" and "file note 3" are no file's number.
_FILE_CODE = re.compile(r"(?i:\bfile)[:\s]+(?P<value>[A-Za-z]{2,8}[-/]\d{3,8}(?:[-/]\d{1,4})?)(?![\w/-])")
_GROUPED_CODE = re.compile(
    r"(?<![\w/-])(?=[A-Z0-9/-]*\d[A-Z0-9/-]*\d[A-Z0-9/-]*\d)(?=[A-Z0-9/-]*[A-Z])"
    r"[A-Z0-9]{1,8}(?:[/-][A-Z0-9]{1,8}){2,5}(?![\w/-])"
)
# "No. 438812", "#4471", "Reg. No. 58214": an identifying number of some kind.
# The word may take a colon ("O.B. No.: 1184/24", "OPD no: 24/1183"), the code three characters ("Reyes #214"),
# its digits apart ("machine no. L11-M23") or its letters a word of their own ("roll no. EVB 7718-2204").
_NUMBERED = re.compile(
    r"(?<![\w#])(?:Reg\.? )?(?:No(?:\.:?|:)|(?<=\w\s)no[.:]|N\.?º|N\.?°|n\.?º|n\.?°|#|[Nn]úm\.|"
    r"[Nn]úmero)[ \t]?:?[ \t]?(?P<value>(?:[A-Z]{2,4} (?=\d))?"
    r"(?=[A-Z0-9./-]*\d{3}|[A-Z./-]*[A-Z][A-Z./-]*\d+[A-Z./-]+\d)[A-Z0-9][A-Z0-9./-]{1,30}[A-Z0-9])"
    r"(?![\w])"
)
# A code of digit groups after a label in capitals that names no test or reading: "CNIC: 35202-4817263-5",
# "NRC 284715/11/1", "CPHL 24-0118736". Seven digits at least, in two groups or more: a count or a reading has no
# such shape, and a date's is told apart; a standard's number is public ("IEC 60027-2", "EN 60601-1-2").
_LABELLED_GROUPS = re.compile(
    r"(?<![\w.\-/])(?P<label>[A-Z]{2,6})(?: (?:No|NO|no)\.?)?[ \t]*[:#]?[ \t]*"
    r"(?P<value>\d+(?:[-/]\d+){1,4})(?![\w/\-]|\.\d)"
)
# A civil register's or a land register's volume and page, named together: "tomo 87, página 214", "libro 12,
# folio 48" ("tomo 20 gotas" is a dose: the page's word must follow).
_VOLUME_WITH_PAGE = re.compile(
    r"(?i:\b(?:tomo|libro|vol\.?|volume))\s+(?P<volume>\d{1,3}(?:,\d{3})?|\d{1,5})(?:\s*,\s*|\s+)"
    r"(?i:p[áa]gina|p[áa]g\.|folio|fol\.|fojas|page|p\.)\s*(?P<page>\d{1,3}(?:,\d{3})?|\d{1,5})(?![\d,])"
    # the page first, as Central American registers write it: "folio 88, libro 2,015"
    r"|(?i:\b(?:folio|fol\.))\s+(?P<first>\d{1,3}(?:,\d{3})?|\d{1,5}),?\s+"
    r"(?i:libro|tomo)\s+(?P<then>\d{1,3}(?:,\d{3})?|\d{1,5})(?![\d,])"
)
# Ten digits or more in one run, after anything but a product's or a publication's code: a phone, a record,
# an account or a register's identifier ("IDENTIFICADOR ELECTRÓNICO: 20067001202400451238"); no count or
# amount is written so long without separators.
_LONG_DIGITS = re.compile(r"(?<![\w.,/\-])\d{10,24}(?![\w.,/\-]|[.,]\d)")
_PRODUCT_CODE_BEFORE = re.compile(
    r"(?i:\b(?:ean|gtin|upc|isbn|issn|cn|ndc|doi|sku|ref\. art|c[óo]digo nacional)\b)\W{0,4}$"
)
# A register's entry by its parts, two or more in a row: "tomo 2.418, libro 317, folio 112", "Tomo 1827, Folio
# 214, Asiento 4317", and as a certificate's form lays them out: "Tomo: 62     Folio: 311", "Libro: 7   Acta:
# 1402   Foja: 118", "acta número 00417, libro 3" (one alone may be a dose's or a sheet's word: "tomo 20
# gotas", "hoja 2").
_REGISTER_WORD = r"(?i:tomo|libro|folio|fol\.|fojas?|asiento|p[áa]gina|p[áa]g\.|partida|acta)"
_REGISTER_NUMBER = (
    r"(?:n[º°]\.?\s*|(?i:n[úu]mero)\s+)?\d{1,3}(?:[.,]\d{3})+(?![\d.,]\d)"
    r"|(?:n[º°]\.?\s*|(?i:n[úu]mero)\s+)?\d{1,6}(?![\d.,]\d)"
)
_REGISTER_GAP = r"(?:[ \t]*:[ \t]*|\s+)"  # "Tomo 62" or a form's "Tomo: 62"
_REGISTER_PART = re.compile(rf"\b{_REGISTER_WORD}{_REGISTER_GAP}(?P<number>{_REGISTER_NUMBER})")
_REGISTER_RUN = re.compile(
    rf"\b{_REGISTER_WORD}{_REGISTER_GAP}(?:{_REGISTER_NUMBER})"
    rf"(?:,?\s+{_REGISTER_WORD}{_REGISTER_GAP}(?:{_REGISTER_NUMBER}))+"
)
# The register the entry is in, named before it: civil, land and notarial registers and their records.
_A_REGISTER_BEFORE = re.compile(
    r"(?i:registr|inscri|finca|notar|escritura|protocolo|partida|propiedad|nacimiento|defunci|matrimonio|"
    r"civil|juzgado|libro de|acta)"
)
# A land register's parcel, plot or block by its number, in a deed or a title's words ("forming part of Parcel
# 2417/4, Block 45, Pickstock Registration Section", "land comprised in Buddu Block 314 Plot 88", "con parcela 86,
# de …" in an ejido's boundaries, "la parcela número 87 Z-1 P2/3"); a hospital's "Block 4" or a chart's "plot 2"
# has no land or register beside it ("registered nurse" is none). Not "Lot": a medicine's batch is its lot.
_LAND_PARCEL = re.compile(
    r"(?<![\w-])(?:(?-i:Parcel|PARCEL|Plot|PLOT|Block|BLOCK)|(?i:parcela|predio))\s+"
    r"(?:(?i:no\.?|n[º°]\.?|n[úu]mero|#)\s*)?"
    r"(?P<value>\d[\dA-Z]*(?:[/-][\dA-Z]+)*(?: [A-Z]{1,2}-?\d+(?: [A-Z]\d+/\d+)?)?)(?![\w/-]|[.,]\d)"
)
_LAND_NEARBY = re.compile(
    r"(?i:\bregistered (?:as|in the name|under|proprietor)|\bregistration (?:section|quarter|district|division)|"
    r"land regist|registro (?:de la propiedad|agrario|p[úu]blico)|inscri|"
    r"\bland\b|\btitle|situate|comprised|conveyance|freehold|leasehold|\bdeed|\bacres?\b|terreno|ejido|"
    r"colindanc|lindero|predio|agrari|finca|catastr|parcelario|escritura|inmueble|propiedad|hect[áa]reas?\b|hectares?\b)"
)
# Zimbabwe's national registration number: its district, its serial, a check letter and the district of origin.
_ZIMBABWE_ID = re.compile(r"(?<![\w-])\d{2}-\d{6,7} ?[A-Z] ?\d{2}(?![\w-])")
_STANDARDS_BODIES = frozenset("ISO IEC EN DIN BS ANSI IEEE ASTM UNE NOM NCH RFC ITU CEN CEI NF JIS GOST".split())
_CARD = re.compile(r"(?<![\d\-])(?:\d[ \-]?){12,18}\d(?![\d\-])")
_CARD_ENDING = re.compile(
    r"(?:ending(?: in)?|ends in|last (?:four|4)(?: digits)?|terminada en|acabada en|que termina en|terminaci[óo]n|"
    r"[úu]ltimos (?:4|cuatro) d[íi]gitos)[:\s]+(?P<value>\d{4})(?!\d)",
    re.I,
)
_CARD_CUE = re.compile(r"(?:card|tarjeta|visa|mastercard|amex|debit|credit|cr[ée]dito|d[ée]bito)\b[^\n]{0,30}$", re.I)
_IPV4 = re.compile(r"(?<![\d.])(?:(?:25[0-5]|2[0-4]\d|1?\d?\d)\.){3}(?:25[0-5]|2[0-4]\d|1?\d?\d)(?!\d|\.\d)")
_IPV6 = re.compile(r"(?<![\w:])(?=[0-9A-Fa-f:]*:[0-9A-Fa-f]*:)[0-9A-Fa-f:]{2,39}(?:%\w+)?(?![\w:])")
# A network card's hardware address, which names one device for life: six pairs of hex digits, or three
# groups of four as Cisco writes them ("00:1B:44:11:3A:B7", "001b.4411.3ab7").
_MAC = re.compile(
    r"(?<![\w:.\-])(?:[0-9A-Fa-f]{2}(?P<sep>[:\-])(?:[0-9A-Fa-f]{2}(?P=sep)){4}[0-9A-Fa-f]{2}"
    r"|[0-9A-Fa-f]{4}\.[0-9A-Fa-f]{4}\.[0-9A-Fa-f]{4})(?![\w:\-]|\.\w)"
)
# A key or a digest names one person's key, or one file or change, for good: a PGP key's fingerprint (ten
# groups of four hex digits, or sixteen or twenty pairs as older keys print them), an SSH host key's
# ("SHA256:nThbg6kX…", "MD5:16:27:ac:…"), and a hex digest or a commit's full hash (32 to 64 digits).
_KEY_FINGERPRINT = re.compile(
    r"(?<![\w:])(?:[0-9A-Fa-f]{4}(?: {1,2}|:)){9}[0-9A-Fa-f]{4}(?![\w:])"
    r"|(?<![\w:])(?:[0-9A-Fa-f]{2} {1,2}){15,19}[0-9A-Fa-f]{2}(?![\w:])"
    r"|(?<![\w])(?:[0-9A-Fa-f]{2}:){15,31}[0-9A-Fa-f]{2}(?![\w:])"
    r"|(?:(?<=\bSHA1:)|(?<=\bMD5:))(?:[0-9A-Fa-f]{2}:){15,19}[0-9A-Fa-f]{2}(?![\w:])"
    r"|(?<=\bSHA256:)[A-Za-z0-9+/]{43}(?![\w+/])"
)
_DIGEST = re.compile(
    r"(?<![\w-])(?=[0-9A-Fa-f]*\d)(?=[0-9A-Fa-f]*[A-Fa-f])(?:[0-9a-f]{32,64}|[0-9A-F]{32,64})(?![\w-])"
)
_VIN = re.compile(r"(?<![\w-])(?=[A-HJ-NPR-Z0-9]*[A-HJ-NPR-Z])(?=[A-HJ-NPR-Z0-9]*\d)[A-HJ-NPR-Z0-9]{17}(?![\w-])")
_UK_PLATE = re.compile(r"(?<!\w)[A-Z]{2}\d{2} ?[A-Z]{3}(?!\w)")
_ES_PLATE = re.compile(r"(?<!\w)\d{4}[ \-]?[BCDFGHJKLMNPRSTVWXYZ]{3}(?!\w)")
# Typed in lower case in a chat the plate needs its cue: "la matricula es 1234 bcd".
_ES_PLATE_TYPED = re.compile(
    r"(?i:matr[íi]cula|placas?|plate|coche|carro|furgo(?:neta)?)\b[^\n\d]{0,20}?(?<!\w)"
    r"(?P<value>\d{4}[ \-]?[bcdfghjklmnprstvwxyz]{3})(?!\w)"
)
_DNI = re.compile(r"(?<![\w-])\d{8}[ \-]?[A-Za-z](?!\w)")
_NIE = re.compile(r"(?<![\w-])[XYZxyz][ \-]?\d{7}[ \-]?[A-Za-z](?!\w)")
_CIF = re.compile(r"(?<![\w-])[ABCDEFGHJNPQRSUVW][ \-]?\d{7}[0-9A-J](?!\w)")
_CURP = re.compile(r"(?<!\w)[A-Z][AEIOUX][A-Z]{2}\d{6}[HM][A-Z]{5}[A-Z0-9]\d(?!\w)", re.I)
_RFC = re.compile(r"(?<!\w)[A-ZÑ&]{3,4}\d{6}[A-Z0-9]{3}(?!\w)", re.I)
# An IBAN may break across a line where a letter wraps it; its check shows where it ends.
_IBAN = re.compile(r"(?<!\w)[A-Za-z]{2}\d{2}(?:(?:[ ]|\n)?[A-Za-z0-9]{4}){2,7}(?:(?:[ ]|\n)?[A-Za-z0-9]{1,3})?(?!\w)")
# A number shown only by its last digits behind a mask ("xxxxxx4481", "xxxx-xxxx-7730", "****1234",
# "xxx-xx-0368"): the digits left are the account's, and with a name beside them they single it out.
# (one bounded run of mask characters: nested repeats of "xx" took time in the fourth power of a long run)
_MASKED = re.compile(r"(?<![\w*•])(?=[xX]{2}|[*•]{3})[xX*•][xX*• \-]{1,60}(?<=[xX*•][ \-]|[xX*•]{2})\d{2,6}(?![\w*])")
# A phone shown by its last digits, as a security message gives it: "the number ending 658".
_PHONE_ENDING = re.compile(
    r"(?i:(?:number|phone|mobile|cell|móvil|movil|teléfono|telefono|número|numero) (?:ending|ending in|ends in|"
    r"terminado en|que termina en|acabado en)) (?P<value>\d{2,4})(?!\d)"
)
# A police officer's collar number before the name: "PC 2217 Hollie Saunders", "DS 4410 Patel".
_COLLAR_NUMBER = re.compile(r"(?<!\w)(?:PC|DC|PS|DS|PCSO|Sgt\.?|Cst\.?) (?P<value>\d{3,5})(?= [A-Z][a-z])")
_MASKED_SSN = re.compile(r"[xX*]{3}-[xX*]{2}-\d{4}")
# A number masked in its middle, its first and last digits shown, as a bank's alert writes a card or an account
# ("5399 **** **** 4172", "Acct:021**975"): four groups of four are a card's.
_MASKED_MIDDLE = re.compile(r"(?<![\w*•.,])\d{2,6}(?:[ \-]?(?:[*•]{2,6}|[xX]{3,6})){1,3}[ \-]?\d{2,6}(?![\w*•])")
_CARD_SHAPE = re.compile(r"\d{4}(?:[ \-]?[\d*•xX]{4}){3}")
_CLABE = re.compile(r"(?<!\d)\d{3}[ ]?\d{3}[ ]?\d{11}[ ]?\d(?!\d)")
_NPI = re.compile(r"(?<!\d)[12]\d{9}(?!\d)")
_RUT = re.compile(r"(?<![\w.])\d{1,2}\.\d{3}\.\d{3}-[\dkK](?!\w)")
_DOTTED_ID = re.compile(r"(?<![\w.])\d{1,3}(?:\.\d{3}){2,3}(?:-\d)?(?![\w.])")
# Belgium's national number, its last two digits a check ("03.06.19-284.56").
_BELGIAN_NN = re.compile(r"(?<![\w.])\d{2}\.?\d{2}\.?\d{2}[-.]?\d{3}\.?\d{2}(?![\w.]|-\d)")
# Venezuela's identity card with the letter of nationality before it ("V-24.118.903", "E-84.123.456").
_VENEZUELAN_CI = re.compile(r"(?<![\w.\-])[VEve]-\d{1,2}\.?\d{3}\.?\d{3}(?![\w.]|-\d)")
# Bolivia's identity card with the department that issued it: "C.I. 4567890 LP", "3.218.907 SC".
_BOLIVIAN_CI = re.compile(
    r"(?<![\w.])(?:\d{1,2}\.\d{3}\.\d{3}|\d{5,8})(?:-\d[A-Z])? (?:LP|SC|CB|OR|PT|TJ|CH|BE|PD)\.?(?!\w)"
)


def _not_a_round_quantity(surface: str) -> bool:
    """An identity card's number, not a dose or an amount before a code that is also a department's: "Dalteparin
    10000 SC" is ten thousand units under the skin. A card's number ends in three zeros one time in a thousand."""
    return re.match(r"\d+000\b", surface) is None


_NAF = re.compile(r"(?<![\w/])\d{2}/\d{7,8}/\d{2}(?![\w/])")
_US_SSN = re.compile(r"(?<![\w\-.])\d{3}(?P<sep>[- .])\d{2}(?P=sep)\d{4}(?![\w\-])")
_UK_NHS = re.compile(r"(?<![\w\-.])\d{3}[- ]?\d{3}[- ]?\d{4}(?![\w\-])")
# Europe's personal numbers whose check proves them: Italy's codice fiscale (any case), France's social
# security number (NIR), Sweden's personnummer, Finland's henkilötunnus.
_CODICE_FISCALE = re.compile(r"(?<!\w)[A-Za-z]{6}\d{2}[A-Za-z]\d{2}[A-Za-z]\d{3}[A-Za-z](?!\w)")
_NIR = re.compile(r"(?<![\w-])[12] ?\d{2} ?\d{2} ?(?:\d{2}|2[ABab]) ?\d{3} ?\d{3} ?\d{2}(?![\w-])")
_PERSONNUMMER = re.compile(r"(?<![\w-])(?:19|20)?\d{6}[-+]\d{4}(?![\w-])")
_HETU = re.compile(r"(?<![\w-])\d{6}[-+A]\d{3}[0-9A-Ya-y](?![\w-])")
_UK_NI = re.compile(r"(?<!\w)(?!BG|GB|NK|KN|TN|NT|ZZ)[A-CEGHJ-PR-TW-Z]{2} ?\d{2} ?\d{2} ?\d{2} ?[A-D](?!\w)", re.I)


def _compact(text: str) -> str:
    return re.sub(r"[\s\-.]", "", text)


def _valid(check: Callable[[str], object], text: str) -> bool:
    try:
        check(text)
    except Exception:  # stdnum raises its own ValidationError subclasses, and ValueError on odd input
        return False
    return True


def _luhn_card(text: str) -> bool:
    digits = _compact(text)
    return 13 <= len(digits) <= 19 and len(set(digits)) > 2 and luhn.is_valid(digits)


def _npi(text: str) -> bool:
    return luhn.is_valid("80840" + text)


def _ssn(text: str) -> bool:
    # The Social Security Administration never issues these (area 000 or 666, group 00, serial 0000); an
    # area of 9xx is an ITIN, which identifies a taxpayer as well.
    digits = _compact(text)
    return digits[:3] not in ("000", "666") and digits[3:5] != "00" and digits[5:] != "0000" and len(set(digits)) > 1


def _clabe(text: str) -> bool:
    digits = _compact(text)
    weights = (3, 7, 1) * 6
    total = sum(int(d) * w % 10 for d, w in zip(digits[:17], weights, strict=False))
    return (10 - total % 10) % 10 == int(digits[17])


def _ip(text: str) -> bool:
    try:
        ipaddress.ip_address(text.split("%")[0])
    except ValueError:
        return False
    return True


# One ten-digit number in eleven passes the NHS number's check, "415 555 0199" among them: after a word that
# says a phone follows, it is the phone, and its stand-in must be one.
_CALLING_CODE_BEFORE = re.compile(r"(?<![\w+])\(?\+\d{1,3}\)?[ .\-]?(?:\(0\) ?)?$")
_PHONE_CUE = re.compile(
    r"(?i)(?<!\w)(?:call|ring|phone|tel|telephone|mobile|mob|cell|fax|text|whatsapp|contact|llame|llamar|"
    r"tel[ée]fono|tfno|tlf|m[óo]vil|celular)(?!\w)[^\d\n]{0,20}$"
)

# Found wherever they stand: the check proves what they are.
_CHECKED: tuple[tuple[EntityType, re.Pattern, Callable[[str], bool]], ...] = (
    (T.ACCOUNT, _CLABE, _clabe),
    (T.NATIONAL_ID, _DNI, lambda s: _valid(dni.validate, _compact(s).upper())),
    (T.NATIONAL_ID, _NIE, lambda s: _valid(nie.validate, _compact(s).upper())),
    (T.NATIONAL_ID, _CIF, lambda s: _valid(cif.validate, _compact(s).upper())),
    (T.NATIONAL_ID, _CURP, lambda s: _valid(curp.validate, s.upper())),
    (T.NATIONAL_ID, _RFC, lambda s: _valid(rfc.validate, s.upper()) and any(c.isalpha() for c in s[-3:])),
    (T.NATIONAL_ID, _UK_NI, lambda s: True),
    (T.NATIONAL_ID, _US_SSN, _ssn),
    (T.NATIONAL_ID, _UK_NHS, lambda s: len(set(_compact(s))) > 1 and nhs.is_valid(_compact(s))),
    (T.IP_ADDRESS, _IPV4, _ip),
    (T.IP_ADDRESS, _IPV6, _ip),
    (T.DEVICE, _MAC, lambda s: len(set(_compact(s).lower()) - {":"}) > 2 and any(c.isdigit() for c in s)),
    (T.RECORD_NUMBER, _KEY_FINGERPRINT, lambda s: any(c.isdigit() for c in s)),
    (T.RECORD_NUMBER, _DIGEST, lambda s: True),
    (T.VEHICLE, _VIN, lambda s: True),
    (T.VEHICLE, _UK_PLATE, lambda s: True),
    (T.VEHICLE, _ES_PLATE, lambda s: True),
    (T.LICENCE, _NPI, _npi),
    (T.NATIONAL_ID, _CODICE_FISCALE, lambda s: _valid(codicefiscale.validate, s.upper())),
    (T.NATIONAL_ID, _NIR, lambda s: _valid(nir.validate, _compact(s).upper())),
    (T.NATIONAL_ID, _PERSONNUMMER, lambda s: _valid(personnummer.validate, s)),
    (T.NATIONAL_ID, _HETU, lambda s: _valid(hetu.validate, s.upper())),
    (T.NATIONAL_ID, _RUT, lambda s: True),
    (T.NATIONAL_ID, _NAF, lambda s: True),
    (T.NATIONAL_ID, _BOLIVIAN_CI, _not_a_round_quantity),
    (T.NATIONAL_ID, _BELGIAN_NN, lambda s: len(_compact(s)) == 11 and _valid(be_nn.validate, _compact(s))),
    (T.NATIONAL_ID, _VENEZUELAN_CI, lambda s: True),
)


def _iban_shaped(number: str) -> bool:
    """An IBAN, or one mistyped in its two check digits only: with those put right it has its country's length
    and layout, which a word or another number almost never has — and a mistyped account is still someone's."""
    if _valid(iban.validate, number):
        return True
    if len(number) < 15 or not number[2:4].isdigit():
        return False
    return iban.is_valid(number[:2] + iban.calc_check_digits(number) + number[4:], check_country=False)


def _ibans(text: str) -> list[tuple[int, int]]:
    """IBANs that pass their check or are mistyped only in it (``_iban_shaped``), each the longest valid prefix
    of a candidate (a group of letters after it may be the next word: "es91 2100 … 1332 please")."""
    spans = []
    for match in _IBAN.finditer(text):
        surface = match.group(0)
        for cut in sorted(
            {m.end() for m in re.finditer(r"[A-Za-z0-9](?=[ \n]|$)", surface)} | {len(surface)}, reverse=True
        ):
            if _iban_shaped(_compact(surface[:cut]).upper()):
                spans.append((match.start(), match.start() + cut))
                break
    return spans


# A line that lists a family's passports, each after its holder: "Passports: Oksana — FU 482217, Dmytro —
# FX 019336". A passport's number is letters and digits of a shape no dose or date has.
_PASSPORTS_LINE = re.compile(r"(?i:\bpassports\b|\bpasaportes\b)[^\n]{0,160}")
_PASSPORT_NUMBER = re.compile(r"(?<![\w-])[A-Z]{1,3} ?\d{6,8}(?![\w-])|(?<![\w-])\d{9}(?![\w-])")


# An Argentine lawyer's registration by the volume and page of the bar's roll: "T.º 98 F.º 412"; a registry's
# entry the same way ("Tomo 1234, Folio 56").
_VOLUME_AND_PAGE = re.compile(
    r"(?<!\w)(?P<value>(?:T\.?\s?[º°]|Tomo|T[º°])\.?\s?\d{1,5},?\s(?:F\.?\s?[º°]|Folio|F[º°])\.?\s?\d{1,5})(?!\d)"
)
# A transfer alias of words joined by dots, as Argentina's banks give one: "alias HECTOR.BIANCHI.LOCACION".
_TRANSFER_ALIAS = re.compile(
    r"(?i:\balias(?: cbu| cvu)?)[:\s]+(?P<value>[A-Za-z0-9]{2,20}(?:\.[A-Za-z0-9]{2,20}){1,3})(?![\w.])"
)


# A wallet's address: Ethereum's 0x and forty hex digits, Bitcoin's bech32 and its older base58 forms.
_WALLET = re.compile(
    r"(?<![\w])(?:0x[0-9a-fA-F]{40}|bc1[ac-hj-np-z02-9]{25,87}|[13][a-km-zA-HJ-NP-Z1-9]{25,34})(?![\w])"
)
# A secret given after its word: a password, a PIN, a card's security code ("password is Xy7#kLm2q", "CVV
# 123", "PIN: 4821"). Only a value with a digit or a symbol: "la clave es la prevención" keeps its words.
_SECRET = re.compile(
    r"(?i:\b(?:(?:password|passcode|passphrase|contraseña|clave(?: de acceso)?)(?: is| es|:| =|)|"
    # a PIN's and a card code's words are also a fixation pin's and a central line's: a colon or "is" must follow
    r"(?:pin(?: code| number)?|cvv2?|cvc|security code|c[óo]digo de seguridad)(?: is| es|:| =)))\s*"
    r"(?P<value>(?=[^\s,;]{0,40}[\d#$%&*!@?])[^\s,;]{3,40}?)(?=[\s,;]|[.)](?:\s|$)|$)"
    r"(?<!mm)(?<!cm)(?<!Fr)(?<!mg)"
    # or digits alone right after the word: "CVV 123", "PIN 4821" ("pin 5mm", "CVC 7Fr" are no such)
    r"|(?i:\b(?:cvv2?|cvc|csc)\s?(?P<code>\d{3,4})|\bpin(?: code| number)?\s?(?P<pin>\d{4,6}))(?!\w|[.,]\d)"
)


def _passports_listed(text: str) -> list[Entity]:
    return [
        Entity(line.start() + m.start(), line.start() + m.end(), T.NATIONAL_ID)
        for line in _PASSPORTS_LINE.finditer(text)
        for m in _PASSPORT_NUMBER.finditer(line.group(0))
    ]


def find_numbers(text: str) -> list[Entity]:
    """Every identifying number in ``text`` that a check or a cue shows to be one."""
    found = [Entity(start, end, T.ACCOUNT) for start, end in _ibans(text)]
    for kind, pattern, check in _CHECKED:
        found += [
            Entity(*m.span(), kind)
            for m in pattern.finditer(text)
            if check(m.group(0))
            and not (pattern is _UK_NHS and _PHONE_CUE.search(text[max(0, m.start() - 30) : m.start()]))
            # after a country's calling code the digits are a phone's, whatever check they pass by chance
            and not _CALLING_CODE_BEFORE.search(text, max(0, m.start() - 10), m.start())
        ]
    for match in _CARD.finditer(text):
        before = text[max(0, match.start() - 40) : match.start()]
        if _luhn_card(match.group(0)) or (_CARD_CUE.search(before) and 13 <= len(_compact(match.group(0))) <= 19):
            found.append(Entity(*match.span(), T.CARD))
    found += [Entity(*m.span("value"), T.CARD) for m in _CARD_ENDING.finditer(text)]
    found += [Entity(*m.span("value"), T.PHONE) for m in _PHONE_ENDING.finditer(text)]
    found += [
        Entity(*m.span(value), _LAST_DIGITS_KINDS.get(m.group(cue).split()[0].lower(), T.ACCOUNT))
        for m in _LAST_DIGITS.finditer(text)
        for cue, value in (("cue", "value") if m.group("value") else ("cue_after", "value_after"),)
    ]
    found += [Entity(*m.span("value"), T.LICENCE) for m in _COLLAR_NUMBER.finditer(text)]
    found += [Entity(*m.span(), T.NATIONAL_ID) for m in _A_NUMBER.finditer(text)]
    middle = [
        Entity(*m.span(), T.CARD if _CARD_SHAPE.fullmatch(m.group(0)) else T.ACCOUNT)
        for m in _MASKED_MIDDLE.finditer(text)
    ]
    found += middle
    found += [
        Entity(*m.span(), T.NATIONAL_ID if _MASKED_SSN.fullmatch(m.group(0)) else T.ACCOUNT)
        for m in _MASKED.finditer(text)
        if not any(e.start <= m.start() < e.end for e in middle)
    ]
    found += _passports_listed(text)
    found += [Entity(*m.span(), T.ACCOUNT) for m in _WALLET.finditer(text)]
    found += [Entity(*m.span(m.lastgroup), T.ACCOUNT) for m in _SECRET.finditer(text)]
    found += [Entity(*m.span("value"), T.LICENCE) for m in _VOLUME_AND_PAGE.finditer(text)]
    found += [Entity(*m.span("value"), T.ACCOUNT) for m in _TRANSFER_ALIAS.finditer(text)]
    found += [Entity(*m.span("value"), T.VEHICLE) for m in _ES_PLATE_TYPED.finditer(text)]
    found += find_plates(text)
    found += find_credentials(text)
    found += [Entity(*m.span("value"), T.CASE_NUMBER) for m in _FILE_CODE.finditer(text)]
    found += [Entity(*m.span("value"), T.LICENCE) for m in _THOUSANDS_LICENCE.finditer(text)]
    found += [Entity(*m.span(), T.ACCOUNT) for m in _CBU.finditer(text) if cbu.is_valid(m.group(0))]
    found += [Entity(*m.span(), T.RECORD_NUMBER) for m in _GROUPED_CODE.finditer(text) if not _date_like(m.group(0))]
    found += [
        Entity(*m.span("value"), T.RECORD_NUMBER)
        for m in _NUMBERED.finditer(text)
        if not _is_law_or_quantity(text, m.start("value"), m.end("value"))
    ]
    found += [
        Entity(*m.span("value"), T.RECORD_NUMBER)
        for m in _LABELLED_GROUPS.finditer(text)
        if sum(c.isdigit() for c in m.group("value")) >= 7
        and not _date_like(m.group("value"))
        and not re.fullmatch(r"(?:19|20)\d\d/\d{1,4}", m.group("value"))  # a regulation's "2016/679"
        and m.group("label") not in lexicon.CLINICAL_ABBREVIATIONS | _STANDARDS_BODIES
    ]
    found += [
        Entity(*m.span(), T.RECORD_NUMBER)
        for m in _LONG_DIGITS.finditer(text)
        if not _PRODUCT_CODE_BEFORE.search(text, max(0, m.start() - 24), m.start())
    ]
    for run in _REGISTER_RUN.finditer(text):
        if _A_REGISTER_BEFORE.search(text, max(0, run.start() - 160), run.start()):
            found += [Entity(*m.span("number"), T.RECORD_NUMBER) for m in _REGISTER_PART.finditer(text, *run.span())]
    found += [Entity(*m.span(), T.NATIONAL_ID) for m in _ZIMBABWE_ID.finditer(text)]
    for match in _LAND_PARCEL.finditer(text):
        if _LAND_NEARBY.search(text, max(0, match.start() - 200), min(len(text), match.end() + 100)):
            found.append(Entity(*match.span("value"), T.RECORD_NUMBER))
    for match in _VOLUME_WITH_PAGE.finditer(text):
        if not _A_REGISTER_BEFORE.search(text, max(0, match.start() - 160), match.start()):
            continue  # a book's or a journal's volume and page ("Harrison, tomo 2, página 1456")
        pair = ("volume", "page") if match.group("volume") else ("first", "then")
        found += [Entity(*match.span(group), T.RECORD_NUMBER) for group in pair]
    for match in _DOTTED_ID.finditer(text):  # "CC 1.020.456.789": a number in thousands is money unless cued
        before = text[max(0, match.start() - 30) : match.start()]
        if re.search(r"(?:CC|C\.C\.|NIT|c[ée]dula|documento|DNI|ID|RUT|CUIT|CUIL)[\s:.nº°#]*$", before, re.I):
            found.append(Entity(*match.span(), T.NATIONAL_ID))
    for kind, match in _cued_matches(text):
        start, end = match.span("value")
        value = match.group("value")
        if said := re.match(r"(?i)(?:is|es) (?=\d)", value):  # "MAC address is 00:1B…": the verb is no code
            start, value = start + said.end(), value[said.end() :]
        if not any(c.isdigit() for c in value):
            continue  # the cue's look ahead saw a digit further on, not in this word
        if word := _A_WORD_FIRST.match(value):
            # a word between the cue and its number qualifies the cue ("finca registral 34.871"), or the
            # sentence went on: "REPORT printed 01/31/2025 4:07", "RIF pain 3/7", "cc: ta 132/74"
            start, value = start + word.end(), value[word.end() :]
            if _A_DATE.match(value) or kind not in (T.CASE_NUMBER, T.RECORD_NUMBER) and _A_RATIO.match(value):
                continue  # "Expediente judicial 123/21" is a case's number, "RIF pain 3/7" no one's
            if _A_YEAR_OR_A_TIME.fullmatch(value) or _A_CLOCK_AFTER.match(text, end):
                continue  # "one incident in 2021", "report at 7.00 a.m.": the sentence's year or hour
        if kind is T.VEHICLE and not (any(c.isalpha() for c in value) or len(_compact(value)) >= 5):
            continue  # "plate 3" is a count
        if _HOW_MANY_SHOWN.match(text, end) or text[max(0, start - 5) : start].lower() == "last ":
            continue  # "SSN last 4 on requisition": how many digits are shown, which ``_LAST_DIGITS`` reads
        # "C.I.: 4827153 L.P.": the department that issued it is part of the number, and no litre
        issued = _BOLIVIAN_DEPARTMENT.match(text, end) if kind is T.NATIONAL_ID else None
        if not issued and (_is_law_or_quantity(text, start, end) or _A_MEASURE.fullmatch(value)):
            continue  # "patente 3mm", "chart: 75th centile": a size or a rank, not a code
        if issued:
            end = issued.end()
        found.append(Entity(start, end, kind))
        found += _coordinated(text, end, kind, value)
    return found


# A US immigration file's alien registration number, an "A" and eight or nine digits, with no cue as an
# immigration lawyer's notes list a family's ("mine is A 214 873 509 and his A 219 004 716"); grouped, the
# digits alone read as a phone number.
_A_NUMBER = re.compile(r"(?<![\w-])A[- ]?(?:\d{3}[- ]\d{3}[- ]\d{3}|\d{8,9})(?![\w-])")


# How many of a number's digits a form shows, where the cue's look ahead took that count for the number.
_HOW_MANY_SHOWN = re.compile(r" (?i:digits|d[íi]gitos)\b")
# The last digits of a number, shown after a cue that says they are the last ("SSN last 4 on requisition:
# 4417", "card, last four digits 8804", "cuenta, últimos 4 dígitos: 3377"): the cue's kind is theirs.
# (the cue after the count too: "the last four of my social is 4471", "últimos 4 del seguro social 4471", as a
# call or a Spanglish message says it)
_LAST_DIGITS = re.compile(
    r"(?i:\b(?P<cue>ssn|social security(?: number)?|card|account|acct|tarjeta|cuenta)\b[^\n\d]{0,12}"
    r"\b(?:last|[úu]ltimos) (?:4|four|cuatro)(?: (?:digits|d[íi]gitos))?\b[^\n\d]{0,25}?)(?P<value>\d{4})(?!\d)"
    r"|(?i:\b(?:last|[úu]ltimos) (?:4|four|cuatro)(?: (?:digits|d[íi]gitos))? "
    r"(?:of|de|del|de la|de mi|de su|de tu)(?: (?:my|his|her|their|your|the))? "
    r"(?P<cue_after>ssn|social security(?: number)?|social|seguro social|card|account|acct|tarjeta|cuenta)\b"
    r"[^\n\d]{0,12}?)(?P<value_after>\d{4})(?!\d)"
)
_LAST_DIGITS_KINDS = {
    "ssn": T.NATIONAL_ID,
    "social": T.NATIONAL_ID,
    "seguro": T.NATIONAL_ID,
    "card": T.CARD,
    "tarjeta": T.CARD,
}


# The department after a Bolivian identity card's number ("4827153 L.P.", "6543210 SC").
_BOLIVIAN_DEPARTMENT = re.compile(
    r" (?:L\.P\.|LP|C\.B\.|CB|S\.C\.|SC|O\.R\.|OR|P\.T\.|PT|CH\.?|Ch\.|T\.J\.|TJ|B\.N\.|BN|P\.D\.|PD)(?![\w.])"
)


# Another code after a cued one, joined by a comma or a conjunction: "carné profesional 118447 y 120935",
# "Col. 18.447 and 21.093".
# (a serial's letters and digits mixed too: "serials 8KQ4R93 and 3HZ7T21")
_NEXT_CODE = re.compile(
    r"(?:,\s*|\s+(?:y|e|and|&|or|o)\s+)(?P<value>[A-Z]{0,3}\d[\d.\-/]*\d|(?=[A-Z]*\d)[A-Z0-9]{5,20})(?![\w/])"
)


def _coordinated(text: str, end: int, kind: EntityType, value: str) -> list[Entity]:
    """The codes listed after a cued one that have its shape: as many digits, give or take one, and where
    letters mix in, as long and with as many letters."""
    digits = sum(c.isdigit() for c in value)
    letters = sum(c.isalpha() for c in value)
    mixed = letters >= 2 and len(value) >= 5
    out = []
    while (match := _NEXT_CODE.match(text, end)) is not None:
        other = match.group("value")
        if (
            abs(sum(c.isdigit() for c in other) - digits) > 1
            or (digits < 4 and not mixed)
            or mixed
            and (len(other) != len(value) or abs(sum(c.isalpha() for c in other) - letters) > 1)
            or _is_law_or_quantity(text, *match.span("value"))
        ):
            break
        out.append(Entity(*match.span("value"), kind))
        end = match.end()
    return out


@functools.lru_cache(maxsize=4)
def _cued_matches(text: str) -> tuple[tuple[EntityType, re.Match], ...]:
    """Every cue and the code after it, read once a text: ``find_numbers`` and ``cue_spans`` both ask."""
    return tuple((kind, match) for kind, pattern in _CUED for match in pattern.finditer(text))


@functools.lru_cache(maxsize=1)
def _a_cue_word() -> re.Pattern:
    return re.compile("|".join(f"(?:{cues})" for cues in _CUE_WORDS), re.I)


def names_a_number(word: str) -> bool:
    """Whether ``word`` is one of the words that name a kind of number ("Aadhaar", "PhilHealth", "NIN"), as a
    heading or a sentence names one without the number after it."""
    return _a_cue_word().fullmatch(word) is not None


@functools.lru_cache(maxsize=4)
def cue_spans(text: str) -> tuple[tuple[int, int], ...]:
    """Where the words that name a number stand before their number ("Aadhaar" of "Aadhaar 2345 6789
    0123", "Medicare card"): a label, not anyone's name. Asked once a finding, so read once a text."""
    return tuple((match.start(), match.start("value")) for _, match in _cued_matches(text))


# A word in lower case and a space opening what follows a cue: the sentence goes on, no code starts so.
_A_WORD_FIRST = re.compile(r"[a-záéíóúñü]{2,} ")
_A_DATE = re.compile(r"\d{1,4}[/.\-]\d{1,2}[/.\-]\d{2,4}(?!\d)")
_A_RATIO = re.compile(r"\d{1,3}/\d{1,3}(?![\d/])")
# A value that is a size, a rank or a rate, whatever word was before it: "3mm", "7Fr", "75th", "3x/week".
_A_MEASURE = re.compile(r"(?i)\d+(?:[.,]\d+)?\s?(?:mm|cm|m|fr|g|mg|ml|kg|st|nd|rd|th|x(?:/\w+)?|%|am|pm|hrs?|h)")


_A_YEAR_OR_A_TIME = re.compile(r"(?:19|20)\d{2}|\d{1,2}[.:]\d{2}")
_A_CLOCK_AFTER = re.compile(r"\s?(?i:a\.m\.|p\.m\.|am\b|pm\b|hrs?\b|h\b)")


def _date_like(code: str) -> bool:
    """ "12/03/2024", and an ISO time stamp's date and hour ("2025-02-11T03")."""
    return bool(re.fullmatch(r"\d{1,4}[/-]\d{1,2}[/-]\d{1,4}(?:T\d{2})?", code))


_UNIT_AFTER = re.compile(r"\s?(?:mg|mcg|µg|g|kg|ml|mL|l|mmol|mmhg|mm|cm|%|h|hrs?|min|mg/dl|ui|iu|units?)\b", re.I)


def _is_law_or_quantity(text: str, start: int, end: int) -> bool:
    """A measurement ("150 mg") or a statute ("Ley 29/1994") is not a code."""
    return bool(_UNIT_AFTER.match(text, end)) or bool(
        re.search(
            # whole words: "card" ends in the "RD" of a royal decree, "fact" in "act"
            r"(?<![^\W\d_])(?:ley|real decreto|rd|decreto|orden|directiva|reglamento|act|section|art[íi]culo|art)"
            r"\.?\s*$",
            text[max(0, start - 20) : start],
            re.I,
        )
    )
