"""A person's login: a username after the word for one, and a password or a code a few words after its word
("user pmcginley locked out", "usuario polmedo", "account awarsame86", "Temp password issued: Spring!Walrus27",
"password at the time was Lowell2025!!", "contraseña a temporal Rsur*2025a").

``numbers.py`` reads a secret right after its word; an IT ticket or an incident report puts a few words between.
The shape is the evidence: a username is no everyday word, and a password mixes letters with digits or signs.
"""

from __future__ import annotations

import re

from app.identifiers import lexicon
from app.identifiers.entities import Entity, EntityType
from app.identifiers.names import FUNCTION_WORDS

_USERNAME = re.compile(
    r"(?<![\w@.])(?i:user(?:name)?|user id|userid|usuario|login|logon|account|cuenta de usuario|handle)"
    r"(?:\s+(?:is|es|was|era|name))?[:=]?\s+(?P<user>[a-z][a-z0-9._\-]{3,30}[a-z0-9])(?![\w@\-]|\.[a-z])"
)
_PASSWORD = re.compile(
    r"(?i:\b(?:password|passcode|passphrase|pwd|contraseña|contrasena|clave(?: de acceso)?))"
    # a few of the words that say it was set or given between: "issued", "at the time was", "a temporal"
    r"(?:\s+(?i:temporary|temporal|temp|provisional|initial|inicial|new|nueva|nuevo|issued|set|reset|changed|"
    r"asignada|enviada|at|the|time|then|was|is|to|a|de|la|es|era|fue|of|for|her|his|their|su)){0,4}?"
    r"[ \t]*(?:[:=]|\b(?:is|was|es|era|a)\b)?[ \t]*"
    r"(?P<secret>(?=[^\s,;]{0,40}[A-Za-z])(?=[^\s,;]{0,40}[\d#$%&*!@?])[^\s,;()]{6,40}?)(?=[\s,;)]|[.](?:\s|$)|$)"
)


# A door's, a gate's or a key safe's code, and a booking's confirmation: "Gate code 4471#", "staircase code
# 1203#4471", "confirmation CA4Sm7Qk". A code of letters alone is a word ("confirmation pending").
_ACCESS_CODE = re.compile(
    r"(?i:\b(?:gate|door|entry|access|staircase|stair|building|key ?safe|keysafe|lockbox|alarm|portal|portero|"
    r"puerta|acceso)\s+(?:code|c[óo]digo)|\bc[óo]digo de (?:acceso|puerta|portal)|"
    r"\bconfirmation(?: code| number| no\.?)?)"
    r"(?:[:\s]+#?|\s*#)\s*(?P<code>(?=[\w#*]{0,15}\d)[A-Za-z0-9][\w#*]{2,15})(?![\w#*])"
)


def find_credentials(text: str) -> list[Entity]:
    """Usernames, passwords and access codes a few words after the word that names them."""
    found = [Entity(*m.span("secret"), EntityType.RECORD_NUMBER) for m in _PASSWORD.finditer(text)]
    found += [Entity(*m.span("code"), EntityType.RECORD_NUMBER) for m in _ACCESS_CODE.finditer(text)]
    for match in _USERNAME.finditer(text):
        user = match.group("user")
        if _a_handle(user):
            found.append(Entity(*match.span("user"), EntityType.RECORD_NUMBER))
    return found


def _a_handle(user: str) -> bool:
    """A login's name, not the sentence going on ("the account holder", "user manual"): digits or a joining
    sign in it, or a word no one writes as a word."""
    if re.search(r"[\d._\-]", user):
        return not re.fullmatch(r"\d+(?:\.\d+)*", user)
    return user.lower() not in FUNCTION_WORDS and lexicon.zipf(user) < 2.5
