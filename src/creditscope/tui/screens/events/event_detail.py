"""The selected event in full: status, lineup, venue, times in two zones, on-sale, links."""

from __future__ import annotations

import webbrowser
from datetime import datetime, tzinfo
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Button, Static

from creditscope.gazetteer import load_gazetteer
from creditscope.link_safety import link_refusal, openable
from creditscope.outside_text import shown
from creditscope.tui.clipboard import copy_text
from creditscope.tui.fact_rows import add_fact
from creditscope.tui.screens.events.formatting import (
    coordinates_text,
    event_zone,
    moment_text,
    on_sale_text,
    price_detail,
    span_text,
    status_label,
    status_style,
)
from creditscope.tui.screens.events.hints import DETAIL_PLACEHOLDER

if TYPE_CHECKING:
    # Annotations only: pydantic and the models stay out of the first frame.
    from creditscope.models import Event


@lru_cache(maxsize=1)
def browser_available() -> bool:
    """True when Python knows a web browser to open links in (not on a bare server)."""
    try:
        webbrowser.get()
    except webbrowser.Error:
        return False
    return True


def country_name(code: str | None) -> str:
    """``Portugal (PT)`` from ``PT``; the code alone when the gazetteer does not know it."""
    if not code:
        return "—"
    country = load_gazetteer().countries.get(code.upper())
    return f"{country.name} ({country.code})" if country else code.upper()


def page_text(url: str | None) -> Text:
    """The event page's URL as text: a web link underlined; anything else as it is,
    with why Open page will not open it."""
    if not url:
        return Text("—")
    refusal = link_refusal(url)
    if refusal is None:
        return Text(url, style="underline")
    text = Text(shown(url))
    text.append(f" (not opened: {refusal})", style="bright_black")
    return text


def describe_event(
    event: Event, number: int | None, now: datetime, viewer: tzinfo, *, brief: bool = False
) -> RenderableType:
    """The detail panel's text for ``event``: a badge and title, then a label/value grid.

    ``brief``: one line each for what a buyer asks first (when, tickets, price, lineup,
    venue), for a short terminal's panel, which then shows it whole with no scrolling;
    the page and images are its buttons' to open or copy."""
    title = Text(no_wrap=brief, overflow="ellipsis" if brief else None)
    title.append(f" {status_label(event.status)} ", style=status_style(event.status))
    title.append(" ")
    if number is not None:
        title.append(f"#{number} ", style="bold")
    title.append(event.name, style="bold")

    venue_zone = event_zone(event)
    grid = Table.grid(padding=(0, 1))
    grid.add_column(style="bright_black", no_wrap=True)
    grid.add_column(no_wrap=brief, overflow="ellipsis" if brief else "fold")
    dates = event.date
    start = dates.start if dates else None
    end = dates.end if dates else None
    on_sale = dates.on_sale if dates else None
    # What a buyer asks first (when, can I buy, how much) comes before the venue and links.
    add_fact(grid, "When", span_text(start, end, venue_zone, year=not brief))
    if not brief:
        add_fact(grid, "Your time", span_text(start, end, viewer))
    sale = Text(on_sale_text(on_sale, now, venue_zone), style="bold")
    if on_sale is not None and not brief:
        sale.append(f" ({moment_text(on_sale, venue_zone)})", style="bright_black")
    add_fact(grid, "Tickets", sale)
    add_fact(grid, "Price", f"{price_detail(event.price)} · {event.tag or 'no tag'}")
    add_fact(grid, "Lineup", ", ".join(event.lineup) if event.lineup else "—")
    venue = event.venue
    if venue is None:
        add_fact(grid, "Venue", "—")
    elif brief:
        add_fact(grid, "Venue", ", ".join(part for part in (venue.name, venue.city) if part)
                 or "—")
    else:
        place = ", ".join(part for part in (venue.name, venue.address) if part)
        add_fact(grid, "Venue", place or "—")
        add_fact(grid, "", f"{venue.city or '—'}, {country_name(venue.country_code)}")
        add_fact(grid, "", coordinates_text(venue.latitude, venue.longitude))
    if not brief:
        add_fact(grid, "Page", page_text(event.url))
        images = event.images
        add_fact(grid, "Images", (images.square if images else None) or "—")
        add_fact(grid, "", (images.landscape if images else None) or "—")
    return Group(title, grid)


class EventDetail(Vertical):
    """Everything about one event (scrolls), with buttons to open or copy its links."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.event: Event | None = None
        self.number: int | None = None
        self._seen_from: tuple[datetime, tzinfo] | None = None  # (now, the viewer's zone)

    def compose(self) -> ComposeResult:
        """The description, then the link buttons."""
        with VerticalScroll(classes="detail-scroll"):
            yield Static(DETAIL_PLACEHOLDER, classes="detail-text")
        with Horizontal(classes="detail-actions"):
            yield Button("Open page", id="detail-open", compact=True, variant="primary")
            yield Button("Copy URL", id="detail-copy-url", compact=True)
            yield Button("Copy image URLs", id="detail-copy-images", compact=True)

    def on_mount(self) -> None:
        """Nothing selected yet: hide the buttons (none if the app closed meanwhile)."""
        self.query(".detail-actions").set(display=False)

    def show_event(self, event: Event, number: int | None, now: datetime, viewer: tzinfo) -> None:
        """Describe ``event`` (times relative to ``now``, the viewer's side in ``viewer``)."""
        self.event, self.number = event, number
        self._seen_from = (now, viewer)
        self._describe()
        self.query_one(".detail-actions").display = True
        has_url = bool(event.url)
        refusal = link_refusal(event.url) if event.url else None
        opener = self.query_one("#detail-open", Button)
        opener.disabled = not (has_url and refusal is None and browser_available())
        if refusal is not None:
            opener.tooltip = f"Not a web link: {refusal}."
        else:
            opener.tooltip = (
                None if browser_available() else "No web browser found; copy the URL instead."
            )
        self.query_one("#detail-copy-url", Button).disabled = not has_url
        self.query_one("#detail-copy-images", Button).disabled = not self.image_urls()
        self.query_one(".detail-scroll", VerticalScroll).scroll_home(animate=False)

    def _describe(self) -> None:
        """The shown event's text: brief on a short terminal (see describe_event)."""
        if self.event is None or self._seen_from is None:
            return
        brief = self.screen.has_class("-short")
        self.query_one(".detail-text", Static).update(
            describe_event(self.event, self.number, *self._seen_from, brief=brief))

    def on_resize(self) -> None:
        """A terminal made shorter or taller: the details as its panel shows them whole."""
        self._describe()

    def clear(self) -> None:
        """Back to the placeholder."""
        self.event = self.number = None
        self.query_one(".detail-text", Static).update(DETAIL_PLACEHOLDER)
        self.query_one(".detail-actions").display = False

    def image_urls(self) -> list[str]:
        """The shown event's image URLs (square first)."""
        images = self.event.images if self.event else None
        return [url for url in (images.square, images.landscape) if url] if images else []

    def open_page(self) -> None:
        """Open the event page in the browser, or copy it when there is none. A page that
        is not a web link is not opened: the app's ``open_url`` says why."""
        if self.event is None or not self.event.url:
            return
        url = self.event.url
        if not openable(url):
            self.app.open_url(url)  # refused there, with the reason on screen
        elif browser_available():
            self.app.open_url(url)
            self.notify(url, title="Opened in your browser", markup=False)
        else:
            self.copy_url()

    def copy_url(self) -> None:
        """Copy the event page's URL."""
        if self.event is not None and self.event.url:
            copy_text(self.app, self.event.url, f"Event URL {self.event.url}",
                      save_as="event-url.txt")

    def copy_images(self) -> None:
        """Copy the image URLs, one per line."""
        urls = self.image_urls()
        if urls:
            copy_text(self.app, "\n".join(urls), "Image URLs")

    @on(Button.Pressed, "#detail-open")
    def _open(self, event: Button.Pressed) -> None:
        event.stop()
        self.open_page()

    @on(Button.Pressed, "#detail-copy-url")
    def _copy(self, event: Button.Pressed) -> None:
        event.stop()
        self.copy_url()

    @on(Button.Pressed, "#detail-copy-images")
    def _copy_images(self, event: Button.Pressed) -> None:
        event.stop()
        self.copy_images()
