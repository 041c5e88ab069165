"""The search results: one row per restaurant, sortable by any column, Enter or click opens one."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from rich.cells import cell_len
from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType
from textual.coordinate import Coordinate
from textual.message import Message
from textual.widgets import DataTable

from creditscope.client.price_state import PriceWords
from creditscope.models import RestaurantSummary
from creditscope.tui.cell_text import clip
from creditscope.tui.host import host_of
from creditscope.tui.prices import quote
from creditscope.tui.screens.restaurants import formatting as fmt
from creditscope.tui.table_cells_patch import CellsKeyedByContent
from creditscope.tui.widgets.drawn_focus import FocusWhenDrawn

DETAILS = "restaurants/details"


@dataclass(frozen=True)
class Column:
    """A results column: its key, heading, how to sort by it, and its first sort direction."""

    key: str
    title: str
    sort_key: Callable[[RestaurantSummary], Any]
    descending: bool = False  # ratings and review counts read best-first


def _missing_last(value: Any, descending: bool) -> tuple[bool, Any]:
    # None sorts after every real value whichever the direction.
    return (value is None) != descending, value if value is not None else 0


COLUMNS: tuple[Column, ...] = (
    Column("name", "Name", lambda r: r.name.casefold()),
    Column("cuisine", "Cuisine", lambda r: (r.cuisine or "").casefold()),
    Column("rating", "Rating", lambda r: r.rating, descending=True),
    Column("reviews", "Reviews", lambda r: r.review_count, descending=True),
    Column("price", "Price", lambda r: r.price_level),
    Column("distance", "Distance", lambda r: r.distance_km),
    # "Open", not "Open now": at 80 columns the last heading was cut to "Open n".
    Column("open", "Open", lambda r: r.open_now, descending=True),
)
ADDRESS = Column("address", "Address", lambda r: (r.address or "").casefold())
"""Shown where the table has room for it (a wide terminal): the extra columns go to the
street, which otherwise only the restaurant's own page shows."""
ADDRESS_ROOM = 100
"""The table's width from which the address column is shown: the seven columns take about
75, leaving an address of ~25 characters its whole."""
BY_KEY: dict[str, Column] = {column.key: column for column in (*COLUMNS, ADDRESS)}
SCROLLBAR_ROOM = 2
"""Kept free for the vertical scrollbar, which a long list brings."""
NAME_MINIMUM = 8
"""A name is never cut shorter than this (the other columns then yield to it)."""


def _width(cell: Text | str) -> int:
    return cell.cell_len if isinstance(cell, Text) else cell_len(cell)


def sort_results(
    results: Sequence[RestaurantSummary], column: str | None, descending: bool
) -> list[RestaurantSummary]:
    """``results`` ordered by ``column`` (None keeps the service's order); missing values last."""
    if column is None:
        return list(results)
    key = BY_KEY[column].sort_key
    ordered = sorted(results, key=lambda r: _missing_last(key(r), descending), reverse=descending)
    return ordered


class RestaurantResults(FocusWhenDrawn, CellsKeyedByContent):
    """Restaurants from a search; the header or ``s`` changes the order, Enter opens one."""

    BINDING_GROUP_TITLE = "the results"  # help says where its keys work
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "select_cursor", "Open", id="restaurants.open"),
        Binding("s", "cycle_sort", "Sort", id="restaurants.sort"),
    ]

    class Opened(Message):
        """The user chose a restaurant (Enter or click)."""

        def __init__(self, table: RestaurantResults, restaurant: RestaurantSummary) -> None:
            super().__init__()
            self.table = table
            self.restaurant = restaurant

        @property
        def control(self) -> RestaurantResults:
            """The table the restaurant was chosen in."""
            return self.table

    class SortChanged(Message):
        """The order of the rows changed (a header click or ``s``)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(cursor_type="row", zebra_stripes=True, **kwargs)
        self.results: list[RestaurantSummary] = []
        self.symbol = "$"
        self.sort_column: str | None = None
        self.sort_descending = False

    def on_mount(self) -> None:
        """The seven columns, in reading order."""
        for column in COLUMNS:
            self.add_column(column.title, key=column.key)

    @property
    def shown_columns(self) -> tuple[Column, ...]:
        """The columns drawn now: the seven, and the address where there is room."""
        has_address = any(key.value == ADDRESS.key for key in self.columns)
        return (*COLUMNS, ADDRESS) if has_address else COLUMNS

    def on_resize(self, event: events.Resize) -> None:
        """Add the address column when the table grows wide enough, drop it when it shrinks,
        and fit the names to the new width."""
        wide = event.size.width >= ADDRESS_ROOM
        if wide != (ADDRESS in self.shown_columns):
            if wide:
                self.add_column(ADDRESS.title, key=ADDRESS.key)
            else:
                if self.sort_column == ADDRESS.key:
                    self.sort_column = None
                self.remove_column(self._column_key(ADDRESS.key))
        selected = self.selected
        self._fill(keep=selected.id if selected else None)

    def show(self, results: Sequence[RestaurantSummary], *, symbol: str = "$") -> None:
        """Replace the rows with a new search's results (kept in the current sort order)."""
        self.results = list(results)
        self.symbol = symbol
        self._fill(keep=None)
        self.move_cursor(row=0, scroll=True)

    def shown(self) -> list[RestaurantSummary]:
        """The results in the order the rows are shown (the current sort)."""
        return sort_results(self.results, self.sort_column, self.sort_descending)

    @property
    def selected(self) -> RestaurantSummary | None:
        """The restaurant under the cursor, if any."""
        if not self.row_count:
            return None
        key = self.coordinate_to_cell_key(self.cursor_coordinate).row_key.value
        return next((r for r in self.results if r.id == key), None)

    def sort_by(self, column: str, descending: bool | None = None) -> None:
        """Order by ``column``; the same column again flips the direction. The selection stays."""
        if descending is None:
            if column == self.sort_column:
                descending = not self.sort_descending
            else:
                descending = BY_KEY[column].descending
        self.sort_column, self.sort_descending = column, descending
        selected = self.selected
        self._fill(keep=selected.id if selected else None)
        self.post_message(self.SortChanged())

    def action_cycle_sort(self) -> None:
        """Sort by the next column (keyboard counterpart of clicking a header)."""
        keys = [column.key for column in self.shown_columns]
        current = keys.index(self.sort_column) if self.sort_column in keys else -1
        self.sort_by(keys[(current + 1) % len(keys)])

    def _fill(self, keep: str | None) -> None:
        self.clear()
        for column in self.shown_columns:
            arrow = ""
            if column.key == self.sort_column:
                arrow = " ▼" if self.sort_descending else " ▲"
            shown = self.columns[self._column_key(column.key)]
            shown.label = Text(column.title + arrow)
            # Widths fit these rows (a DataTable's only grow): the same results draw the
            # same table, so a revisit's cells come from the cell cache.
            shown.content_width = shown.label.cell_len
        rows = [(restaurant.id, self._cells(restaurant)) for restaurant in self.shown()]
        room = self._name_room([cells for _, cells in rows])
        for key, cells in rows:
            self.add_row(clip(str(cells[0]), room), *cells[1:], key=key)
        self._fit_header_labels()
        if keep is not None:
            self.move_cursor(row=self.get_row_index(keep), scroll=True)

    def _name_room(self, rows: list[list[Text | str]]) -> int | None:
        """How wide a name may be so the columns after it are whole (None: any width,
        or not laid out yet). The address, last and only on a wide table, may be cut."""
        if not self.size.width:
            return None
        others = [column for column in self.shown_columns[1:] if column is not ADDRESS]
        padding = 2 * self.cell_padding
        taken = sum(
            max([self._heading_width(column), *(_width(cells[index]) for cells in rows)])
            + padding
            for index, column in enumerate(others, start=1)
        )
        return max(NAME_MINIMUM, self.size.width - SCROLLBAR_ROOM - taken - padding)

    def _heading_width(self, column: Column) -> int:
        return len(column.title) + (2 if column.key == self.sort_column else 0)  # " ▼"

    def _column_key(self, key: str) -> Any:
        return next(k for k in self.columns if k.value == key)

    def _fit_header_labels(self) -> None:
        # Header labels changed length (the arrow): let the table re-measure them.
        for column in self.columns.values():
            column.content_width = max(column.content_width, column.label.cell_len)
        self.refresh()

    def _cells(self, restaurant: RestaurantSummary) -> list[Text | str]:
        filled, rest = fmt.price_level(restaurant.price_level, self.symbol)
        price = Text()
        price.append(filled, style="bold")
        price.append(rest, style="bright_black")
        rating = Text()
        # Where the address does not fit, one star before the number: the name keeps the
        # three columns five stars took.
        wide = ADDRESS in self.shown_columns
        rating.append(fmt.stars(restaurant.rating) if wide else "★", style="yellow")
        rating.append(f" {restaurant.rating:.1f}" if restaurant.rating is not None else " —")
        is_open = restaurant.open_now
        open_cell = Text(
            fmt.open_label(is_open),
            style="green" if is_open else ("red" if is_open is False else "bright_black"),
        )
        reviews = "—" if restaurant.review_count is None else f"{restaurant.review_count:,}"
        cells: list[Text | str] = [
            restaurant.name,
            fmt.title_case(restaurant.cuisine),
            rating,
            reviews.rjust(7),
            price,
            fmt.format_distance(restaurant.distance_km).rjust(8),
            open_cell,
            restaurant.address or "—",
        ]
        return cells[: len(self.shown_columns)]

    def on_data_table_header_selected(self, event: DataTable.HeaderSelected) -> None:
        """A header click sorts by that column (again: the other way)."""
        event.stop()
        self.sort_by(str(event.column_key.value))

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        """Enter (or a click) on a row opens that restaurant."""
        event.stop()
        restaurant = next((r for r in self.results if r.id == event.row_key.value), None)
        if restaurant is not None:
            self.post_message(self.Opened(self, restaurant))

    def open_price(self, restaurant: RestaurantSummary | None = None) -> PriceWords | None:
        """What opening ``restaurant`` (default: the highlighted one) costs now."""
        chosen = restaurant or self.selected
        if chosen is None:
            return None
        now = quote(host_of(self), DETAILS, {"id": chosen.id})
        return None if now is None else now.words()

    def binding_cost(self, binding_id: str) -> PriceWords | None:
        """Enter opens the highlighted restaurant: the footer says what that costs."""
        return self.open_price() if binding_id == "restaurants.open" else None

    def watch_cursor_coordinate(self, old: Coordinate, new: Coordinate) -> None:
        """The footer's "⏎ Open · N cr" follows the highlighted row (it may be cached)."""
        super().watch_cursor_coordinate(old, new)
        self.screen.refresh_bindings()

    def on_click(self, event: events.Click) -> None:
        """A click on a row highlights it, so its price shows (footer and summary line); a
        second click opens it. A row whose opening is free opens on the first click."""
        # Runs before the table's handler, which only moves the cursor on a new row.
        meta = event.style.meta
        row, column = meta.get("row", -1), meta.get("column", -1)
        if row < 0 or column < 0 or Coordinate(row, column) == self.cursor_coordinate:
            return
        row_key = self.coordinate_to_cell_key(Coordinate(row, 0)).row_key.value
        clicked = next((r for r in self.results if r.id == row_key), None)
        price = self.open_price(clicked)
        if price is not None and price.cost == 0 and not price.sends:
            self.call_next(self.action_select_cursor)
