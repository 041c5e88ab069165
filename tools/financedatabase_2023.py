"""Listed companies from the FinanceDatabase repository's 2023 database (MIT licence), for
``tools/derive_companies.py``: the per-country JSON files the repository kept until March
2023, which list the over-the-counter and foreign listings the current CSV files dropped
(Hong Kong, Warsaw and Kuala Lumpur large caps among them), each with its city, website
and summary.

The files are read from a directory laid out as the repository had it, taken from the
last commit that holds them::

    git -C FinanceDatabase archive 251f979ed99114bbc03012a8a448a86159d753dc \\
        Database/Equities/Countries | tar -x -C /tmp/fd2023
    .venv/bin/python tools/derive_companies.py --financedatabase PATH/database/equities \\
        --financedatabase-2023 /tmp/fd2023/Database/Equities/Countries

Each listing becomes a row shaped like the current database's (``name``, ``summary``,
``sector``, ``industry``, ``country``, ``city``, ``website``, ``market_cap``...), so the
same checks apply to both. Some of its text is UTF-8 read as Latin-1 (``"SÃ£o Paulo"``);
that is undone here.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

from financedatabase_companies import SIZES

# The fields of a 2023 listing kept, under the current database's column names.
FIELDS = {
    "long_name": "name", "summary": "summary", "sector": "sector", "industry": "industry",
    "exchange": "exchange", "country": "country", "city": "city", "website": "website",
    "market_cap": "market_cap", "zipcode": "zipcode",
}  # fmt: skip
# Files that total a country's listings by sector or industry rather than list them.
TOTALS = ("Industries.json", "Sectors.json")
# Depositary receipts of a company listed elsewhere: read after its own listings.
RECEIPTS_MARKET = "dr_market"


def unmangled(text: str) -> str:
    """``"SÃ£o Paulo"`` -> ``"São Paulo"``: UTF-8 that was read as Latin-1, decoded again."""
    if not any(mark in text for mark in ("Ã", "Â")):
        return text
    for wrong in ("latin-1", "cp1252"):
        try:
            return text.encode(wrong).decode("utf-8")
        except UnicodeError:
            continue
    return text


def listing_row(listing: dict[str, object]) -> dict[str, str]:
    """A 2023 listing as a row of the current database's shape."""
    return {new: unmangled(str(listing.get(old) or "")) for old, new in FIELDS.items()}


def equity_rows(directory: Path) -> Iterator[dict[str, str]]:
    """Each listing of the sizes kept once, largest first, depositary receipts after shares."""
    found: dict[str, tuple[dict[str, str], str]] = {}
    for path in sorted(directory.rglob("*.json")):
        if path.name.endswith(TOTALS):
            continue
        listings = json.loads(path.read_text(encoding="utf-8"))
        for symbol, listing in listings.items() if isinstance(listings, dict) else ():
            if isinstance(listing, dict) and listing.get("market_cap") in SIZES:
                found.setdefault(symbol, (listing_row(listing), str(listing.get("market"))))
    rows = sorted(
        found.items(),
        key=lambda item: (
            SIZES.index(item[1][0]["market_cap"]), item[1][1] == RECEIPTS_MARKET, item[0],
        ),
    )  # fmt: skip
    for _, (row, _) in rows:
        yield row
