"""Export a lookup's matches as JSON or CSV, with the "why" line each match got.

The format follows the file name: ``.csv`` writes CSV, anything else JSON. The text
itself is written by :mod:`creditscope.row_export`, like every other list's export.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from creditscope.models import CompanyLookup
from creditscope.row_export import Format, csv_text, export_format, json_text
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
    return json_text(payload)


def matches_csv(lookup: CompanyLookup, website: str | None) -> str:
    """One row per match, best first, with the columns of ``CSV_COLUMNS``."""
    rows = []
    for rank, match in enumerate(lookup.matches, start=1):
        company = match.company
        values = (
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
            None if company is None else company.followers,
            "no" if company is None else "yes",
        )
        rows.append(dict(zip(CSV_COLUMNS, values, strict=True)))
    return csv_text(rows, CSV_COLUMNS)


def render_matches(
    path: Path, lookup: CompanyLookup, name: str, website: str | None
) -> tuple[Format, str]:
    """(format, text) of the matches for a file named ``path`` (format from its suffix)."""
    fmt = export_format(path)
    text = matches_csv(lookup, website) if fmt == "csv" else matches_json(lookup, name, website)
    return fmt, text
