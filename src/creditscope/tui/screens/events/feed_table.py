"""The discovery feed as a table: one numbered row per event, sortable by date and price.

Row numbers follow the order the service returned (page after page), so an
event keeps its number, and its map marker, whatever the sort.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, ClassVar

from rich.text import Text
from textual import on
from textual.binding import Binding, BindingType
from textual.events import Resize
from textual.message import Message
from textual.widgets import DataTable
from textual.widgets.data_table import ColumnKey, RowDoesNotExist

from creditscope.tui.cell_text import clip
from creditscope.tui.screens.events.formatting import (
    date_sort_key,
    price_sort_key,
    price_text,
    status_colour,
    table_time,
)

if TYPE_CHECKING:
    # Annotations only: pydantic and the models stay out of the first frame.
    from creditscope.models import Event

# (key, heading, width, sortable): when, what, how much and can I go first, so a
# narrow terminal cuts where and the tag rather than the price.
COLUMNS: tuple[tuple[str, str, int, bool], ...] = (
    ("number", "#", 3, False),
    ("date", "Date (venue)", 16, True),
    ("name", "Event", 23, False),
    ("price", "Price", 9, True),
    ("status", "Status", 11, False),
    ("venue", "Venue", 16, False),
    ("city", "City", 9, False),
    ("tag", "Tag", 10, False),
)
# The Event and Venue columns take what a wide terminal has beyond those widths.
WIDENED_SHARES = {"name": 2, "venue": 1}
CELL_PADDING = 2  # DataTable's cell_padding (1) on each side
ALWAYS_SHOWN = 5  # number, date, event, price, status: a narrow table scrolls for these
EDGES = 2  # the scrollbar gutter and a cell of slack
SORT_KEYS: dict[str, Callable[[Event], Any]] = {"date": date_sort_key, "price": price_sort_key}


def column_widths(table_width: int) -> dict[str, int]:
    """Each shown column's width: the listed ones, the Event and Venue columns widened to
    use a terminal wider than they need. On a narrow one the columns after the status
    that do not fit whole are left out (the detail panel names the venue and city), rather
    than one cut at the edge ("V" for Venue at 80 columns). ``0``: not laid out yet, all."""
    widths: dict[str, int] = {}
    used = EDGES
    for index, (key, _, width, _) in enumerate(COLUMNS):
        if table_width and index >= ALWAYS_SHOWN and used + width + CELL_PADDING > table_width:
            break
        widths[key] = width
        used += width + CELL_PADDING
    spare = table_width - used
    shares = sum(share for key, share in WIDENED_SHARES.items() if key in widths)
    if spare > 0:
        for key, share in WIDENED_SHARES.items():
            if key in widths:
                widths[key] += spare * share // shares
    return widths


class EventFeedTable(DataTable[Any]):
    """The feed's events, one numbered row each; ``s`` (or a header click) sorts."""

    BINDING_GROUP_TITLE = "the feed"  # help says where its keys work
    BINDINGS: ClassVar[list[BindingType]] = [
        # Also a header click; listed in help, kept out of the crowded footer.
        Binding("s", "cycle_sort", "Sort (next column)", show=False, id="events.sort"),
    ]

    class EventHighlighted(Message):
        """The cursor is on the event numbered ``number``."""

        def __init__(self, table: EventFeedTable, number: int, event: Event) -> None:
            super().__init__()
            self.table = table
            self.number = number
            self.event = event

        @property
        def control(self) -> EventFeedTable:
            """The table the event is in."""
            return self.table

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(cursor_type="row", zebra_stripes=True, **kwargs)
        self.events: list[Event] = []
        self.sort_column: str | None = None
        self.sort_reverse = False
        self.widths = column_widths(0)

    def on_mount(self) -> None:
        """Add the columns."""
        self._add_columns()

    def on_resize(self, event: Resize) -> None:
        """Widen (or narrow back) the Event and Venue columns to the table's new width."""
        widths = column_widths(event.size.width)
        if widths == self.widths:
            return
        self.widths = widths
        keep = self.highlighted_number
        self.clear(columns=True)
        self._add_columns()
        for number, shown in enumerate(self.events, start=1):
            self.add_row(*self._cells(number, shown), key=str(number))
        self._apply_sort()
        if keep is not None:
            self.select_number(keep)

    def _add_columns(self) -> None:
        for key, heading, _, _ in COLUMNS:
            if key in self.widths:
                self.add_column(heading, width=self.widths[key], key=key)

    # --- content ---------------------------------------------------------------

    def show_events(self, events: Iterable[Event]) -> None:
        """Replace the rows with a fresh feed (numbered from 1)."""
        self.events = []
        self.clear()
        self.add_events(events)
        if self.row_count:
            self.move_cursor(row=0)

    def add_events(self, events: Iterable[Event]) -> list[int]:
        """Append a page; its rows take the next numbers. Returns those numbers."""
        numbers = []
        for event in events:
            self.events.append(event)
            number = len(self.events)
            numbers.append(number)
            self.add_row(*self._cells(number, event), key=str(number))
        if self.sort_column is not None:
            self._apply_sort()
        return numbers

    def event_number(self, number: int) -> Event | None:
        """The event numbered ``number`` (1-based), if present."""
        return self.events[number - 1] if 1 <= number <= len(self.events) else None

    def shown_events(self) -> list[tuple[int, Event]]:
        """Every event of the feed with its number, in the order the rows are shown."""
        numbers = (int(str(row.key.value)) for row in self.ordered_rows)
        return [(number, self.events[number - 1]) for number in numbers]

    @property
    def highlighted_number(self) -> int | None:
        """The number of the event under the cursor."""
        if not self.row_count:
            return None
        try:
            row_key, _ = self.coordinate_to_cell_key(self.cursor_coordinate)
        except Exception:  # cursor outside the rows
            return None
        return int(row_key.value) if row_key.value else None

    def select_number(self, number: int) -> None:
        """Move the cursor to the event numbered ``number`` (a click on its marker)."""
        try:
            row = self.get_row_index(str(number))
        except RowDoesNotExist:
            return
        self.move_cursor(row=row, scroll=True)

    def _cells(self, number: int, event: Event) -> tuple[Any, ...]:
        venue = event.venue
        status = Text(
            clip((event.status or "unknown").replace("-", " "), 11),
            style=status_colour(event.status),
        )
        widths = self.widths
        cells = {
            "number": Text(str(number), style="bold", justify="right"),
            "date": table_time(event),
            "name": clip(event.name, widths["name"]),
            "price": Text(clip(price_text(event.price), widths["price"]), justify="right"),
            "status": status,
            "venue": clip(venue.name if venue else None, widths.get("venue", 0)),
            "city": clip(venue.city if venue else None, widths.get("city", 0)),
            "tag": clip(event.tag, widths.get("tag", 0)),
        }
        return tuple(cells[key] for key in widths)

    # --- sorting -----------------------------------------------------------------

    def action_sort(self, column: str) -> None:
        """Sort by ``date`` or ``price``; the same column again flips the order."""
        if column not in SORT_KEYS:
            return
        if self.sort_column == column:
            self.sort_reverse = not self.sort_reverse
        else:
            self.sort_column, self.sort_reverse = column, False
        self._apply_sort()

    def action_cycle_sort(self) -> None:
        """``s``, as in every table: sort by the next sortable column."""
        columns = list(SORT_KEYS)
        current = columns.index(self.sort_column) if self.sort_column in columns else -1
        self.sort_column, self.sort_reverse = columns[(current + 1) % len(columns)], False
        self._apply_sort()

    def _apply_sort(self) -> None:
        column = self.sort_column
        if column is None:
            return
        key = SORT_KEYS[column]
        keep = self.highlighted_number
        self.sort(
            "number",
            key=lambda cell: key(self.events[int(str(cell)) - 1]),
            reverse=self.sort_reverse,
        )
        for name, heading, _, sortable in COLUMNS:
            if sortable:
                arrow = (" ▼" if self.sort_reverse else " ▲") if name == column else ""
                self.columns[ColumnKey(name)].label = Text(heading + arrow)
        self.refresh()
        if keep is not None:
            self.select_number(keep)

    @on(DataTable.HeaderSelected)
    def _header_clicked(self, event: DataTable.HeaderSelected) -> None:
        if event.column_key.value in SORT_KEYS:
            event.stop()
            self.action_sort(str(event.column_key.value))

    @on(DataTable.RowHighlighted)
    def _row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        event.stop()
        if event.row_key.value is None:
            return
        number = int(event.row_key.value)
        found = self.event_number(number)
        if found is not None:
            self.post_message(self.EventHighlighted(self, number, found))
