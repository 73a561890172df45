"""Addresses, postcodes and places smaller than a state, in the forms of many countries.

HIPAA's second category is every geographic unit smaller than a state: the street and its number, the
town, the county, the postcode. Addresses are written with the street type first ("Calle Mayor 14",
"ul. Lipowa 9", "Rua das Flores 25"), fused into the name ("Drottninggatan 12", "Hauptstraße 5"), after
the number ("221B Baker Street"), or with no street word at all on an address's own line ("1 Cheapside");
floors and doors ("2º A", "Apt. 5", "Suite 210"), PO boxes and military addresses stand on lines of their
own. Towns are found beside a postcode ("28013 Madrid", "Dayton, OH 45402"), on an address's last line,
after the words that say someone lives or was born there, and by spaCy's place entities (detect.py).
"""

from __future__ import annotations

import re

from app.identifiers import lexicon
from app.identifiers.dates import CALENDAR_WORDS
from app.identifiers.entities import Entity, EntityType

T = EntityType
# At most 48 characters, as rules.py's names, for the same reason.
_NAME = r"[A-ZÀ-ÖØ-ÞĄĆĘŁŃŚŹŻŠŽČŘ](?:[^\W\d_]|['’\-](?=[^\W\d_])){0,47}"
# (Catalan's "al", "dels", "de les" too: "Avinguda al Vedat 77", "Carrer dels Arcs 4")
_LOWER_LINK = (
    r"(?:de|del|de la|de los|de las|de les|dels|al|das|dos|do|da|des|du|di|della|la|le|el|los|las|y|e|i|von|van|"
    r"der|den)"
)
# Shared with towns.py: a capitalised word of a place's name, and the small words between them.
CAPITALISED_NAME = _NAME
NAME_LINK = _LOWER_LINK
# A street's name after its type word: capitalised words with the small words between them.
# "No." and "Nº" open the house number ("Calle Heredia No. 305"); they are never a word of the name.
_NOT_NAME = r"(?!(?:No|NO|Nº|N\.º|Núm|Num)\b)"
# A title or a rank shortened at the start of a street's name: "Av. Gral. Rivera", "Calle Pdte. Ibáñez".
_NAME_ABBREVIATION = (
    r"(?:Gral|Gdor|Pdte|Pte|Cnel|Dr|Ing|Sta|Sto|Mcal|Tte|Cap|Alte|Gob|Lic|Prof|Pbro|Cmdte)\. (?:\d[°º] )?"
)
# Maltese streets open with an article joined to the name: "Triq il-Kbira", "Triq ta' Xbiex", "Triq l-Imdina".
_MALTESE_ARTICLE = r"(?:(?:il|l|tal|ta|is|it|ix|iż|in|ir|id|iċ|taż|tas|tat)-|ta['’] )"
# A street named after a date is common across Latin America: "Av. 9 de Julio", "calle 25 de Mayo 687".
_DATE_NAMED = rf"\d{{1,2}} de {_NAME}"
_STREET_NAME = (
    rf"(?:{_LOWER_LINK} ){{0,3}}(?:(?:{_NAME_ABBREVIATION}|{_MALTESE_ARTICLE})?{_NAME}|{_DATE_NAMED})"
    rf"(?: (?:{_LOWER_LINK} ){{0,3}}{_NOT_NAME}(?:[A-Z]\.(?= [A-Z])|{_NAME}|\d+ de {_NAME})){{0,5}}"
)
_HOUSE = (
    r"(?:,?\s*(?:(?i:n\.?[º°o]\.?)\s*|(?i:núm\.?|número)\s*|#\s*)?\d{1,5}(?:[-–]?[A-Za-z](?![^\W\d_])|[-–]\d{1,4}|[-–][IVX]{1,4})?|"
    r",?\s*s/n)"
)
_GRID_STREET = (
    r"(?i:Calle|C/(?!o )(?=\s?(?:[^\W\d_]{2}|\d))|Carrera|Cra\.?|Cr\.|Kra\.?|Kr\.?|Cl\.?|Cll\.?|Avenida|Av\.?|"
    r"Ak\.?|Ac\.?|Diagonal|Dg\.?|"
    r"Transversal|Tv\.?|Tr\.|V[íi]a)"
)
_GRID_NUMBER_SIGN = r"(?:#|(?i:No\.?|N[º°]\.?|n\.[º°]|Núm\.?|Nro\.?))"
_FLOOR = (
    r"(?:,?\s*(?:\d{1,2}\.?\s?[º°ª]\.?\s?(?i:esq(?:uerdo|uerda)?\.?|dto\.?|direito|dir\.?|frente|izq(?:uierda|da)?\.?|izda\.?|"
    r"dcha\.?|der(?:echa)?\.?|centro|ctro\.?|puerta \d+|[A-Z](?![^\W\d_])|\d{1,2}(?!\d))?"
    r"|(?i:bajo|entlo\.?|entresuelo|[áa]tico|ppal\.?|principal|baixos|baixa|entres[òo]l|sobre[àa]tic|pral\.?)|"
    # Catalan's floor and door: "3r 2a", "1r 1a", "4t"
    r"\d{1,2}(?:r|n|t|è)\.?(?: ?\d{1,2}a)?(?!\w)|(?i:esc(?:alera)?)\.? ?\w|"
    r"(?i:piso|planta|pta\.?|puerta|portal|bloque|blq\.?|int\.?|interior|depto\.?|dpto\.?|dto\.?|departamento|local|apto\.?|"
    r"apartamento|nave|oficina|of\.?|m\.|lok\.|apt\.?|suite|unit|flat|room|rm\.?|nivel|pabell[óo]n|pab\.|m[óo]dulo|"
    r"m[óo]d\.|#) ?\w{1,4}(?:-\w{1,3})?(?!\w)(?: (?i:izquierda|derecha|izda\.?|dcha\.?|centro|exterior))?"
    # "calle Mesa y López a la altura del nº 62"
    r"|(?i: a la altura del?) (?i:n\.?[º°o]\.?|número) ?\d{1,5}(?!\d)"
    # the corner's other street: "Av. Miguel H. Alcívar y José Castillo", "las calles Sargento Silva y 10 de Agosto"
    rf"| y (?:{_NAME_ABBREVIATION})?(?:{_NAME}|{_DATE_NAMED})(?: {_NAME}){{0,2}}(?=[,.;\n]|$)"
    # Panama's buildings under horizontal property: "PH Altos del Parque, apto. 9C"
    r"|(?:(?i:edif\.?|edificio|torre|sector|urb\.?|urbanizaci[óo]n|residencias?|conjunto|centro comercial|c\.c\.|"
    r"plaza comercial|galer[íi]a)|PH)"
    r" [A-ZÁÉÍÓÚ0-9][\w ]{0,30}?(?=,|"
    r"$|\n)"
    r"|(?i:primer|segundo|tercer|cuarto|quinto|sexto|s[ée]ptimo|octavo|noveno|d[ée]cimo) piso"
    # a house number after a comma ("Polígono Industrial Landaben, calle E, n.º 9, nave 3")
    r"|(?i:n\.[º°]|nº|núm\.|no\.) ?\d{1,5}[A-Z]?(?![\d/.,-]\d)"
    r"|(?i:despacho|consultorio|bodega|of\.|casa n\.?[º°]|casa|lote|lt\.|solar|mz\.|manzana|calle|cll\.|pasaje|parcela|"
    r"psje\.|etapa|vereda) ?[\w-]{1,5}"
    r"|(?i:e/|entre) [^,\n]{2,40}? y [^,\n]{1,30}|(?i:esquina|esq\.) (?:calle |avenida |av\. )?[\w]{1,20}"
    # "Calle 72 con Avenida 3E": a corner's other street, named ("con su pareja" goes on with the sentence)
    r"|(?i:con) (?:(?i:calle|avenida|av\.|carrera|cra\.?) )?[A-ZÀ-Þ0-9][\w]{0,19}(?! [a-zà-ÿ]{3,})"
    r"|(?i:frente al?|junto al?) (?i:n\.?[º°o]\.?|número) ?\d{1,5}|(?i:km\.?|kil[óo]metro) \d{1,4}(?:[.,]\d{1,3})?"
    r"|\s?\d{1,2}\.?[ªº]))"
)
_PREFIX_TYPES = (
    r"(?i:Calles|Avenidas|Calle|P\.[º°]|Bv\.|Bulevar|Res\.|Residencial|Condominio|Cooperativa|V[íi]a|C/(?![Oo]\s)(?=\s?(?:[^\W\d_]{2}|\d))|Cl\.|Cll\.?|Avenida|Avda\.?|Av\.|Avd\.|Paseo|P[º°]|Pso\.?|Plaza|Pza\.?|Pl\.|Ronda|Rda\.?|"
    r"Camino|Cmno\.?|Carretera|Ctra\.?|Traves[íi]a|Trav\.?|Glorieta|Carrer|R[úu]a|Rue|Via|Viale|Piazza|Corso|Largo|"
    r"Travessa|Estrada|Alameda|Calzada|Calz\.?|Cerrada|Privada|Prolongaci[óo]n|Prol\.?|Carrera|Cra\.?|Kr\.?|"
    r"Diagonal|Transversal|Andador|Boulevard|Bulevar|Blvd\.?|Callej[óo]n|Pasaje|Psje\.?|Urbanizaci[óo]n|Urb\.?|"
    r"Ave\.(?= [A-Z][a-z])|Coop\.|"
    r"ul\.|ulica|al\.|aleja|os\.|osiedle|Avenue|Allée|Chemin|Impasse|Quai|Place|Strada|Straße|Kalea|Gran V[íi]a|"
    r"Jr\.|Jir[óo]n|Pol[íi]gono(?: Industrial)?|Pol\.|Barrio|Cuesta|Subida|Bajada|Senda|Vereda|Rambla|Passeig|"
    r"Avinguda|Pla[çÇ]a|(?-i:Placa)|Rua|Praça|Praca|Avenida|Autopista|Autov[íi]a|Carretera|Travessera|Cam[íi]|Praza|Rolda|"
    r"Cami[ñn]o|Triq|Sqaq|Vjal|Pjazza|"
    # the Channel Islands' French streets: "La Route de la Haule", "Clos du Mont"
    r"Clos|Route(?= d)|"
    # Welsh and Irish streets: "Heol y Capel", "Ffordd y Brenin", "Bóthar na Trá", "Sráid Mhór"
    r"Heol|Ffordd|Stryd|B[óo]thar|Sr[áa]id|Ascaill|"
    # Peru's settlements and housing associations, Mexico's and Venezuela's neighbourhoods
    r"AA\. ?HH\.|A\. ?H\.|Asentamiento Humano|Asoc\.|Asociaci[óo]n de Vivienda|Fracc\.|Fraccionamiento|"
    r"Unidad Habitacional|Caser[íi]o|Reparto)"
)
_FUSED_TYPES = (
    r"(?:stra(?:ß|ss)e|str\.|weg|gasse|allee|platz|ring|damm|ufer|gatan|v[äa]gen|gata|v[äa]g|gr[äa]nd|torget|"
    r"katu|tie|kuja|polku|laan|straat|gracht|plein|singel|kade|vej|gade|stræde|veien|gaten|"
    # Basque's street, road and avenue ("Artekale", "Zumalakarregi kalea" is written apart)
    r"kale|kalea|bidea|etorbidea)"
)
_EN_SUFFIX = (
    r"(?:Street|St|Road|Rd|Avenue|Ave|Lane|Ln|Close|Drive|Dr|Way|Court|Ct|Place|Pl|Crescent|Cres|Boulevard|Blvd|"
    r"Terrace|Tce|Gardens|Grove|Square|Sq|Row|Walk|Parade|Mews|Hill|Park|Rise|Green|Loop|Highway|Hwy|Parkway|Pkwy|"
    r"Circle|Cir|Trail|Pike|Turnpike|Wynd|Brae|Quay|Wharf|Embankment|Broadway|Esplanade|Promenade|Circus|Mall|"
    r"Crossing|Heights|Ridge|Vale|Meadows?|Glen|Cove|Chase|Dale|Downs|Fields|Grange|Hollow|Knoll|Manor|Orchard)"
)
_UNIT_LINE = re.compile(
    r"(?<!\w)(?:\d{1,2}(?:st|nd|rd|th) Floor|Shop \d{1,4}|Plot No\.? ?[\w-]{1,6}|DX \d{2,6}|"
    # India's house and door numbers ("H.No. 7-1-621/A", "D.No 12-3-45"), a lot in a park of mobile homes,
    # a police report's block ("1200 block of Sycamore Ave"); a hospital room is not an address here
    r"(?:H\.? ?No|D\.? ?No|Door No|House No|Flat No|Plot No)\.?:? ?\d[\w/-]{0,14}|Plot \d{1,5}[A-Z]?(?!\w)|"
    r"Lot \d{1,4}[A-Z]?(?=, [A-Z])|"
    r"\d{1,5} block of (?:(?:N|S|E|W)\.? )?(?:[A-Z][\w'’-]+ ){1,3}"
    r"(?:St|Street|Ave|Avenue|Rd|Road|Blvd|Boulevard|Dr|Drive|Ln|Lane|Way|Pl|Place|Ct|Court)\b\.?|"
    r"\d{1,3}/\d{1,3}(?=, \d{1,5} [A-Z])"
    r"|(?:Hwy|Highway|Route|Rte|Rural Route|State Route|County Road|Ruta|Autopista|Autov[íi]a|Interstate) ?\d{1,4}"
    r"(?: Box \d{1,5})?"
    # "RR 2 Box 41" is a rural route; "RR 24" alone is a respiratory rate among the vital signs
    r"|RR ?#?\d{1,3},? Box \d{1,5}|HC ?\d{1,3},? Box \d{1,5}"
    # Kigali's streets by district code and number, then the house: "KN 1 Rd 14"
    r"|(?<![\w-])[A-Z]{2} \d{1,4} (?:Rd|Ave|St) \d{1,4}(?!\w)"
    # Hong Kong's floor ("12/F") and an office building's room
    r"|\d{1,2}/F(?!\w)|(?:Room|Rm)\.? \d{1,5}[A-Z]?(?=, )"
    # Singapore's block and its unit by floor and number: "Blk 418", "Blk B #03-12"
    r"|Blk\.? [A-Z0-9]{1,4}(?!\w)(?: #\d{1,2}-\d{1,4}[A-Z]?)?"
    r"|(?:Apt|Apartment|Suite|Ste|Unit|Flat|Fl|Floor|Level|Bldg|Building|Piso|Depto|Dpto|Departamento|"
    r"Interior|Int|Oficina|Local|Bloque|Portal|Escalera|Edificio|Edif|Apto|Nave)\.?\s*#?\s*\d{1,5}[A-Za-z]?"
    r"(?:/\d{1,3})?(?!\w))"
    r"(?:,?\s*\d{1,2}\s?[º°ª]\s?[A-Z]?\b)?"
)
# The flat a tenant writes from, typed in lower case after the word that places them in it ("its shanice from
# flat 3", "im in flat 12"). (A room's number is not taken: the annotated sets' writers disagree on whether a
# ward's or a care home's room names anyone, most do not mark it.)
_A_TENANTS_FLAT = re.compile(
    r"(?<![\w])(?i:from|in|at|to|of|my|our) (?P<flat>flat \d{1,3}[a-z]?)"
    r"(?![\w.,/:%]\w|[\w%]|\s?(?i:mm|cm|kg|mg|ml|%|x\b|times|weeks|days|years|minutes|hours|people)\b)"
)


_PO_BOX = re.compile(
    r"(?<!\w)(?:P\.? ?O\.? ?Box|PO Box|Post Office Box|Apartado(?: de [Cc]orreos| [Pp]ostal)?|Apdo\.?|Casilla|"
    r"Postfach|Box)\s*(?:[A-Z]{1,3} ?)?\d{1,7}(?: \d{3})?(?!\w)",
    re.I,
)
# A private bag or a locked bag as written, and Nigeria's private mail bag with its number of three digits or
# more ("PMB 2 weeks" is postmenopausal bleeding).
_PRIVATE_BAG = re.compile(r"(?<!\w)(?:(?:Private|Locked) (?:Mail )?Bag\s*(?:[A-Z]{1,3} ?)?\d{1,7}|PMB\s*\d{3,7})(?!\w)")
_MILITARY = re.compile(r"(?<!\w)(?:PSC|CMR|Unit|USS [A-Z][a-z]+)\s*\d{1,5},?\s*Box\s*\d{1,5}(?!\w)")
_MILITARY_POST = re.compile(r"(?<!\w)(?P<city>APO|FPO|DPO)\s+(?:AE|AP|AA)\s+(?P<zip>\d{5})(?!\d)")
_FUSED_STREET = re.compile(
    rf"(?<!\w){_NAME}{_FUSED_TYPES}(?:{_HOUSE})?(?:{_FLOOR})*(?!\w)|(?<!\w)(?:{_NAME} )?{_NAME}-?{_FUSED_TYPES}\b"
    rf"(?:{_HOUSE})?",
)
_ORDINAL_NAME = r"\d{1,3}(?:st|nd|rd|th)"
_HEADING = r"(?:al )?(?:norte|sur|este|oeste|noreste|noroeste|sureste|suroeste|lago|arriba|abajo)\b"
_WARD_WORDS = (
    r"(?i:Habitaci[óo]n|Hab|Cama|Box|Sala|Quir[óo]fano|Consulta|Consultorio|Planta|Piso|Puerta|Despacho|Aula|"
    r"M[óo]dulo|Room|Bed|Bay|Ward|Unit|Floor|Level|Box|Art[íi]culo|Art|Ley|Decreto|Expediente|Paciente)\b"
)
# India's addresses: a house's or a flat's number, then the cross and main roads, blocks, sectors, layouts and
# nagars that find it ("#42, 3rd Cross, 6th Block", "No. 9, Vinayaka Nagar", "Flat 302, Sai Residency, 14th
# Main", "H.No. 118, Sector 50"); the suburb and the town after them are places.py's and towns.py's.
_INDIAN_PART = (
    r"(?:\d{1,2}(?:st|nd|rd|th) (?:Cross|Main|Block|Stage|Phase|Sector|Street|Road|Avenue|Floor)(?: Road)?"
    r"|(?:Sector|Phase|Block|Pocket) \d{1,3}[A-Z]?"
    r"|[A-Z][a-z]+(?: [A-Z][a-z]+){0,2} (?:Nagar|Layout|Colony|Residency|Apartments|Enclave|Vihar|Puram|Palya|Halli|"
    r"Extension|Main Road|Cross Road|Road|Street|Marg|Gali|Chowk|House|Towers|Heights))"
)
_INDIAN_ADDRESS = re.compile(
    # (a number's "No." after a document's word is the document's: "Invoice No. 12, Main Road Stores"; the
    # locality's name follows the address)
    r"(?<![\w#])(?:#|(?:(?<![A-Za-z] )|(?<=\bat ))No\.|H\. ?No\.?|Door No\.?|Plot No\.?|Flat(?: No\.?)?) ?"
    rf"\d{{1,5}}[A-Z]?(?:[/-]\d{{1,4}}[A-Z]?)?(?:, {_INDIAN_PART}){{1,3}}(?=,? [A-Z][a-z])"
)
_STREETS = (
    _INDIAN_ADDRESS,
    re.compile(
        # ("calle" ending a line goes on to the street's name only before its number: "calle⏎Jabonería, 7")
        rf"(?<![\w/]){_PREFIX_TYPES}(?: |(?<=[Cc]alles)\n|(?<=[Aa]venidas)\n"
        rf"|(?<=[Cc]alle)\n(?=[^\n,]{{2,40}},? (?:n\.?[º°] ?)?\d))?"
        rf"{_STREET_NAME}(?:{_HOUSE})?(?:{_FLOOR})*"
    ),
    _FUSED_STREET,
    re.compile(
        # a number's kind before it: a light pole's in Trinidad ("LP 42 Cipero Road"), a plot's in Namibia ("Erf 5521")
        rf"(?<![\w,.])(?:(?:LP|Erf|Stand) )?(?:\d{{1,4}}[A-Za-z]?/)?\d{{1,5}}[A-Za-z]?(?:[-–]\d{{1,5}})?,? "
        rf"(?:(?:{_LOWER_LINK}|'t) ){{0,3}}(?:(?:N|S|E|W|NE|NW|SE|SW)\.? )?(?:(?:{_NAME}|{_ORDINAL_NAME}) ){{1,4}}"
        rf"{_EN_SUFFIX}\b\.?(?: (?:N|S|E|W|NE|NW|SE|SW)\b\.?)?"
        # Singapore's numbered streets and units: "212 Bedok North Street 1, #02-10"
        rf"(?: \d{{1,3}}(?=,|\n|$))?(?:, #\d{{1,2}}-\d{{2,4}}[A-Z]?(?![\w-]))?"
        rf"(?:,? (?:#|Apt\.?|Apartment|Unit|Suite|Ste\.?|Fl\.?|Floor|Flat|(?i:apt|unit|suite|flat)) ?#?\d{{1,5}}[A-Z]?"
        rf"|,? (?:Room|Rm\.?) [A-Z]?-?\d{{1,5}}[A-Z]?)?"
    ),
    # Quito's numbered grid: the house by its quarter's letter ("N34-120", "S3-45", "Oe7-118"), with the street
    # named or numbered before it and the cross street after it ("Av. 6 de Diciembre N34-120 y Portugal").
    re.compile(
        rf"(?<!\w)(?i:calle|av\.|avenida|pasaje|psje\.) (?:{_STREET_NAME}|[A-Z]{{1,2}}\d{{1,3}}[A-Z]?) "
        rf"(?:N|S|E|Oe|OE)\d{{1,3}}[A-Z]?-\d{{1,4}}[A-Z]?(?: y (?:{_NAME}|\d{{1,2}} de {_NAME})(?: {_NAME}){{0,2}})?"
    ),
    # A German or Austrian street whose type is a word of its own, with its number: "Berger Straße 212".
    re.compile(
        rf"(?<!\w)(?:{_NAME}[ \-]){{1,3}}(?:Straße|Strasse|Str\.|Weg|Allee|Gasse|Platz|Ring|Damm|Ufer|Chaussee|"
        rf"Steig|Pfad|Markt|Landstraße|Gürtel|Kai) \d{{1,4}}[a-z]?(?:[-–/]\d{{1,4}}[a-z]?)?(?!\w)"
    ),
    # A number, then a street of any kind, before its town and a British postcode: "4 Birkhill Feus, Birkhill,
    # DD2 5QX"; a Welsh or Irish street after its number: "6 Heol Pant-y-Deri"
    re.compile(
        rf"(?<![\w,.])\d{{1,4}}[A-Za-z]? (?:{_NAME} ){{0,2}}{_NAME}"
        rf"(?=,\s*(?:{_NAME} ){{0,2}}{_NAME},?\s+[A-Z]{{1,2}}\d[A-Z\d]? ?\d[A-Z]{{2}}\b)"
        rf"|(?<![\w,.])\d{{1,4}}[A-Za-z]? (?=(?:Heol|Ffordd|Stryd|L[ôo]n|B[óo]thar|Sr[áa]id) )"
    ),
    # A house's name before its street: "Rose Cottage, 4 Church Lane", "Ty Gwyn Farm, Heol …"
    re.compile(
        rf"(?<![\w,] )(?<!\w)(?:{_NAME} ){{1,2}}(?:Cottage|House|Farm|Lodge|Barn|Villa|Mill|Farmhouse|Bungalow)"
        rf"(?=, (?:\d{{1,5}}[A-Za-z]? {_NAME}|(?i:Heol|Ffordd|Stryd|Lôn)\b))"
    ),
    # A numbered street named alone, as American cities number them: "NW 79th St", "165th Street", "E 42nd St".
    re.compile(
        rf"(?<![\w.])(?:(?:N|S|E|W|NE|NW|SE|SW|North|South|East|West)\.? )?{_ORDINAL_NAME} "
        r"(?:Street|St|Avenue|Ave|Road|Rd|Boulevard|Blvd|Drive|Dr|Terrace|Ter|Place|Pl|Court|Ct|Way|Lane|Ln)\b\.?"
        r"(?: (?:N|S|E|W|NE|NW|SE|SW)\b\.?)?"
    ),
    re.compile(
        rf"(?<!\w)(?:{_NAME} ){{1,3}}(?:Street|Road|Avenue|Lane|Drive|Boulevard|Crescent|Highway|Parkway)\b"
        rf"(?= \d| ?,| ?\n)"
    ),
    re.compile(
        r"(?<!\w)(?i:Mz\.?|Manzana|bloque|pasaje|psje\.|sector|etapa) [A-Z0-9]{1,4},? (?i:Lt\.?|Lote|Solar|Villa|casa) "
        r"(?i:n\.?º ?|#)?\d{1,5}(?!\w)"
    ),
    # Guatemala's and Honduras's numbered streets and avenues, the number first: "4.ª calle 12-34", "14 avenida
    # 5-20", "15 calle, 12 avenida NO, casa 1204".
    re.compile(
        rf"(?<![\w.])\d{{1,2}}(?:\.?[ªa]\.?)? (?i:calle|avenida|av\.)(?: (?:NO|NE|SO|SE|Bis|[AB]))?"
        rf"(?: \d{{1,3}}-\d{{1,3}}| (?i:n\.?º|no\.?|#) ?\d{{1,5}})?(?=[,\n]|$)(?:{_FLOOR})*"
    ),
    # A corner of two of those numbered streets, as a report gives one in a sentence: "sobre la 18 calle y 4a.
    # avenida de la zona 10".
    re.compile(
        r"(?<![\w.])\d{1,2}(?:\.?[ªa]\.?)? (?i:calle|avenida|av\.) (?:y|e) "
        r"\d{1,2}(?:\.?[ªa]\.?)? (?i:calle|avenida|av\.)"
        r"(?: de la (?i:zona) \d{1,2}(?!\d))?"
    ),
    # A kilometre of a road to somewhere: "Km 7 vía a la Costa", "km 4 vía a Gualaceo".
    re.compile(
        rf"(?<!\w)(?i:km\.?|kil[óo]metro) \d{{1,3}}(?:[.,]\d{{1,3}})? (?i:de la |del )?"
        rf"(?i:v[íi]a|carretera|autopista|ruta|camino)"
        rf" (?:(?:a la|al|a|hacia|de la|del|de) )?{_NAME}(?: (?:{_LOWER_LINK} )?{_NAME}){{0,2}}"
    ),
    # A street named before its Basque type: "Zabalbide kalea, 56, 5.º izda."
    re.compile(
        rf"(?<!\w)(?:{_NAME} ){{1,3}}(?i:kalea|kalia|etorbidea|hiribidea|pasealekua|bidea|errepidea|enparantza)"
        rf"(?:{_HOUSE})?(?:{_FLOOR})*"
    ),
    # The numbered grids of Latin America: Colombia's "Cl. 26 Sur No. 43-12" and "Carrera 7 Bis # 12-34",
    # Mexico's "Calle 5 No. 120", and Yucatán's house between its two cross streets, "Calle 47 No. 512 x 60 y
    # 62". Panama's numbered streets take a compass point and no house number: "Calle 53 Este".
    re.compile(
        rf"(?<!\w){_GRID_STREET} \d{{1,3}}(?:[A-Z]|ra|da|ta|ma|va|na|\.?[ªa])?(?: ?(?i:bis))?(?: [A-Z](?= ))?"
        rf"(?: (?:Sur|Norte|Este|Oeste))?"
        rf"(?: ?{_GRID_NUMBER_SIGN} ?\d{{1,5}}[A-Z]?(?: ?(?i:bis))?(?: (?:Sur|Este))?(?:\s?-\s?\d{{1,3}}[A-Z]?)?"
        rf"| \d{{1,3}}[A-Z]?\s?-\s?\d{{1,3}}[A-Z]?)"
        rf"(?: (?:x|por) \d{{1,3}}[A-Z]?(?: (?:y|e) \d{{1,3}}[A-Z]?)?)?(?:{_FLOOR})*"
    ),
    re.compile(
        rf"(?<!\w)(?i:Calle|Avenida|Av\.) \d{{1,3}}(?:ra|da|ta|ma|va|na)? (?:Este|Oeste|Norte|Sur)\b(?:{_FLOOR})*"
    ),
    # A numbered street at its corner with another, as Venezuela gives one: "Calle 72 con Avenida 3E".
    re.compile(
        rf"(?<!\w){_GRID_STREET} \d{{1,3}}(?:[A-Z]|ra|da|ta|ma|va|na)?(?= (?i:con|esquina|esq\.) )(?:{_FLOOR})+"
    ),
    # A named street with the grid's sign: "Av. Boyacá #64C-25"
    re.compile(
        rf"(?<!\w){_GRID_STREET} {_NAME}(?: (?:{_LOWER_LINK} )?{_NAME}){{0,2}} ?# ?\d{{1,3}}[A-Z]?"
        rf"(?:\s?-\s?\d{{1,3}}[A-Z]?)?(?:{_FLOOR})*"
    ),
    # A lot or a plot by its number, as subdivisions and much of Africa give an address: "Lot 118", "Plot 1120,
    # Cadastral Zone B09", "plot No. 118"
    re.compile(
        # (a vaccine's or a batch's lot is a product's, not a plot of land)
        r"(?<![\w-])(?<!accine )(?<!atch )(?<!roduct )(?<!Vial )(?<!vial )(?:Lot|Plot|LOT|PLOT|plot No\.?)(?: No\.?)? "
        r"\d{1,5}[A-Z]?"
        r"(?:,? (?:Block|BLOCK) \d{1,4}[A-Z]?)?(?![\w-])"
    ),
    # The number before a street type of another language: "209 Rue Bienville", "17 rue Oberkampf".
    re.compile(
        rf"(?<![\w,.])\d{{1,5}}(?: ?(?:bis|ter))?,? (?i:rue|avenue|av\.|boulevard|bd|place|allée|allee|chemin|impasse|"
        rf"quai|cours|route|via|calle|rua)\.? (?:(?:de|du|des|de la|d'|del|da|das|do|dos) ?)?{_NAME}(?: {_NAME}){{0,3}}"
    ),
    # Written in capitals, as a heading or a form does: "7 AMINU KANO CRESCENT", "FLAT 3, 12 HIGH STREET".
    re.compile(
        rf"(?<![\w,.])(?:(?:FLAT|APT|APARTMENT|UNIT|SUITE) (?:\d{{1,4}}[A-Z]?, (?:BLOCK [A-Z0-9]{{1,3}}, )?)?)?"
        rf"(?:\d{{1,4}}[A-Z]?/)?\d{{1,5}}[A-Z]?,? (?:[A-ZÀ-Þ][A-ZÀ-Þ'’\-]+ ){{1,4}}{_EN_SUFFIX.upper()}\b"
    ),
    # Directions from a landmark, as addresses are given in Costa Rica, Nicaragua and elsewhere in Central
    # America: "de la plaza de deportes 300 metros norte y 50 este, casa color terracota", "del Palí 200 varas
    # al sur". The distance and the compass point are the evidence; the house described after is part of it.
    re.compile(
        r"(?<!\w)(?:de|del|desde) (?:la |el |los |las )?[^\n,;:]{2,60}? \d{1,4} ?(?:metros|mts?\.?|m|varas|vrs\.?|"
        rf"cuadras?|c\.?|km) {_HEADING}"
        # Managua counts blocks in "c." and says east and west as "arriba" and "abajo", north as "al lago"
        rf"(?:,? (?:y )?(?:\d{{1,4}} ?(?:(?:metros|mts?\.?|m|varas|vrs\.?|cuadras?|c\.?) )?|media (?:cuadra |c\. ?)?)"
        rf"{_HEADING})*"
        r"(?:,? (?:casa|portón|porton|edificio|apartamento|apto|local|mano (?:derecha|izquierda)|contiguo|"
        r"segunda|primera|tercera)\b(?:[^\n;.]|\.(?!\s|$)){0,80})?",
        re.I,
    ),
    # A landmark an address is given beside: "a una cuadra del mercado Las Flores", "al lado del colmado Don
    # Chago", "frente al Parque Central". The kind of place and its capitalised name are the evidence.
    re.compile(
        r"(?<!\w)(?i:a (?:una|dos|tres|media|\d{1,2}) cuadras? (?:de|del)|al lado (?:de|del)|frente (?:a|al)|"
        r"detrás (?:de|del)|diagonal (?:a|al)|contiguo (?:a|al)|costado (?:\w+ )?(?:de|del)) (?i:la |el |los |las )?"
        r"(?i:mercado|colmado|parque|iglesia|escuela|colegio|plaza|pulpería|pulperia|supermercado|super|farmacia|"
        r"gasolinera|bomba|estadio|cancha|puente|terminal|parada|centro comercial|tienda|panadería|panaderia|"
        r"cementerio|mall|municipalidad|alcaldía|alcaldia|abastos|bodega|liceo|templo|capilla|ermita|"
        r"estación|estacion|banco|hotel|restaurante|cine|gimnasio|mercadito|almacén|almacen)"
        # a dot inside a name ("Sta.Rosa") but not one ending a sentence: "frente al Banco Estado. El conductor…"
        r" (?:[A-ZÀ-Þ](?:[\wÀ-ÿ'’\-]|\.(?!\s|$))*|de|del|la|las|los|el|y)"
        r"(?: (?:[A-ZÀ-Þ0-9](?:[\wÀ-ÿ'’\-]|\.(?!\s|$))*|de|del|la|las|los|el|y)){0,5}"
        r"(?<![ ,])(?<! de)(?<! del)(?<! la)(?<! el)(?<! y)"
    ),
    # A crossing of two streets: "S 38th St and Pacific Ave", "Grand Ave & 5th St".
    re.compile(
        rf"(?<!\w)(?:(?:N|S|E|W)\.? )?(?:{_NAME} |\d{{1,3}}(?:st|nd|rd|th) ){{1,2}}"
        rf"(?:St|Ave|Rd|Blvd|Street|Avenue|Road)\.? (?:and|&|at|y) "
        rf"(?:(?:N|S|E|W)\.? )?(?:{_NAME} |\d{{1,3}}(?:st|nd|rd|th) ){{1,2}}"
        rf"(?:St|Ave|Rd|Blvd|Street|Avenue|Road)\b\.?"
    ),
    # A street without its number, its type spelled out: "Holloway Road", "Germantown Ave", "47th Street".
    re.compile(
        rf"(?<!\w)(?:(?:N|S|E|W|North|South|East|West)\.? )?(?:{_NAME} |\d{{1,3}}(?:st|nd|rd|th) ){{1,3}}"
        rf"(?:Street|Road|Avenue|Ave|Boulevard|Blvd|Lane|Drive|Highway|Hwy|Parkway|Pkwy|Turnpike|Way|Crescent|Terrace)"
        rf"\b\.?(?: and (?:{_NAME} |\d{{1,3}}(?:st|nd|rd|th) ){{1,3}}"
        rf"(?:Street|Road|Avenue|Ave|Boulevard|Lane|Drive|Way)\b)?"
    ),
    # Numbered with a direction first: "400 N. Michigan Ave.", "4707 E Thomas Rd".
    re.compile(
        rf"(?<![\w,.])\d{{1,5}} (?:N|S|E|W|NE|NW|SE|SW|North|South|East|West)\.? (?:{_NAME} |\d{{1,3}}(?:st|nd|rd|th) )"
        rf"{{1,3}}{_EN_SUFFIX}\b\.?(?:,? (?:#|Apt\.?|Apartment|Unit|Suite|Ste\.?) ?#?\d{{1,5}}[A-Z]?)?"
    ),
    # Typed in lower case: "2210 w north ave".
    re.compile(
        # ("rkz 4471 on royal avenue" is a plate, then the street it was on)
        r"(?<![\w,.])\d{1,5} (?!(?:on|in|at|to|of|from|and|the|down|up|along|near|by|off)\b)"
        r"(?:[nsew] )?(?:[a-z]+ ){1,3}"
        r"(?:st|street|ave|avenue|rd|road|blvd|boulevard|dr|drive|ln|lane|"
        r"way|ct|court|pl|place|hwy|pkwy)\b\.?"
        # and its flat or unit: "44 oak st apt 2", "1207 w maple ave unit 3b"
        r"(?:,? (?:apt|apartment|unit|suite|ste|flat|#) ?#?\d{1,5}[a-z]?\b)?"
    ),
    re.compile(r"(?<!\w)(?i:Ruta|Route|Carretera|Ctra\.?|Km\.?) \d{1,4},? (?i:km|kil[óo]metro) \d{1,4}(?:[.,]\d)?"),
    re.compile(
        # not the last group of a longer number, before a postcode that is not the first of another
        # ("Medicare card 2123 45670 1, Aadhaar 2345 6789 0123" holds no address)
        rf"(?<![\w,.])(?<!\d )\d{{1,5}},? {_NAME}"
        rf"(?= ?,? (?:[A-Z]{{1,2}}\d{{1,2}}[A-Z]? \d[A-Z]{{2}}|\d{{4,5}} (?!\d)|{_NAME},? "
        rf"(?:[A-Z]{{1,2}}\d{{1,2}}[A-Z]? \d[A-Z]{{2}})))"
    ),
    # A floor and a door alone, as a residents' meeting's minutes name each owner's flat: "D. Faustino Lozano
    # (2.º A)", "(piso 3.º A)".
    # A body's temperature in brackets is no flat: "(39° C)", "(99° F)".
    re.compile(
        r"(?<=\()(?!(?:[3-9]\d)\.?° ?[CF]\b)(?:piso )?\d{1,2}\.?[º°] ?[A-H](?=[,)])"
        r"|(?<=piso )\d{1,2}\.?[º°] ?[A-H](?![\w])"
    ),
    # A street written with no type word, as Spain and Argentina often do, known by what follows its number: a
    # postcode and a town ("Camilo Villabaso, 9, 48002 Bilbao") or a floor or an office ("Córdoba 1147, of. 3").
    # A hospital's room, bed or bay is no address ("Habitación 12, planta 3").
    re.compile(
        rf"(?<![\w.,])(?!{_WARD_WORDS}){_NAME}(?: (?:{_LOWER_LINK} ){{0,3}}{_NAME}){{0,3}},? \d{{1,4}}[A-Za-z]?(?!\w)"
        # atomic: the floors' ways of reading " 1º" are many, and a look ahead failing after each would try
        # them all ("Día 3 38° 37° 38° …" took seconds)
        rf"(?>(?:{_FLOOR})*)(?=,? (?:\d{{5}}|(?!(?:19|20)\d\d )\d{{4}}) {_NAME})"
    ),
    re.compile(
        rf"(?<![\w.,])(?!{_WARD_WORDS}){_NAME}(?: (?:{_LOWER_LINK} ){{0,3}}{_NAME}){{0,2}} \d{{1,5}}"
        rf"(?=,? (?i:of\.|oficina|piso|dpto\.?|depto\.?|dto\.?|local|apto\.?|int\.?|planta)\s?\w)(?:{_FLOOR})+"
    ),
)
# A neighbourhood after its label ("Col. Roma Norte", "barrio Laureles"): the name, the label left as written.
_COLONIA = re.compile(
    rf"(?<!\w)(?i:Col(?:onia)?\.?|Fracc(?:ionamiento)?\.?|Barrio|Bº|B°|Urb\.|Urbanizaci[óo]n|Alcald[íi]a|Alc\.|"
    rf"Delegaci[óo]n|Sector|Reparto|Residencial|Res\.|"
    # the units smaller than a province that Central and South America name a place by: "municipio de Santa
    # Lucía", "corregimiento de Bella Vista", "aldea El Zapote", "cantón de Grecia", "vereda La Esperanza"
    rf"Municipio de|Municipio|Corregimiento de|Corregimiento|Aldea|Cant[óo]n de|Cant[óo]n|Distrito de|"
    rf"Parroquia|Vereda|Caser[íi]o|Comuna de|Barriada|Pueblo de) (?P<name>{_STREET_NAME})"
)
# A postcode before its town, as most of Europe and Latin America write them.
_POSTCODE_TOWN = re.compile(
    rf"(?:(?<=\n)|(?<=^)|(?<=, )|(?<=,)|(?<=\. )|(?<=- )|(?<=C\.P\. )|(?<=CP )|(?<=C\.P\.)|(?<=\t)|(?<=[·|•–—] ))"
    rf"(?P<zip>\d{{5}}|\d{{3}} \d{{2}}|\d{{2}}-\d{{3}}|\d{{4}}-\d{{3}}|\d{{4}} ?[A-Z]{{2}}|[A-Z]-\d{{4,5}}|\d{{4}})"
    rf"[ ,]+(?P<town>{_NAME}(?:[ \-](?:{_LOWER_LINK} ){{0,3}}{_NAME}){{0,3}})(?: \((?P<area>{_NAME}(?: {_NAME})?)\))?",
    re.M,
)
_US_STATES = (
    "AL AK AZ AR CA CO CT DE DC FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND OH OK "
    "OR PA PR RI SC SD TN TX UT VT VA WA WV WI WY"
)
_AU_CA_STATES = "NSW VIC QLD WA SA TAS ACT NT ON QC BC AB MB SK NS NB NL PE YT NU"
# A state's postal code names a region too large to identify anyone (HIPAA's own line): it stays as written.
STATE_CODES = frozenset(_US_STATES.split() + _AU_CA_STATES.split())
_COMPANY_FORMS = frozenset("SA AB NV".split())
_TRAILING_STATE = re.compile(rf"(?:,\s*|\s+)(?:{'|'.join(sorted(STATE_CODES))})\.?$")


def without_state_code(text: str, entity: Entity) -> Entity | None:
    """A place or a name without the state code after it ("Greenwood Village, CO"), or None for a state code
    found alone."""
    if entity.type not in (T.LOCATION, T.ORGANIZATION, T.ADDRESS, T.PERSON):
        return entity
    surface = text[entity.start : entity.end]
    if surface.rstrip(".") in STATE_CODES:
        return None
    if (match := _TRAILING_STATE.search(surface)) and match.start() > 0:
        code = match.group(0).strip(" ,.")
        before = surface[: match.start()].rstrip()
        company = entity.type is T.ORGANIZATION and (
            code in _COMPANY_FORMS and not match.group(0).startswith(",") or before.endswith(("&", " and"))
        )
        # a given name alone before a surname that is also a state's code: "Xiaoling MA", "Jun LA"
        surname = (
            entity.type is T.PERSON
            and not match.group(0).startswith(",")
            and " " not in before
            and before.lower() in lexicon.first_names()
            and lexicon.is_name_word(code)
        )
        if not company and not surname:  # "Hoteles Tramuntana SA", "Adebanjo & CO", "Volvo AB" end in a company's form
            return Entity(entity.start, entity.start + match.start(), entity.type)
    return entity


_CITY_REGION_CODE = re.compile(
    rf"(?<![\w])(?P<city>{_NAME}(?: {_NAME}){{0,2}}),? (?:{'|'.join(_AU_CA_STATES.split())})"
    rf"(?:,? (?P<zip>\d{{4}}|[A-Z]\d[A-Z] ?\d[A-Z]\d))?(?!\w)"
)
_CITY_BEFORE_UK_POSTCODE = re.compile(
    rf"(?<![\w])(?P<city>{_NAME}(?: {_NAME}){{0,2}}),? "
    rf"(?P<zip>(?:[A-PR-UWYZ][A-HK-Y]?\d[A-Z\d]? ?\d[ABD-HJLNP-UW-Z]{{2}}))"
    rf"(?!\w)"
)
# Malta's postcode, three letters of the locality and four digits: "Żebbuġ ZBG 1511", "Valletta VLT 1211". Three
# capitals and four digits after a capitalised word are as often an amount of money ("Total USD 2500") or a
# standard ("ISO 9001"), which name no one; other codes are kept, since a register's number after a name
# ("Ahmed GMC 7046") is an identifier too.
_CURRENCIES_AND_STANDARDS = (
    "USD EUR GBP JPY CHF CAD AUD NZD MXN ARS CLP COP PEN BRL UYU PYG BOB VES CRC GTQ HNL NIO PAB DOP CUP SEK NOK DKK "
    "PLN CZK HUF RON BGN TRY RUB INR CNY HKD SGD KRW ZAR NGN KES GHS EGP MAD AED SAR ILS THB PHP IDR MYR PKR BDT "
    "ISO IEC RFC DIN ANSI IEEE UNE"
)
_CITY_BEFORE_MALTESE_POSTCODE = re.compile(
    rf"(?<![\w])(?P<city>{_NAME}(?: {_NAME}){{0,2}}),? "
    rf"(?P<zip>(?!(?:NSW|VIC|QLD|TAS|ACT|{'|'.join(_CURRENCIES_AND_STANDARDS.split())})\b)[A-Z]{{3}} ?\d{{4}})(?!\w)"
)
_LABELLED_PLACE = re.compile(
    rf"(?<!\w)(?i:City|Town|Ciudad|Localidad|Municipio|Poblaci[óo]n|Alc\.|Alcald[íi]a|Delegaci[óo]n|Mpio\.|Deleg\.|"
    rf"Comuna|Distrito|Barrio|County of|Condado de|Place of birth|Lugar de nacimiento|Birthplace|"
    # where a chart or a statement says one lives, and the small places of Latin America and East Africa
    rf"Residence|Place of residence|Lugar de residencia|Residencia|Village|Parroquia|Cant[óo]n|Corregimiento|"
    rf"Vereda|Aldea|Caser[íi]o|Ciudadela|Cdla\.)[:\s]+"
    rf"(?P<town>{_NAME}(?:[ \-](?:{_LOWER_LINK} )?{_NAME}){{0,3}}(?: \d{{1,3}}(?!\d|[.,:/]\d))?)"
)
_UNITS = (
    "Boma|Payam|County|Kebele|Woreda|Locality|Suburb|Sub-?county|Sub-?location|Township|Hamlet|Settlement|LGA|"
    "Taluk|Tehsil|Mandal|Barangay|Purok|Sitio|Colonia|Fraccionamiento|Reparto|Paraje"
)
# A form's small units of East Africa, West Africa, South Asia and the Philippines, and a city named as one,
# whether or not a province has its name ("en la ciudad de Salta"), on the label's line.
_UNIT_LABELLED_PLACE = re.compile(
    rf"(?<!\w)(?:(?i:{_UNITS}):[ \t]*|(?:Boma|Payam|Kebele|Woreda|Barangay|Purok|Sitio|Colonia|colonia|barangay|purok) "
    rf"|(?P<city>(?i:ciudad|city|town|villa|pueblo|municipio|localidad|poblaci[óo]n) (?i:de|of)) )"
    # (not a heading's "COUNTY OF LANCASTER", whose town the headings' rules read)
    rf"(?!(?i:of|de|del|the|la|el)\b)(?P<town>{_NAME}(?:[ \-](?:{_LOWER_LINK} )?{_NAME}){{0,3}})"
)
# A town after a label that may also name a room or a ward ("Lugar: Tegucigalpa", not "Lugar: Urgencias"):
# only a town on the gazetteer.
_PLACE_LABEL_TOWN = re.compile(
    rf"(?<!\w)(?i:Lugar|Place|Location|Ubicaci[óo]n|Procedencia|Origen|Origin)[ \t]*:[ \t]*"
    rf"(?P<town>{_NAME}(?:[ \-](?:{_LOWER_LINK} )?{_NAME}){{0,2}})"
)
# A care home's room is where its resident lives, an address as a flat's number is; a hospital's room or bed is
# no one's home. The text's words for a home or its residents say which.
_CARE_HOME = re.compile(
    r"(?i:\b(?:care|nursing|residential|rest|retirement|group) homes?\b|\bassisted living\b|\bskilled nursing\b|"
    # (a resident as a form's field, not a hospital's resident doctor or a country's residents)
    r"(?m:^)[ \t]*resident(?:e)?:|\bresidencia(?: de (?:mayores|ancianos))?\b|\bgeri[áa]trico\b|"
    r"\bhogar de (?:ancianos|reposo)\b|\bcasa de reposo\b|\basilo\b)"
    # (Uruguay's word for one, before its name: "Residencial Los Ceibos", not "zona residencial")
    r"|\bResidencial(?= [A-ZÀ-Þ])"
)
# How far before a room the text may name its home.
_ROOM_AFTER_HOME = 600
_ROOM = re.compile(
    r"(?<![\w/])(?i:room(?:/bed)?|rm\.?|hab\.?|habitaci[óo]n|apartment)[ \t]*(?:no\.?|n[º°]\.?)?[ \t]*:?[ \t]*"
    # (at a clause's end too: "moved to room 14.", but no decimal or time: "room 1.5", "hab 2,5", "rm 10:30")
    r"(?P<room>\d{1,4}(?:-?[A-Ha-h])?)(?![\w/]|[.,:]\d)"
)
_COUNTY = re.compile(
    rf"(?<!\w)(?:(?P<a>{_NAME}(?: {_NAME})?) (?i:County|Parish|Borough)|(?i:Co\.) (?P<b>{_NAME}))(?!\w)"
)
# A district by its name and number, as Nigeria's, Ghana's and India's towns number theirs: "Garki Area 11",
# "Tema Community 18", "Lekki Phase 1", "Wuse Zone 2", "Cadastral Zone B09".
_NUMBERED_DISTRICT = re.compile(
    rf"(?<!\w)(?:{_NAME} ){{1,2}}(?:Area|Zone|Community|Phase|Sector|Extension|Layout) [A-Z]?\d{{1,3}}[A-Z]?(?!\w)"
)
# A town, its state and its ZIP typed in lower case, as a portal message gives them: "akron oh 44303". The ZIP
# is the evidence ("oh", "in" and "me" are words too).
_LOWER_CITY_STATE_ZIP = re.compile(
    rf"(?<![\w'\-])(?!(?:in|at|to|from|near|of|the|and|live|lives|moved|now)\b)"
    rf"(?P<city>[a-z][a-z'\-]{{2,30}}(?: [a-z][a-z'\-]{{2,30}})?),? "
    rf"(?P<state>{'|'.join(_US_STATES.lower().split())})\.?,? "
    r"(?P<zip>\d{5}(?:-\d{4})?)(?![\w-])"
)
# The states whose codes are also everyday words: after one, the town must be on the gazetteer.
_STATES_THAT_ARE_WORDS = frozenset("al co de hi id in la ma me mi mo ne oh ok or pa wa".split())


# Trinidad's lanes off a main road, by the number and a name no everyday word: "#9 Sookram Trace" (a urine
# dipstick's "Protein Trace" is a reading).
_TRACE = re.compile(r"(?<![\w,.])#?\d{1,4},? (?P<name>[A-Z][a-z]+(?: [A-Z][a-z]+)?) Trace\b")
# A town in capitals closing a heading in capitals after a comma: "QUEEN ELIZABETH UNIVERSITY HOSPITAL, GLASGOW",
# "JUZGADO DE PRIMERA INSTANCIA N.º 3, BADAJOZ".
_TOWN_CLOSING_A_HEADING = re.compile(
    r"(?m)(?<=[A-ZÁÉÍÓÚÑ0-9.]), (?P<town>[A-ZÁÉÍÓÚÑ][A-ZÁÉÍÓÚÑ'’\-]+(?: [A-ZÁÉÍÓÚÑ][A-ZÁÉÍÓÚÑ'’\-]+){0,2})[ \t]*$"
)

# A town in a heading in capitals, after the body's name and its link or dash ("DESTACAMENTO DE ÚBEDA",
# "HOSPITAL UNIVERSITARIO LA FE – VALENCIA", "REGISTRY AT NAKURU"), or before the office it names ("NAKURU
# OFFICE"). The gazetteer and the heading's capitals are the evidence, and no everyday word is a town there
# ("SERVICIO DE URGENCIAS", "COURT OF APPEAL").
_CAPS_WORD = r"[A-ZÁÉÍÓÚÑÜ][A-ZÁÉÍÓÚÑÜ'’\-]+"
_TOWN_IN_A_HEADING = re.compile(
    # (or the court's town on a line of its own: "AT GOROKA")
    rf"(?m)(?:(?<=[A-ZÁÉÍÓÚÑÜ.)])(?: [–—-] | DE | DEL | OF | AT | EN )|^[ \t]*(?:AT|EN) )"
    rf"(?P<town>{_CAPS_WORD}(?: (?:DE |DEL |LA |EL |LOS |LAS )?{_CAPS_WORD}){{0,2}})"
    r"(?=[ \t]*$|[ \t]*[–—(,]|[ \t]+-[ \t])"
    rf"|^[ \t]*(?P<before>{_CAPS_WORD}(?: {_CAPS_WORD})?) (?=(?:OFFICE|BRANCH|STATION|REGISTRY|SUB-REGISTRY|"
    rf"DIVISION|DISTRICT OFFICE|POLICE STATION|MAGISTRATES?'? COURT|HIGH COURT)\b)"
)


def _everyday_value(words: str) -> bool:
    """A form's value that names no place: every word everyday in English or Spanish, and no town."""
    found = re.findall(r"[^\W\d_]+", words)
    return not _a_town(words) and all(
        max(lexicon.zipf(w.lower()), lexicon.zipf_in(w.lower(), "es")) >= 3.5 or len(w) == 1 for w in found
    )


def towns_in_headings(text: str) -> list[Entity]:
    """The towns ``_TOWN_IN_A_HEADING`` reads that the gazetteer knows and no region or everyday word names."""
    from app.identifiers.descriptors import names_nothing  # descriptors reads the rules, which read this module

    found = []
    for match in _TOWN_IN_A_HEADING.finditer(text):
        group = "town" if match.group("town") else "before"
        start, end = match.span(group)
        if not _a_town(_titled(text[start:end])) and (inner := _LAST_LINKED.search(text, start, end)):
            start = inner.start("town")  # "– DESTACAMENTO DE ÚBEDA": the body's name, then its town
        elif not _a_town(_titled(text[start:end])) and (first := _FIRST_WORD.match(text, start, end)):
            if _everyday_value(text[first.end() : end]):
                end = first.end()  # "— KABWE CENTRAL —": the town, then its part
        town = _titled(text[start:end])
        if not _a_town(town) or lexicon.is_region(town) or names_nothing(town):
            continue
        if _EPONYM_HEAD.search(text, max(0, start - 30), start) or lexicon.is_kept_term(town):
            continue  # "ESCALA DE GLASGOW", "SÍNDROME DE CUSHING": a scale's or a disease's eponym
        if town.upper() in _HEADING_WORDS or max(lexicon.zipf(town.lower()), lexicon.zipf_in(town.lower(), "es")) >= 5:
            continue  # "COURT OF JUSTICE", "DADO DE ALTA": towns somewhere, words here
        found.append(Entity(start, end, T.LOCATION))
    return found


# The words a disease, a sign or a scale is named with before its eponym.
_EPONYM_HEAD = re.compile(
    r"(?i:\b(?:escala|s[íi]ndrome|enfermedad|tiroiditis|criterios|signo|virus|maniobra|test|prueba|[íi]ndice|"
    r"clasificaci[óo]n|scale|syndrome|disease|sign|criteria|score|index|classification|manoeuvre|maneuver)"
    r"(?: [A-ZÁÉÍÓÚÑ]+)?) (?:DE|DEL|OF)? ?$"
)
_FIRST_WORD = re.compile(_CAPS_WORD + r"(?= )")
_LINK_WORDS = frozenset("de del la el los las y of the on upon".split())


def _titled(words: str) -> str:
    """A place's name in capitals as a gazetteer writes it: "SANTIAGO DE CUBA" → "Santiago de Cuba"."""
    return " ".join(w.lower() if w.lower() in _LINK_WORDS and i else w.title() for i, w in enumerate(words.split(" ")))


_LAST_LINKED = re.compile(rf"(?: DE| DEL| OF| AT| EN) (?P<town>{_CAPS_WORD}(?: {_CAPS_WORD})?)$")
# Words of a heading that the gazetteer also holds as some town's name.
_HEADING_WORDS = frozenset(
    "JUSTICE APPEAL APPEALS PEACE CHANCERY EQUITY ADMIRALTY PROBATE JUSTICIA PAZ VICTORIA GUARDIA FAMILY "
    "FAMILIA CORONER HEALTH WELFARE LABOUR LABOR TRABAJO SALUD SOCIAL NACIMIENTO MATRIMONIO DEFUNCIÓN DEFUNCION "
    "PROGRESO ESPERANZA CONCORDIA".split()
)


def _a_role(words: str) -> bool:
    """Whether ``words`` say what someone does ("Deputy Manager", "Registered Manager"), not a town."""
    from app.identifiers.descriptors import names_nothing  # descriptors reads the rules, which read this module

    return names_nothing(words) and not _a_town(words)


def _a_coded_phrase(text: str, match: re.Match[str]) -> bool:
    """Whether ``_POSTCODE_TOWN``'s town is an everyday word no town list has, going on in lower case: a
    nursing diagnosis's or a procedure's code and its title ("00132 Dolor agudo r/c …", "99213 Office visit")."""
    town = match.group("town")
    first = town.split()[0]
    goes_on = re.match(r"[ \t]+[a-záéíóúñ]", text[match.end("town") :]) is not None or " " in town
    return goes_on and not _a_town(town) and not _a_town(first) and lexicon.zipf(first) >= 3.5


def _a_town(name: str) -> bool:
    from app.identifiers.towns import town_names  # towns reads this module's patterns

    return name in town_names()


_TOWN_BEFORE_IRISH_COUNTY = re.compile(
    rf"(?<![\w])(?P<town>{_NAME}(?: {_NAME}){{0,2}}),? Co\.? {lexicon.IRISH_COUNTY}\b"
)
_CITY_STATE = re.compile(
    rf"(?<![\w])(?P<city>{_NAME}(?: {_NAME}){{0,2}}),? (?P<state>(?:{'|'.join(_US_STATES.split())})\.?)"
    rf"(?:,? (?P<zip>\d{{5}}(?:-\d{{4}})?))?(?!\w)(?=(?(zip)|[ \t]*(?:[,.;)\n]|$)))"
)
# "Chicago, Illinois 60611": a town, its state spelled out, the ZIP.
_CITY_STATE_NAME_ZIP = re.compile(
    rf"(?<![\w])(?P<city>{_NAME}(?: {_NAME}){{0,2}}), (?P<state>{_NAME}(?: {_NAME})?),? "
    rf"(?P<zip>\d{{5}}(?:-\d{{4}})?)(?!\d)"
)
_CUED_POSTCODE = re.compile(
    r"(?<!\w)(?:C\.P\.|CP|c[óo]digo postal|c[óo]d\. postal|zip(?: code)?|post ?code|postal code)"
    r"(?i: fiscal| de facturaci[óo]n| de env[íi]o| de entrega| de domicilio)?"
    r"[:\s]*(?P<zip>[A-Z0-9]{2,5}(?:[ \-]?[A-Z0-9]{1,4})?)"
    r"(?!\w)",
    re.I,
)
# Singapore's six digits after the city-state's name: "Singapore 528605".
# India's six-digit PIN after its town ("Pune 411038", "New Delhi 110024", "Chennai – 600004", "chennai 600020"):
# the gazetteer's town vouches for the number.
_TOWN_AND_INDIAN_PIN = re.compile(
    rf"(?<![\w])(?P<town>(?:{_NAME}|[a-z]{{3,}})(?: (?:{_NAME}|[a-z]{{3,}}))?)(?:,? | [–-] | - )"
    rf"(?P<zip>[1-8]\d{{5}})(?![\d\w])"
)
_SINGAPORE_POSTCODE = re.compile(r"(?<!\w)(?:Singapore |SINGAPORE |S\(?)(?P<zip>\d{6})\)?(?!\d)")
_EIRCODE = re.compile(
    r"(?<!\w)[AC-FHKNPRTV-Y]\d{2}[ ]?(?=[AC-FHKNPRTV-Y0-9]*[AC-FHKNPRTV-Y])[AC-FHKNPRTV-Y0-9]{4}(?!\w)"
)
# not a coma score's parts in their bracket or after "GCS": "GCS 15 (E4V5M6)"
_CANADA = re.compile(
    r"(?<!\w)(?!(?<=\()E\dV\dM\d|(?<=GCS )E\dV\dM\d)"
    r"[A-CEGHJ-NPR-TVXY]\d[A-CEGHJ-NPR-TV-Z] ?\d[A-CEGHJ-NPR-TV-Z]\d(?!\w)"
)
_UK_POSTCODE = re.compile(r"(?<!\w)(?:GIR ?0AA|[A-PR-UWYZ][A-HK-Y]?\d[A-Z\d]? ?\d[ABD-HJLNP-UW-Z]{2})(?!\w)")
_ZIP_AFTER_TOWN = re.compile(rf"(?<=, )(?P<town>{_NAME}(?: {_NAME}){{0,2}}),? (?P<zip>\d{{5}}(?:-\d{{4}})?)(?!\d)")
# The words of a sentence typed in capitals that no town's name holds after its first word.
_CAPITALS_STOPS = CALENDAR_WORDS | frozenset(
    "in on at to from for with and or the by as is was en con por para desde hasta".split()
)
# Someone lives, was born or is from a place: the capitalised words after the cue are that place.
_LIVES_IN = re.compile(
    rf"(?<!\w)(?i:(?:lives?|living|lived|resides?|residing|resident|born|moved|relocated|raised|grew up|based|"
    rf"travell?ed|vive|viv[íi]a|reside|resid[íi]a|residente|nacid[oa]|domiciliad[oa]|con domicilio|trasladad[oa]|"
    rf"se mud[óo]|viene|vino|es|era) (?:in|at|to|from|near|en|de|a|cerca de)"
    rf"|originally from|is from|are from|was from|comes from|came from|hails from|native of|natural de|"
    rf"vecin[oa] de|procedente de|originari[oa] de|oriund[oa] de)"
    rf"(?: (?:the town of|the city of|el municipio de|la localidad de|el pueblo de))? "
    rf"(?P<town>{_NAME}(?:[ \-](?:{_LOWER_LINK} )?{_NAME}){{0,2}})"
)


# The words that introduce an address in a letter, a contract or a form: what follows, up to the clause's
# end, is the address — "con domicilio en calle Zeballos 2780, de esta ciudad", "residing at 2214 E. 41st
# Street, Tulsa". The clause ends at a line's end, a semicolon, or a comma before a lower-case word (the
# sentence going on: "…, con D.N.I."), and a town or a number in it is part of the address.
_CUED_ADDRESS = re.compile(
    r"(?i:domicilio(?! (?:procesal )?electr[óo]nico)(?: real| legal| fiscal| particular| procesal| constituido)?"
    r"(?: en| social en| a efectos de notificaciones en)?|domiciliad[oa] en|con domicilio en|"
    r"ubicad[oa] en|sit[oa] en|con estudio en|con frente a|direcci[óo]n(?: particular| postal)?|"
    r"residing at|resides at|lives at|living at|home address(?: is)?|(?<!mac )(?<!ip )(?<!e-mail )(?<!email )"
    r"(?<!web )(?<!hardware )(?<!wallet )address(?: on file)?|located at|"
    # a label's value follows its colon, on its line or the next; without a colon, a line's last word is a
    # heading ("MÉDICO – Domicilio⏎Mejor. Sin ortopnea…")
    # (a label's own words before its colon: "Dirección del paciente:", "Dirección actual:", "Address for service:")
    r"mailing address|direcci[óo]n de notificaciones)"
    r"(?:(?:[ \t]+[a-záéíóúñ]+(?: [a-záéíóúñ]+){0,2})?[ \t]*:\s*|[ \t]+)(?:(?:la|el|en|de|del|is|es) )?"
    r"(?P<address>(?=[^\n;|]{0,40}\d)[A-ZÀ-Þa-zà-ÿ0-9#][^\n;|]{2,90}?)(?=,? (?!(?:número|piso|puerta|bajo|esquina|"
    r"local|apto|dpto|depto|departamento|oficina|of|barrio|sector|edificio|casa|manzana|lote|portal|escalera|"
    r"planta|interior|despacho|consultorio|bodega|km|entre|frente)\b)(?:[a-záéíóú]{2,}\b|C\.?P\.)|[;\n]|$|"
    # a neighbourhood's label closes the street ("…, piso 3, Col. Centro"): the neighbourhood is a place
    r",? (?=(?:Col|Colonia|Fracc|Barrio|Bº|Urb)\b)|"
    r"\.(?:\s|$)|\s*\|)"
)


# What names a postcode's field ("CP 57000", "Eircode T12 K8AF"), not the town before it.
POSTCODE_LABELS = frozenset(
    (
        "cp",
        "c.p",
        "cod. postal",
        "código postal",
        "codigo postal",
        "zip",
        "zip code",
        "postcode",
        "eircode",
        "plz",
        "cep",
    )
)


def _postcode_label(surface: str) -> bool:
    return surface.lower().strip(" .:") in POSTCODE_LABELS


def _everyday_without_number(street: str) -> bool:
    """ "Hearing", "Offering", "String": an everyday word that only ends like a fused street name ("-ring",
    "-tie", "-weg"). Without a house number, a street so written is a rare word ("Kungsgatan")."""
    if any(c.isdigit() for c in re.sub(r"\b(?:19|20)\d\d\b", "", street)):
        return False  # a year is no house's number: "In Spring 1981"
    return any(lexicon.zipf(word) >= lexicon.EVERYDAY_ZIPF for word in re.findall(r"[^\W\d_]+", street))


def _junior(text: str, match: re.Match) -> bool:
    """ "Guy L. Steele Jr. Unfortunately": "Jr." after a capitalised name is a junior, not Peru's "jirón"."""
    return (
        match.group(0).startswith("Jr.")
        and re.search(r"[A-Z][\w'’\-]*\.? $", text[max(0, match.start() - 30) : match.start()]) is not None
    )


# Guatemala City's and other Central American cities' numbered zones, between an address's commas: "4.ª calle
# 12-34, zona 3, Quetzaltenango".
_CITY_ZONE = re.compile(r"(?<=, )(?i:zona) \d{1,2}(?!\d)(?=[ \t]*(?:,|·|\n|$))", re.M)


# The same typed in lower case, as a chat gives one: "vive por la col. moderna cerca del oxxo", "en el barrio
# de jalatlaco frente a". The name runs to the first word that places something beside it.
_LOWER_COLONIA = re.compile(
    # after the words that place someone there ("vive en la col.", "en el barrio"): "una colonia mucoide" is a
    # culture's
    r"(?:(?<=\bla )|(?<=\bel )|(?<=\ben )|(?<=\bpor )|(?<=\bal )|(?<=\bdel )|(?<=\bmi )|(?<=\bsu )|(?<=\btu ))"
    r"(?:col\.|colonia|fracc\.?|fraccionamiento|barrio|urb\.|"
    r"urbanizaci[óo]n) (?:de |del |de la |el |la |los |las )?"
    r"(?P<name>(?!(?:cerca|frente|junto|detrás|detras|enfrente|donde|que|por|para|en|de|del|y|hay|es|está|esta|"
    r"son|fue|era|tiene|tenía|mucha|mucho|muy|todo|toda|se|no|ya)\b)[a-zà-ÿñ]{3,}"
    r"(?: (?!(?:cerca|frente|junto|detrás|detras|enfrente|donde|que|por|para|en|de|del|y|a|al|con|se|es|está|esta|"
    r"son|fue|era|tiene|hay|me|te|le|lo|la|los|las|el|un|una|ya|no|muy)\b)[a-zà-ÿñ]{2,}){0,2})"
)


def find_neighbourhoods(text: str) -> list[Entity]:
    """Neighbourhoods after their label ("Col. Centro", "barrio Laureles", "col. moderna"): the label vouches
    for the name, however everyday its words."""
    return [Entity(*m.span("name"), T.LOCATION) for m in _COLONIA.finditer(text)] + [
        Entity(*m.span("name"), T.LOCATION)
        for m in _LOWER_COLONIA.finditer(text)
        if m.group("name").split()[0] not in _NOT_A_NEIGHBOURHOOD
    ]


# What follows the word for a neighbourhood in a sentence without naming one: "el barrio entero", "la colonia
# donde vivo".
_NOT_A_NEIGHBOURHOOD = frozenset("entero entera todo toda nuevo nueva viejo vieja mismo misma".split())


_EXTENSION_BEFORE = re.compile(r"(?i:\b(?:ext|extn|extension|x|int|anexo)\.?)\s*$")


# A street named by a number before its building, house or floor, as Panama and Colombia write one: "Calle 50,
# Edificio Torre Pacífica, piso 22", "Calle 3.ª, casa 14-B" (the unit after it is read by address_tails).
# A street named by its name alone and its number after the verb of living, as Argentina and Uruguay write one:
# "vive en mendoza 3840", "vivimos en Rivadavia 5680" (not a town and its year, "vive en Rosario 2019").
_LIVES_ON_STREET = re.compile(
    r"(?i:\b(?:vive|vivo|viven|vivimos|reside|resido|residen|domiciliad[oa]s?) en) "
    r"(?P<street>(?!(?i:el|la|los|las|un|una|casa|calle|piso|su|mi)\b)[^\W\d_][^\W\d_'’\-]+"
    r"(?: [^\W\d_][^\W\d_'’\-]+){0,2} (?!(?:19|20)\d\d(?!\d))\d{2,5})(?![\w/])"
)
_NUMBERED_STREET = re.compile(
    r"(?<!\w)(?:Calle|Avenida|Av\.|Carrera|Cra\.|Circular|Diagonal|Transversal|V[íi]a)\s\d{1,3}(?:\.?[ªº]|[A-Z])?"
    r"(?=,? (?i:edificio|edif\.|casa|piso|oficina|local|apto\.?|apartamento|torre|bloque|consultorio|#|n\.?[º°]|no\.))"
)


def find_places(text: str) -> list[Entity]:
    """Street addresses, postcodes and towns in ``text``."""
    found: list[Entity] = []
    found += find_neighbourhoods(text)
    found += [Entity(*m.span(), T.LOCATION) for m in _CITY_ZONE.finditer(text)]
    for pattern in (*_STREETS, _UNIT_LINE, _PO_BOX, _PRIVATE_BAG, _MILITARY):
        found += [
            Entity(*_trim(text, *m.span()), T.ADDRESS)
            for m in pattern.finditer(text)
            if not _by_way_of(m)
            and not (pattern is _FUSED_STREET and _everyday_without_number(m.group(0)))
            and not _junior(text, m)
        ]
    found += [Entity(*m.span(), T.ADDRESS) for m in _NUMBERED_STREET.finditer(text)]
    found += [Entity(*m.span("flat"), T.ADDRESS) for m in _A_TENANTS_FLAT.finditer(text)]
    found += [Entity(*m.span("street"), T.ADDRESS) for m in _LIVES_ON_STREET.finditer(text)]
    for match in _MILITARY_POST.finditer(text):
        found += [Entity(*match.span("city"), T.ADDRESS), Entity(*match.span("zip"), T.POSTCODE)]
    timeline = len(_LINE_OPENING_TIME.findall(text)) >= 2  # once a text, not once a candidate
    for match in _POSTCODE_TOWN.finditer(text):
        if _year_before_words(match) or _time_before_words(text, match, timeline):
            continue
        if _EXTENSION_BEFORE.search(text, max(0, match.start("zip") - 8), match.start("zip")):
            continue  # "ext. 4127    Date received": a phone's extension before a form's next label
        if _a_coded_phrase(text, match):
            continue  # "- 00206 Riesgo de sangrado": a coded list's entry, not a postcode and its town
        found += [Entity(*match.span("zip"), T.POSTCODE), Entity(*match.span("town"), T.LOCATION)]
        if match.group("area") and not lexicon.is_region(match.group("area")):
            found.append(Entity(*match.span("area"), T.LOCATION))  # "(Navarra)", a province, names no one
    for match in _CITY_STATE_NAME_ZIP.finditer(text):
        if lexicon.is_region(match.group("state")) and not lexicon.is_region(match.group("city")):
            found += [Entity(*match.span("city"), T.LOCATION), Entity(*match.span("zip"), T.POSTCODE)]
    for match in _CITY_STATE.finditer(text):
        if match.group("city").isupper() and not match.group("zip"):
            continue  # "INFORME DE ALTA": a Spanish heading, not a town in Delaware
        if not match.group("zip") and _a_role(match.group("city")):
            continue  # "(Deputy Manager, TN)": a job and someone's initials, not a town in Tennessee
        found.append(Entity(*match.span("city"), T.LOCATION))
        if match.group("zip"):
            found.append(Entity(*match.span("zip"), T.POSTCODE))
    for match in _LOWER_CITY_STATE_ZIP.finditer(text):
        if match.group("state") in _STATES_THAT_ARE_WORDS and not _a_town(match.group("city")):
            continue  # "leucocitos de 12000", "they charged me 15000": a word, not Delaware or Maine
        found += [Entity(*match.span("city"), T.LOCATION), Entity(*match.span("zip"), T.POSTCODE)]
    for pattern in (_CITY_REGION_CODE, _CITY_BEFORE_UK_POSTCODE, _CITY_BEFORE_MALTESE_POSTCODE):
        for match in pattern.finditer(text):
            city = match.group("city")
            if pattern is _CITY_REGION_CODE and city.isupper() and not match.group("zip") and not _a_town(city):
                continue  # "THE CAR WAS STOLEN ON 2ND AUGUST": a sentence in capitals, not Ontario's town
            if not lexicon.is_region(match.group("city")):  # "St Saviour, Jersey JE2 7LQ": the island, no town
                found.append(Entity(*match.span("city"), T.LOCATION))
            if match.group("zip"):
                found.append(Entity(*match.span("zip"), T.POSTCODE))
    found += [Entity(*m.span("town"), T.LOCATION) for m in _LABELLED_PLACE.finditer(text)]
    for match in _UNIT_LABELLED_PLACE.finditer(text):
        # "Ciudad de Panamá", "Ciudad de México": the city's own name opens with its word
        whole = match.group("city") and _a_town(text[match.start("city") : match.end("town")])
        if not whole and _everyday_value(match.group("town")):
            continue  # "County: Unknown", "Locality: Urban", "ciudad de Origen", "Barangay Captain"
        found.append(Entity(match.start("city") if whole else match.start("town"), match.end("town"), T.LOCATION))
    homes = [m.start() for m in _CARE_HOME.finditer(text)]
    heading_end = text.find("\n") % (len(text) + 1)
    # a home named in the heading, or before the room: a hospital's room in a note that mentions a relative's
    # care home further on is no one's home ("sube a planta, hab. 312" … "ingresado en la Residencia Ederki")
    found += [
        Entity(*m.span("room"), T.ADDRESS)
        for m in _ROOM.finditer(text)
        if any(home < heading_end or m.start() - _ROOM_AFTER_HOME <= home < m.start() for home in homes)
    ]
    found += [
        Entity(m.start() + (m.group(0).startswith("#")), m.end(), T.ADDRESS)
        for m in _TRACE.finditer(text)
        if all(lexicon.zipf(w.lower()) < 3.5 for w in m.group("name").split())
    ]
    found += towns_in_headings(text)
    found += [
        Entity(*m.span("town"), T.LOCATION)
        for m in _TOWN_CLOSING_A_HEADING.finditer(text)
        if _a_town(m.group("town").title()) and not lexicon.is_region(m.group("town"))
    ]
    found += [
        Entity(*m.span("town"), T.LOCATION)
        for m in _PLACE_LABEL_TOWN.finditer(text)
        if _a_town(m.group("town")) and not lexicon.is_region(m.group("town"))
    ]
    for match in _COUNTY.finditer(text):
        found.append(Entity(*match.span(), T.LOCATION))
    found += [Entity(*m.span(), T.LOCATION) for m in _NUMBERED_DISTRICT.finditer(text) if not _generic_district(m)]
    # An Irish town before its county, however small: "Ballindine, Co. Mayo"
    found += [Entity(*m.span("town"), T.LOCATION) for m in _TOWN_BEFORE_IRISH_COUNTY.finditer(text)]
    for match in _ZIP_AFTER_TOWN.finditer(text):
        if match.group("town").split()[-1] in _US_STATES.split() + ["AE", "AP", "AA"]:
            continue
        if lexicon.is_region(match.group("town")):  # "Chicago, Illinois 60611": the state, then its ZIP
            found.append(Entity(*match.span("zip"), T.POSTCODE))
            continue
        found += [Entity(*match.span("town"), T.LOCATION), Entity(*match.span("zip"), T.POSTCODE)]
    for match in _TOWN_AND_INDIAN_PIN.finditer(text):
        town = match.group("town")
        words = town.split()
        if lexicon.is_region(words[-1]) or words[-1].isupper() and len(words[-1]) <= 4:
            continue  # "Singapore 640418" is the city-state's own code; "SIS 123456" an insurer's number
        # "New Delhi", "Pune": the town whole, or its last word ("Kothrud, Pune 411038" reads "Kothrud, Pune")
        if _a_town(town) or _a_town(town.title()) or _a_town(words[-1]) or _a_town(words[-1].title()):
            found.append(Entity(*match.span("zip"), T.POSTCODE))
            named = town if (_a_town(town) or _a_town(town.title())) else words[-1]
            found.append(Entity(match.end("town") - len(named), match.end("town"), T.LOCATION))
    for pattern in (_CUED_POSTCODE, _SINGAPORE_POSTCODE):
        found += [
            Entity(*m.span("zip"), T.POSTCODE) for m in pattern.finditer(text) if re.search(r"\d", m.group("zip"))
        ]
    for pattern in (_EIRCODE, _CANADA, _UK_POSTCODE):
        found += [Entity(*m.span(), T.POSTCODE) for m in pattern.finditer(text)]
    for match in _LIVES_IN.finditer(text):  # "born in Mexico" names a country, "vive en Getafe" a town
        # "moved to Room 4", "trasladado a Box 3": a numbered room or bay in the building, not a town
        numbered = " " not in match.group("town") and re.match(r" \d{1,3}(?!\d)", text[match.end() : match.end() + 5])
        start, end = match.span("town")
        if text[start:end].isupper():  # "MOVED FROM CORK IN AUGUST": in capitals the sentence's words end the town
            words = list(re.finditer(r"[^\s\-]+", text[start:end]))
            cut = next((w for w in words[1:] if w.group(0).lower() in _CAPITALS_STOPS), None)
            end = start + (words[words.index(cut) - 1].end() if cut else words[-1].end())
        if not lexicon.is_region(text[start:end]) and not numbered:
            found.append(Entity(start, end, T.LOCATION))
    found += _address_lines(text, found)
    found += _towns_before_postcodes(text, found)
    found += _line_end_postcodes(text, found)
    found += _cued_addresses(text, found)
    return [e for e in found if not (e.type is T.LOCATION and _postcode_label(e.text_in(text)))]


_TOWN_BEFORE = re.compile(rf"(?P<town>{_NAME}(?: {_NAME}){{0,2}}),?[ \t]+$")


def _towns_before_postcodes(text: str, found: list[Entity]) -> list[Entity]:
    """A town on the gazetteer right before a postcode on its line ("Dublin D18 K6P2", "Sandyford, A94 X2Y3"):
    the postcode vouches for it, however common the town's name is at a line's start."""
    out = []
    for postcode in (e for e in found if e.type is T.POSTCODE):
        line_start = text.rfind("\n", 0, postcode.start) + 1
        before = _TOWN_BEFORE.search(text, line_start, postcode.start)
        if before and _a_town(before.group("town")) and not lexicon.is_region(before.group("town")):
            out.append(Entity(*before.span("town"), T.LOCATION))
    return out


def _cued_addresses(text: str, found: list[Entity]) -> list[Entity]:
    """What follows "con domicilio en" / "lives at", less the towns and postcodes found in it (they keep their
    own kind, and so their own stand-ins)."""
    out = []
    for match in _CUED_ADDRESS.finditer(text):
        if not re.search(r"\d|[A-ZÀ-Þ]", match.group("address")):
            continue  # "Address for the paperwork: …": the label's sentence, not yet its address
        start, end = _trim(text, *match.span("address"))
        pieces = [(start, end)]
        for other in (e for e in found if e.type in (T.LOCATION, T.POSTCODE) and e.start < end and start < e.end):
            pieces = [
                part
                for a, b in pieces
                for part in ((a, min(b, other.start)), (max(a, other.end), b))
                if part[1] > part[0]
            ]
        for index, (a, b) in enumerate(pieces):
            a, b = _trim(text, a, b)
            while a < b and not text[a].isalnum():
                a += 1
            # the state or the country that closes an address is no identifier ("…, Sacramento, California")
            if index and lexicon.is_region(text[a:b].strip(" ,.;")):
                continue
            if text[a:b].strip(" .,").lower() in AREA_WORDS | _SETTLEMENT_WORDS:
                continue  # "colonia Trejo": the neighbourhood's word, its name a place found apart
            if re.search(r"[^\W_]", text[a:b]):
                out.append(Entity(a, b, T.ADDRESS))
    return out


# The words that label a neighbourhood before its name ("Col. Centro", "Barrio Patio Bonito"); detect.py reads
# them too, where a town's place after a street is only the neighbourhood's label.
AREA_WORDS = frozenset("col colonia fracc fraccionamiento urb urbanización barrio bº sector reparto".split())
_SETTLEMENT_WORDS = frozenset({"zona", "aldea"})


def _generic_district(match: re.Match) -> bool:
    """ "Waiting Area 2", "Recovery Zone 3", "Phase 3" of a trial: a room's or a stage's number, not a place."""
    words = match.group(0).split()[:-2]
    # "Flexor Zone 2" of a hand: a word of anatomy is a word, however rare
    return all(lexicon.zipf_in(word, "en") >= 2.5 and not lexicon.is_name_word(word) for word in words)


def _year_before_words(match: re.Match) -> bool:
    """ "2019 Annual Report" or "1998 Toyota" is a year and a name, not a postcode and a town."""
    code = match.group("zip")
    return len(code) == 4 and code.isdigit() and 1900 <= int(code) <= 2099


def _by_way_of(match: re.Match) -> bool:
    """ "via Vocera", "VIA EMAIL", "28/10 via ED": the English preposition, not an Italian street ("Via Roma 12"
    is capitalised and has its number)."""
    surface = match.group(0)
    if re.match(r"(?i)km|kil[óo]metro", surface):
        return False  # "Km 7 vía a la Costa": the road's kilometre
    via = re.search(r"(?i)(?<!\w)v[íi]a\b", surface)
    return via is not None and (not via.group(0)[0].isupper() or not re.search(r"\d", surface))


_LINE_OPENING_TIME = re.compile(r"^[ \t]*(?:[01]\d|2[0-3])[0-5]\d\b", re.M)


def _time_before_words(text: str, match: re.Match, timeline: bool) -> bool:
    """ "0700 Hand-off given to Beth": a nursing note's 24-hour time opening a line, not a postcode and a
    town. A time where other lines open with times too (``timeline``), or where the line goes on as prose
    after an everyday word; "0150 Oslo" on an address's line stays a postcode."""
    code = match.group("zip")
    if not (len(code) == 4 and code.isdigit() and int(code[:2]) < 24 and int(code[2:]) < 60):
        return False
    if not (match.start("zip") == 0 or text[match.start("zip") - 1] in "\n\t"):
        return False
    if timeline:
        return True
    town = match.group("town").split()[0].split("-")[0]
    line_end = text.find("\n", match.end())
    rest = text[match.end() : line_end if line_end >= 0 else len(text)]
    return (lexicon.zipf(town) >= 3.0 or len(town) <= 3) and len(re.findall(r"\b[a-z]{2,}\b", rest)) >= 2


# A label or a preposition a street's pattern read as the street name's first word: "Address Råsundavägen 101",
# "From Via Cernaia 27, 10121 Torino to Via Nassa 44", "Tel 0920-147 22".
_LEADING_LABEL = re.compile(r"(?i:from|to|address|addr|tel|telephone|phone|mob|mobile|fax)\.?:? (?=\S)")


def _trim(text: str, start: int, end: int) -> tuple[int, int]:
    label = _LEADING_LABEL.match(text, start, end)
    if label is not None and re.search(r"[^\W\d_]", text[label.end() : end]):
        start = label.end()
    while end > start and text[end - 1] in " ,.;:-–":
        if text[end - 1] == "." and re.search(r"(?:\b[A-Za-z]{1,4}|º|°)\.$", text[start:end]):
            break  # "Avda." "St." keep their dot
        end -= 1
    return start, end


_HOUSE_LINE = re.compile(rf"^[ \t]*(?P<street>\d{{1,5}}[A-Za-z]?,? (?:{_NAME} ?){{1,4}})[ \t]*,?[ \t]*$", re.M)


_LINE_END_CODE = re.compile(
    # (a table's cell ends its line's text too: "…, Noida, Uttar Pradesh 201301 | laptop")
    rf"(?:(?<=, )|(?<= ))(?:(?P<town>{_NAME}(?: {_NAME}){{0,2}})\s?[–-]?\s?)?(?P<zip>\d{{4,6}})[ \t]*(?:$|(?=\|))",
    re.M,
)


def _line_end_postcodes(text: str, found: list[Entity]) -> list[Entity]:
    """ "…, Rototuna, Hamilton 3210", "…, Pune – 411004", "…, Sandton, 2191": on a line that holds a street
    address, a four-to-six-digit number at the end is its postcode, and the word before it its town."""
    streets = [e for e in found if e.type is T.ADDRESS]
    out = []
    for match in _LINE_END_CODE.finditer(text):
        line_start = text.rfind("\n", 0, match.start()) + 1
        if not any(line_start <= e.start < match.start() for e in streets):
            continue
        cell = text[match.end() : match.end() + 1] == "|" or text[match.start() - 2 : match.start()].strip() == "|"
        if cell and (re.fullmatch(r"(?:19|20)\d\d", match.group("zip")) or not match.group("town")):
            continue  # a table's other cells: "| paid 2025 |", "| 4001 |"
        out.append(Entity(*match.span("zip"), T.POSTCODE))
        if match.group("town") and not lexicon.is_region(match.group("town")):
            out.append(Entity(*match.span("town"), T.LOCATION))
    return out


def _address_lines(text: str, found: list[Entity]) -> list[Entity]:
    """A line of a number and a name ("1 Cheapside") just above a line holding a postcode or a town."""
    places = [e for e in found if e.type in (T.POSTCODE, T.LOCATION)]
    out = []
    for match in _HOUSE_LINE.finditer(text):
        next_line_end = text.find("\n", match.end() + 1)
        next_line_end = len(text) if next_line_end < 0 else next_line_end
        if any(match.end() < e.start <= next_line_end for e in places):
            out.append(Entity(*match.span("street"), T.ADDRESS))
    return out


# Addresses typed in lower case, as chats and portal messages are ("we live at 22 hazel grove", "on mill
# lane", "calle del pez 14 3b"): a house number and words before a street's type, a street's type after
# "on", "in" or "off", or a Spanish street's word before its name and number. Only where the text is typed
# so: in a note with capitals "22 units lane" is nothing. Types that end everyday phrases ("a 10 minute
# walk", "45 minute drive", "3 square meals") are left out.
_LOWER_STREET_TYPE = r"(?:street|road|lane|avenue|grove|close|crescent|terrace|gardens|mews|boulevard|blvd)"
_LOWER_UNIT = (
    r"(?:,? (?:int|interior|apto|apt|depto|dpto|piso|puerta|pta|local|of|casa|bloque|torre|unit|suite|flat)\.? ?"
    r"\w{1,4}\b)"
)
# One to ninety-nine in words: a house number read out.
_SPOKEN_UNITS = "one two three four five six seven eight nine".split()
_SPOKEN_TEENS = "ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen".split()
_SPOKEN_TENS = "twenty thirty forty fifty sixty seventy eighty ninety".split()
_SPOKEN_HOUSE = (
    rf"(?:{'|'.join(_SPOKEN_TENS)})(?:[ -](?:{'|'.join(_SPOKEN_UNITS)}))?|{'|'.join(_SPOKEN_TEENS + _SPOKEN_UNITS)}"
)
_LOWER_ADDRESSES = (
    re.compile(rf"(?<![\w.,/])\d{{1,5}}[a-z]? (?:[a-z][a-z'\-]+ ){{1,3}}{_LOWER_STREET_TYPE}(?![\w']){_LOWER_UNIT}*"),
    re.compile(rf"\b(?:on|in|at|off) (?P<street>(?:[a-z][a-z'\-]+ ){{1,2}}{_LOWER_STREET_TYPE})(?![\w'])"),
    # a numbered avenue or street typed in lower case ("on 88 avenue", "at 5th street"), not "5 avenues of"
    re.compile(r"(?<![\w.,/])\d{1,3}(?:st|nd|rd|th)? (?:avenue|ave|street)\b(?! of\b)"),
    # "c mayor 14 2b", "calle macedonio alcala 407 int 2": a chat's "c" is a street only after "en" or "la"
    re.compile(
        r"(?<!\w)(?:calle|c/|(?<=en )c|(?<=la )c|avda\.?|avenida|av\.?|paseo|plaza|pza\.?|ronda|camino|carrera|"
        r"cra\.?|rua|rúa|pasaje|pje\.?) "
        r"(?:(?:de|del|de la|de los|de las) )?[a-zà-ÿ][a-zà-ÿ'\-]+(?: [a-zà-ÿ][a-zà-ÿ'\-]+){0,2},? "
        rf"(?:n[º°o]\.? ?)?\d{{1,4}}(?:,? ?\d{{1,2}}[º°ª]? ?[a-z]{{1,4}}\b|,? ?\d{{1,2}}[a-z]\b)?{_LOWER_UNIT}*"
    ),
    # Europe's streets typed in lower case, the type fused to the name or before it, then the number: "van
    # ostadestraat 212-2", "biltstraat 133 bis", "via santo stefano 38", "rue paul bert 12", "ul. długa 47/12"
    re.compile(
        r"(?<![\w.])(?:(?:van |de |den |der |von )?[a-zà-ÿ][a-zà-ÿ\-]{2,}(?:straat|stra(?:ß|ss)e|str\.|weg|gasse|"
        r"allee|platz|gatan|vägen|vagen|gata|laan|gracht|plein|kade|singel|vej|gade|katu|tie|kuja)"
        r"|(?:via|viale|corso|piazza|rue|avenue de|rua|travessa|ul\.|ulica|al\.|aleja) "
        r"(?:(?:de|del|della|dei|di|da|do|dos|das|du|des|la|le) )?[a-zà-ÿł][a-zà-ÿłśążźćńę\-]+"
        r"(?: [a-zà-ÿł][a-zà-ÿłśążźćńę\-]+){0,2})"
        r" \d{1,4}(?:[a-z]|[-/]\d{1,4}| bis| ter)?(?![\w/])"
    ),
    # a house number read out, as a voicemail's transcript writes it: "fourteen hawthorn close"
    re.compile(rf"(?<![\w-])(?:{_SPOKEN_HOUSE}) (?:[a-z][a-z'\-]+ ){{1,2}}{_LOWER_STREET_TYPE}(?![\w']){_LOWER_UNIT}*"),
    # Colombia's numbered grid typed in lower case: "cra 43a # 18 sur 135 apto 602"
    re.compile(
        r"(?<!\w)(?:calle|cl|cll|carrera|cra|kra|kr|avenida|av|diagonal|dg|transversal|tv)\.? \d{1,3}[a-z]?(?: bis)?"
        r"(?: (?:sur|norte|este|oeste))? ?(?:#|no\.?|n[º°]) ?\d{1,3}[a-z]?(?: (?:sur|norte|este|oeste))?[- ]\d{1,3}"
        rf"{_LOWER_UNIT}*"
    ),
)
_NOT_A_STREET_NAME = frozenset(
    "the a an my our his her their this that old new same other next busy main right wrong left long short wide "
    "narrow quiet whole last first".split()
)
_EVERY_TOWNS_STREET = frozenset("high main back side front".split())
# Words between a number and a street's type that say a distance or a sentence, not a house ("2 doors down the
# road", "en la calle desde hace 2 años").
_NOT_IN_A_STREETS_NAME = frozenset(
    "down up along across from to of on in at by and or doors houses miles minutes mins blocks km yards metres "
    "meters desde hace durante con sin por para que hasta sobre tras entre años meses días semanas".split()
)


def _a_streets_name(word: str) -> bool:
    """The word after Italian's "via" names a street: a saint's or a particle's, a name's or a town's."""
    return (
        word in ("san", "santo", "santa", "dei", "della", "del", "di", "dei")
        or (lexicon.is_name_word(word) or _a_town(word) or _a_town(word.title()))
        and lexicon.zipf(word) < 4.5
    )


# A street typed in lower case inside text typed otherwise, as a nurse's list or a courier's note gives one
# ("5. ray dixon – 5 benwell grove, fenham", "the gp at beaufort rd", "recipient: …, 22 wattle cres"): a house
# number before it, or a word that places something at it before an abbreviated type. A type that is also a
# verb ("close", "place") needs the number, and some word of the name must be rarer than everyday English, so
# "7, unable to walk" and "by fri either way" stay sentences.
_PROSE_STREET_ABBREVIATION = r"(?:rd|st|ave|av|blvd|cres|ln|dr|ct|pl|tce|hwy|pkwy)"
_PROSE_STREET_TYPE = (
    r"(?:street|road|lane|avenue|grove|close|crescent|terrace|gardens|mews|boulevard|walk|gate|drive|court|place|"
    r"row|parade|square|rise|green)"
)
_LOWER_STREETS_IN_PROSE = (
    re.compile(
        rf"(?<![\w.,/£$€])\d{{1,5}}[a-z]?,? (?P<words>(?:[a-z][a-z'\-]+ ){{1,2}})"
        rf"(?:{_PROSE_STREET_ABBREVIATION}|{_PROSE_STREET_TYPE})(?![\w'])"
    ),
    re.compile(
        rf"\b(?:on|at|off|in|near|from|by) (?P<words>(?:[a-z][a-z'\-]+ ){{1,2}}){_PROSE_STREET_ABBREVIATION}(?![\w'])"
    ),
)
# Words no street is named by that come between a number and a street's type in a sentence.
_NOT_IN_A_PROSE_STREET = (
    frozenset(
        "for with hr hrs hour hours min mins minute minutes mile sec secs seconds steps days day weeks week times "
        "unable able".split()
    )
    | _NOT_A_STREET_NAME
    | _NOT_IN_A_STREETS_NAME
)
# A word of a street's name typed in prose is no everyday word of this rarity or more.
_PROSE_STREET_NAME_ZIPF = 4.5


def _lower_case_streets_in_prose(text: str) -> list[Entity]:
    found = []
    for pattern in _LOWER_STREETS_IN_PROSE:
        for match in pattern.finditer(text):
            words = match.group("words").split()
            if any(w in _NOT_IN_A_PROSE_STREET for w in words):
                continue
            if all(lexicon.zipf(w) >= _PROSE_STREET_NAME_ZIPF for w in words):
                continue
            start = match.start() if pattern is _LOWER_STREETS_IN_PROSE[0] else match.start("words")
            found.append(Entity(start, match.end(), T.ADDRESS))
    return found


def find_lower_case_addresses(text: str, lower_spans: list[tuple[int, int]]) -> list[Entity]:
    """Street addresses in the stretches of ``text`` typed in lower case (``lower_spans``), and streets typed
    in lower case in the rest of it."""
    found = _lower_case_streets_in_prose(text)
    for pattern in _LOWER_ADDRESSES:
        for match in pattern.finditer(text):
            if not any(a <= match.start() and match.end() <= b for a, b in lower_spans):
                continue
            group = "street" if "street" in pattern.groupindex else 0
            words = match.group(group).split()
            if any(w in _NOT_IN_A_STREETS_NAME for w in words):
                continue
            named = [w for w in words if not w[0].isdigit()][:-1] or words
            if all(w in _NOT_A_STREET_NAME for w in named[:1]) and len(named) == 1:
                continue  # "on the road", "in the close": no street named
            start = match.start(group)
            while words and words[0] in _NOT_A_STREET_NAME:  # "on the hazel grove": the street's own words
                start += len(words[0]) + 1
                words = words[1:]
            if len(words) < 2 or len(words) == 2 and words[0] in _EVERY_TOWNS_STREET:
                continue  # "the same street", "the high street": no street named, or every town's
            if words[0] == "via" and not _a_streets_name(words[1]):
                continue  # "sent via email 24 hours ago", "via dhl 12 times": the English word
            found.append(Entity(start, match.end(group), T.ADDRESS))
    return list(dict.fromkeys(found))  # both readings of a lower-case text's "22 hazel grove", once
