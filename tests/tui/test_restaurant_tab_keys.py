"""Issue 36: on a restaurant's page the keys that open its tabs (``m`` Menu, ``r``
Reviews, ``v`` Overview) say in the footer what their tabs say: the part's price from
the price table until it is fetched, then free, as every priced key does."""

from __future__ import annotations

from collections.abc import Callable

from creditscope import operations
from creditscope.tui.app import CreditscopeApp
from pilot_support import settle

from .conftest import SIZE
from .test_fit_and_keys import footer_keys
from .test_restaurants_screens import open_row, search

MakeApp = Callable[..., CreditscopeApp]
MENU = f"Menu · {operations.RESTAURANT_MENU.credits} cr"
REVIEWS = f"Reviews · {operations.RESTAURANT_REVIEWS.credits} cr"


async def test_tab_keys_show_their_prices_then_free(make_app: MakeApp) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await search(pilot)
        await open_row(pilot, 3)
        keys = footer_keys(app)
        assert keys["m"] == MENU and keys["r"] == REVIEWS
        assert keys["v"] == "Overview · cached · free"  # fetched by the press that opened it
        await pilot.press("m", "enter")  # the menu's priced button
        await settle(pilot)
        keys = footer_keys(app)
        assert keys["m"] == "Menu · cached · free" and keys["r"] == REVIEWS


async def test_a_part_cached_on_an_earlier_visit_is_free_in_the_footer(
    make_app: MakeApp,
) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await search(pilot)
        await open_row(pilot, 2)
        await pilot.press("r", "enter")
        await settle(pilot)
        await pilot.press("escape")
        await settle(pilot)
        await open_row(pilot, 2)  # a new page: its reviews come from the cache
        keys = footer_keys(app)
        assert keys["r"] == "Reviews · cached · free" and keys["m"] == MENU


async def test_at_80_columns_the_tab_keys_keep_their_prices(make_app: MakeApp) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await search(pilot)
        await open_row(pilot, 3)
        keys = footer_keys(app)
        assert keys["m"] == f"Menu·{operations.RESTAURANT_MENU.credits} cr"
        assert keys["r"] == f"Reviews·{operations.RESTAURANT_REVIEWS.credits} cr"
