"""What the Events area offers beyond its form: palette commands, the feed's export, and
a first visit's guided tour and sample search."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from creditscope.tui.host import host_of
from creditscope.tui.palette import PaletteCommand
from creditscope.tui.prices import credits_text, price_of

if TYPE_CHECKING:
    from creditscope.models import EventFeed
    from creditscope.operations import Operation
    from creditscope.tui.screens.events.screen import EventsScreen

OPERATION = "ticketing/discovery"  # its name: what prices and imported requests go by


def events_operation() -> Operation[EventFeed]:
    """The typed operation (``operations.EVENTS``), read from the table only when a search
    is made: this screen is the first frame's, which leaves the table (and pydantic) out."""
    from creditscope import operations

    return operations.EVENTS


def event_commands(screen: EventsScreen) -> Iterable[PaletteCommand]:
    """Search, load more and refresh, with their prices, and export."""
    price = credits_text(price_of(host_of(screen), OPERATION))
    yield PaletteCommand("Search events",
                         f"Events near the typed place ({price}, free when cached)",
                         screen.action_search)
    yield PaletteCommand("Load more events", f"The next page of the feed ({price})",
                         screen.action_load_more)
    yield PaletteCommand("Refresh events",
                         f"Fetch the feed again, bypassing the cache ({price})",
                         screen.action_refresh)
    yield PaletteCommand("Export events",
                         "Every event of the feed, as shown, to CSV or JSON (free)",
                         screen.action_export)


def export_feed(screen: EventsScreen) -> None:
    """Write every event of the feed (all pages loaded so far), in the order shown and
    numbered as on screen, to CSV or JSON. Free: nothing is fetched."""
    # Imported here: the rows are pydantic models, kept out of the first frame.
    from creditscope.row_export import dump_row, file_stem
    from creditscope.tui.list_export import export_list

    point = screen.point
    place = (point.city.name if point.city else point.label) if point else ""
    shown = screen.feed_table.shown_events() if screen.results.shows_content else []
    rows = [{"number": number, **dump_row(event)} for number, event in shown]
    export_list(
        screen.app, rows, word="event",
        default=Path(f"events-{file_stem(place, 'feed')}.json"),
        empty="search a place first." if screen.search_request is None
        else "the feed shows no events.",
    )


def first_visit(screen: EventsScreen) -> bool:
    """Nothing searched yet, on the sandbox: the empty feed offers the guided tour and a
    sample search (Enter in the empty box)."""
    return screen.search_request is None and host_of(screen).is_sandbox


def follow_first_visit(screen: EventsScreen) -> None:
    """Keep the first visit's offer current as the client (and its prices) arrives."""

    def offer(_: object) -> None:
        if screen.search_request is None:
            screen.results.show_empty(start_text(screen))

    signals = host_of(screen).signals
    signals.client_ready.subscribe(screen, offer)
    signals.connection_changed.subscribe(screen, offer)


def start_text(screen: EventsScreen) -> str:
    """The empty feed: on a first visit (sandbox) the tour and a sample search, priced."""
    from creditscope.tui.screens.events.hints import EMPTY_START, first_visit_offer

    if not first_visit(screen):
        return EMPTY_START
    # The price needs the client (the operation table brings pydantic): until it is
    # ready the offer says only that the sandbox is free.
    host = host_of(screen)
    price = credits_text(price_of(host, OPERATION)) if host.client is not None else None
    return first_visit_offer(price)
