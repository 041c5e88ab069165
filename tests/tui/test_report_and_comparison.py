"""The lookup report's text and the with/without-website comparison, on fixed answers."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from creditscope.client.records import CacheStatus, CallRecord
from creditscope.models import Company, CompanyLookup, Match
from creditscope.outside_text import hidden, shown
from creditscope.tui.screens.company.comparison import compare_lookups, comparison_summary
from creditscope.tui.screens.company.report import fetched_line, lookup_report
from security.hostile_corpus import INVISIBLE, OSC52_CLIPBOARD, TERMINAL_CONTROLS

RAN = datetime(2025, 3, 14, 12, 30, 5, tzinfo=UTC)
NOW = RAN + timedelta(seconds=20)
FIND = "professional_network/find_company"


def match(slug: str, confidence: str, *, site: str | None, matched: bool | None,
          similarity: float = 0.9, name: str | None = None) -> Match:
    company = None if site is None else Company(slug=slug, name=name or slug.title(),
                                                website=site)
    return Match(company_url=f"https://network.example/company/{slug}",
                 serp_title=f"{slug.title()} | Network", company=company,
                 website_match=matched, name_similarity=similarity, confidence=confidence)


WITH_SITE = CompanyLookup(
    query="Northwind Labs", queries=["northwind labs", "site northwind.com"], count=3,
    matches=[
        match("northwind", "high", site="https://www.northwind.com", matched=True,
              similarity=0.78),
        match("northwind-labs", "low", site="https://northwind-labs.co.uk", matched=False,
              similarity=1.0, name="Northwind | Labs"),
        match("northwind-health", "low", site=None, matched=None, similarity=0.6),
    ],
)
WITHOUT_SITE = CompanyLookup(
    query="Northwind Labs", queries=["northwind labs"], count=3,
    matches=[
        match("northwind-labs", "medium", site="https://northwind-labs.co.uk", matched=None,
              similarity=1.0),
        match("northwind", "medium", site="https://www.northwind.com", matched=None,
              similarity=0.78),
        match("northwind-traders", "low", site="https://northwindtraders.com", matched=None),
    ],
)


def record(cache: CacheStatus, charged: int, saved: int = 0) -> CallRecord:
    return CallRecord(
        operation=FIND, method="POST", url="https://api.example/professional_network/find_company",
        params={}, cache=cache, credits_charged=charged, credits_saved=saved,
        request_headers={"X-API-Key": "sk_…cret"}, request_id="req_42", started_at=RAN,
    )


def test_report_says_what_was_asked_run_matched_and_charged() -> None:
    params = {"name": "Northwind Labs Ltd", "website": "northwind.com"}
    text = lookup_report(WITH_SITE, params, record(CacheStatus.MISS, 10),
                         service="api.example", sandbox=False, now=NOW)
    expected_head = (
        "## Company lookup: Northwind Labs Ltd\n\n"
        "- **Asked:** name “Northwind Labs Ltd”, website northwind.com\n"
        "- **Query after suffix removal:** Northwind Labs (dropped “Ltd”)\n"
        "- **Searches run:** `northwind labs`; `site northwind.com`\n"
        "- **Fetched:** 2025-03-14 12:30 UTC, just now\n"
        "- **Service:** the live service (api.example)\n"
        "- **Credits charged:** 10\n"
        "- **Request id:** `req_42`\n"
    )
    assert text.startswith(expected_head)
    assert ("| 1 | high | Northwind | https://network.example/company/northwind | yes | 0.78 |"
            " the page lists exactly northwind.com |") in text
    # a pipe in a company name cannot break the table
    assert "| 2 | low | Northwind \\| Labs |" in text
    assert "page lists northwind-labs.co.uk, not northwind.com" in text
    assert text.rstrip().endswith(
        "- https://network.example/company/northwind-health: momentarily unavailable, so its "
        "website was not compared; re-checking later may change its grade")
    assert "sk_" not in text and "X-API-Key" not in text


def test_report_of_a_cached_sandbox_lookup_without_website() -> None:
    params = {"name": "Northwind Labs"}
    text = lookup_report(WITHOUT_SITE, params, record(CacheStatus.HIT, 0, saved=10),
                         service="sandbox", sandbox=True, now=NOW)
    assert "- **Asked:** name “Northwind Labs”, no website\n" in text
    assert "- **Query after suffix removal:** Northwind Labs\n" in text
    assert "- **Service:** the built-in sandbox (demo data)" in text
    assert "- **Credits charged:** 0 (answered from the cache; it saved 10)" in text
    assert "| not checked | 1.00 | name 1.00 similar; no website given |" in text
    assert "None: every candidate page was fetched." in text


def test_report_of_a_cached_answer_says_when_it_was_fetched_not_when_it_was_read() -> None:
    fetched = datetime(2026, 11, 18, 9, 12, 40, tzinfo=UTC)
    cached = record(CacheStatus.HIT, 0, saved=10)
    cached.started_at, cached.fetched_at = fetched + timedelta(days=7), fetched
    text = lookup_report(WITHOUT_SITE, {"name": "Northwind Labs"}, cached,
                         service="sandbox", sandbox=True, now=cached.started_at)
    assert "- **Fetched:** 2026-11-18 09:12 UTC, 7 days ago (from the cache)\n" in text
    assert "2026-11-25" not in text  # the cache was read then: not when the answer was made


def test_an_answer_s_age_is_said_in_minutes_hours_or_days() -> None:
    fresh = record(CacheStatus.MISS, 10)
    fresh.fetched_at = RAN
    ages = [fetched_line(fresh, RAN + later) for later in (
        timedelta(seconds=59), timedelta(minutes=1), timedelta(minutes=59, seconds=59),
        timedelta(hours=2), timedelta(days=1, hours=23))]
    assert [line.split(", ", 1)[1] for line in ages] == [
        "just now", "1 minute ago", "59 minutes ago", "2 hours ago", "1 day ago"]


def test_report_with_no_matches() -> None:
    empty = CompanyLookup(query="Tiny Bakery", queries=["tiny bakery"], count=0, matches=[])
    text = lookup_report(empty, {"name": "Tiny Bakery"}, record(CacheStatus.MISS, 10),
                         service="x", sandbox=True, now=NOW)
    assert "### Matches (0, best first)\n\nNo candidate pages" in text


def test_comparison_pairs_pages_and_says_what_changed() -> None:
    rows = compare_lookups(WITH_SITE, "northwind.com", WITHOUT_SITE, None)
    by_slug = {row.url.rsplit("/", 1)[1]: row for row in rows}
    assert [row.url.rsplit("/", 1)[1] for row in rows] == [
        "northwind", "northwind-labs", "northwind-health", "northwind-traders"]
    assert by_slug["northwind"].change == "high → medium (down); rank 1 → 2"
    assert by_slug["northwind-labs"].change == "low → medium (up); rank 2 → 1"
    assert by_slug["northwind-health"].change == "not found by the new lookup"
    assert by_slug["northwind-health"].right is None
    assert by_slug["northwind-traders"].change == "found only by the new lookup"
    assert by_slug["northwind"].left is not None
    assert by_slug["northwind"].left.text == "#1 high · site yes"
    assert comparison_summary(rows) == (
        "4 pages: 2 changed grade, 1 found only by the new lookup, 1 no longer found")


def test_comparing_a_lookup_with_itself_changes_nothing() -> None:
    rows = compare_lookups(WITH_SITE, "northwind.com", WITH_SITE, "northwind.com")
    assert {row.change for row in rows} == {"unchanged"}


def test_a_corrected_website_shows_the_website_match_moving() -> None:
    corrected = CompanyLookup(query="Northwind Labs", queries=[], count=1, matches=[
        match("northwind-labs", "high", site="https://northwind-labs.co.uk", matched=True,
              similarity=1.0),
    ])
    rows = compare_lookups(WITH_SITE, "northwind.com", corrected, "northwind-labs.co.uk")
    labs = next(row for row in rows if row.url.endswith("/northwind-labs"))
    assert labs.change == "low → high (up); site no → yes; rank 2 → 1"


HOSTILE = (OSC52_CLIPBOARD + "\u202eevil\r\n## Injected heading\x07", *TERMINAL_CONTROLS,
           *INVISIBLE)


def test_a_report_writes_what_the_service_sent_visibly_in_lines_of_its_own() -> None:
    """Copied into a ticket or a terminal, a report of service text holding escape
    sequences, a bidi override or a line break neither acts nor adds a line."""
    for bad in HOSTILE:
        hostile = CompanyLookup(
            query=f"Acme {bad}", queries=[f"acme {bad}"], count=1,
            matches=[Match(company_url=f"https://network.example/{bad}", serp_title=bad,
                           company=Company(slug="acme", name=f"Acme {bad}",
                                           website="https://acme.example"),
                           website_match=None, confidence=f"high{bad}")])
        clean = lookup_report(hostile, {"name": "Acme", "website": "acme.example"},
                              record(CacheStatus.MISS, 10),
                              service="api.example", sandbox=False, now=NOW)
        text = lookup_report(hostile, {"name": f"Acme {bad}", "website": bad},
                             record(CacheStatus.MISS, 10), service="api.example",
                             sandbox=False, now=NOW)
        assert not any(hidden(char) for char in text if char != "\n"), repr(bad)
        assert text.count("\n") == clean.count("\n")  # the line structure is the report's
        assert shown(bad) in text  # the value, written visibly (ESC as "\x1b")
