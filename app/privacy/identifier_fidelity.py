"""What pseudonymisation costs the answers: the bench's document-QA prompts with identifiers written in,
asked plainly, with realistic stand-ins and with bracket tags.

Each of the bench's three documents (a confidentiality clause, a discharge summary, a lease) gains the
people, organisations and dates a real one has, drawn from Faker; each question's answer is one of them.
An answer *names the right one* when, as the user reads it (re-identified), it contains the person's
surname, the organisation's first word or the date (in any format). Fidelity is the share of the questions
the unpseudonymised model answers right that it still answers right reading stand-ins.
"""

from __future__ import annotations

import random
import re
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, timedelta

from app.identifiers.dates import find_dates, parse_date
from app.identifiers.detect import IdentifierDetector
from app.identifiers.entities import EntityType
from app.identifiers.pseudonyms import Pseudonymiser, Pseudonyms
from app.identifiers.surrogates import STYLES
from app.jobs import CancelFlag, Progress, raise_if_cancelled
from app.privacy.detection_scores import Rate

T = EntityType
# The model under test: the conversation's messages and a pseudonymiser (or None) -> the answer as shown.
Answer = Callable[[list[dict], Pseudonymiser | None], str]

CONFIDENTIALITY = (
    "NON-DISCLOSURE AGREEMENT dated {date}, between {org_a} (the Disclosing Party) and {org_b} (the Receiving "
    "Party). Signed for the Disclosing Party by {person_a}.\n\n"
    "SECTION 7. CONFIDENTIALITY. 7.1 The Receiving Party shall hold all Confidential Information in strict "
    "confidence and shall not disclose it to any third party without the prior written consent of the "
    "Disclosing Party. 7.2 The Receiving Party may disclose Confidential Information to its employees and "
    "professional advisers who need to know it for the Purpose. 7.3 The obligations in this Section 7 continue "
    "for five years after termination of this Agreement."
)
DISCHARGE = (
    "Discharge summary. Patient: {person_a}, MRN {record}. 67-year-old woman admitted on {date} with "
    "community-acquired pneumonia of the right lower lobe. Treated with intravenous amoxicillin for three days, "
    "then oral amoxicillin 500 mg three times daily. Discharged on {date_b}. Follow-up: chest X-ray in six "
    "weeks with her general practitioner, {person_b}."
)
LEASE = (
    "LEASE dated {date} between {person_a} (the Landlord) and {person_b} (the Tenant).\n\n"
    "Clause 12. REPAIRS. 12.1 The Tenant shall keep the interior of the Premises in good and substantial "
    "repair and condition. 12.2 The Landlord shall keep the structure, roof and exterior of the Building in "
    "good repair. 12.3 The Tenant shall not be liable to repair damage caused by fire, flood or any other "
    "insured risk."
)
# (document, question, the placeholder that answers it, its type)
QUESTIONS = (
    (CONFIDENTIALITY, "Who is the Receiving Party?", "org_b", T.ORGANIZATION),
    (CONFIDENTIALITY, "Who signed the agreement for the Disclosing Party?", "person_a", T.PERSON),
    (CONFIDENTIALITY, "On what date was the agreement made?", "date", T.DATE),
    (DISCHARGE, "What is the patient's name?", "person_a", T.PERSON),
    (DISCHARGE, "On what date was the patient admitted?", "date", T.DATE),
    (DISCHARGE, "Who is the patient's general practitioner?", "person_b", T.PERSON),
    (LEASE, "Who is the Landlord?", "person_a", T.PERSON),
    (LEASE, "Who is the Tenant?", "person_b", T.PERSON),
    (LEASE, "On what date was the lease made?", "date", T.DATE),
)
INSTRUCTION = "Answer in one short sentence."
_TITLED = re.compile(r"^(?:Mr|Mrs|Ms|Dr)\.? ")


@dataclass(frozen=True)
class QAItem:
    id: str
    messages: list[dict]
    expected: str  # the identifier that answers the question
    type: EntityType


@dataclass(frozen=True)
class StyleResult:
    """One way of reading the documents: how many answers named the right identifier."""

    right: Rate  # over every question
    kept: Rate  # over the questions the unpseudonymised model answered right: fidelity


@dataclass(frozen=True)
class Fidelity:
    items: int
    plain: Rate  # the unpseudonymised model's answers that name the right identifier
    styles: dict[str, StyleResult]  # realistic, tags
    examples: list[dict]  # a few answers side by side, for the report's reader


def qa_items(variants: int = 6, seed: int = 0) -> list[QAItem]:
    """Every question over ``variants`` renderings of its document, identifiers drawn from Faker."""
    from faker import Faker

    fake = Faker("en_GB")
    fake.seed_instance(seed)
    rng = random.Random(seed)
    items = []
    for variant in range(variants):
        values = {
            "org_a": fake.company(),
            "org_b": fake.company(),
            "person_a": _person(fake, rng),
            "person_b": _person(fake, rng),
            "record": str(rng.randrange(10**7, 10**8)),
        }
        day = date(2018, 1, 1) + timedelta(days=rng.randrange(2500))
        values["date"] = rng.choice((day.strftime("%d/%m/%Y"), f"{day.day} {day.strftime('%B %Y')}"))
        values["date_b"] = (day + timedelta(days=rng.randrange(3, 9))).strftime("%d/%m/%Y")
        for number, (document, question, answer, kind) in enumerate(QUESTIONS):
            text = f"{document.format(**values)}\n\n{question} {INSTRUCTION}"
            items.append(QAItem(f"v{variant}-q{number}", [{"role": "user", "content": text}], values[answer], kind))
    return items


def _person(fake, rng: random.Random) -> str:
    title, first = rng.choice((("Mr", fake.first_name_male), ("Mrs", fake.first_name_female), ("Dr", fake.first_name)))
    return f"{title} {first()} {fake.last_name()}"


def names_right(answer: str, item: QAItem) -> bool:
    """Whether ``answer`` names the identifier the question asks for."""
    lower = answer.lower()
    if item.type is T.DATE:
        expected = parse_date(item.expected)
        return item.expected.lower() in lower or any(
            (found := parse_date(answer[start:end])) is not None and expected is not None and found.same_as(expected)
            for start, end in find_dates(answer)
        )
    if item.type is T.PERSON:
        key = _TITLED.sub("", item.expected).split()[-1]
    else:
        key = next(w for w in re.findall(r"[^\W_]+", item.expected) if w.lower() != "the")
    return re.search(rf"(?<!\w){re.escape(key.lower())}(?!\w)", lower) is not None


def measure_fidelity(
    answer: Answer,
    items: list[QAItem],
    progress: Progress | None = None,
    cancel: CancelFlag | None = None,
    detector: IdentifierDetector | None = None,
) -> Fidelity:
    """Ask every question plainly and under each stand-in style; count the answers that name the right one."""
    say = progress or (lambda message, fraction: None)
    plain_right: list[bool] = []
    style_right: dict[str, list[bool]] = {style: [] for style in STYLES}
    examples = []
    for index, item in enumerate(items):
        raise_if_cancelled(cancel)
        say(f"Fidelity: question {index + 1} of {len(items)}", index / len(items))
        plain = answer(item.messages, None)
        plain_right.append(names_right(plain, item))
        shown = {}
        for style in STYLES:
            pseudonymiser = Pseudonymiser(Pseudonyms(seed=zlib.crc32(item.id.encode()), style=style), detector)
            shown[style] = answer(item.messages, pseudonymiser)
            style_right[style].append(names_right(shown[style], item))
        if len(examples) < 6 and index % 9 in (0, 3, 6):
            examples.append({"question": item.messages[-1]["content"].rsplit("\n", 1)[-1], "plain": plain, **shown})
    say("Fidelity measured", 1.0)
    styles = {
        style: StyleResult(
            Rate(sum(right), len(right)),
            Rate(sum(r for r, p in zip(right, plain_right, strict=True) if p), sum(plain_right)),
        )
        for style, right in style_right.items()
    }
    return Fidelity(len(items), Rate(sum(plain_right), len(plain_right)), styles, examples)
