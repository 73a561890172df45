"""The kinds of identifier splitchat keeps from the model, and a found one: where it is and what it is."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class EntityType(StrEnum):
    """An identifier's kind; each is replaced by a surrogate of the same kind."""

    PERSON = "person"  # names: full, surname alone, with a title, with initials
    DATE = "date"  # every common format
    AGE = "age"  # ages over 89 (HIPAA's rule: younger ages are not identifying on their own)
    RECORD_NUMBER = "record_number"  # medical record, hospital, member, insurance, policy, claim numbers
    NATIONAL_ID = "national_id"  # US SSN, UK NHS number, UK National Insurance number
    PHONE = "phone"  # telephone and fax numbers
    EMAIL = "email"
    ADDRESS = "address"  # street addresses
    POSTCODE = "postcode"  # UK postcodes, US ZIP codes
    ORGANIZATION = "organization"  # companies, firms, practices, hospitals named in the text
    CASE_NUMBER = "case_number"  # court case, docket and claim references
    ACCOUNT = "account"  # IBAN, bank account numbers and sort codes
    URL = "url"


@dataclass(frozen=True, order=True)
class Entity:
    """``text[start:end]`` is an identifier of ``type``."""

    start: int
    end: int
    type: EntityType

    def text_in(self, text: str) -> str:
        return text[self.start : self.end]

    def overlaps(self, other: Entity) -> bool:
        return self.start < other.end and other.start < self.end
