"""One conversation's identifiers, their stand-ins and the one pseudonymiser that reads with them.

The window holds one for the open conversation and stores what ``to_json`` gives beside its messages;
the host and the engine read and grow it only through ``pseudonymiser``. The state has this one owner:
before, the window held the mapping, the host kept a pseudonymiser of its own for the mapping it was
given last (matched by identity), and the engine was handed that.
"""

from __future__ import annotations

import asyncio

from app.identifiers.detect import IdentifierDetector
from app.identifiers.pseudonyms import Pseudonymiser, Pseudonyms


class ConversationIdentifiers:
    """What a conversation's messages were pseudonymised with, from its first identifier on."""

    def __init__(self, mapping: Pseudonyms | None = None):
        self.mapping = mapping or Pseudonyms()
        self._pseudonymiser: Pseudonymiser | None = None

    @classmethod
    def from_json(cls, stored: str) -> ConversationIdentifiers:
        """A conversation's identifiers as ``to_json`` stored them (ValueError if not a mapping this reads)."""
        return cls(Pseudonyms.from_json(stored))

    def to_json(self) -> str:
        return self.mapping.to_json()

    @property
    def count(self) -> int:
        """Identifiers replaced so far."""
        return len(self.mapping.replacements)

    def __repr__(self) -> str:  # never an identifier in a log line or a traceback
        return f"ConversationIdentifiers({self.count} identifiers)"

    async def pseudonymiser(self, detector_of) -> Pseudonymiser:
        """The pseudonymiser reading with this mapping; ``detector_of()`` gives the detector the first time
        (loaded and warmed off the calling loop: seconds, once per process)."""
        if self._pseudonymiser is None:
            detector: IdentifierDetector = await asyncio.to_thread(detector_of)
            await asyncio.to_thread(detector.warm)
            if self._pseudonymiser is None:  # a second caller may have made it while this one waited
                self._pseudonymiser = Pseudonymiser(self.mapping, detector)
        return self._pseudonymiser
