"""Detection reads a long pasted text in time proportional to its length, whatever the text repeats.

Each family below once made the detector quadratic or exponential in its length: a pattern or a loop read a
run of name words, particles, initials, numbers or letters again from each of its words (a hyphenated word
of 2,000 characters took over 15 s, a row of 8,000 characters of initials 26 s). The check is a ratio within
one run, so a slow machine does not fail it: four times the text may take at most eight times as long
(linear reading takes about four; quadratic sixteen).
"""

from __future__ import annotations

import time

import pytest

from app.identifiers.detect import IdentifierDetector
from app.identifiers.language import Language

pytestmark = pytest.mark.slow

_SHORT, _LONG = 3_000, 12_000

FAMILIES = [
    ("Ana-", Language.ENGLISH),  # one hyphenated word of capitalised pieces
    ("Mc", Language.ENGLISH),  # one long word with a capital every two letters
    ("Mary Smith-", Language.ENGLISH),  # name words joined by hyphens and spaces
    ("MARY ", Language.ENGLISH),  # a run of name words in capitals
    ("mary ", Language.ENGLISH),  # and in lower case
    ("A. ", Language.ENGLISH),  # a run of initials
    ("O'Brien ", Language.ENGLISH),  # findings that all overlap into one stretch
    ("de la ", Language.SPANISH),  # a name's particles with nothing to join
    ("de ", Language.SPANISH),
    ("12, ", Language.SPANISH),  # a list of days with no month after it
    ("1-", Language.ENGLISH),  # a run of digits and hyphens (a code, a mailbox's name)
    ("1/", Language.ENGLISH),
    ("a ", Language.ENGLISH),  # lower-case single letters, each an initial that may close a name
    ("y ", Language.SPANISH),
    ("car ab ", Language.ENGLISH),  # a vehicle's word before groups that may be a plate's
    ("password the ", Language.ENGLISH),  # a secret's word before the words that may stand between
    ("paciente: maria ", Language.SPANISH),  # a label before lower-case name words
    ("12 oak st, apt 3", Language.ENGLISH),  # a street's flats, one after another
    ("kwame, ", Language.ENGLISH),  # a list of given names beside one another
    ("1º A, ", Language.SPANISH),  # a chat's flats named by floor and door, each an address whose units follow
    ("Nana Kofi ", Language.ENGLISH),  # an honorific and a name, again and again
    ("tomo 1, libro 2, ", Language.SPANISH),  # a register's parts in a row
    ("Jersey Care Commission of ", Language.ENGLISH),  # a state body's words that run on without its head
    ('Tyson ("Ty", ', Language.ENGLISH),  # a name and its nickname's bracket, never closed
    ("by jmacisaac ", Language.ENGLISH),  # a record system's users one after another
    ("_", Language.ENGLISH),  # a form's line of underscores, each once read as a signature's opening mark
    ("one two ", Language.ENGLISH),  # number words read aloud, each once a code's possible start
    ("a, ", Language.SPANISH),  # letters spelled with commas
]


@pytest.fixture(scope="module")
def detector() -> IdentifierDetector:
    found = IdentifierDetector(use_ner=False)  # the rules and lists: the statistical model is linear already
    found.detect("Warm up: Dr Ana López, 12 de marzo, 28009 Madrid.")
    return found


def _seconds(detector: IdentifierDetector, unit: str, length: int, language: Language) -> float:
    text = (unit * (length // len(unit) + 1))[:length]
    started = time.perf_counter()
    detector.detect(text, language=language)
    return time.perf_counter() - started


@pytest.mark.parametrize(("unit", "language"), FAMILIES, ids=[unit for unit, _ in FAMILIES])
def test_four_times_the_text_takes_at_most_eight_times_as_long(detector, unit, language):
    # the quicker of two readings of each: a pause of the machine's other work is not the detector's
    short = min(_seconds(detector, unit, _SHORT, language) for _ in range(2))
    long = min(_seconds(detector, unit, _LONG, language) for _ in range(2))
    # a floor under the short time: at a few milliseconds the ratio measures the timer, not the reading
    assert long <= 8 * max(short, 0.02), f"{unit!r}: {_SHORT} chars {short:.3f} s, {_LONG} chars {long:.3f} s"


@pytest.mark.parametrize("before", ["Entered by", "Employer:", "note"])
def test_one_long_run_of_spaces_takes_time_in_proportion(detector, before):
    """A form pasted with its columns aligned by spaces: a label's patterns once read one run of them in cubic
    time (250 spaces took 11 s)."""

    def seconds(spaces: int) -> float:
        text = before + " " * spaces + "x"
        started = time.perf_counter()
        detector.detect(text, language=Language.ENGLISH)
        return time.perf_counter() - started

    short = min(seconds(250) for _ in range(2))
    long = min(seconds(1000) for _ in range(2))
    assert long <= 8 * max(short, 0.02), f"{before!r}: 250 spaces {short:.3f} s, 1000 spaces {long:.3f} s"


@pytest.mark.parametrize("mark", ["_", "-", "."])
def test_a_forms_line_of_marks_reaches_the_model_in_proportion(mark):
    """spaCy's tokenizer read one long run of a mark as one token in quadratic time (4,000 underscores took
    1.3 s, 8,000 took 5.8 s); the run reaches the model as short tokens now."""
    detector = IdentifierDetector(use_tagger=False)
    detector.detect("Warm up: Dr Ana López, 12 de marzo, 28009 Madrid.")

    def seconds(length: int) -> float:
        text = f"Name: John Smith\nSignature: {mark * length}\nDate: 12/03/2024"
        started = time.perf_counter()
        found = detector.detect(text, language=Language.ENGLISH)
        assert [text[e.start : e.end] for e in found] == ["John Smith", "12/03/2024"]
        return time.perf_counter() - started

    short = min(seconds(_SHORT) for _ in range(2))
    long = min(seconds(_LONG) for _ in range(2))
    assert long <= 8 * max(short, 0.02), f"{mark!r}: {_SHORT} marks {short:.3f} s, {_LONG} marks {long:.3f} s"
