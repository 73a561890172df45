"""The kinds of identifier splitchat keeps from the model, and a found one: where it is and what it is."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class EntityType(StrEnum):
    """An identifier's kind; each is replaced by a surrogate of the same kind."""

    PERSON = "person"  # names: full, surname alone, with a title, with initials
    DATE = "date"  # every common format
    AGE = "age"  # ages over 89 (HIPAA's rule: younger ages are not identifying on their own)
    RECORD_NUMBER = "record_number"  # record, member, policy, claim numbers; keys' fingerprints, digests
    NATIONAL_ID = "national_id"  # SSN, NHS and NI numbers, DNI/NIE/NIF/CIF, CURP, RFC, passports
    PHONE = "phone"  # telephone and fax numbers
    EMAIL = "email"
    ADDRESS = "address"  # street addresses: street and number, floor and door, PO boxes, military addresses
    LOCATION = "location"  # places smaller than a state: cities, towns, villages, counties, neighbourhoods
    POSTCODE = "postcode"  # postcodes and ZIP codes of any country
    ORGANIZATION = "organization"  # companies, firms, practices, hospitals named in the text
    CASE_NUMBER = "case_number"  # court case, docket and claim references
    ACCOUNT = "account"  # IBAN, bank account numbers, sort codes, CLABE
    CARD = "card"  # payment card numbers
    URL = "url"
    IP_ADDRESS = "ip_address"
    VEHICLE = "vehicle"  # registration plates and VINs
    DEVICE = "device"  # device serial numbers and identifiers (IMEI, UDI)
    LICENCE = "licence"  # professional licence, certificate and registration numbers (NPI, GMC, colegiado)
    OTHER = "other"  # a term the office or the user marked to hide


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
