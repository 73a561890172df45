"""A conversation's identifiers have one owner: the object the window holds, whose pseudonymiser the host
and the engine use; switching conversations neither shares nor rebuilds one."""

from __future__ import annotations

import pytest

from app.host import ConversationIdentifiers
from app.identifiers.detect import default_detector
from app.identifiers.pseudonyms import Pseudonyms

LETTER = "Dear Ms Okonkwo, your neighbour Tobias Wren called about 41 Ashdown Crescent."


async def test_each_conversation_keeps_its_one_pseudonymiser_across_a_switch():
    first, second = ConversationIdentifiers(Pseudonyms(seed=1)), ConversationIdentifiers(Pseudonyms(seed=2))
    reader = await first.pseudonymiser(default_detector)
    read = reader.pseudonymise(LETTER).text
    await second.pseudonymiser(default_detector)  # the other conversation, answered in between
    again = await first.pseudonymiser(default_detector)
    assert again is reader and again.pseudonymise(LETTER).text == read
    assert "Okonkwo" not in read and first.count >= 3 and second.count == 0


async def test_what_is_stored_reads_back_as_the_same_identifiers():
    identifiers = ConversationIdentifiers(Pseudonyms(seed=5))
    read = (await identifiers.pseudonymiser(default_detector)).pseudonymise(LETTER).text
    reopened = ConversationIdentifiers.from_json(identifiers.to_json())
    assert reopened.count == identifiers.count
    assert (await reopened.pseudonymiser(default_detector)).pseudonymise(LETTER).text == read
    assert "Okonkwo" not in repr(reopened) and "Wren" not in repr(reopened)


def test_a_stored_mapping_of_another_format_is_refused():
    with pytest.raises(ValueError):
        ConversationIdentifiers.from_json('{"format": "something else"}')
