"""Restaurants on the in-process sandbox: search, open a restaurant, its three parts, money."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich.console import Console
from textual.content import Content
from textual.pilot import Pilot
from textual.widgets import Input, Select, Static, TabbedContent

from creditscope.models import CUISINES
from creditscope.tui.app import CreditscopeApp
from creditscope.tui.screens.restaurants import RestaurantScreen, RestaurantsScreen
from creditscope.tui.screens.restaurants.breadcrumb import Breadcrumb
from creditscope.tui.screens.restaurants.menu_view import MenuView
from creditscope.tui.screens.restaurants.results_table import RestaurantResults
from creditscope.tui.widgets.error_panel import ErrorPanel
from creditscope.tui.widgets.price_button import PriceButton
from pilot_support import settle

from .conftest import SIZE

MakeApp = Callable[..., CreditscopeApp]


def text_of(widget: Static) -> str:
    """What a Static shows, as plain text."""
    content: Any = widget.content
    if isinstance(content, str):  # Textual markup ("[$text-muted]…"), not Rich's
        return Content.from_markup(content).plain
    console = Console(width=200, record=True, file=open("/dev/null", "w"))  # noqa: SIM115
    console.print(content)
    return console.export_text()


def spent(app: CreditscopeApp, operation: str | None = None) -> int:
    """Credits charged this session (for one operation, or all)."""
    totals = app.client.ledger.session_totals()  # type: ignore[union-attr]
    if operation is None:
        return totals.spent
    row = totals.by_operation.get(operation)
    return row.spent if row else 0


async def search(pilot: Pilot[Any], location: str = "Lisbon", cuisine: str | None = None) -> None:
    """Open Restaurants, fill the form and press Enter in the location box."""
    app: Any = pilot.app
    await settle(pilot)
    await app.switch_mode("restaurants")
    await settle(pilot)
    if cuisine is not None:
        app.screen.query_one("#cuisine", Select).value = cuisine
    location_box = app.screen.query_one("#location", Input)
    location_box.focus()
    location_box.value = location
    await pilot.press("enter")
    await settle(pilot)


async def open_row(pilot: Pilot[Any], row: int) -> RestaurantScreen:
    """Move to ``row`` of the results and press Enter."""
    table = pilot.app.screen.query_one(RestaurantResults)
    table.focus()
    table.move_cursor(row=row)
    await pilot.press("enter")
    await settle(pilot)
    screen = pilot.app.screen
    assert isinstance(screen, RestaurantScreen)
    return screen


async def test_search_without_cuisine_lists_restaurants_with_total_and_price(
    make_app: MakeApp,
) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await search(pilot)
        screen = app.screen
        table = screen.query_one(RestaurantResults)
        assert table.row_count == 10
        summary = text_of(screen.query_one("#results-summary", Static))
        assert "restaurants near Lisbon" in summary and "showing 10" in summary
        assert screen.query_one(Breadcrumb).text == "Restaurants › Lisbon"
        assert spent(app) == 2
        # Euros in Lisbon: the price level is written in €.
        assert "€" in str(table.get_row_at(0)[4])
        # The same search again is free, and the button says so first.
        assert "cached" in str(screen.query_one("#search", PriceButton).label)
        await pilot.press("escape")
        screen.query_one("#location", Input).focus()
        await pilot.press("enter")
        await settle(pilot)
        assert spent(app) == 2


async def test_refresh_is_offered_once_a_search_has_answered(make_app: MakeApp) -> None:
    app = make_app(initial_mode="restaurants")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert "ctrl+r" not in app.screen.active_bindings  # nothing to fetch again yet
        app.screen.set_focus(None)
        await pilot.press("ctrl+r")
        await settle(pilot)
        assert spent(app) == 0
        await search(pilot)
        assert app.screen.active_bindings["ctrl+r"].binding.id == "restaurants.refresh"


async def test_search_with_cuisine_only_lists_that_cuisine(make_app: MakeApp) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await search(pilot, "Lisbon", cuisine="italian")
        table = app.screen.query_one(RestaurantResults)
        assert table.results, "the sandbox has Italian restaurants in Lisbon"
        assert {r.cuisine for r in table.results} == {"italian"}
        assert "Italian restaurants near" in text_of(
            app.screen.query_one("#results-summary", Static)
        )
        assert set(CUISINES) >= {r.cuisine for r in table.results}


async def test_an_empty_location_is_refused_before_anything_is_spent(make_app: MakeApp) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await search(pilot, "   ")
        panel = app.screen.query_one("#restaurant-results ErrorPanel", ErrorPanel)
        assert panel.display and panel.error is not None
        assert app.screen.query_one("#location", Input).has_class("-invalid")
        assert spent(app) == 0


async def test_sorting_keeps_the_selected_restaurant(make_app: MakeApp) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await search(pilot)
        table = app.screen.query_one(RestaurantResults)
        table.focus()
        table.move_cursor(row=4)
        chosen = table.selected
        table.sort_by("rating")
        ratings = [r.rating for r in (table.selected,) if r]
        assert table.selected == chosen and ratings
        shown = [table.get_row_at(i)[2].plain for i in range(table.row_count)]
        values = [float(cell.split()[-1]) for cell in shown]
        assert values == sorted(values, reverse=True)
        table.sort_by("rating")  # the same column again: the other way
        values = [float(table.get_row_at(i)[2].plain.split()[-1]) for i in range(table.row_count)]
        assert values == sorted(values)


async def test_each_part_is_charged_once_and_revisiting_costs_nothing(make_app: MakeApp) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await search(pilot)
        results = app.screen
        name = results.query_one(RestaurantResults).results[3].name
        screen = await open_row(pilot, 3)
        tabs = screen.query_one(TabbedContent)
        assert str(tabs.get_tab("menu").label) == "Menu · 5 cr"
        assert str(tabs.get_tab("reviews").label) == "Reviews · 3 cr"
        assert spent(app, "restaurants/details") == 2
        assert screen.query_one(Breadcrumb).text == f"Restaurants › Lisbon › {name} › Overview"
        await pilot.press("m")  # a tab's letter offers its price and spends nothing
        await settle(pilot)
        assert screen.query_one(Breadcrumb).text.endswith("› Menu")
        assert spent(app, "restaurants/menu") == 0
        await pilot.press("enter")  # the priced button has the cursor
        await settle(pilot)
        await pilot.press("r")
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        await pilot.press("v", "m", "r")
        await settle(pilot)
        assert spent(app, "restaurants/menu") == 5
        assert spent(app, "restaurants/reviews") == 3
        assert spent(app) == 2 + 2 + 5 + 3
        for pane in ("overview", "menu", "reviews"):
            assert str(tabs.get_tab(pane).label).endswith("· cached")

        # Back: the same row is selected; opening it again costs nothing.
        await pilot.press("escape")
        await settle(pilot)
        assert app.screen is results
        assert results.query_one(RestaurantResults).cursor_row == 3
        screen = await open_row(pilot, 3)
        await pilot.press("m", "r")
        await settle(pilot)
        assert spent(app) == 12
        assert str(screen.query_one(TabbedContent).get_tab("menu").label) == "Menu · cached"


async def test_menu_filters_by_diet_and_text_without_a_request(make_app: MakeApp) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await search(pilot)
        screen = await open_row(pilot, 0)
        await pilot.press("m")
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        menu_view = screen.query_one(MenuView)
        assert menu_view.menu is not None
        total = sum(len(section.items) for section in menu_view.menu.sections)
        count = screen.query_one("#menu-count", Static)
        assert text_of(count).startswith(f"{total} of {total} dishes")
        diet = screen.query_one("#menu-diet", Select)
        tags = [value for _, value in diet._options if isinstance(value, str)]
        assert tags, "the menu carries dietary tags"
        diet.value = tags[0]
        await settle(pilot)
        shown = text_of(screen.query_one("#menu-items", Static))
        kept = [
            item
            for section in menu_view.menu.sections
            for item in section.items
            if tags[0] in item.dietary
        ]
        assert text_of(count).startswith(f"{len(kept)} of {total} dishes")
        assert all(item.name in shown for item in kept)
        dropped = [
            item
            for section in menu_view.menu.sections
            for item in section.items
            if tags[0] not in item.dietary
        ]
        assert not any(f"{item.name}\n" in shown for item in dropped)
        screen.query_one("#menu-search", Input).value = "no dish is called this"
        await settle(pilot)
        assert "No dishes match" in text_of(screen.query_one("#menu-items", Static))
        assert spent(app, "restaurants/menu") == 5


async def test_a_new_reviews_limit_is_a_new_priced_request(make_app: MakeApp) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await search(pilot)
        screen = await open_row(pilot, 0)
        await pilot.press("r")
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        assert spent(app, "restaurants/reviews") == 3
        listing = screen.query_one("#reviews-list", Static)
        assert (
            text_of(listing).count("found this helpful")
            + text_of(listing).count("no helpful votes")
            == 10
        )
        limit = screen.query_one("#reviews-limit", Input)
        limit.value = "3"
        await settle(pilot)
        assert str(screen.query_one("#reviews-load", PriceButton).label) == "Show reviews · 3 cr"
        limit.focus()
        await pilot.press("enter")
        await settle(pilot)
        assert spent(app, "restaurants/reviews") == 6
        text = text_of(listing)
        assert text.count("found this helpful") + text.count("no helpful votes") == 3
        assert "Ratings of the 3 shown" in text_of(screen.query_one("#reviews-histogram", Static))
        # Out of range: refused locally, nothing spent, what was typed is kept.
        limit.value = "99"
        await pilot.press("enter")
        await settle(pilot)
        assert screen.query_one("#reviews-area ErrorPanel", ErrorPanel).display
        assert limit.value == "99" and limit.has_class("-invalid")
        assert spent(app, "restaurants/reviews") == 6


async def test_an_unknown_id_shows_its_error_in_place(make_app: MakeApp) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await app.switch_mode("restaurants")
        await settle(pilot)
        assert isinstance(app.screen, RestaurantsScreen)
        await app.push_screen(RestaurantScreen("r_bogus_id"))
        await settle(pilot)
        panel = app.screen.query_one("#overview-area ErrorPanel", ErrorPanel)
        assert panel.display
        assert "Not found" in text_of(panel.query_one(".error-title", Static))
        assert app.screen.query_one(Breadcrumb).text == "Restaurants › r_bogus_id › Overview"
        # Nothing half-filled under the error.
        assert not app.screen.query_one(".overview-columns").display
        await pilot.press("escape")
        assert isinstance(app.screen, RestaurantsScreen)


async def test_a_paid_row_opens_on_a_second_click_a_cached_one_on_the_first(
    make_app: MakeApp,
) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await search(pilot, "Lisbon")
        table = app.screen.query_one(RestaurantResults)
        third = table.get_row_at(2)[0]  # the name cell of the third row
        await pilot.click(table, offset=(4, 3))  # the header is row 0 of the widget
        await settle(pilot)
        assert not isinstance(app.screen, RestaurantScreen)  # highlighted, priced, not opened
        await pilot.click(table, offset=(4, 3))
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, RestaurantScreen) and screen.name_shown == third
        await pilot.press("escape")
        await settle(pilot)
        table.move_cursor(row=0)
        await settle(pilot)
        # Opening it again is free (cached): one click on its row opens it, once.
        await pilot.click(table, offset=(4, 3))
        await settle(pilot)
        assert isinstance(app.screen, RestaurantScreen)
        assert sum(isinstance(s, RestaurantScreen) for s in app.screen_stack) == 1
        await pilot.press("escape")
        await settle(pilot)
        await pilot.click(table, offset=(4, 0))  # a header click sorts; nothing opens
        await settle(pilot)
        assert not isinstance(app.screen, RestaurantScreen) and table.sort_column == "name"
