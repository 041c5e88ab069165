"""Restaurants: 30-80 per city, each with details, a menu and reviews, all derived
from the city and the restaurant's index so ids need no stored state."""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from functools import lru_cache, partial
from typing import Any
from zoneinfo import ZoneInfo

from creditscope import models
from creditscope.gazetteer import City, distance_km, load_gazetteer, parse_point
from creditscope.sandbox import money
from creditscope.sandbox.dishes import CUISINES, DISHES, DRINKS
from creditscope.sandbox.places import (
    display_name,
    distinct,
    person_name,
    place_in_city,
    slugify,
    street_address,
)
from creditscope.sandbox.problems import not_found
from creditscope.sandbox.restaurant_words import (
    FEATURES,
    LOCAL_CUISINE,
    LOCAL_WEIGHT,
    NAME_PATTERNS,
    NAME_WORDS,
    REVIEW_TEXTS,
)
from creditscope.sandbox.seeding import rng_for, stable_hash

DAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
RADIUS_KM = 8.0  # how far restaurants were first drawn (see ``places.place_in_city``)
MAX_REVIEWS = 50
LOCAL_SHARE = LOCAL_WEIGHT / (LOCAL_WEIGHT + len(CUISINES) - 1)  # as the weight gives
LEVEL_FACTOR = {1: 0.75, 2: 1.0, 3: 1.35, 4: 1.8}
_ID = re.compile(r"^rst_([a-z0-9-]+_[a-z]{2}(?:-\d+)?)_(\d{3})$")


@dataclass(frozen=True)
class Restaurant:
    """One generated restaurant: its listing, and what its menu and reviews derive from."""

    city: City
    index: int
    details: dict[str, Any]  # RestaurantDetails as JSON
    lat: float
    lng: float

    @property
    def id(self) -> str:
        return str(self.details["id"])


def restaurant_id(city: City, index: int) -> str:
    """``rst_lisbon_pt_007``: the city's gazetteer key and the restaurant's index."""
    return f"rst_{load_gazetteer().key(city)}_{index:03d}"


def _hours(rng: random.Random) -> dict[str, str]:
    opening = rng.choice(("11:00", "11:30", "12:00", "17:00", "18:00"))
    closing = rng.choice(("22:00", "22:30", "23:00", "23:30", "00:00", "01:00"))
    closed = rng.choice((None, None, "monday", "sunday", "tuesday"))
    late = rng.choice(("23:30", "00:30", "01:00", "02:00")) if rng.random() < 0.5 else closing
    hours = {}
    for day in DAYS:
        if day == closed:
            continue  # a closed day has no key (documented)
        hours[day] = f"{opening}-{late if day in ('friday', 'saturday') else closing}"
    return hours


def _name(rng: random.Random, cuisine: str) -> str:
    return rng.choice(NAME_PATTERNS[cuisine]).format(
        w=rng.choice(NAME_WORDS), p=person_name(rng).split()[0]
    )


@lru_cache(maxsize=256)
def restaurants_for(city: City) -> tuple[Restaurant, ...]:
    """Every restaurant of ``city``, in index order."""
    gazetteer = load_gazetteer()
    key = gazetteer.key(city)
    country = gazetteer.country(city.country_code)
    rng = rng_for("restaurants", key)
    local = LOCAL_CUISINE.get(city.country_code)
    weights = [LOCAL_WEIGHT if c == local else 1 for c in CUISINES]
    # Cooking the filter does not name (Portuguese in Lisbon) takes the same share,
    # decided by a generator of its own: the other restaurants stay as they were.
    unfiltered = local if local is not None and local not in CUISINES else None
    names: set[str] = set()
    addresses: set[str] = set()
    result = []
    for index in range(rng.randint(30, 80)):
        cuisine = rng.choices(CUISINES, weights=weights)[0]
        name = _name(rng, cuisine)
        if unfiltered is not None:
            own = rng_for("local", key, index)
            if own.random() < LOCAL_SHARE:
                cuisine, name = unfiltered, _name(own, unfiltered)
        name = distinct(name, names, partial(_name, cuisine=cuisine), key, "name", index)
        lat, lng = place_in_city(rng, city, RADIUS_KM, key, "restaurant", index)
        rating = round(rng.triangular(3.0, 4.9, 4.3), 1)
        details = models.RestaurantDetails(
            id=restaurant_id(city, index),
            name=name,
            cuisine=cuisine,
            rating=rating,
            review_count=rng.randint(8, 2400),
            price_level=rng.choices((1, 2, 3, 4), weights=(3, 5, 3, 1))[0],
            address=distinct(
                street_address(rng, city),
                addresses,
                partial(street_address, city=city),
                key,
                "address",
                index,
            ),
            phone=f"+{country.calling_code or '1'} {rng.randint(100, 999)} "
            f"{rng.randint(100, 999)} {rng.randint(100, 9999):04d}",
            website=f"https://www.{slugify(name)}-{slugify(city.ascii_name)}.example",
            coordinates=models.Coordinates(lat=lat, lng=lng),
            hours=_hours(rng),
            features=sorted(rng.sample(FEATURES, rng.randint(2, 6))),
        )
        result.append(Restaurant(city, index, details.model_dump(mode="json"), lat, lng))
    return tuple(result)


def find(restaurant_id_text: str) -> Restaurant:
    """The restaurant with this id; 404 ``not_found`` for anything else."""
    found = _ID.match(restaurant_id_text)
    city = load_gazetteer().by_key(found.group(1)) if found else None
    if found and city is not None:
        every = restaurants_for(city)
        index = int(found.group(2))
        if index < len(every):
            return every[index]
    raise not_found(f"no restaurant with id {restaurant_id_text!r}")


def open_now(hours: dict[str, str], timezone: str, moment: datetime) -> bool:
    """True when ``moment`` falls in today's opening hours, or in last night's that run late."""
    local = moment.astimezone(ZoneInfo(timezone))
    minute = local.hour * 60 + local.minute
    today, yesterday = DAYS[local.weekday()], DAYS[(local.weekday() - 1) % 7]
    for day, shift in ((today, 0), (yesterday, 24 * 60)):
        span = hours.get(day)
        if not span:
            continue
        start_text, end_text = span.split("-")
        start = int(start_text[:2]) * 60 + int(start_text[3:])
        end = int(end_text[:2]) * 60 + int(end_text[3:])
        if end <= start:
            end += 24 * 60  # closes after midnight
        if start <= minute + shift < end:
            return True
    return False


_SUMMARY_FIELDS = ("id", "name", "cuisine", "rating", "review_count", "price_level", "address")


@lru_cache(maxsize=2048)
def _ranked(
    city: City, origin: tuple[float, float], cuisine: str | None
) -> tuple[tuple[dict[str, Any], Restaurant], ...]:
    """Summaries (without ``open_now``) nearest first; cached, as search is the hot path."""
    chosen = [
        r for r in restaurants_for(city) if cuisine is None or r.details["cuisine"] == cuisine
    ]
    ranked = sorted(
        ((distance_km(origin[0], origin[1], r.lat, r.lng), r.index, r) for r in chosen),
        key=lambda row: (row[0], row[1]),
    )
    rows = []
    for distance, _, restaurant in ranked:
        summary = {name: restaurant.details[name] for name in _SUMMARY_FIELDS}
        summary["distance_km"] = round(distance, 2)
        rows.append((summary, restaurant))
    return tuple(rows)


def search(location: str, cuisine: str | None, limit: int, moment: datetime) -> dict[str, Any]:
    """The ``GET /restaurants/search`` body: nearest first; unknown place -> total 0."""
    city = load_gazetteer().resolve(location)
    if city is None:
        return {"location": location.strip(), "total": 0, "results": []}
    origin = parse_point(location) or (city.lat, city.lng)
    ranked = _ranked(city, origin, cuisine)
    results = [
        {**summary, "open_now": open_now(r.details["hours"], city.timezone, moment)}
        for summary, r in ranked[:limit]
    ]
    return {"location": city.label, "total": len(ranked), "results": results}


@lru_cache(maxsize=1024)
def menu(restaurant_id_text: str, anchor: date) -> dict[str, Any]:
    """The ``GET /restaurants/menu`` body, priced in the city's currency."""
    restaurant = find(restaurant_id_text)
    details = restaurant.details
    rng = rng_for("menu", restaurant.id)
    currency = money.currency_for(load_gazetteer().country(restaurant.city.country_code).currency)
    factor = LEVEL_FACTOR[details["price_level"]]
    dishes = [d for d in DISHES[details["cuisine"]] if rng.random() < 0.85] + list(DRINKS[:3])
    popular = set(rng.sample(range(len(dishes)), min(3, len(dishes))))
    sections: dict[str, list[models.MenuItem]] = {}
    for position, (section, name, description, dietary, euros) in enumerate(dishes):
        price = money.local_amount(euros * factor * rng.uniform(0.9, 1.15), currency)
        sections.setdefault(section, []).append(
            models.MenuItem(
                id=f"itm_{stable_hash(restaurant.id, name):x}"[:14],
                name=name,
                description=description,
                price=price,
                dietary=list(dietary),
                popular=position in popular,
            )
        )
    body = models.Menu(
        restaurant_id=restaurant.id,
        currency=currency.code,
        last_updated=anchor - timedelta(days=rng.randint(1, 60)),
        sections=[models.MenuSection(name=n, items=items) for n, items in sections.items()],
    )
    return body.model_dump(mode="json")


@lru_cache(maxsize=1024)
def _all_reviews(restaurant_id_text: str, anchor: date) -> tuple[dict[str, Any], ...]:
    restaurant = find(restaurant_id_text)
    details = restaurant.details
    rng = rng_for("reviews", restaurant.id)
    dishes = [d[1] for d in DISHES[details["cuisine"]]]
    average = details["rating"]
    day = anchor - timedelta(days=rng.randint(0, 3))
    reviews = []
    for number in range(min(details["review_count"], MAX_REVIEWS)):
        rating = max(1, min(5, round(rng.gauss(average, 0.9))))
        text = rng.choice(REVIEW_TEXTS[rating]).format(dish=rng.choice(dishes))
        reviews.append(
            models.Review(
                id=f"rev_{stable_hash(restaurant.id, number):x}"[:14],
                author=display_name(rng),
                rating=rating,
                text=text,
                date=day,
                helpful_votes=int(rng.expovariate(0.4)),
            ).model_dump(mode="json")
        )
        day -= timedelta(days=rng.randint(0, 9))
    return tuple(reviews)


def reviews(restaurant_id_text: str, limit: int, anchor: date) -> dict[str, Any]:
    """The ``GET /restaurants/reviews`` body: most recent first."""
    restaurant = find(restaurant_id_text)
    return {
        "restaurant_id": restaurant.id,
        "total": restaurant.details["review_count"],
        "average_rating": restaurant.details["rating"],
        "reviews": list(_all_reviews(restaurant.id, anchor)[:limit]),
    }
