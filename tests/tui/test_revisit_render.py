"""A cached revisit draws its rows from what was drawn before (textual_patch item 7).

A revisited search refills the results table with rows it showed a moment ago;
rendering each cell through Rich again was the largest cost of the frame that
shows the result in a real terminal (``benchmarks/revisit_tmux.py``).
"""

from __future__ import annotations

from typing import Any

from textual.app import App, ComposeResult
from textual.geometry import Region

from creditscope.models import RestaurantSummary
from creditscope.tui.screens.restaurants.results_table import RestaurantResults
from creditscope.tui.textual_patch import applies

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
