"""An office's own lists: terms always hidden from the model (a client's code name, a ward, a judge's
nickname) and terms never hidden (the practice's own name, a product, a local test). They stay on the
workstation; the policy names them, or files beside it, and the command line takes the same files.

A list file is plain text, one term a line; blank lines and lines starting with ``#`` are skipped. A term
matches as a whole word or phrase, in any case.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from app.identifiers.entities import Entity, EntityType


def any_term(terms: Iterable[str]) -> re.Pattern:
    """Any of ``terms`` as a whole word or phrase, in any case, the longest first; an underscore is no part of a
    word."""
    return _any_term(tuple(sorted(set(terms), key=lambda t: (-len(t), t))))


@functools.lru_cache(maxsize=64)
def _any_term(terms: tuple[str, ...]) -> re.Pattern:
    # (an underscore parts a term from the words beside it, as a file's name joins them: "OPG_DeSilva_2025.dcm")
    return re.compile(r"(?<![^\W_])(?:" + "|".join(map(re.escape, terms)) + r")(?![^\W_])", re.IGNORECASE)


class TermListError(Exception):
    """A list of terms that cannot be read."""


def read_terms(path: Path) -> frozenset[str]:
    """The terms of a list file (UTF-8, one a line)."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise TermListError(f"cannot read the list of terms {path}: {error}") from error
    return frozenset(line.strip() for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#"))


@dataclass(frozen=True)
class OfficeTerms:
    """Terms an office always hides (``hidden``) and never hides (``kept``, lower case)."""

    hidden: frozenset[str] = field(default_factory=frozenset)
    kept: frozenset[str] = field(default_factory=frozenset)

    @classmethod
    def of(cls, hidden: Iterable[str] = (), kept: Iterable[str] = ()) -> OfficeTerms:
        """The lists, cleaned; a term on both is hidden (hiding is the safe side)."""
        hidden_terms = frozenset(term.strip() for term in hidden if term.strip())
        lowered = {term.lower() for term in hidden_terms}
        kept_terms = {term.strip().lower() for term in kept} - lowered - {""}
        return cls(hidden_terms, frozenset(kept_terms))

    @classmethod
    def from_files(cls, hide_file: Path | None = None, keep_file: Path | None = None) -> OfficeTerms:
        return cls.of(read_terms(hide_file) if hide_file else (), read_terms(keep_file) if keep_file else ())

    def find_hidden(self, text: str, more: Iterable[str] = ()) -> list[Entity]:
        """Every mention in ``text`` of a term to hide (the office's, and ``more`` the user marked)."""
        terms = {*self.hidden, *(t.strip() for t in more if t.strip())}
        if not terms:
            return []
        return [Entity(*m.span(), EntityType.OTHER) for m in any_term(terms).finditer(text)]
