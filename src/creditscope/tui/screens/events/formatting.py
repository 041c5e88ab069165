"""How events read on screen: times in the venue's and the viewer's zone, on-sale
phrases, prices, coordinates and status badges. Pure functions, no Textual."""

from __future__ import annotations

from datetime import UTC, datetime, tzinfo
from typing import TYPE_CHECKING

from creditscope.wording import counted

if TYPE_CHECKING:
    # Annotations only: pydantic and the models stay out of the first frame.
    from creditscope.models import Event, EventPrice

# Currencies written with 0 decimals in minor units (the spec leaves the unit open;
# the sandbox and common APIs use minor units, as ISO 4217 defines them).
ZERO_DECIMAL_CURRENCIES = frozenset({"JPY", "KRW", "HUF", "CLP", "COP", "TWD", "VND", "IDR", "ISK"})

# Rich styles of the status badge; an unknown status gets the neutral one.
STATUS_STYLES: dict[str, str] = {
    "on-sale": "bold #0b2e13 on #3fb950",
    "sold-out": "bold white on red",
    "rescheduled": "bold black on yellow",
    "postponed": "bold black on yellow",
    "cancelled": "bold white on grey37",
}
NEUTRAL_STATUS_STYLE = "bold black on grey70"
# The quieter colour of the same status in the feed table.
STATUS_COLOURS: dict[str, str] = {
    "on-sale": "green",
    "sold-out": "red",
    "rescheduled": "yellow",
    "postponed": "yellow",
    "cancelled": "bright_black strike",
}


def zone(name: str | None) -> tzinfo:
    """The IANA zone called ``name``; UTC when it is missing or unknown."""
    if not name:
        return UTC
    # Imported here: zoneinfo (with sysconfig) cost the first frame ~5 ms, and the
    # location box needs this module's point_text then.
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return UTC


def event_zone(event: Event) -> tzinfo:
    """The venue's time zone (``date.timezone``)."""
    return zone(event.date.timezone if event.date else None)


def zone_abbreviation(moment: datetime) -> str:
    """``WET``, ``EST``, or the offset (``+0530``) when the zone has no letters."""
    name = moment.tzname() or ""
    if name and not name.startswith(("+", "-")):
        return name
    return moment.strftime("%z") or "UTC"


def table_time(event: Event) -> str:
    """Start in the venue's zone for the feed table: ``Fri 04 Dec 20:00`` (no year: see detail)."""
    start = event.date.start if event.date else None
    if start is None:
        return "—"
    return start.astimezone(event_zone(event)).strftime("%a %d %b %H:%M")


def moment_text(moment: datetime | None, where: tzinfo) -> str:
    """``Fri 04 Dec 2026 20:00 WET`` for ``moment`` seen from ``where``."""
    if moment is None:
        return "—"
    local = moment.astimezone(where)
    return f"{local.strftime('%a %d %b %Y %H:%M')} {zone_abbreviation(local)}"


def span_text(
    start: datetime | None, end: datetime | None, where: tzinfo, *, year: bool = False
) -> str:
    """``Sun 29 Nov 14:30 – 16:30 EST`` (both dates when the end falls on another day)."""
    if start is None:
        return "—"
    first = start.astimezone(where)
    text = first.strftime("%a %d %b %Y %H:%M" if year else "%a %d %b %H:%M")
    if end is None:
        return f"{text} {zone_abbreviation(first)}"
    last = end.astimezone(where)
    same_day = last.date() == first.date()
    until = last.strftime("%H:%M" if same_day else "%a %d %b %H:%M")
    return f"{text} – {until} {zone_abbreviation(last)}"


def on_sale_text(on_sale: datetime | None, now: datetime, where: tzinfo = UTC) -> str:
    """``on sale in 3 days`` / ``on sale in 5 hours`` / ``on sale since 12 Nov``.

    The past date is written in ``where`` (the venue's zone), with its year when
    it is not the current one.
    """
    if on_sale is None:
        return "on-sale date not given"
    delta = on_sale - now
    seconds = delta.total_seconds()
    if seconds > 0:
        if seconds >= 2 * 86400:
            return f"on sale in {counted(round(seconds / 86400), 'day')}"
        if seconds >= 3600:
            return f"on sale in {counted(round(seconds / 3600), 'hour')}"
        return f"on sale in {counted(max(1, round(seconds / 60)), 'minute')}"
    local = on_sale.astimezone(where)
    day = f"{local.day} {local.strftime('%b')}"
    if local.year != now.astimezone(where).year:
        day += f" {local.year}"
    return f"on sale since {day}"


def _decimals(currency: str | None) -> int:
    return 0 if (currency or "").upper() in ZERO_DECIMAL_CURRENCIES else 2


def amount_text(minor: int | None, currency: str | None) -> str:
    """``EUR 45.00`` from minor units; ``—`` when there is no amount."""
    if minor is None:
        return "—"
    decimals = _decimals(currency)
    value = minor / 10**decimals
    return f"{(currency or '').upper()} {value:,.{decimals}f}".strip()


def price_text(price: EventPrice | None) -> str:
    """What the feed shows: the service's ``display``, else ``from EUR 25.00``."""
    if price is None:
        return "—"
    if price.display:
        return price.display
    if price.amount_from is not None:
        return f"from {amount_text(price.amount_from, price.currency)}"
    return amount_text(price.amount, price.currency)


def price_detail(price: EventPrice | None) -> str:
    """The detail line: display, and the lowest price when it differs."""
    if price is None:
        return "—"
    shown = price_text(price)
    if (
        price.amount_from is not None
        and price.amount is not None
        and price.amount_from < price.amount
    ):
        return f"{shown} (from {amount_text(price.amount_from, price.currency)})"
    return shown


def price_sort_key(event: Event) -> tuple[int, float]:
    """Cheapest first by the price the table shows (``amount``, else ``amount_from``); none last."""
    price = event.price
    minor = None
    if price is not None:
        minor = price.amount if price.amount is not None else price.amount_from
    if minor is None or price is None:
        return (1, 0.0)
    return (0, minor / 10 ** _decimals(price.currency))


def date_sort_key(event: Event) -> tuple[int, float]:
    """Earliest first; events without a start last."""
    start = event.date.start if event.date else None
    return (1, 0.0) if start is None else (0, start.timestamp())


def coordinates_text(lat: float | None, lng: float | None) -> str:
    """``38.7223° N, 9.1393° W``."""
    if lat is None or lng is None:
        return "—"
    ns = "N" if lat >= 0 else "S"
    ew = "E" if lng >= 0 else "W"
    return f"{abs(lat):.4f}° {ns}, {abs(lng):.4f}° {ew}"


def point_text(lat: float, lng: float) -> str:
    """``38.7223, -9.1393``: a point as the location input accepts it."""
    return f"{lat:.4f}, {lng:.4f}"


def status_label(status: str | None) -> str:
    """``ON SALE`` from ``on-sale``; ``UNKNOWN`` when missing."""
    return (status or "unknown").replace("-", " ").replace("_", " ").upper()


def status_colour(status: str | None) -> str:
    """The text colour of a status in the feed table."""
    return STATUS_COLOURS.get((status or "").lower(), "")


def status_style(status: str | None) -> str:
    """The badge style of a status."""
    return STATUS_STYLES.get((status or "").lower(), NEUTRAL_STATUS_STYLE)


def viewer_zone(clock_now: datetime) -> tzinfo:
    """The viewer's zone: the clock's own zone when it carries one, else the machine's."""
    if (
        clock_now.tzinfo is not None
        and clock_now.utcoffset() is not None
        and not _is_utc(clock_now)
    ):
        return clock_now.tzinfo
    local = datetime.now().astimezone().tzinfo
    return local or UTC


def _is_utc(moment: datetime) -> bool:
    from zoneinfo import ZoneInfo

    return moment.tzinfo in (UTC, ZoneInfo("UTC")) or moment.tzname() == "UTC"
