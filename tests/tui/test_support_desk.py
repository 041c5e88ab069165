"""The support desk in the explorer: Import request, the lookup report, and the
with/without-website comparison, driven as a user would on the sandbox."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from textual import events
from textual.pilot import Pilot
from textual.widgets import Button, DataTable, Input, Select, Static, TextArea

from creditscope.sandbox import DEMO_KEY, SANDBOX_BASE_URL
from creditscope.tui.app import CreditscopeApp
from creditscope.tui.screens.company.compare_screen import CompareScreen
from creditscope.tui.screens.import_request import ImportRequestScreen
from creditscope.tui.widgets.price_button import PriceButton
from pilot_support import open_with_letter, settle

from .conftest import SIZE

SECRET = "sk_live_customer_SECRET_9876"
PASTED = (
    f"curl -X POST {SANDBOX_BASE_URL}/professional_network/find_company \\\n"
    f"  -H 'Authorization: Bearer {SECRET}' \\\n"
    "  -d '{\"name\": \"Northwind Labs Ltd\", \"website\": \"northwind.com\"}'"
)


def spent(app: CreditscopeApp) -> int:
    assert app.client is not None
    return app.client.ledger.session_spent()


def calls(app: CreditscopeApp) -> int:
    assert app.client is not None
    return len(app.client.ledger.session_records)


def static_text(app: CreditscopeApp, selector: str) -> str:
    content: Any = app.screen.query_one(selector, Static).content
    return str(getattr(content, "plain", content))


async def open_area(pilot: Pilot[Any], mode: str) -> None:
    app: Any = pilot.app
    await app.switch_mode(mode)
    await app.wait_for_client()
    await settle(pilot)


async def paste_into_import(pilot: Pilot[Any], text: str) -> ImportRequestScreen:
    """Open Import request with its key and put ``text`` in the paste box."""
    pilot.app.screen.set_focus(None)  # `i` is a key where no text box has the cursor
    await pilot.press("i")
    await settle(pilot)
    screen = pilot.app.screen
    assert isinstance(screen, ImportRequestScreen)
    screen.query_one("#import-text", TextArea).text = text
    await settle(pilot)
    return screen


async def test_import_fills_the_company_form_and_sends_nothing(
    make_app: Callable[..., CreditscopeApp],
) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await open_area(pilot, "company")
        screen = await paste_into_import(pilot, PASTED)
        shown = screen.query_one("#import-text", TextArea).text
        assert SECRET not in shown and "Authorization: •••" in shown
        result = static_text(app, "#import-result")
        assert "Find a company page" in result and "name: Northwind Labs Ltd" in result
        assert "Pasted key dropped (never stored or shown)" in result
        assert "Price: 10 cr" in static_text(app, "#import-price")  # beside the buttons
        assert SECRET not in result
        await pilot.click("#import-open")
        await settle(pilot)

        assert app.current_mode == "company"
        assert app.screen.query_one("#name", Input).value == "Northwind Labs Ltd"
        assert app.screen.query_one("#website", Input).value == "northwind.com"
        assert str(app.screen.query_one("#submit", PriceButton).label) == "Look up · 10 cr"
        assert calls(app) == 0  # nothing sent until the user presses the priced button


async def test_import_of_a_restaurant_search_opens_restaurants(
    make_app: Callable[..., CreditscopeApp],
) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await open_area(pilot, "company")
        await paste_into_import(
            pilot, f"curl -G {SANDBOX_BASE_URL}/restaurants/search -d location=Lisbon "
                   "--data-urlencode cuisine=thai -d limit=5")
        await pilot.click("#import-open")
        await settle(pilot)
        assert app.current_mode == "restaurants"
        assert app.screen.query_one("#location", Input).value == "Lisbon"
        assert app.screen.query_one("#limit", Input).value == "5"
        assert app.screen.query_one("#cuisine", Select).value == "thai"
        assert str(app.screen.query_one("#search", PriceButton).label) == "Search · 2 cr"
        assert calls(app) == 0


async def test_import_of_events_near_a_point_opens_events(
    make_app: Callable[..., CreditscopeApp],
) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await open_area(pilot, "company")
        await paste_into_import(
            pilot, f"{SANDBOX_BASE_URL}/ticketing/discovery?lat=38.72&lng=-9.14&limit=7")
        await pilot.click("#import-open")
        await settle(pilot)
        assert app.current_mode == "events"
        assert app.screen.query_one("#events-location", Input).value == "38.72, -9.14"
        assert app.screen.query_one("#events-limit", Input).value == "7"
        assert str(app.screen.query_one("#events-search", PriceButton).label) == "Search · 3 cr"
        assert calls(app) == 0


async def test_a_request_without_a_form_is_sent_from_the_dialog_at_its_price(
    make_app: Callable[..., CreditscopeApp],
) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await open_area(pilot, "events")
        await paste_into_import(pilot, f"{SANDBOX_BASE_URL}/restaurants/menu?id=rst_lisbon_pt_011")
        send = app.screen.query_one("#import-send", PriceButton)
        assert send.display and str(send.label) == "Send · 5 cr"
        assert not app.screen.query_one("#import-open", Button).display
        assert calls(app) == 0
        await pilot.click("#import-send")
        await settle(pilot)
        assert spent(app) == 5
        assert "rst_lisbon_pt_011" in app.screen.query_one("#import-json").document


async def test_what_cannot_be_imported_is_explained_in_place(
    make_app: Callable[..., CreditscopeApp],
) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await open_area(pilot, "company")
        screen = await paste_into_import(
            pilot, f"curl {SANDBOX_BASE_URL}/restaurants/nearby?location=Lisbon")
        assert "/restaurants/nearby is not a path" in static_text(app, "#import-result")
        assert not screen.query_one("#import-open", Button).display
        assert not screen.query_one("#import-send", PriceButton).display
        screen.query_one("#import-text", TextArea).text = (
            f"curl {SANDBOX_BASE_URL}/professional_network/find_company --data @body.json")
        await settle(pilot)
        assert "cannot read files" in static_text(app, "#import-result")
        assert not screen.query_one("#import-open", Button).display
        screen.query_one("#import-text", TextArea).text = (
            f"{SANDBOX_BASE_URL}/restaurants/search?location=Lisbon&limit=99")
        await settle(pilot)
        assert "limit must be between 1 and 30" in static_text(app, "#import-result")
        assert not screen.query_one("#import-open", Button).display
        assert calls(app) == 0


async def test_a_paste_outside_a_text_field_opens_import_request(
    make_app: Callable[..., CreditscopeApp],
) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await open_area(pilot, "company")
        app.screen.set_focus(None)
        app.post_message(events.Paste(PASTED))  # as the terminal delivers it
        await settle(pilot)
        assert isinstance(app.screen, ImportRequestScreen)
        assert SECRET not in app.screen.query_one("#import-text", TextArea).text
        assert "Northwind Labs Ltd" in static_text(app, "#import-result")


async def test_a_request_pasted_into_a_field_opens_import_request_and_the_field_keeps_its_text(
    make_app: Callable[..., CreditscopeApp],
) -> None:
    """Textual keeps the first line of a paste into a one-line box: the name became
    "curl -X POST https://… \\" and Enter would pay 10 cr for it."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await open_area(pilot, "company")
        name = app.screen.query_one("#name", Input)
        name.value = "Contoso"
        name.focus()
        await settle(pilot)
        name.post_message(events.Paste(PASTED))  # as the terminal delivers it to the box
        await settle(pilot)
        assert isinstance(app.screen, ImportRequestScreen)
        assert "Northwind Labs Ltd" in static_text(app, "#import-result")
        await pilot.press("escape")
        await settle(pilot)
        assert name.value == "Contoso"
        assert calls(app) == 0


async def test_a_one_line_wget_pasted_into_a_field_opens_import_request(
    make_app: Callable[..., CreditscopeApp],
) -> None:
    """One line, so not caught as several: it became the company's name before."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await open_area(pilot, "company")
        name = app.screen.query_one("#name", Input)
        name.focus()
        await settle(pilot)
        pasted = (CORPUS / "wget-post-data.txt").read_text(encoding="utf-8").strip()
        assert "\n" not in pasted
        name.post_message(events.Paste(pasted))
        await settle(pilot)
        assert isinstance(app.screen, ImportRequestScreen)
        assert "Tailspin Toys" in static_text(app, "#import-result")
        await pilot.press("escape")
        await settle(pilot)
        assert name.value == ""
        assert calls(app) == 0


async def look_up(pilot: Pilot[Any], name: str, website: str) -> None:
    screen = pilot.app.screen
    screen.query_one("#name", Input).value = name
    screen.query_one("#website", Input).value = website
    screen.query_one("#name", Input).focus()
    await pilot.press("enter")
    await settle(pilot)


async def test_the_lookup_report_is_copied_and_saved_without_the_key(
    make_app: Callable[..., CreditscopeApp], copied: list[str], tmp_path: Path,
) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await open_area(pilot, "company")
        await look_up(pilot, "Northwind Labs Ltd", "northwind.com")
        app.screen.query_one("#matches").focus()
        await pilot.press("y")
        await settle(pilot)
        report = copied[-1]
        assert report.startswith("## Company lookup: Northwind Labs Ltd\n")
        assert "- **Query after suffix removal:** Northwind Labs (dropped “Ltd”)" in report
        assert "- **Fetched:** 2025-03-14 12:30 UTC, just now\n" in report
        assert "- **Service:** the built-in sandbox (demo data)" in report
        assert "- **Credits charged:** 10" in report
        assert "| 1 | high |" in report and "the page lists exactly northwind.com" in report
        assert "### Unavailable pages" in report
        assert DEMO_KEY not in report and "X-API-Key" not in report

        app.screen.action_save_report()  # type: ignore[attr-defined]
        await settle(pilot)
        target = tmp_path / "ticket" / "report.md"
        app.screen.query_one("#save-path", Input).value = str(target)
        await pilot.click("#save-ok")
        await settle(pilot)
        assert target.read_text(encoding="utf-8") == report


async def open_compare(pilot: Pilot[Any], name: str, website: str) -> None:
    """Look ``name`` up (with ``website``), then press `w` on its matches."""
    await open_area(pilot, "company")
    await look_up(pilot, name, website)
    pilot.app.screen.query_one("#matches").focus()
    await open_with_letter(pilot, "w")
    await settle(pilot)
    assert isinstance(pilot.app.screen, CompareScreen)


async def test_compare_without_the_website_then_reopen_it_free(
    make_app: Callable[..., CreditscopeApp],
) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await open_compare(pilot, "Northwind Labs Ltd", "northwind.com")
        assert str(app.screen.query_one("#compare-run", PriceButton).label) == "Compare · 10 cr"
        assert spent(app) == 10  # the price is shown; nothing ran yet
        await pilot.press("enter")
        await settle(pilot)
        assert spent(app) == 20
        table: DataTable[Any] = app.screen.query_one("#compare-table", DataTable)
        assert table.row_count == 5
        first = [str(getattr(c, "plain", c)) for c in table.get_row_at(0)]
        assert first[0] == "Northwind"
        assert first[1] == "#1 high · site yes"
        assert first[3].startswith("high → ")
        assert "5 pages" in static_text(app, "#compare-summary")

        await pilot.press("escape")
        await settle(pilot)
        await open_with_letter(pilot, "w")  # again: answered from the cache, at once and free
        await settle(pilot)
        assert app.screen.query_one("#compare-table", DataTable).row_count == 5
        assert "from the cache · free" in static_text(app, "#compare-summary")
        assert spent(app) == 20


async def compare_with(pilot: Pilot[Any], website: str) -> None:
    box = pilot.app.screen.query_one("#compare-website", Input)
    box.value = website
    box.focus()
    await pilot.press("enter")
    await settle(pilot)


async def test_compare_asks_for_a_website_once_however_it_is_written(
    make_app: Callable[..., CreditscopeApp],
) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await open_compare(pilot, "Northwind Labs Ltd", "")
        assert spent(app) == 10
        await compare_with(pilot, "https://www.northwind-labs.co.uk/")
        assert spent(app) == 20
        button = app.screen.query_one("#compare-run", PriceButton)
        app.screen.query_one("#compare-website", Input).value = "northwind-labs.co.uk"
        await settle(pilot)
        assert "free" in str(button.label)  # priced as the same request before the press
        await compare_with(pilot, "northwind-labs.co.uk")
        assert spent(app) == 20 and "from the cache · free" in static_text(
            app, "#compare-summary")

        await compare_with(pilot, "info@example.co.uk")  # refused in place, free
        assert "e-mail address, not a website" in static_text(app, "#compare-error")
        await compare_with(pilot, "  ")  # the shown lookup had no website either
        assert static_text(app, "#compare-error").startswith("That is the shown lookup")
        assert spent(app) == 20


async def test_a_key_typed_character_by_character_never_stays_on_screen(
    make_app: Callable[..., CreditscopeApp],
) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await open_area(pilot, "company")
        screen = await paste_into_import(pilot, "")
        area = screen.query_one("#import-text", TextArea)
        for char in f"curl -H 'X-API-Key: {SECRET}' {SANDBOX_BASE_URL}/catalog":
            area.insert(char)  # at the cursor, as typing does
            await pilot.pause()
        assert SECRET[:4] not in area.text
        assert area.text == f"curl -H 'X-API-Key: •••' {SANDBOX_BASE_URL}/catalog"
        assert "Catalog" in static_text(app, "#import-result")


def test_pasted_values_are_shown_safely() -> None:
    from creditscope.tui.screens.import_request import shown_value

    assert shown_value("Acme\x07\x1b[2J") == "Acme\\x07\\x1b[2J"
    assert shown_value("x" * 10_240).endswith("… (10240 characters)")
    assert len(shown_value("x" * 10_240)) < 150


CORPUS = Path(__file__).parents[1] / "support" / "curl_corpus"


async def test_a_browser_paste_shows_its_notes_and_price_at_80x24(
    make_app: Callable[..., CreditscopeApp],
) -> None:
    """Chrome's "Copy as cURL" with its 15 headers, on the sandbox: every note and the
    price are on screen at once, uncovered, without scrolling."""
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await open_area(pilot, "company")
        pasted = (CORPUS / "chrome-bash-find-company.txt").read_text(encoding="utf-8")
        screen = await paste_into_import(pilot, pasted)
        result = static_text(app, "#import-result")
        assert "name: Northwind Labs Ltd" in result
        assert "12 browser headers ignored (cookies, sec-fetch-*, sec-ch-*, user-agent…)" in result
        assert "the customer called api.example.com" in result
        assert "sec-fetch-dest" not in result and "sk_live" not in result
        body = screen.query_one(".dialog-body").region
        shown = screen.query_one("#import-result").region
        assert body.contains_region(shown), "the notes need scrolling to be read"
        assert shown.height == len(result.splitlines())  # one screen line per note
        price = screen.query_one("#import-price", Static)
        assert str(price.render()).startswith("Price: 10 cr")
        assert app.screen.region.contains_region(price.region)
        assert app.screen.get_widget_at(price.region.x, price.region.y)[0] is price
        assert screen.query_one("#import-open", Button).display
        assert calls(app) == 0
