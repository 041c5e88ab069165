"""A catalog you can try: Enter on an endpoint shows its parameters, price and an example
answer (free), and "Try it" fills the area that sends it, or a priced request."""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any

from rich.console import Console
from textual.widgets import DataTable, Input, Static

from creditscope.tui.app import CreditscopeApp
from creditscope.tui.screens.endpoint import EndpointScreen
from creditscope.tui.screens.import_request import ImportRequestScreen
from creditscope.tui.widgets.json_view import JsonView
from creditscope.tui.widgets.price_button import PriceButton
from pilot_support import settle

from .screen_text import visible_text

MakeApp = Callable[..., CreditscopeApp]


async def _open_endpoint(pilot: Any, path: str) -> EndpointScreen:
    app: Any = pilot.app
    await app.wait_for_client()
    await settle(pilot)
    screen = app.screen
    row = next(i for i, shown in enumerate(screen.shown) if shown[2] == path)
    table = screen.query_one("#catalog-table", DataTable)
    table.focus()
    table.move_cursor(row=row)
    await pilot.press("enter")
    await settle(pilot)
    assert isinstance(app.screen, EndpointScreen)
    return app.screen


def _table_text(screen: EndpointScreen) -> str:
    """The parameters table as a terminal 96 columns wide shows it."""
    console = Console(width=96, record=True, file=io.StringIO())
    console.print(screen.query_one("#endpoint-params", Static).content)
    return console.export_text()


def _spent(app: Any) -> int:
    return sum(record.credits_charged for record in app.client.ledger.session_records)


async def test_the_catalog_says_what_enter_opens(make_app: MakeApp) -> None:
    app = make_app(initial_mode="catalog")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        shown = " ".join(visible_text(app).split())
        assert "Enter or a click: its parameters, an example answer, Try it." in shown


async def test_enter_shows_parameters_price_and_a_free_example_then_try_fills_the_area(
    make_app: MakeApp,
) -> None:
    app = make_app(initial_mode="catalog")
    async with app.run_test(size=(100, 36)) as pilot:
        screen = await _open_endpoint(pilot, "/restaurants/search")
        shown = " ".join(visible_text(app).split() + _table_text(screen).split())
        assert "GET /restaurants/search · 2 cr a call · free when cached" in shown
        assert "location text yes 1 to 1000 characters" in shown
        assert "limit integer no 1 to 30 · default 10" in shown
        assert '"location": "Lisbon, PT"' in screen.query_one(JsonView).document
        assert _spent(app) == 0  # the example came from a throwaway sandbox
        calls_before = len(app.client.ledger.session_records)  # type: ignore[union-attr]

        await pilot.press("enter")  # the focused "Try it"
        await settle(pilot)
        assert app.current_mode == "restaurants"
        assert app.screen.query_one("#location", Input).value == "Lisbon"
        assert "Search · 2 cr" in str(app.screen.query_one("#search", PriceButton).label)
        assert len(app.client.ledger.session_records) == calls_before  # type: ignore[union-attr]


async def test_an_endpoint_without_an_area_opens_a_priced_request(make_app: MakeApp) -> None:
    app = make_app(initial_mode="catalog")
    async with app.run_test(size=(100, 36)) as pilot:
        await _open_endpoint(pilot, "/restaurants/menu")
        await pilot.press("t")
        await settle(pilot)
        dialog = app.screen
        assert isinstance(dialog, ImportRequestScreen)
        send = dialog.query_one("#import-send", PriceButton)
        assert send.display and "5 cr" in str(send.label)
        assert _spent(app) == 0
        await pilot.press("escape")
        await settle(pilot)
        await pilot.press("escape")  # back to the catalog's list
        await settle(pilot)
        assert app.screen.query_one("#catalog-table", DataTable).row_count > 0


async def test_a_free_endpoint_says_free_not_free_a_call(make_app: MakeApp) -> None:
    app = make_app(initial_mode="catalog")
    async with app.run_test(size=(100, 36)) as pilot:
        await _open_endpoint(pilot, "/provider-requests")
        shown = " ".join(visible_text(app).split())
        assert "POST /provider-requests · free" in shown and "free a call" not in shown


async def test_the_examples_parameters_wrap_at_80_columns_not_cut(make_app: MakeApp) -> None:
    app = make_app(initial_mode="catalog")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _open_endpoint(pilot, "/professional_network/find_company")
        title = screen.query_one("#endpoint-example-title")
        lines = [strip.text for strip in title.render_lines(title.region.reset_offset)]
        assert "website=" in " ".join(lines) and title.region.right <= 80


def test_endpoint_card_at_80x24(snap_compare: Any, make_app: MakeApp) -> None:
    async def open_search(pilot: Any) -> None:
        await _open_endpoint(pilot, "/restaurants/search")

    app = make_app(initial_mode="catalog")
    assert snap_compare(app, terminal_size=(80, 24), run_before=open_search)
