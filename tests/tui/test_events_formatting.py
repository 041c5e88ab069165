"""How events read (venue and viewer times, on-sale, prices) and what the location box accepts."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from creditscope.models import Event, EventDate, EventPrice
from creditscope.tui.cell_text import clip
from creditscope.tui.city_suggester import CitySuggester
from creditscope.tui.screens.events.event_detail import describe_event
from creditscope.tui.screens.events.formatting import (
    coordinates_text,
    moment_text,
    on_sale_text,
    price_sort_key,
    price_text,
    span_text,
    table_time,
)
from creditscope.tui.screens.events.location_input import (
    LocationError,
    parse_limit,
    parse_location,
)

NOW = datetime(2026, 11, 20, 12, 0, tzinfo=UTC)


def event(**changes: object) -> Event:
    data: dict[str, object] = {
        "id": "evt_1",
        "name": "The Velvet Foxes Live",
        "status": "on-sale",
        "date": EventDate(
            start=datetime(2026, 12, 4, 20, 0, tzinfo=UTC),
            end=datetime(2026, 12, 4, 22, 30, tzinfo=UTC),
            timezone="Asia/Tokyo",
            on_sale=NOW + timedelta(days=3, hours=1),
        ),
        "price": EventPrice(amount=4500, currency="EUR", amount_from=3800, display="€45.00"),
    }
    data.update(changes)
    return Event.model_validate(data)


def test_feed_time_is_in_the_venue_zone() -> None:
    # 20:00 UTC is 05:00 the next morning in Tokyo.
    assert table_time(event()) == "Sat 05 Dec 05:00"


def test_detail_times_name_their_zone() -> None:
    start = datetime(2026, 12, 4, 20, 0, tzinfo=UTC)
    assert moment_text(start, ZoneInfo("Europe/Lisbon")) == "Fri 04 Dec 2026 20:00 WET"
    assert moment_text(start, ZoneInfo("America/New_York")) == "Fri 04 Dec 2026 15:00 EST"


def test_viewer_span_shows_both_dates_only_across_midnight() -> None:
    start = datetime(2026, 12, 4, 20, 0, tzinfo=UTC)
    same_day = span_text(start, start + timedelta(hours=2), ZoneInfo("America/New_York"))
    assert same_day == "Fri 04 Dec 15:00 – 17:00 EST"
    overnight = span_text(start, start + timedelta(hours=2), ZoneInfo("Asia/Tokyo"))
    assert overnight == "Sat 05 Dec 05:00 – 07:00 JST"


@pytest.mark.parametrize(
    ("on_sale", "expected"),
    [
        (NOW + timedelta(days=3, hours=1), "on sale in 3 days"),
        (NOW + timedelta(hours=5), "on sale in 5 hours"),
        (NOW + timedelta(minutes=1), "on sale in 1 minute"),
        (datetime(2026, 11, 12, 9, 0, tzinfo=UTC), "on sale since 12 Nov"),
        (datetime(2025, 11, 12, 9, 0, tzinfo=UTC), "on sale since 12 Nov 2025"),
        (None, "on-sale date not given"),
    ],
)
def test_on_sale_phrase(on_sale: datetime | None, expected: str) -> None:
    assert on_sale_text(on_sale, NOW) == expected


def test_price_prefers_display_then_lowest_amount() -> None:
    assert price_text(EventPrice(display="€45.00", amount=4500, currency="EUR")) == "€45.00"
    assert price_text(EventPrice(amount=4500, amount_from=3800, currency="EUR")) == "from EUR 38.00"
    assert price_text(EventPrice(amount=6500, currency="JPY")) == "JPY 6,500"
    assert price_text(None) == "—"


def test_price_sort_puts_missing_prices_last() -> None:
    # Sorted by the shown price (amount), not the lowest one (amount_from).
    cheap = event(price=EventPrice(amount=4000, amount_from=3900, currency="EUR"))
    dear = event(price=EventPrice(amount=4500, amount_from=1000, currency="EUR"))
    unknown = event(price=None)
    ordered = sorted([unknown, dear, cheap], key=price_sort_key)
    assert ordered == [cheap, dear, unknown]


def test_coordinates_have_hemispheres() -> None:
    assert coordinates_text(38.72231, -9.13934) == "38.7223° N, 9.1393° W"
    assert coordinates_text(-33.8688, 151.2093) == "33.8688° S, 151.2093° E"


def test_detail_text_has_venue_and_viewer_times_and_on_sale() -> None:
    from rich.console import Console

    console = Console(width=100, record=True)
    console.print(describe_event(event(), 7, NOW, ZoneInfo("America/New_York")))
    text = console.export_text()
    assert "ON SALE" in text and "#7 The Velvet Foxes Live" in text
    assert "Sat 05 Dec 2026 05:00 – 07:30 JST" in text  # venue time
    assert "Fri 04 Dec 15:00 – 17:30 EST" in text  # the viewer's time
    assert "on sale in 3 days" in text
    assert "€45.00 (from EUR 38.00)" in text


def test_clip_marks_what_it_cut() -> None:
    assert clip("The Silver Echoes with guests", 10) == "The Silve…"
    assert clip(None, 5) == "—"


def test_city_names_and_points_resolve() -> None:
    lisbon = parse_location("lisbon")
    assert lisbon.label == "Lisbon, PT" and lisbon.city is not None
    point = parse_location(" 40.4168, -3.7038 ")
    assert (point.lat, point.lng, point.city) == (40.4168, -3.7038, None)
    assert parse_location("40.4 -3.7").lng == -3.7


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("95, 10", "Latitude 95 is outside -90 to 90"),
        ("10, 200", "Longitude 200 is outside -180 to 180"),
        ("Atlantisxyz", "No place called 'Atlantisxyz'"),
        ("   ", "Type a place first"),
    ],
)
def test_bad_locations_are_explained(text: str, message: str) -> None:
    with pytest.raises(LocationError, match=message) as caught:
        parse_location(text)
    assert caught.value.field == "location"


@pytest.mark.parametrize("text", ["0", "51", "ten"])
def test_limit_must_be_1_to_50(text: str) -> None:
    with pytest.raises(LocationError) as caught:
        parse_limit(text)
    assert caught.value.field == "limit"
    assert parse_limit(" 50 ") == 50


async def test_suggester_completes_city_with_country_in_its_own_spelling() -> None:
    suggester = CitySuggester()
    assert await suggester.get_suggestion("lis") == "Lisbon, PT"
    assert await suggester.get_suggestion("Zur") == "Zürich, CH"  # accents aside, then its own
    assert await suggester.get_suggestion("38.7, -9") is None
    assert await suggester.get_suggestion("Qqqxz") is None


async def test_a_city_typed_in_full_is_not_completed_to_a_larger_namesake() -> None:
    suggester = CitySuggester()
    assert await suggester.get_suggestion("Porto") == "Porto, PT"  # not Porto Alegre
    assert await suggester.get_suggestion("Porto A") == "Porto Alegre, BR"
    assert await suggester.get_suggestion("Rio") == "Rio de Janeiro, BR"  # no city "Rio"
    assert await suggester.get_suggestion("Valencia") == "Valencia, VE"  # the larger one
