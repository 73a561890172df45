"""Synthetic clinical and legal documents with every identifier annotated: the pseudonymiser's evaluation set.

Each document comes from one of twelve template families (six clinical, six legal) filled with Faker
values drawn from ten locales, and knows where each identifier it holds starts and ends. Families are
split in two halves: detection is tuned on ``development`` and reported on ``held_out``, so a template
seen while tuning is never scored. Templates also carry what must *not* be taken for an identifier:
drug names and doses, eponymous diseases ("Parkinson's disease"), statutes, clause numbers, ages under
90, money, lab values.

``splitchat privacy --identifiers`` reads the set from ``app/resources/identifiers/evaluation.json``;
``write_corpus`` makes it again (seeded: the same file every time).
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass
from datetime import date, timedelta
from pathlib import Path

from app.identifiers.entities import Entity, EntityType
from app.resources import IDENTIFIER_SET

CORPUS_FILE = IDENTIFIER_SET / "evaluation.json"
LOCALES = ("en_US", "en_GB", "en_IN", "en_NG", "en_IE", "de_DE", "fr_FR", "es_ES", "it_IT", "nl_NL")
DEVELOPMENT = (
    "discharge_summary",
    "progress_note",
    "radiology_report",
    "services_contract",
    "court_filing",
    "legal_email",
)
HELD_OUT = ("referral_letter", "ed_triage", "medication_review", "residential_lease", "nda", "demand_letter")
PER_FAMILY = 15

T = EntityType


@dataclass(frozen=True)
class LabelledDocument:
    id: str
    family: str
    half: str  # "development" | "held_out"
    text: str
    entities: tuple[Entity, ...]
    language: str = "en"


_PLACEHOLDER = re.compile(r"\{(\w+)\}")


class _Values:
    """One document's invented people, dates and numbers, each with its entity type (None: plain text)."""

    def __init__(self, rng: random.Random, faker_factory):
        self.rng = rng
        self._faker = faker_factory
        self.values: dict[str, tuple[str, EntityType | None]] = {}

    def fake(self):
        return self._faker[self.rng.choice(LOCALES)]

    def city(self) -> str:
        # Faker's Italian towns come out of a set, whose order changes with every interpreter run.
        return self._faker[self.rng.choice([locale for locale in LOCALES if locale != "it_IT"])].city()

    def set(self, key: str, text: str, kind: EntityType | None) -> None:
        self.values[key] = (text, kind)

    def person(self, key: str, title: bool = True) -> None:
        """A person under several names: full, title + surname, initial + surname, first name, surname."""
        fake = self.fake()
        first, last = fake.first_name(), fake.last_name()
        honorific = self.rng.choice(["Mr", "Mrs", "Ms", "Mr.", "Ms.", "Mrs."]) if title else ""
        self.set(f"{key}", f"{first} {last}", T.PERSON)
        self.set(f"{key}_first", first, T.PERSON)
        self.set(f"{key}_last", last, T.PERSON)
        self.set(f"{key}_title", f"{honorific} {last}".strip(), T.PERSON)
        self.set(f"{key}_initial", f"{first[0]}. {last}", T.PERSON)
        self.set(f"{key}_record", f"{last.upper()}, {first}", T.PERSON)

    def doctor(self, key: str) -> None:
        fake = self.fake()
        first, last = fake.first_name(), fake.last_name()
        self.set(key, f"Dr {first} {last}" if self.rng.random() < 0.5 else f"Dr. {first} {last}", T.PERSON)
        self.set(f"{key}_short", f"Dr {last}" if self.rng.random() < 0.5 else f"Dr. {last}", T.PERSON)
        self.set(f"{key}_initial", f"{first[0]}. {last}", T.PERSON)

    def dates(self, keys: list[str]) -> None:
        """Dates in a plausible order, each in one of the common formats."""
        day = date(2015, 1, 1) + timedelta(days=self.rng.randrange(3650))
        for key in keys:
            day += timedelta(days=self.rng.randrange(1, 40))
            self.set(key, _date_text(day, self.rng), T.DATE)

    def dob(self, key: str) -> None:
        born = date(1930, 1, 1) + timedelta(days=self.rng.randrange(365 * 75))
        self.set(key, _date_text(born, self.rng), T.DATE)

    def age(self, key: str) -> None:
        """Over 89 it is an identifier; younger ages are text that must be left alone."""
        years = self.rng.choice([self.rng.randrange(90, 104), self.rng.randrange(18, 89)])
        self.set(key, f"{years}-year-old", T.AGE if years >= 90 else None)

    def common(self) -> None:
        """The identifiers most documents draw on."""
        rng, fake = self.rng, self.fake()
        self.set("mrn", _record_number(rng), T.RECORD_NUMBER)
        self.set("member", _member_number(rng), T.RECORD_NUMBER)
        self.set("nhs", _nhs_number(rng), T.NATIONAL_ID)
        self.set("ssn", _ssn(rng), T.NATIONAL_ID)
        self.set("nino", _nino(rng), T.NATIONAL_ID)
        self.set("phone", _phone(rng), T.PHONE)
        self.set("fax", _phone(rng), T.PHONE)
        self.set("phone2", _phone(rng), T.PHONE)
        self.set(
            "email",
            _email(rng, self.values.get("p_first", ("x", None))[0], self.values.get("p_last", ("y", None))[0]),
            T.EMAIL,
        )
        self.set("email2", fake.email(), T.EMAIL)
        self.set("street", _street(rng, fake), T.ADDRESS)
        self.set("street2", _street(rng, self.fake()), T.ADDRESS)
        self.set("city", self.city(), T.ADDRESS)
        self.set("postcode", _postcode(rng), T.POSTCODE)
        self.set("postcode2", _postcode(rng), T.POSTCODE)
        self.set("org", _company(rng, fake), T.ORGANIZATION)
        self.set("org2", _company(rng, self.fake()), T.ORGANIZATION)
        self.set("hospital", _hospital(rng, self.fake(), self.city()), T.ORGANIZATION)
        self.set("practice", _practice(rng, self.fake()), T.ORGANIZATION)
        self.set("case", _case_number(rng), T.CASE_NUMBER)
        self.set("claim", _claim_number(rng), T.CASE_NUMBER)
        self.set("iban", self._faker["en_GB"].iban() if rng.random() < 0.5 else self._faker["de_DE"].iban(), T.ACCOUNT)
        self.set("account", "".join(rng.choice("0123456789") for _ in range(8)), T.ACCOUNT)
        self.set("sort_code", "-".join(f"{rng.randrange(100):02d}" for _ in range(3)), T.ACCOUNT)
        self.set("url", _url(rng, fake), T.URL)
        self.set("drug", rng.choice(DRUGS), None)
        self.set("drug2", rng.choice(DRUGS), None)
        self.set("eponym", rng.choice(EPONYMS), None)
        self.set("statute", rng.choice(STATUTES), None)
        self.set(
            "money",
            f"£{rng.randrange(400, 9000):,}.00" if rng.random() < 0.5 else f"${rng.randrange(400, 90000):,}",
            None,
        )
        self.set("bp", f"{rng.randrange(100, 170)}/{rng.randrange(60, 100)}", None)
        self.set("hba1c", f"{rng.randrange(50, 110) / 10:.1f}%", None)
        self.set("dose", f"{rng.choice([5, 10, 20, 25, 40, 50, 100, 250, 500])} mg", None)
        self.set("clause", f"{rng.randrange(2, 19)}.{rng.randrange(1, 9)}", None)
        self.set("ward", f"Ward {rng.randrange(1, 12)}{rng.choice('ABCD')}", None)
        self.set("time", f"{rng.randrange(0, 24):02d}:{rng.randrange(0, 60):02d}", None)


DRUGS = (
    "metformin", "atorvastatin", "amlodipine", "ramipril", "apixaban", "warfarin", "furosemide", "bisoprolol",
    "levothyroxine", "omeprazole", "co-amoxiclav", "paracetamol", "morphine sulfate", "Lantus", "Eliquis",
    "Augmentin", "salbutamol", "prednisolone", "sertraline", "gabapentin",
)  # fmt: skip
EPONYMS = (
    "Parkinson's disease", "Crohn's disease", "Hodgkin lymphoma", "Alzheimer's disease", "Bell's palsy",
    "Graves' disease", "Cushing's syndrome", "Addison's disease", "Hashimoto's thyroiditis", "Barrett's oesophagus",
    "the Glasgow Coma Scale", "the Wells score", "a Foley catheter", "the Apgar score",
)  # fmt: skip
STATUTES = (
    "the Landlord and Tenant Act 1985", "section 21 of the Housing Act 1988", "the Data Protection Act 2018",
    "Rule 12(b)(6) of the Federal Rules of Civil Procedure", "the Sale of Goods Act 1979", "the Equality Act 2010",
    "the Fair Labor Standards Act", "Article 6 of the GDPR", "the Consumer Rights Act 2015", "HIPAA",
)  # fmt: skip


def _date_text(day: date, rng: random.Random) -> str:
    month = day.strftime("%B")
    return rng.choice(
        [
            f"{day:%d/%m/%Y}",
            f"{day:%m/%d/%Y}",
            f"{day:%Y-%m-%d}",
            f"{day.day} {month} {day.year}",
            f"{month} {day.day}, {day.year}",
            f"{day.day} {month[:3]} {day.year}",
            f"{day:%d.%m.%Y}",
            f"{day:%d-%b-%Y}",
            f"{day:%d/%m/%y}",
        ]
    )


def _digits(rng: random.Random, n: int) -> str:
    return "".join(rng.choice("0123456789") for _ in range(n))


def _record_number(rng: random.Random) -> str:
    return rng.choice(
        [_digits(rng, 8), f"H{_digits(rng, 7)}", f"RX{_digits(rng, 6)}", f"{_digits(rng, 3)}-{_digits(rng, 4)}"]
    )


def _member_number(rng: random.Random) -> str:
    letters = "".join(rng.choice("ABCDEFGHJKLMNPRSTUVWXYZ") for _ in range(3))
    return rng.choice(
        [f"{letters}{_digits(rng, 9)}", f"{letters}-{_digits(rng, 6)}-{_digits(rng, 2)}", f"W{_digits(rng, 9)}"]
    )


def _nhs_number(rng: random.Random) -> str:
    """Ten digits whose last is the mod-11 check digit (and never 10)."""
    while True:
        body = [rng.randrange(10) for _ in range(9)]
        check = 11 - sum(d * (10 - i) for i, d in enumerate(body)) % 11
        check = 0 if check == 11 else check
        if check != 10:
            digits = "".join(map(str, body + [check]))
            return rng.choice(
                [f"{digits[:3]} {digits[3:6]} {digits[6:]}", digits, f"{digits[:3]}-{digits[3:6]}-{digits[6:]}"]
            )


def _ssn(rng: random.Random) -> str:
    area = rng.choice([n for n in range(1, 900) if n != 666])
    return f"{area:03d}-{rng.randrange(1, 100):02d}-{rng.randrange(1, 10000):04d}"


def _nino(rng: random.Random) -> str:
    prefix = rng.choice(["AB", "CE", "JG", "KL", "MW", "PR", "SE", "TW", "WP", "ZA"])
    return f"{prefix} {_digits(rng, 2)} {_digits(rng, 2)} {_digits(rng, 2)} {rng.choice('ABCD')}"


def _phone(rng: random.Random) -> str:
    return rng.choice(
        [
            f"({rng.randrange(201, 989)}) {_digits(rng, 3)}-{_digits(rng, 4)}",
            f"{rng.randrange(201, 989)}-{_digits(rng, 3)}-{_digits(rng, 4)}",
            f"+1 {rng.randrange(201, 989)} {_digits(rng, 3)} {_digits(rng, 4)}",
            f"0{rng.randrange(1200, 1999)} {_digits(rng, 6)}",
            f"020 {_digits(rng, 4)} {_digits(rng, 4)}",
            f"+44 {rng.randrange(1200, 7999)} {_digits(rng, 6)}",
            f"07{_digits(rng, 3)} {_digits(rng, 6)}",
            f"+49 {rng.randrange(30, 99)} {_digits(rng, 7)}",
        ]
    )


def _email(rng: random.Random, first: str, last: str) -> str:
    user = re.sub(r"[^a-z]", "", f"{first}.{last}".lower()) or "patient"
    user = rng.choice(
        [user, f"{first[:1].lower()}{re.sub(r'[^a-z]', '', last.lower())}", f"{user}{rng.randrange(10, 99)}"]
    )
    return f"{user}@{rng.choice(['gmail.com', 'outlook.com', 'yahoo.co.uk', 'nhs.net', 'proton.me', 'btinternet.com'])}"


def _street(rng: random.Random, fake) -> str:
    number = rng.randrange(1, 400)
    name = fake.last_name()
    suffix = rng.choice(
        ["Street", "Road", "Avenue", "Lane", "Close", "Drive", "Way", "Court", "St", "Rd", "Ave", "Place", "Crescent"]
    )
    return rng.choice(
        [
            f"{number} {name} {suffix}",
            f"Flat {rng.randrange(1, 40)}, {number} {name} {suffix}",
            f"{number} {name} {suffix}",
        ]
    )


def _postcode(rng: random.Random) -> str:
    inward = "ABDEFGHJLNPQRSTUWXYZ"  # the letters a UK postcode's inward code may use
    if rng.random() < 0.55:
        area = rng.choice(["SW", "NW", "E", "N", "M", "B", "LS", "EH", "G", "CF", "BS", "OX", "CB", "L", "S", "NG"])
        return f"{area}{rng.randrange(1, 20)} {rng.randrange(1, 10)}{rng.choice(inward)}{rng.choice(inward)}"
    return rng.choice([f"{_digits(rng, 5)}", f"{_digits(rng, 5)}-{_digits(rng, 4)}"])


def _company(rng: random.Random, fake) -> str:
    names = [fake.last_name(), fake.last_name()]
    return rng.choice(
        [
            f"{names[0]} & {names[1]} LLP",
            f"{names[0]} Holdings Ltd",
            f"{names[0]} {rng.choice(['Logistics', 'Property', 'Software', 'Consulting', 'Foods', 'Capital'])} Limited",
            f"{names[0]}, {names[1]} and Partners",
            f"{names[0]} Group Inc.",
            f"{names[0]} Technologies LLC",
            f"{names[0]} {rng.choice(['Estates', 'Lettings', 'Builders'])} plc",
        ]
    )


def _hospital(rng: random.Random, fake, city: str) -> str:
    return rng.choice(
        [f"{fake.last_name()} General Hospital", f"St {fake.first_name()}'s Hospital", f"{city} Royal Infirmary"]
    )


def _practice(rng: random.Random, fake) -> str:
    return rng.choice(
        [f"{fake.last_name()} Medical Centre", f"{fake.last_name()} Surgery", f"{fake.last_name()} Family Practice"]
    )


def _case_number(rng: random.Random) -> str:
    year = rng.randrange(15, 26)
    return rng.choice(
        [
            f"{rng.randrange(1, 9)}:{year}-cv-{_digits(rng, 5)}",
            f"HQ{year}X{_digits(rng, 5)}",
            f"{_digits(rng, 6)}/20{year}",
            f"CL-20{year}-{_digits(rng, 6)}",
            f"{year}-{_digits(rng, 4)}",
        ]
    )


def _claim_number(rng: random.Random) -> str:
    return rng.choice(
        [
            f"CLM-{_digits(rng, 8)}",
            f"{rng.choice('ABCDEFGH')}{_digits(rng, 2)}{rng.choice('ABCDEFGH')}{_digits(rng, 4)}",
        ]
    )


def _url(rng: random.Random, fake) -> str:
    host = re.sub(r"[^a-z]", "", fake.last_name().lower()) or "example"
    return rng.choice(
        [
            f"https://www.{host}-legal.co.uk/clients/{_digits(rng, 5)}",
            f"https://portal.{host}health.com/patient?id={_digits(rng, 7)}",
            f"www.{host}.com",
        ]
    )


def _render(template: str, values: _Values) -> tuple[str, tuple[Entity, ...]]:
    """Fill the template; every placeholder whose value has a type becomes an entity at its offsets."""
    parts, entities, position = [], [], 0
    for match in _PLACEHOLDER.finditer(template):
        literal = template[position : match.start()]
        parts.append(literal)
        text, kind = values.values[match.group(1)]
        start = sum(len(p) for p in parts)
        parts.append(text)
        if kind is not None:
            entities.append(Entity(start, start + len(text), kind))
        position = match.end()
    parts.append(template[position:])
    return "".join(parts), tuple(entities)


def _templates_dir() -> Path:
    return IDENTIFIER_SET / "templates"


def load_templates() -> dict[str, list[str]]:
    """family -> its templates (one or more per family), from ``app/resources/identifiers/templates``."""
    folder = _templates_dir()
    return {path.stem: path.read_text(encoding="utf-8").split("\n=====\n") for path in sorted(folder.glob("*.txt"))}


def generate(seed: int = 0, per_family: int = PER_FAMILY) -> list[LabelledDocument]:
    """The whole evaluation set, the same for the same seed."""
    from faker import Faker

    faker = Faker(list(LOCALES))
    faker.seed_instance(seed)
    rng = random.Random(seed)
    templates = load_templates()
    missing = set(DEVELOPMENT + HELD_OUT) - set(templates)
    if missing:
        raise ValueError(f"no templates for {sorted(missing)}")
    documents = []
    for family in DEVELOPMENT + HELD_OUT:
        for index in range(per_family):
            values = _Values(rng, faker)
            for role in ("p", "p2", "relative", "other", "witness"):
                values.person(role)
            for role in ("dr", "dr2", "gp"):
                values.doctor(role)
            values.dob("dob")
            values.dates(["d1", "d2", "d3", "d4", "d5"])
            values.age("age")
            values.common()
            template = templates[family][index % len(templates[family])]
            text, entities = _render(template.strip() + "\n", values)
            half = "development" if family in DEVELOPMENT else "held_out"
            documents.append(LabelledDocument(f"{family}-{index:02d}", family, half, text, entities))
    return documents


def write_corpus(path: Path = CORPUS_FILE, seed: int = 0) -> list[LabelledDocument]:
    documents = generate(seed)
    body = {
        "format": "splitchat-identifier-corpus",
        "version": 1,
        "seed": seed,
        "types": [t.value for t in EntityType],
        "documents": [
            {
                "id": d.id,
                "family": d.family,
                "half": d.half,
                "text": d.text,
                "entities": [[e.start, e.end, e.type.value] for e in d.entities],
            }
            for d in documents
        ],
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(body, indent=1, ensure_ascii=False), encoding="utf-8")
    return documents


def load_corpus(path: Path = CORPUS_FILE) -> list[LabelledDocument]:
    data = json.loads(path.read_text(encoding="utf-8"))
    return [
        LabelledDocument(
            d["id"], d["family"], d["half"], d["text"], tuple(Entity(s, e, EntityType(t)) for s, e, t in d["entities"])
        )
        for d in data["documents"]
    ]
