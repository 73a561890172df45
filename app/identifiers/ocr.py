"""Numbers as a scanner's text recognition writes them: "2O24", "7O4 219 386", "1l85 Main Street",
"(204) 582-77OO", "V-18.4l2.907". A fax or a scan pasted into a message reads O for 0 and l or I for 1, and a
number so written looks like a word to every rule that reads digits.

The rules read a copy of the text with those letters put back to digits inside runs that are mostly digits
already; the copy has the same length, so every span found in it is the span in the text.
"""

from __future__ import annotations

import re

# A run of digits and the letters read for them, with the marks that join a number's groups.
_NUMBER_RUN = re.compile(r"(?<!\w)[0-9OoIl]+(?:[/\-.:][0-9OoIl]+)*(?!\w)")
_DIGIT_FOR = str.maketrans("OoIl", "0011")
# Two digits at least, and no more letters than digits: "O2", "Il" and "lOl" are what they read as.
_MIN_DIGITS = 2


_GROUP = re.compile(r"[0-9OoIl]+")
# What any misread number holds: a digit beside one of the letters (most texts have none).
_A_LETTER_IN_A_NUMBER = re.compile(r"\d[OoIl]|[OoIl]\d")


def _repaired(match: re.Match) -> str:
    run = match.group(0)
    if run.isalpha() or not _A_LETTER_IN_A_NUMBER.search(run):
        return run  # most runs are a number's digits alone, or a word ("Il", "lo")
    digits = sum(c.isdigit() for c in run)
    letters = sum(c in "OoIl" for c in run)
    if not letters or digits < _MIN_DIGITS or letters > digits:
        return run
    # a group of letters alone is a word or a form's letter still: "I-485", "O-negative"
    return _GROUP.sub(lambda g: g.group(0).translate(_DIGIT_FOR) if re.search(r"\d", g.group(0)) else g.group(0), run)


# One digit and one letter read for another ("Feb 2O", "O4 de marzo", "9l años"): a number only in a text
# that shows a scan's misreadings already, and never oxygen or ozone.
_SHORT_RUN = re.compile(r"(?<![\w.,/\-])(?:[OoIl]\d|\d[OoIl])(?![\w/]|[.,\-]\d)")
_GASES = frozenset({"O2", "O3"})
_SCANNED = 2


def with_digits_repaired(text: str) -> str:
    """``text`` with the letters a scan read for digits inside numbers put back, the same length."""
    if not _A_LETTER_IN_A_NUMBER.search(text):
        return text
    repaired = _NUMBER_RUN.sub(_repaired, text)
    if repaired == text or sum(a != b for a, b in zip(text, repaired, strict=True)) < _SCANNED:
        return repaired
    return _SHORT_RUN.sub(lambda m: m.group(0) if m.group(0) in _GASES else m.group(0).translate(_DIGIT_FOR), repaired)
