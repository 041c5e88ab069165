"""The event feed: 60-150 ticketed events per city, deterministic from the city
and the week anchor, sorted by start time."""

from __future__ import annotations

import base64
import binascii
import json
import random
from datetime import datetime, timedelta
from functools import lru_cache, partial
from typing import Any
from zoneinfo import ZoneInfo

from creditscope import json_limits, models
from creditscope.gazetteer import City, load_gazetteer
from creditscope.sandbox import money
from creditscope.sandbox.places import distinct, person_name, place_in_city, street_address
from creditscope.sandbox.problems import invalid_parameter
from creditscope.sandbox.seeding import rng_for, stable_hash

# When lat and lng are omitted the feed is for this city (documented in the README).
DEFAULT_CITY_QUERY = "London, GB"
EVENT_HOST = "https://tickets.example"
IMAGE_HOST = "https://images.tickets.example"
VENUE_DRAWN_KM = 18.0  # how far venues were first drawn (see ``places.place_in_city``)

TAGS = (
    ("Rock", 14),
    ("Pop", 14),
    ("Electronic", 10),
    ("Jazz", 8),
    ("Hip-Hop", 9),
    ("Classical", 6),
    ("Indie", 10),
    ("Folk", 5),
    ("Metal", 4),
    ("R&B", 6),
    ("Comedy", 8),
    ("Theatre", 6),
)
STATUSES = (("on-sale", 88), ("sold-out", 6), ("rescheduled", 3), ("cancelled", 3))
BAND_ADJ = (
    "Velvet",
    "Neon",
    "Silver",
    "Midnight",
    "Electric",
    "Golden",
    "Paper",
    "Wild",
    "Quiet",
    "Crimson",
    "Lunar",
    "Static",
    "Glass",
    "Young",
    "Northern",
    "Hollow",
)
BAND_NOUN = (
    "Foxes",
    "Lanterns",
    "Harbours",
    "Tigers",
    "Echoes",
    "Rivers",
    "Satellites",
    "Pilots",
    "Owls",
    "Machines",
    "Comets",
    "Orchards",
    "Wolves",
    "Signals",
    "Tides",
    "Ghosts",
)
VENUE_PATTERNS = (
    "{city} Arena",
    "The {adj} Room",
    "{noun} Hall",
    "The {noun} Club",
    "{city} Opera House",
    "{adj} Theatre",
    "The Old {noun}",
    "{noun} Warehouse",
    "{city} Jazz Café",
    "Riverside Stage",
)
VENUE_NOUNS = ("Mill", "Foundry", "Exchange", "Palace", "Depot", "Cellar", "Assembly", "Gallery")
TOUR_WORDS = ("Live", "World Tour", "in Concert", "Live 2026", "Unplugged", "Farewell Tour")
COMEDY_WORDS = ("Work in Progress", "Live Stand-Up", "Comedy Night", "Late Show")
PLAYS = (
    "The Glass Menagerie",
    "A Midsummer Night's Dream",
    "Hamlet",
    "The Seagull",
    "Blood Brothers",
    "Waiting for Godot",
    "Cabaret",
    "The Tempest",
)
CLASSICAL = ("Philharmonic", "Chamber Orchestra", "String Quartet", "Symphony Orchestra")
CLASSICAL_WORKS = ("plays Beethoven", "plays Mahler", "Mozart by Candlelight", "Vivaldi's Seasons")
TAG_PRICE_EUR = {"Classical": (25, 90), "Theatre": (20, 80), "Comedy": (12, 35), "Jazz": (15, 45)}


def _weighted(rng: random.Random, table: tuple[tuple[str, int], ...]) -> str:
    return rng.choices([name for name, _ in table], weights=[w for _, w in table])[0]


def _performer(rng: random.Random) -> str:
    if rng.random() < 0.55:
        return f"The {rng.choice(BAND_ADJ)} {rng.choice(BAND_NOUN)}"
    return person_name(rng)


def _venue_name(rng: random.Random, city: City) -> str:
    return rng.choice(VENUE_PATTERNS).format(
        city=city.name, adj=rng.choice(BAND_ADJ), noun=rng.choice(VENUE_NOUNS)
    )


def _title(rng: random.Random, tag: str, lineup: list[str], city: City) -> str:
    if tag == "Comedy":
        return f"{lineup[0]}: {rng.choice(COMEDY_WORDS)}"
    if tag == "Theatre":
        return rng.choice(PLAYS)
    if tag == "Classical":
        return f"{city.name} {rng.choice(CLASSICAL)} {rng.choice(CLASSICAL_WORKS)}"
    if len(lineup) > 2:
        return f"{lineup[0]} with {lineup[1]} and guests"
    return f"{lineup[0]} {rng.choice(TOUR_WORDS)}"


def _start_and_id(event: models.Event) -> tuple[datetime, str]:
    # Every generated event has a start; the model allows none because the live
    # service may leave it out.
    assert event.date is not None and event.date.start is not None
    return event.date.start, event.id


@lru_cache(maxsize=512)
def _venues(city: City, key: str) -> tuple[models.Venue, ...]:
    """The city's venues, events' venues drawn from them: one venue, one id, one
    address and one point in the city. Venues stay put from week to week."""
    venue_rng = rng_for("venues", key)
    venues: list[models.Venue] = []
    by_name: dict[str, models.Venue] = {}
    addresses: set[str] = set()
    for number in range(venue_rng.randint(8, 18)):
        lat, lng = place_in_city(venue_rng, city, VENUE_DRAWN_KM, key, "venue", number)
        name = _venue_name(venue_rng, city)
        address = street_address(venue_rng, city)
        if name in by_name:  # the same name drawn again is the same venue, not a second one
            venues.append(by_name[name])
            continue
        address = distinct(
            address, addresses, partial(street_address, city=city), key, "venue", number
        )
        by_name[name] = models.Venue(
            id=stable_hash("venue", key, name, lat) % 9_000_000 + 1_000_000,
            name=name,
            address=address,
            city=city.name,
            country_code=city.country_code,
            latitude=lat,
            longitude=lng,
        )
        venues.append(by_name[name])
    return tuple(venues)


@lru_cache(maxsize=512)
def events_for(city: City, anchor: datetime) -> tuple[dict[str, Any], ...]:
    """Every event of ``city`` for the week starting at ``anchor``, as JSON-ready dicts."""
    gazetteer = load_gazetteer()
    key = gazetteer.key(city)
    rng = rng_for("events", key, anchor.date().isoformat())
    country = gazetteer.country(city.country_code)
    currency = money.currency_for(country.currency)
    zone = ZoneInfo(city.timezone)
    venues = _venues(city, key)
    events = []
    local_anchor = anchor.astimezone(zone).replace(hour=0, minute=0, second=0, microsecond=0)
    for index in range(rng.randint(60, 150)):
        tag = _weighted(rng, TAGS)
        lineup = [_performer(rng) for _ in range(1 if tag in ("Theatre",) else rng.randint(1, 4))]
        if tag == "Theatre":
            lineup = [f"{city.name} Repertory Company"]
        # From next week on, so no event of this week's feed has already happened.
        day = local_anchor + timedelta(days=rng.randint(7, 127))
        start_local = day.replace(
            hour=rng.choice((18, 19, 19, 20, 20, 21)), minute=rng.choice((0, 30))
        )
        start = start_local.astimezone(ZoneInfo("UTC"))
        end = start + timedelta(minutes=rng.choice((90, 120, 150, 180, 240)))
        on_sale = start - timedelta(days=rng.randint(14, 200), hours=rng.randint(0, 8))
        low, high = TAG_PRICE_EUR.get(tag, (18, 75))
        amount_from = money.to_minor(money.local_amount(rng.uniform(low, high), currency), currency)
        amount = money.to_minor(
            money.local_amount(
                amount_from
                / 10**currency.decimals
                / currency.per_euro
                * rng.choice((1.0, 1.0, 1.2, 1.5)),
                currency,
            ),
            currency,
        )
        amount = max(amount, amount_from)
        event_id = f"evt_{stable_hash('event', key, anchor.date(), index):016x}"[:20]
        event = models.Event(
            id=event_id,
            name=_title(rng, tag, lineup, city),
            status=_weighted(rng, STATUSES),
            url=f"{EVENT_HOST}/event/{event_id}",
            images=models.EventImages(
                square=f"{IMAGE_HOST}/{event_id}/square.jpg",
                landscape=f"{IMAGE_HOST}/{event_id}/landscape.jpg",
            ),
            venue=rng.choice(venues),
            date=models.EventDate(start=start, end=end, timezone=city.timezone, on_sale=on_sale),
            price=models.EventPrice(
                amount=amount,
                currency=currency.code,
                amount_from=amount_from,
                display=money.display(amount, currency),
            ),
            lineup=lineup,
            tag=tag,
        )
        events.append(event)
    events.sort(key=_start_and_id)
    return tuple(e.model_dump(mode="json") for e in events)


def _signature(city: City, anchor: datetime) -> str:
    return f"{stable_hash('cursor', load_gazetteer().key(city), anchor.date()):x}"[:10]


def encode_cursor(offset: int, city: City, anchor: datetime) -> str:
    """An opaque cursor: the next offset, tied to the city and the week."""
    raw = json.dumps({"o": offset, "s": _signature(city, anchor)}, separators=(",", ":"))
    return base64.urlsafe_b64encode(raw.encode()).decode().rstrip("=")


def decode_cursor(cursor: str, city: City, anchor: datetime, total: int) -> int:
    """The offset inside a cursor; 400 naming ``cursor`` when it is not one of ours."""
    try:
        padded = cursor + "=" * (-len(cursor) % 4)
        data = json_limits.loads(base64.urlsafe_b64decode(padded.encode("ascii")))
        offset, signature = data["o"], data["s"]
    except (ValueError, KeyError, TypeError, binascii.Error, UnicodeEncodeError):
        raise invalid_parameter("cursor", "not a cursor returned by this feed") from None
    if signature != _signature(city, anchor):
        raise invalid_parameter(
            "cursor", "the cursor belongs to another location or has expired; start again"
        )
    if not isinstance(offset, int) or isinstance(offset, bool) or not 0 < offset < total:
        raise invalid_parameter("cursor", "the cursor points outside the feed")
    return offset


def feed(
    lat: float | None, lng: float | None, limit: int, cursor: str | None, anchor: datetime
) -> dict[str, Any]:
    """The ``GET /ticketing/discovery`` body for one page."""
    gazetteer = load_gazetteer()
    if lat is None or lng is None:  # the endpoint refuses one without the other
        default = gazetteer.resolve(DEFAULT_CITY_QUERY)
        assert default is not None
        lat, lng = default.lat, default.lng
    city = gazetteer.nearest(lat, lng)
    everything = events_for(city, anchor)
    offset = 0 if not cursor else decode_cursor(cursor, city, anchor, len(everything))
    page = everything[offset : offset + limit]
    following = offset + len(page)
    return {
        "location": {"lat": lat, "lng": lng, "nearest_city": city.name},
        "count": len(page),
        "cursor": encode_cursor(following, city, anchor) if following < len(everything) else None,
        "events": list(page),
    }
