"""A company lookup as a Markdown report a support engineer can paste into a ticket.

Pure text from the lookup, the request and its call record: what was asked,
the query after suffix removal, the searches run, each match with its grade and
the "why" line, the pages that were unavailable, when the answer was fetched and
how old it is (a cached answer may be days old), from which service and what it
cost. The key is never part of it (nothing here reads headers), and nothing the
service sent can act on the terminal or the ticket it is pasted into.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from creditscope.client.records import CacheStatus, CallRecord
from creditscope.models import CompanyLookup, Match
from creditscope.outside_text import shown
from creditscope.tui.screens.company.reasoning import (
    domain_of,
    normalised_query,
    website_match_text,
    why,
)
from creditscope.wording import counted


def _cell(text: object) -> str:
    """A table cell: pipes escaped, line breaks flattened (a snippet may hold both)."""
    return " ".join(str(text).split()).replace("|", "\\|")


def _similarity(match: Match) -> str:
    return "—" if match.name_similarity is None else f"{match.name_similarity:.2f}"


def _company_name(match: Match) -> str:
    if match.company is not None and match.company.name:
        return match.company.name
    return match.serp_title or "(page unavailable)"


def _cost(record: CallRecord) -> str:
    if record.cache in (CacheStatus.HIT, CacheStatus.STALE):
        saved = f"; it saved {record.credits_saved}" if record.credits_saved else ""
        return f"0 (answered from the cache{saved})"
    return str(record.credits_charged)


def _age(seconds: float) -> str:
    """``"just now"``, ``"5 minutes ago"``, ``"3 hours ago"``, ``"7 days ago"``."""
    minutes = int(seconds // 60)
    if minutes < 1:
        return "just now"
    if minutes < 60:
        return counted(minutes, "minute") + " ago"
    if minutes < 24 * 60:
        return counted(minutes // 60, "hour") + " ago"
    return counted(minutes // (24 * 60), "day") + " ago"


def fetched_line(record: CallRecord, now: datetime) -> str:
    """When the service produced the answer and how old it is, not when it was read:
    ``"2026-11-18 09:12 UTC, 7 days ago (from the cache)"``."""
    fetched = record.fetched_at or record.started_at
    when = fetched.astimezone(UTC).strftime("%Y-%m-%d %H:%M UTC")
    source = ""
    if record.cache in (CacheStatus.HIT, CacheStatus.STALE):
        source = " (from the cache)" if record.fetched_at is not None else \
            " (from the cache; when it was fetched is not known)"
    return f"{when}, {_age((now - fetched).total_seconds())}{source}"


def lookup_report(
    lookup: CompanyLookup, params: dict[str, Any], record: CallRecord, *,
    service: str, sandbox: bool, now: datetime,
) -> str:
    """The Markdown report of one lookup (``params`` is the request body as sent);
    ``now`` dates the answer's age."""
    name = str(params.get("name", ""))
    website = params.get("website") or None
    lines = [
        f"## Company lookup: {name}",
        "",
        f"- **Asked:** name “{name}”, " + (f"website {website}" if website else "no website"),
        f"- **Query after suffix removal:** {normalised_query(name, lookup.query)}",
        "- **Searches run:** " + ("; ".join(f"`{q}`" for q in lookup.queries)
                                   if lookup.queries else "not reported by the service"),
        f"- **Fetched:** {fetched_line(record, now)}",
        "- **Service:** "
        + ("the built-in sandbox (demo data)" if sandbox else f"the live service ({service})"),
        f"- **Credits charged:** {_cost(record)}",
    ]
    if record.request_id:
        lines.append(f"- **Request id:** `{record.request_id}`")
    lines += ["", f"### Matches ({len(lookup.matches)}, best first)", ""]
    if not lookup.matches:
        lines.append("No candidate pages: the company may have no page on the network.")
    else:
        lines += [
            "| # | Confidence | Company | Page | Website match | Name similarity | Why |",
            "|---|---|---|---|---|---|---|",
        ]
        for rank, match in enumerate(lookup.matches, start=1):
            cells = (
                rank, match.confidence or "none", _company_name(match), match.company_url,
                website_match_text(match, bool(website)), _similarity(match),
                why(match, website),
            )
            lines.append("| " + " | ".join(_cell(cell) for cell in cells) + " |")
        if website and not any(match.website_match for match in lookup.matches):
            lines += ["", f"No page lists {domain_of(str(website))}: none of these is a "
                          "reliable match."]
    unavailable = [m for m in lookup.matches if m.company is None]
    lines += ["", "### Unavailable pages", ""]
    if unavailable:
        lines += [f"- {m.company_url}: momentarily unavailable, so its website was not "
                  "compared; re-checking later may change its grade" for m in unavailable]
    else:
        lines.append("None: every candidate page was fetched.")
    # Each line ours: a control, bidi override or line break the service (or the name
    # typed) put in a value is written visibly (``\x1b``), as the CLI prints it.
    return "\n".join(shown(line) for line in lines) + "\n"
