"""Build the detector's list of state-level regions beyond Faker's (app/resources/identifiers/regions.txt.gz)
from ISO 3166-2 as the ``pycountry`` package ships it (Debian's iso-codes, LGPL-2.1).

A region is a country's first-level subdivision of a state's kind (state, province, region, department,
autonomous community…): "Gauteng", "KwaZulu-Natal", "Guanacaste", "Bay of Plenty". Such a name locates no
one more closely than the state does, so it is kept, as the US states are. Left out, so that nothing that
is also someone's name or a town stops being hidden: names that are a town's (GeoNames' list, "Panamá",
"San José"), on the lists of people's names ("Herrera", "Nelson"), or everyday words ("Delta"). The package
is needed only to build the list, not to run the app (8 MB as a wheel; the list is a few kB):

    PYTHONPATH=<pycountry 26.2.16 unpacked> .venv/bin/python scripts/build_regions.py
"""

from __future__ import annotations

import gzip
import re
import sys
import unicodedata
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.identifiers import lexicon  # noqa: E402
from app.identifiers.towns import town_names  # noqa: E402

OUT = Path(__file__).resolve().parents[1] / "app" / "resources" / "identifiers" / "regions.txt.gz"
# The kinds of first-level subdivision that are a state's level; municipalities, districts, counties,
# parishes and cities are first-level only in small countries, and are places smaller than a state.
STATE_KINDS = frozenset(
    """province region state department autonomous-community autonomous-region regional-state land voivodship
    governorate prefecture oblast republic union-territory emirate administrative-region autonomous-province
    federal-district country nation capital-territory territory""".split()
)
# An everyday word of English or Spanish at least this common is no region's name alone ("Delta", "Centre").
EVERYDAY_ZIPF = 3.0


def _without_accents(name: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFD", name) if unicodedata.category(c) != "Mn")


def _written(name: str) -> list[str]:
    """The ways a text writes an ISO name: without its bracketed code or number ("Ilocos (Region I)",
    "Wales [Cymru GB-CYM]"), each of a pair ("Elgeyo/Marakwet"), the name before an inverted article."""
    name = re.sub(r"\s*[\[(].*?[\])]", "", name).strip()
    name = name.split(",")[0].strip()  # "Madrid, Comunidad de": the name
    return [part.strip() for part in name.split("/") if part.strip()]


def main() -> None:
    import pycountry

    towns = town_names()
    kept: set[str] = set()
    for subdivision in pycountry.subdivisions:
        kind = subdivision.type.lower().replace(" ", "-")
        if subdivision.parent_code is not None or kind not in STATE_KINDS:
            continue
        for name in _written(subdivision.name):
            if not all(unicodedata.name(c, "").startswith("LATIN") for c in name if c.isalpha()):
                continue
            for form in {name, _without_accents(name)}:
                lower = form.lower()
                if form in towns or lower in towns or lexicon.is_name_word(form):
                    continue
                if " " not in form and max(lexicon.zipf(lower), lexicon.zipf_in(lower, "es")) >= EVERYDAY_ZIPF:
                    continue
                kept.add(lower)
    OUT.write_bytes(gzip.compress(("\n".join(sorted(kept)) + "\n").encode("utf-8"), mtime=0))
    print(f"{len(kept)} regions -> {OUT}")


if __name__ == "__main__":
    main()
