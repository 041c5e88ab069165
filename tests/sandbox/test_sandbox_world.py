"""A world that agrees with itself: one venue, one id, one address, one point on land
in its city; local cooking where it is local; counts in the right number."""

from __future__ import annotations

import re
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path

import httpx
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sandbox_support import PATHS

import creditscope
from creditscope.gazetteer import City, distance_km, load_gazetteer
from creditscope.models import CUISINES
from creditscope.sandbox import events, restaurants
from creditscope.sandbox.places import city_radius_km, in_city
from creditscope.wording import counted
from creditscope.worldmap.landmask import is_land

ANCHOR = datetime(2026, 3, 2, tzinfo=UTC)
# Cities of every size whose centre the 1 km land mask puts on land (a centre in the
# water, a small island, has nowhere on land to settle its venues).
CITIES = st.sampled_from(load_gazetteer().cities).filter(lambda c: is_land(c.lat, c.lng))
BOUNDED = settings(max_examples=60, deadline=None, derandomize=True,
                   suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


def _venues_of(city: City) -> dict[int, dict[str, object]]:
    """Every venue of the city's feed by id, checking each id has one venue."""
    by_id: dict[int, dict[str, object]] = {}
    for event in events.events_for(city, ANCHOR):
        venue = event["venue"]
        assert by_id.setdefault(venue["id"], venue) == venue, venue
    return by_id


@BOUNDED
@given(CITIES)
def test_one_venue_one_id_one_address_one_point_in_its_city(city: City) -> None:
    venues = _venues_of(city).values()
    names = Counter(v["name"] for v in venues)
    addresses = Counter(v["address"] for v in venues)
    assert max(names.values()) == 1, names  # no venue twice under two ids
    assert max(addresses.values()) == 1, addresses  # no two venues at one address
    radius = city_radius_km(city)
    for venue in venues:
        lat, lng = float(venue["latitude"]), float(venue["longitude"])  # type: ignore[arg-type]
        assert is_land(lat, lng), venue
        assert distance_km(city.lat, city.lng, lat, lng) <= radius + 0.01, venue
        assert venue["city"] == city.name and venue["country_code"] == city.country_code


@BOUNDED
@given(CITIES)
def test_restaurants_stand_on_land_in_their_city_each_once(city: City) -> None:
    every = restaurants.restaurants_for(city)
    radius = city_radius_km(city)
    assert len({r.details["name"] for r in every}) == len(every)
    assert len({r.details["address"] for r in every}) == len(every)
    for restaurant in every:
        assert is_land(restaurant.lat, restaurant.lng), restaurant.details
        assert distance_km(city.lat, city.lng, restaurant.lat, restaurant.lng) <= radius + 0.01


def test_lisbon_venues_stay_north_of_the_tagus() -> None:
    lisbon = load_gazetteer().resolve("Lisbon")
    assert lisbon is not None
    venues = _venues_of(lisbon).values()
    assert all(float(v["latitude"]) > 38.70 for v in venues)  # type: ignore[arg-type]
    assert all(in_city(lisbon, r.lat, r.lng, city_radius_km(lisbon))
               for r in restaurants.restaurants_for(lisbon))


async def test_local_cooking_is_listed_and_the_filter_keeps_the_specs_ten(
    client: httpx.AsyncClient,
) -> None:
    expected = {"Lisbon": "portuguese", "Tokyo": "japanese", "Madrid": "spanish",
                "Rome": "italian", "Berlin": "german", "Buenos Aires": "argentinian"}
    for place, cuisine in expected.items():
        body = (await client.get(PATHS["search"], params={"location": place, "limit": 30})).json()
        found = Counter(r["cuisine"] for r in body["results"])
        assert found.most_common(1)[0][0] == cuisine, (place, found)
    refused = await client.get(PATHS["search"],
                               params={"location": "Lisbon", "cuisine": "portuguese"})
    assert refused.status_code == 400
    for cuisine in CUISINES:
        body = (await client.get(PATHS["search"], params={"location": "Lisbon", "cuisine": cuisine,
                                                          "limit": 30})).json()
        assert {r["cuisine"] for r in body["results"]} <= {cuisine}


async def test_a_local_dish_is_on_a_portuguese_menu(client: httpx.AsyncClient) -> None:
    body = (await client.get(PATHS["search"], params={"location": "Lisbon", "limit": 30})).json()
    first = next(r for r in body["results"] if r["cuisine"] == "portuguese")
    menu = (await client.get(PATHS["menu"], params={"id": first["id"]})).json()
    names = {item["name"] for section in menu["sections"] for item in section["items"]}
    assert names & {"Pastel de nata", "Bacalhau à Brás", "Bifana", "Polvo à lagareiro"}
    reviews = (await client.get(PATHS["reviews"], params={"id": first["id"]})).json()
    assert reviews["reviews"]


def test_counts_read_right_in_the_singular_and_the_plural() -> None:
    assert counted(1, "review") == "1 review" and counted(2, "review") == "2 reviews"
    assert counted(1, "country", "countries") == "1 country"
    assert counted(0, "country", "countries") == "0 countries"
    assert counted(2400, "review", grouped=True) == "2,400 reviews"


def test_no_count_is_written_in_a_fixed_plural() -> None:
    """``f"{n} reviews"`` reads "1 reviews" when n is 1: counts go through ``counted``
    (a constant such as ``{NAME_MAX}`` is never 1)."""
    fixed = re.compile(r"\{(?![A-Z_]+\})[^{}]*\} (reviews|countries|credits|matches|dishes"
                       r"|pages|endpoints|providers|followers|characters|lines|bytes|venues"
                       r"|events)\b")
    root = Path(creditscope.__file__).parent
    found = [
        f"{path.relative_to(root)}:{number}: {line.strip()}"
        for folder in ("sandbox", "tui")
        for path in sorted((root / folder).rglob("*.py"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if fixed.search(line) and "> SHOWN_VALUE_CHARS" not in line  # many, by its test
    ]
    assert found == []
