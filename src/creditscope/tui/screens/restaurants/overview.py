"""Overview: address, phone, website, coordinates, opening hours (today marked) and features."""

from __future__ import annotations

from datetime import datetime
from typing import Any, ClassVar

from rich.table import Table
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Static

from creditscope import operations
from creditscope.models import RestaurantDetails
from creditscope.row_export import Row
from creditscope.tui.calls import ResultArea
from creditscope.tui.fact_rows import add_fact
from creditscope.tui.screens.restaurants import formatting as fmt
from creditscope.tui.screens.restaurants.part import RestaurantPart
from creditscope.tui.screens.restaurants.places import currency_symbol_near, local_time
from creditscope.wording import counted


def facts_table(details: RestaurantDetails, symbol: str) -> Table:
    """Label/value lines for the listing's contact and location facts."""
    table = Table.grid(padding=(0, 2))
    table.add_column(style="bright_black", no_wrap=True)
    table.add_column()
    filled, rest = fmt.price_level(details.price_level, symbol)
    price = Text()
    price.append(filled, style="bold")
    price.append(rest, style="bright_black")
    rating = Text()
    rating.append(fmt.stars(details.rating), style="yellow")
    if details.rating is not None:
        rating.append(f" {details.rating:.1f}", style="bold")
    if details.review_count is not None:
        reviews = counted(details.review_count, "review", grouped=True)
        rating.append(f" ({reviews})", style="bright_black")
    coordinates = (
        f"{details.coordinates.lat:.5f}, {details.coordinates.lng:.5f}"
        if details.coordinates
        else "—"
    )
    rows: list[tuple[str, Text | str]] = [
        ("Cuisine", fmt.title_case(details.cuisine) or "—"),
        ("Rating", rating),
        ("Price", price if filled else "—"),
        ("Address", details.address or "—"),
        ("Phone", details.phone or "—"),
        ("Website", Text(details.website, style="underline") if details.website else "—"),
        ("Coordinates", coordinates),
    ]
    for label, value in rows:
        add_fact(table, label, value)
    return table


def hours_table(rows: list[fmt.HoursRow]) -> Table:
    """The week's opening hours, today's line highlighted."""
    table = Table.grid(padding=(0, 2))
    table.add_column(no_wrap=True)
    table.add_column(no_wrap=True)
    table.add_column(no_wrap=True)
    for row in rows:
        closed = "bright_black" if row.hours == "closed" else ""
        style = "bold reverse" if row.is_today else closed
        # Text, not markup: a day that is not a weekday is the service's own key.
        table.add_row(Text(row.day), Text(row.hours), "today" if row.is_today else "",
                      style=style)
    return table


def open_now_text(is_open: bool | None, zone: str | None, local: datetime) -> Text:
    """``● Open now`` (green) / ``● Closed now`` (red), with the local zone it was judged in."""
    text = Text()
    if is_open is None:
        text.append("Opening hours not listed", style="bright_black")
    else:
        text.append(
            "● Open now" if is_open else "● Closed now",
            style="bold green" if is_open else "bold red",
        )
    if zone:
        text.append(f"  {local:%a %H:%M} in {zone}", style="bright_black")
    return text


class OverviewView(RestaurantPart):
    """The restaurant's listing (details, N cr)."""

    operation = operations.RESTAURANT_DETAILS
    title: ClassVar[str] = "Overview"
    area_id: ClassVar[str] = "overview-area"
    export_word: ClassVar[tuple[str, str | None]] = ("restaurant overview", None)

    def __init__(self, restaurant_id: str, **kwargs: Any) -> None:
        super().__init__(restaurant_id, **kwargs)
        self.details: RestaurantDetails | None = None

    def compose(self) -> ComposeResult:
        """Facts and features on the left, the week's hours on the right."""
        with ResultArea(id=self.area_id), Horizontal(classes="overview-columns"):
            with Vertical(classes="overview-facts"):
                yield Static("", id="overview-facts")
                yield Static("", id="overview-features", classes="restaurant-section")
            with Vertical(classes="overview-hours"):
                yield Static("[b]Opening hours[/b]", classes="restaurant-section-title")
                yield Static("", id="overview-open-now")
                yield Static("", id="overview-hours")

    @on(ResultArea.Succeeded, "#overview-area")
    def _loaded(self, event: ResultArea.Succeeded) -> None:
        details = event.answer(operations.RESTAURANT_DETAILS).data
        self.loaded = True
        self.show(details)

    def shown_rows(self) -> list[Row]:
        """The listing, as one record."""
        return [self.details] if self.details is not None else []

    def show(self, details: RestaurantDetails) -> None:
        """Fill the tab from a details response."""
        self.details = details
        # Judge "open now" on the restaurant's own clock, not the user's.
        coords = details.coordinates
        now, zone = local_time(
            self.now(), coords.lat if coords else None, coords.lng if coords else None
        )
        symbol = currency_symbol_near(coords.lat, coords.lng) if coords else "$"
        self.query_one("#overview-facts", Static).update(facts_table(details, symbol))
        features = Text()
        features.append("Features\n", style="bold")
        if details.features:
            features.append("  ".join(f"• {fmt.title_case(f)}" for f in details.features))
        else:
            features.append("none listed", style="bright_black")
        self.query_one("#overview-features", Static).update(features)
        rows = fmt.hours_rows(details.hours, now)
        self.query_one("#overview-open-now", Static).update(
            open_now_text(fmt.is_open(details.hours, now), zone, now)
        )
        hours: Any = hours_table(rows) if rows else Text("No hours listed.", style="bright_black")
        self.query_one("#overview-hours", Static).update(hours)
