"""The words and marks the Company screen derives from a lookup's fields."""

from __future__ import annotations

from creditscope.models import Company, CompanyLookup, Match
from creditscope.tui.screens.company.export import matches_csv
from creditscope.tui.screens.company.reasoning import (
    BADGE_STYLES,
    NEUTRAL_BADGE_STYLE,
    confidence_badge,
    domain_of,
    dropped_suffix,
    normalised_query,
    similarity_bar,
    website_match_text,
    why,
)


def match(**fields: object) -> Match:
    base: dict[str, object] = {
        "company_url": "https://network.example/company/northwind",
        "company": Company(name="Northwind", website="https://www.northwind.io"),
        "website_match": False,
        "name_similarity": 0.93,
        "confidence": "low",
    }
    base.update(fields)
    return Match.model_validate(base)


def test_dropped_legal_suffix_is_shown() -> None:
    assert dropped_suffix("Northwind Labs Ltd", "Northwind Labs") == "Ltd"
    assert normalised_query("Northwind Labs Ltd", "Northwind Labs") == (
        "Northwind Labs (dropped “Ltd”)"
    )
    assert normalised_query("Woodgrove Capital S.A.", "Woodgrove Capital") == (
        "Woodgrove Capital (dropped “S.A.”)"
    )
    assert normalised_query("Northwind", "Northwind") == "Northwind"
    assert normalised_query("northwind  labs", "Northwind Labs") == "Northwind Labs"


def test_badges_colour_known_grades_and_keep_unknown_text() -> None:
    assert confidence_badge("high").style == BADGE_STYLES["high"]
    assert confidence_badge("medium").style == BADGE_STYLES["medium"]
    assert confidence_badge("LOW").style == BADGE_STYLES["low"]
    odd = confidence_badge("probable")
    assert odd.plain.strip() == "probable" and odd.style == NEUTRAL_BADGE_STYLE
    assert confidence_badge(None).plain.strip() == "none"


def test_why_lines_read_like_the_judgement() -> None:
    exact = match(
        company=Company(name="Example", website="https://www.example.com/"), website_match=True
    )
    assert why(exact, "example.com") == "the page lists exactly example.com"
    assert why(match(), None) == "name 0.93 similar; no website given"
    assert why(match(), "https://northwind.com") == "page lists northwind.io, not northwind.com"
    assert why(match(company=None), "northwind.com").startswith("page momentarily unavailable")
    assert why(match(company=Company(name="N")), "northwind.com").startswith(
        "the page lists no website"
    )
    assert why(match(confidence="probable"), None).endswith("graded “probable” by the service")


def test_website_cell_and_similarity_bar() -> None:
    assert website_match_text(match(website_match=True), True) == "yes"
    assert website_match_text(match(), True) == "no"
    assert website_match_text(match(website_match=True), False) == "not checked"
    assert similarity_bar(0.93).plain == "█████████░ 0.93"
    assert similarity_bar(0.0).plain == "░░░░░░░░░░ 0.00"
    assert similarity_bar(None).plain == "—"
    assert domain_of("HTTPS://www.Northwind.com/about") == "northwind.com"


def test_csv_export_has_a_row_per_match_best_first() -> None:
    lookup = CompanyLookup(
        query="Northwind", queries=["q"], count=2,
        matches=[match(confidence="medium"), match(company=None)],
    )
    lines = matches_csv(lookup, None).splitlines()
    assert lines[0].startswith("rank,confidence,website_match,name_similarity,company_name")
    assert lines[1].startswith("1,medium,not checked,0.930,Northwind,")
    assert lines[2].startswith("2,low,not checked,0.930,,") and lines[2].endswith(",no")
