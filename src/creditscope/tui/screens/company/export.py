"""Export a lookup's matches as JSON or CSV, with the "why" line each match got.

The format follows the file name: ``.csv`` writes CSV, anything else JSON.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

from creditscope.models import CompanyLookup
from creditscope.tui.screens.company.reasoning import website_match_text, why

CSV_COLUMNS = (
    "rank",
    "confidence",
    "website_match",
    "name_similarity",
    "company_name",
    "company_url",
    "serp_title",
    "why",
    "company_website",
    "industry",
    "company_size",
    "headquarters",
    "followers",
    "page_available",
)


def export_format(path: Path) -> str:
    """``"csv"`` for a ``.csv`` file, else ``"json"``."""
    return "csv" if path.suffix.lower() == ".csv" else "json"


def matches_json(lookup: CompanyLookup, name: str, website: str | None) -> str:
    """The lookup as the service answered it, plus the request and a "why" per match."""
    payload: dict[str, Any] = {
        "request": {"name": name, "website": website},
        "query": lookup.query,
        "queries": lookup.queries,
        "count": lookup.count,
        "matches": [
            {"rank": rank, **match.model_dump(mode="json"), "why": why(match, website)}
            for rank, match in enumerate(lookup.matches, start=1)
        ],
    }
    return json.dumps(payload, indent=2, ensure_ascii=False) + "\n"


def matches_csv(lookup: CompanyLookup, website: str | None) -> str:
    """One row per match, best first, with the columns of ``CSV_COLUMNS``."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for rank, match in enumerate(lookup.matches, start=1):
        company = match.company
        writer.writerow(
            (
                rank,
                match.confidence or "",
                website_match_text(match, bool(website)),
                "" if match.name_similarity is None else f"{match.name_similarity:.3f}",
                company.name if company and company.name else "",
                match.company_url,
                match.serp_title or "",
                why(match, website),
                company.website if company and company.website else "",
                company.industry if company and company.industry else "",
                company.company_size if company and company.company_size else "",
                company.headquarters if company and company.headquarters else "",
                "" if company is None or company.followers is None else company.followers,
                "no" if company is None else "yes",
            )
        )
    return out.getvalue()


def render_matches(
    path: Path, lookup: CompanyLookup, name: str, website: str | None
) -> tuple[str, str]:
    """(format, text) of the matches for a file named ``path`` (format from its suffix)."""
    fmt = export_format(path)
    text = matches_csv(lookup, website) if fmt == "csv" else matches_json(lookup, name, website)
    return fmt, text
