"""What the gazetteer tells the restaurant screens: a place's short name, currency and time zone."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from creditscope.gazetteer import load_gazetteer
from creditscope.tui.screens.restaurants.formatting import currency_symbol


def place_name(location: str) -> str:
    """``"Lisbon, PT"`` -> ``"Lisbon"``: the part a breadcrumb needs."""
    return location.split(",")[0].strip() or location.strip()


def local_currency_symbol(location: str) -> str:
    """The price-level symbol at ``location``: ``"Lisbon, PT"`` -> ``"€"``; ``"$"`` if unknown."""
    city = load_gazetteer().resolve(location) if location.strip() else None
    if city is None:
        return "$"
    return currency_symbol(load_gazetteer().country(city.country_code).currency)


def currency_symbol_near(lat: float, lng: float) -> str:
    """The price-level symbol of the country of the city nearest to (lat, lng)."""
    gazetteer = load_gazetteer()
    city = gazetteer.nearest(lat, lng)
    return currency_symbol(gazetteer.country(city.country_code).currency)


def local_time(now: datetime, lat: float | None, lng: float | None) -> tuple[datetime, str | None]:
    """``now`` in the time zone of the nearest city to (lat, lng), and that zone's name.

    Without coordinates (or a zone this system lacks) the time is returned unchanged.
    """
    if lat is None or lng is None:
        return now, None
    zone = load_gazetteer().nearest(lat, lng).timezone
    try:
        return now.astimezone(ZoneInfo(zone)), zone
    except (ZoneInfoNotFoundError, ValueError):
        return now, None
