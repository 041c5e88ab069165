"""What the Restaurants screens look like on deterministic sandbox data (Lisbon, frozen clock)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from textual.pilot import Pilot
from textual.widgets import Input, Select

from creditscope.tui.app import CreditscopeApp
from creditscope.tui.screens.restaurants.results_table import RestaurantResults
from creditscope.tui.widgets.credit_meter import CreditMeter
from pilot_support import settle

from .conftest import SIZE

MakeApp = Callable[..., CreditscopeApp]
Step = Callable[[Pilot[Any]], Awaitable[None]]


async def _search_lisbon(pilot: Pilot[Any]) -> None:
    app: Any = pilot.app
    await settle(pilot)
    await app.switch_mode("restaurants")
    await settle(pilot)
    location = app.screen.query_one("#location", Input)
    location.focus()
    location.value = "Lisbon"
    await pilot.press("enter")
    await settle(pilot)


async def _open_second(pilot: Pilot[Any]) -> None:
    await _search_lisbon(pilot)
    table = pilot.app.screen.query_one(RestaurantResults)
    table.focus()
    table.move_cursor(row=2)
    await pilot.press("enter")
    await settle(pilot)


def then(*keys: str, before: Step = _open_second, after: Step | None = None) -> Step:
    """A ``run_before``: open a restaurant, press ``keys``, then an optional extra step."""

    async def run_before(pilot: Pilot[Any]) -> None:
        await before(pilot)
        for key in keys:  # one at a time: a tab's priced button takes the cursor after a frame
            await pilot.press(key)
            await settle(pilot)
        if after is not None:
            await after(pilot)
            await settle(pilot)
        # The meter's flash after a spend is on a timer: end it so the picture is stable.
        for meter in pilot.app.screen.query(CreditMeter):
            meter.remove_class("-spent")
        await pilot.pause()

    return run_before


async def _vegetarian(pilot: Pilot[Any]) -> None:
    pilot.app.screen.query_one("#menu-diet", Select).value = "vegetarian"


async def _sort_by_rating(pilot: Pilot[Any]) -> None:
    pilot.app.screen.query_one(RestaurantResults).sort_by("rating")


def test_results_sorted_by_rating(snap_compare: Any, make_app: MakeApp) -> None:
    run = then(before=_search_lisbon, after=_sort_by_rating)
    assert snap_compare(make_app(), terminal_size=SIZE, run_before=run)


def test_overview_with_hours(snap_compare: Any, make_app: MakeApp) -> None:
    assert snap_compare(make_app(), terminal_size=SIZE, run_before=then())


def test_menu_filtered_to_vegetarian(snap_compare: Any, make_app: MakeApp) -> None:
    assert snap_compare(make_app(), terminal_size=SIZE, run_before=then("m", "enter",
                                                                       after=_vegetarian))


def test_reviews_with_histogram(snap_compare: Any, make_app: MakeApp) -> None:
    assert snap_compare(make_app(), terminal_size=SIZE, run_before=then("r", "enter"))


def test_a_tab_not_fetched_offers_its_price(snap_compare: Any, make_app: MakeApp) -> None:
    """Issue 23: a tab's letter never spends; the tab says its price and waits for Enter."""
    assert snap_compare(make_app(), terminal_size=SIZE, run_before=then("m"))
