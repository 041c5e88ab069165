"""Listed companies from a checkout of the FinanceDatabase repository (MIT licence), for
``tools/derive_companies.py``: the mega-, large- and mid-cap equities of every exchange it
covers, with the public facts it holds (name, website, industry, headquarters city and
country, founding year and former names from its company summaries).

The package of the same name downloads its data at run time; the tool reads the
repository's ``database/equities/*.csv`` instead, from a directory given on the command line::

    .venv/bin/python tools/derive_companies.py --financedatabase PATH/database/equities

Its rows are checked before use: a row whose summary does not name the company, or whose
website other companies also claim, is left out (some exchanges' files carry another
company's facts), and a district of a city-state is that city.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterator
from pathlib import Path

from creditscope.sandbox.naming import identity
from creditscope.text_folding import fold

SIZES = ("Mega Cap", "Large Cap", "Mid Cap")  # largest first: the first listing of a name wins
# Regional German exchanges list foreign companies a second time: read them last.
SECONDARY_EXCHANGES = frozenset({"BER", "DUS", "FRA", "GER", "HAM", "HAN", "MUN", "STU"})
CITY_STATES = {"HK": "Hong Kong", "SG": "Singapore", "MO": "Macau", "MC": "Monaco"}
# What a listing adds to the company's name: its share class or depositary receipt.
SHARE_WORDS = re.compile(
    r"\s+(?:Sponsored\s+|Unsponsored\s+)?(?:ADR|ADS|GDR|GDS|C?DRN|BDR|American Depositary|"
    r"Depositary Receipts?|Class [A-Z]\b|"
    r"Ordinary Shares|Common Stock|Registered Shares|Bearer Shares|Pfd|Preferred Shares?)\b.*$",
    re.IGNORECASE,
)
FOUNDED = re.compile(r"\b(?:founded|incorporated|established) in (1[5-9]\d\d|20[0-2]\d)\b")
FORMERLY = re.compile(
    r"formerly known as (.+?)(?:\s+and\s+changed|\s+until|\s+in\s+\d{4}|\.\s|\.$|,|\s+\(|;)"
)


def equity_rows(directory: Path) -> Iterator[dict[str, str]]:
    """The equities of the sizes kept, home exchanges first, largest first."""
    files = sorted(directory.glob("*.csv"), key=lambda f: (f.stem in SECONDARY_EXCHANGES, f.stem))
    rows = []
    for path in files:
        with path.open(encoding="utf-8", newline="") as handle:
            for row in csv.DictReader(handle):
                if row.get("market_cap") in SIZES and row.get("delisted") != "True":
                    rows.append(row)
    order = {path.stem: index for index, path in enumerate(files)}
    rows.sort(
        key=lambda r: (
            SIZES.index(r["market_cap"]), bool(SHARE_WORDS.search(r["name"])),
            order.get(r["exchange"], 0),
        )
    )  # fmt: skip
    yield from rows


def company_name(listing: str) -> str:
    """``"Infosys Limited Sponsored ADR"`` -> ``"Infosys Limited"``: the company, not the share."""
    return SHARE_WORDS.sub("", listing).strip(" ,")


def as_written(name: str, summary: str) -> str:
    """An all-capitals listing name as the company writes it where its summary begins with
    it (``"SK TELECOM"`` -> ``"SK Telecom"``); else the name."""
    start = summary[: len(name)]
    return start if name.isupper() and start.casefold() == name.casefold() else name


def names_itself(row: dict[str, str], name: str) -> bool:
    """Whether the row's summary speaks of the company it names (not another company's)."""
    summary = fold(row.get("summary") or "")
    words = identity(name)
    return not summary or (bool(words) and words[0] in summary.split())


def former_names(summary: str) -> list[str]:
    """``"... was formerly known as Samsung Fine Chemicals Co., Ltd. ..."`` -> that name."""
    return [found.group(1).strip() for found in FORMERLY.finditer(summary)]


def founded(summary: str) -> str:
    """The founding (or incorporation) year a summary gives, else ""."""
    found = FOUNDED.search(summary)
    return found.group(1) if found else ""


def city_of(city: str, country: str) -> str:
    """The headquarters city: a city-state's district is the city-state's city."""
    return CITY_STATES.get(country, city)
