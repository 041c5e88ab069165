"""Company lookup, driven as a user would: type, press Enter, read the table and the card."""

from __future__ import annotations

import csv
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from textual.pilot import Pilot
from textual.widgets import Button, Input, Static

from creditscope.client.records import CacheStatus
from creditscope.tui.app import CreditscopeApp
from creditscope.tui.screens.company.company_card import CompanyCard
from creditscope.tui.screens.company.match_table import MatchTable
from creditscope.tui.screens.company.recent import RecentLookups
from pilot_support import later, open_with_letter, settle

SIZE = (120, 36)


async def open_company(pilot: Pilot[Any]) -> None:
    """Switch to the Company area and wait for the sandbox client."""
    app: Any = pilot.app
    await app.switch_mode("company")
    await app.wait_for_client()
    await settle(pilot)


async def look_up(pilot: Pilot[Any], name: str, website: str = "", *, typed: bool = False) -> None:
    """Fill the form (key by key when ``typed``) and press Enter in the name field."""
    screen = pilot.app.screen
    name_input = screen.query_one("#name", Input)
    website_input = screen.query_one("#website", Input)
    if typed:
        name_input.value = website_input.value = ""
        await pilot.click("#name")
        await pilot.press(*name)
        if website:
            await pilot.click("#website")
            await pilot.press(*website)
    else:
        name_input.value, website_input.value = name, website
    name_input.focus()
    await pilot.press("enter")
    await settle(pilot)


def table(app: CreditscopeApp) -> MatchTable:
    return app.screen.query_one("#matches", MatchTable)


def card(app: CreditscopeApp) -> CompanyCard:
    return app.screen.query_one("#card", CompanyCard)


def summary(app: CreditscopeApp) -> str:
    content: Any = app.screen.query_one("#summary", Static).content
    return content.plain


def spent(app: CreditscopeApp) -> int:
    assert app.client is not None
    return app.client.ledger.session_spent()


def records(app: CreditscopeApp) -> list[Any]:
    assert app.client is not None
    return app.client.ledger.session_records


def cell(app: CreditscopeApp, row: int, column: str) -> str:
    value: Any = table(app).get_cell(str(row), column)
    return value.plain.strip()


async def test_lookup_without_website_grades_by_name(
    make_app: Callable[..., CreditscopeApp],
) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await open_company(pilot)
        await look_up(pilot, "Northwind", typed=True)

        assert spent(app) == 10
        assert "Query Northwind" in summary(app)
        assert "5 matches" in summary(app)
        assert 'site:network.example/company "Northwind"' in summary(app)
        assert [cell(app, r, "website") for r in range(1, 6)] == ["not checked"] * 5
        assert cell(app, 1, "confidence") == "medium"
        assert cell(app, 1, "name") == "Northwind"
        assert cell(app, 1, "why") == "name 1.00 similar; no website given"
        # The best match is selected, and its page is on the card.
        assert card(app).text_of("description").startswith("Northwind is a")
        assert card(app).text_of("why") == "Why: name 1.00 similar; no website given"
        assert "Northwind | Company Page" in card(app).text_of("snippet")


async def test_website_decides_the_high_match_in_a_family(
    make_app: Callable[..., CreditscopeApp],
) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await open_company(pilot)
        await look_up(pilot, "Northwind Labs Ltd", "northwind-labs.co.uk")

        assert "Query Northwind Labs (dropped “Ltd”)" in summary(app)
        assert 'site:network.example/company "northwind-labs.co.uk"' in summary(app)
        assert cell(app, 1, "confidence") == "high"
        assert cell(app, 1, "website") == "yes"
        assert cell(app, 1, "name") == "Northwind Labs Ltd"
        assert cell(app, 1, "why") == "the page lists exactly northwind-labs.co.uk"
        others = [cell(app, r, "confidence") for r in range(2, 6)]
        assert others == ["low"] * 4
        whys = [cell(app, r, "why") for r in range(2, 6)]
        assert "page lists northwind.com, not northwind-labs.co.uk" in whys

        # The same family name with another website: that member is now the high match.
        await look_up(pilot, "Northwind", "northwindtraders.com")
        assert cell(app, 1, "confidence") == "high"
        assert cell(app, 1, "name") == "Northwind Traders"
        assert spent(app) == 20


async def test_small_company_gets_only_low_matches(make_app: Callable[..., CreditscopeApp]) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await open_company(pilot)
        await look_up(pilot, "Northwind Bakery", "northwindbakery.com")

        rows = table(app).row_count
        assert rows >= 1
        assert [cell(app, r, "confidence") for r in range(1, rows + 1)] == ["low"] * rows
        assert all(cell(app, r, "website") == "no" for r in range(1, rows + 1))
        assert "No page lists northwindbakery.com" in summary(app)

        # A small company with no page at all: no candidates, said in words.
        await look_up(pilot, "Harbourside Bakery Ltd", "harboursidebakery.co.uk")
        assert table(app).row_count == 0
        assert "0 matches" in summary(app)
        assert "may have no page on the network" in summary(app)
        assert not card(app).display


async def test_unavailable_page_offers_a_priced_recheck(
    make_app: Callable[..., CreditscopeApp],
) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await open_company(pilot)
        await look_up(pilot, "Meridian Media")

        assert cell(app, 1, "name") == "page unavailable"
        heading: Any = app.screen.query_one("#card-heading").render()
        assert "page momentarily unavailable" in str(heading)
        recheck = app.screen.query_one("#recheck", Button)
        assert recheck.display and app.screen.query_one("#card-recheck").display
        assert str(recheck.label) == "Re-check page · 10 cr"
        assert spent(app) == 10

        later(app)  # a while later (a refresh of fresh data would ask for a second press)
        await pilot.click("#recheck")
        await settle(pilot)
        assert spent(app) == 20
        assert records(app)[-1].cache == CacheStatus.REFRESH


async def test_reopening_a_recent_lookup_is_free(make_app: Callable[..., CreditscopeApp]) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await open_company(pilot)
        await look_up(pilot, "Contoso", "contoso.com")
        await look_up(pilot, "Fabrikam Inc")
        assert spent(app) == 20
        meter_before = app.credits.spent

        recent = app.screen.query_one("#recent", RecentLookups)
        assert [p["name"] for p in recent.lookups] == ["Fabrikam Inc", "Contoso"]
        contoso = next(key for key, p in recent._by_key.items() if p["name"] == "Contoso")
        recent.value = contoso
        await settle(pilot)

        assert spent(app) == 20
        assert app.credits.spent == meter_before
        assert records(app)[-1].cache == CacheStatus.HIT
        assert "from the cache · free" in summary(app)
        assert cell(app, 1, "name") == "Contoso"
        assert app.screen.query_one("#website", Input).value == "contoso.com"

        # Typing a cached lookup again: the button says so before anything is sent.
        await look_up(pilot, "Fabrikam Inc")
        assert spent(app) == 20
        assert "cached · free" in str(app.screen.query_one("#submit", Button).label)


async def test_validation_errors_cost_nothing_and_keep_typing(
    make_app: Callable[..., CreditscopeApp],
) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await open_company(pilot)
        await look_up(pilot, "   ", "northwind.com", typed=True)
        name = app.screen.query_one("#name", Input)
        website = app.screen.query_one("#website", Input)
        assert name.has_class("-invalid")
        assert "required" in str(app.screen.query_one("#form-error", Static).content)
        assert website.value == "northwind.com"

        await look_up(pilot, "Northwind", "not a website")
        assert website.has_class("-invalid") and not name.has_class("-invalid")
        assert (name.value, website.value) == ("Northwind", "not a website")

        assert records(app) == []
        assert spent(app) == 0
        assert app.credits.spent == 0


async def test_copy_url_and_export_matches(
    make_app: Callable[..., CreditscopeApp], copied: list[str], tmp_path: Path
) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await open_company(pilot)
        await look_up(pilot, "Northwind Labs Ltd", "northwind-labs.co.uk")
        await pilot.press("down")  # table has focus: select the second match
        await open_with_letter(pilot, "c")
        assert copied == [table(app).matches[1].company_url]

        for name in ("matches.json", "matches.csv"):
            await open_with_letter(pilot, "e")
            await settle(pilot)
            path_input = app.screen.query_one("#save-path", Input)
            path_input.value = str(tmp_path / name)
            await pilot.press("enter")
            await settle(pilot)

        exported = json.loads((tmp_path / "matches.json").read_text())
        assert exported["query"] == "Northwind Labs"
        assert exported["matches"][0]["confidence"] == "high"
        assert exported["matches"][0]["why"] == "the page lists exactly northwind-labs.co.uk"
        rows = list(csv.DictReader((tmp_path / "matches.csv").open()))
        assert len(rows) == 5
        assert rows[0]["company_name"] == "Northwind Labs Ltd" and rows[0]["website_match"] == "yes"
        assert spent(app) == 10


async def test_company_opened_after_the_client_is_ready_says_there_are_no_recent_lookups(
    make_app: Callable[..., CreditscopeApp],
) -> None:
    """As people open it: the explorer starts on Events, the client is ready, then `2`.
    The list filled on mount, when Select still ignores a new prompt, and kept saying
    "Recent lookups" with nothing in it."""
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        await app.wait_for_client()
        await settle(pilot)
        await app.switch_mode("company")
        await settle(pilot)
        recent = app.screen.query_one(RecentLookups)
        assert recent.disabled
        assert "No recent lookups" in str(recent.query_one("SelectCurrent #label").render())


async def test_slash_starts_a_new_lookup_without_the_last_website(
    make_app: Callable[..., CreditscopeApp],
) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await open_company(pilot)
        await look_up(pilot, "Northwind Labs Ltd", "northwind-labs.co.uk")
        table(app).focus()
        await pilot.press("slash", *"Contoso", "enter")
        await settle(pilot)
        website = app.screen.query_one("#website", Input)
        assert website.value == ""  # Contoso was not looked up with Northwind's website
        assert records(app)[-1].params == {"name": "Contoso"}
        website.focus()
        await pilot.press("ctrl+z")  # the old website is one undo away
        await settle(pilot)
        assert website.value == "northwind-labs.co.uk"
