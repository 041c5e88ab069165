"""Every size: what the explorer draws at the classic 80x24 is whole, and a wide 200x55
terminal gives its extra columns to content. Read from the rendered screen, cell by cell
(:func:`tests.tui.screen_text.screen_rows`), as a person would read it."""

from __future__ import annotations

import re
from collections.abc import Callable

from creditscope.tui.app import CreditscopeApp
from creditscope.tui.screens.restaurants.results_table import RestaurantResults
from pilot_support import settle

from .areas import SIZES
from .screen_text import screen_rows
from .test_restaurants_screens import open_row, search

MakeApp = Callable[..., CreditscopeApp]


async def test_wide_restaurant_results_show_each_address(make_app: MakeApp) -> None:
    # At 200 columns the seven columns used 85: the rest was empty while each street
    # needed the restaurant's page (2 cr) to be read.
    app = make_app()
    async with app.run_test(size=SIZES["200x55"]) as pilot:
        await search(pilot)
        table = app.screen.query_one(RestaurantResults)
        rows = screen_rows(app)
        assert any("Address" in row for row in rows)
        for restaurant in table.results:
            assert restaurant.address
            line = next(row for row in rows if restaurant.name in row and " km " in row)
            assert restaurant.address in line


async def test_narrow_restaurant_results_keep_every_column_whole(make_app: MakeApp) -> None:
    app = make_app()
    async with app.run_test(size=SIZES["80x24"]) as pilot:
        await search(pilot)
        header = next(row for row in screen_rows(app) if "Name" in row and "Cuisine" in row)
        assert "Open now" in header
        assert "Address" not in header


async def test_a_wide_menu_keeps_each_price_near_its_dish(make_app: MakeApp) -> None:
    # At 200 columns a price sat 190 columns to the right of its dish.
    app = make_app()
    async with app.run_test(size=SIZES["200x55"]) as pilot:
        await search(pilot)
        screen = await open_row(pilot, 0)
        await pilot.press("m", "enter")
        await settle(pilot)
        menu = screen.query_one("MenuView")
        dish = menu.menu.sections[0].items[0]  # type: ignore[attr-defined]
        line = next(row for row in screen_rows(app) if dish.name in row)
        price = re.search(r"[€$£]\s?\d[\d.,]*|\d[\d.,]*\s?[€$£]", line[line.index(dish.name):])
        assert price is not None, line
        gap = price.start()
        assert gap <= 100, f"the price is {gap} columns from its dish: {line.strip()!r}"
