"""Where to look for events: a city name (completed from the gazetteer) or ``lat, lng``.

``parse_location`` turns what the user typed into a point, or a
:class:`LocationError` saying what to type instead, before anything is spent.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from creditscope.place_check import check_place
from creditscope.tui.place_input import PlaceInput
from creditscope.tui.screens.events.formatting import point_text

if TYPE_CHECKING:
    from creditscope.gazetteer import City, Gazetteer

# Two numbers separated by a comma and/or spaces: the user means coordinates,
# even when they are out of range (that is then an error, not a city search).
_NUMBER_PAIR = re.compile(r"^\s*([-+]?\d+(?:\.\d*)?)\s*(?:,\s*|\s+)([-+]?\d+(?:\.\d*)?)\s*$")
EXAMPLE = "try a city such as 'Lisbon' or coordinates such as '38.72, -9.14'"


@dataclass(frozen=True)
class SearchPoint:
    """A resolved location: the point to search and how to name it."""

    lat: float
    lng: float
    label: str  # "Lisbon, PT" or "38.7200, -9.1400"
    city: City | None = None


class LocationError(ValueError):
    """What the user typed is not a place we can search; the message says what to do.

    ``field`` names the box to fix: ``location`` or ``limit``.
    """

    def __init__(self, message: str, *, field: str = "location") -> None:
        super().__init__(message)
        self.field = field


def parse_location(text: str, gazetteer: Gazetteer | None = None) -> SearchPoint:
    """The point ``text`` names: ``"lat, lng"`` as given, or a gazetteer city."""
    stripped = text.strip()
    if not stripped:
        raise LocationError(f"Type a place first: {EXAMPLE}.")
    pair = _NUMBER_PAIR.match(stripped)
    if pair:
        lat, lng = float(pair.group(1)), float(pair.group(2))
        if not -90 <= lat <= 90:
            raise LocationError(
                f"Latitude {lat:g} is outside -90 to 90 (nothing was sent or charged)."
            )
        if not -180 <= lng <= 180:
            raise LocationError(
                f"Longitude {lng:g} is outside -180 to 180 (nothing was sent or charged)."
            )
        return SearchPoint(lat, lng, point_text(lat, lng))
    checked = check_place(stripped, gazetteer)
    if checked.city is None:
        raise LocationError(checked.message)
    # With its state ("Springfield, Illinois, US"): the place meant, among its namesakes.
    return SearchPoint(checked.city.lat, checked.city.lng, checked.city.full_label, checked.city)


def parse_limit(text: str) -> int:
    """The page size typed in the limit box: a whole number from 1 to 50."""
    try:
        value = int(text.strip())
    except ValueError:
        raise LocationError(
            f"Limit '{text.strip()}' is not a whole number: use 1 to 50.", field="limit"
        ) from None
    if not 1 <= value <= 50:
        raise LocationError(
            f"Limit {value} is outside 1 to 50 (nothing was sent or charged).", field="limit"
        )
    return value


# The placeholder with examples, and the words alone where the box is too narrow for
# them (at 80 columns it read "City (e.g. Lisbon) or").
PLACEHOLDERS = ("City (e.g. Lisbon) or lat, lng (e.g. 38.72, -9.14)", "City or lat, lng")


class LocationInput(PlaceInput):
    """The location box: a place box (see PlaceInput) whose placeholder says it takes
    coordinates too, as much of it as the box shows whole."""

    def __init__(self, value: str = "", **kwargs: Any) -> None:
        super().__init__(value, placeholder=PLACEHOLDERS[0], **kwargs)

    def on_resize(self) -> None:
        """The longest placeholder that fits the box (the last one else)."""
        room = self.content_region.width
        self.placeholder = next((text for text in PLACEHOLDERS if len(text) < room),
                                PLACEHOLDERS[-1])
