"""A cached revisit draws its rows from what was drawn before (textual_patch item 9).

A revisited search refills the results table with rows it showed a moment ago;
rendering each cell through Rich again was the largest cost of the frame that
shows the result in a real terminal (``benchmarks/revisit_tmux.py``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from textual.app import App, ComposeResult
from textual.geometry import Region
from textual.strip import Strip
from textual.widgets import Input

from creditscope.models import RestaurantSummary
from creditscope.tui.app import CreditscopeApp
from creditscope.tui.screens.restaurants.results_table import RestaurantResults
from creditscope.tui.textual_patch import applies
from pilot_support import settle
from textual_internals import deliver_key_now

SIZE = (120, 20)


def places(city: str) -> list[RestaurantSummary]:
    """Ten restaurants of ``city``, each cell distinct."""
    return [RestaurantSummary(id=f"{city}-{i}", name=f"{city} Bistro {i}", cuisine="greek",
                              rating=3 + i / 10, review_count=100 + i, price_level=1 + i % 4,
                              distance_km=i / 3, open_now=i % 2 == 0) for i in range(10)]


class TableApp(App[None]):
    """Only the results table."""

    def compose(self) -> ComposeResult:
        yield RestaurantResults(id="results-table")


def drawn(table: RestaurantResults) -> list[str]:
    """Draw the whole table as a frame would and return its lines' text."""
    lines = table.render_lines(Region(0, 0, table.size.width, table.size.height))
    return [line.text for line in lines]


async def test_a_revisited_search_draws_no_cell_again() -> None:
    app = TableApp()
    async with app.run_test(size=SIZE) as pilot:
        table: Any = app.query_one(RestaurantResults)
        table.focus()
        await pilot.pause()
        table.show(places("Lisbon"), symbol="€")
        await pilot.pause()
        lisbon = drawn(table)
        table.show(places("Paris"), symbol="€")
        await pilot.pause()
        paris = drawn(table)
        assert paris != lisbon
        assert any("Paris Bistro 0" in line for line in paris)
        before = table.cells_rendered
        table.show(places("Lisbon"), symbol="€")  # the revisit
        await pilot.pause()
        again = drawn(table)
        assert again == lisbon  # the same frame as the first visit...
        assert table.cells_rendered == before if applies() else True  # ...none drawn anew
        table.show(places("Rome"), symbol="€")  # new rows are still drawn
        await pilot.pause()
        assert any("Rome Bistro 0" in line for line in drawn(table))
        assert table.cells_rendered > before


async def searched(pilot: Any, place: str) -> None:
    """Type ``place`` in the location box and press Enter; wait until all is done."""
    box = pilot.app.screen.query_one("#location", Input)
    box.focus()
    box.value = place
    await settle(pilot)
    await pilot.press("enter")
    await settle(pilot)


async def test_a_cached_search_is_drawn_before_the_focus_moves_to_it(
    make_app: Callable[..., CreditscopeApp],
) -> None:
    """The frame that shows a cached answer comes without the restyle of the focus
    change ahead of it, and draws no cell through Rich again."""
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        await app.switch_mode("restaurants")
        await settle(pilot)
        await searched(pilot, "Lisbon")
        table: Any = app.screen.query_one(RestaurantResults)
        first = str(table.get_row_at(0)[0])  # only Lisbon's results show it
        await searched(pilot, "Paris")
        # Columns only widen: Lisbon once more at Paris's widths, as a revisit draws it.
        await searched(pilot, "Lisbon, PT")
        await searched(pilot, "Paris, FR")
        assert table.has_focus
        assert all(str(table.get_row_at(row)[0]) != first for row in range(table.row_count))
        box = app.screen.query_one("#location", Input)
        box.focus()
        box.value = "Lisbon, PT"  # the revisit
        await settle(pilot)
        rendered_before = table.cells_rendered
        focus_when_drawn: list[object] = []
        render_lines = table.render_lines

        def watched(crop: Region) -> list[Strip]:
            lines = render_lines(crop)
            if not focus_when_drawn and any(first in line.text for line in lines):
                focus_when_drawn.append(app.focused)
            return lines

        table.render_lines = watched
        # As the terminal sends it: Pilot's press would also wait for the app to settle.
        deliver_key_now(app, "enter")
        for _ in range(5000):
            if focus_when_drawn:
                break
            await asyncio.sleep(0.001)
        await settle(pilot)
        assert focus_when_drawn == [box]  # drawn first, the cursor follows a frame later
        assert table.has_focus
        if applies():
            assert table.cells_rendered == rendered_before
