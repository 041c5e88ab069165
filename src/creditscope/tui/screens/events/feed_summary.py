"""What the Events screen says about a feed: the summary line, the map's markers."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from creditscope.client.records import CallRecord
from creditscope.outside_text import markup_escaped
from creditscope.tui.prices import feed_cost_markup
from creditscope.tui.screens.events.formatting import point_text
from creditscope.tui.screens.events.location_input import SearchPoint

if TYPE_CHECKING:
    # Annotations only: pydantic and the map module stay out of the first frame.
    from creditscope.models import Event, EventFeed
    from creditscope.tui.widgets.event_map import MapMarker


def describe_point(point: SearchPoint) -> str:
    """``Lisbon, PT (38.7251, -9.1498)``, or just the coordinates for a typed point."""
    coordinates = point_text(point.lat, point.lng)
    return coordinates if point.label == coordinates else f"{point.label} ({coordinates})"


def feed_summary(
    feed: EventFeed, record: CallRecord, *, shown: int, pages: int, last_page: bool
) -> str:
    """``20 events on this page · nearest city Lisbon · … · cached free`` (Rich markup)."""
    location = feed.location
    # The service's words inside our markup: escaped, so they show as sent.
    near = markup_escaped((location.nearest_city if location else None) or "—")
    parts = [f"[b]{feed.count}[/b] events on this page", f"nearest city [b]{near}[/b]"]
    if location is not None:
        parts.append(point_text(location.lat, location.lng))
    parts.append(f"{shown} shown over {pages} page{'s' if pages != 1 else ''}")
    if last_page:
        parts.append("last page")
    cost = feed_cost_markup(record)
    if cost:
        parts.append(cost)
    return " · ".join(parts)


def venue_markers(events: Sequence[Event]) -> list[MapMarker]:
    """One marker per event with venue coordinates, numbered like its feed row."""
    from creditscope.tui.widgets.event_map import MapMarker

    return [
        MapMarker(number, event.venue.latitude, event.venue.longitude, event.venue.name or "")
        for number, event in enumerate(events, start=1)
        if event.venue is not None
        and event.venue.latitude is not None
        and event.venue.longitude is not None
    ]
