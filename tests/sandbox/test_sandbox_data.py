"""The data: deterministic, believable, paginated without repeats."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import httpx
from sandbox_support import (
    AUTH,
    FROZEN,
    PATHS,
    AppFactory,
    assert_error,
    client_for,
    first_restaurant_id,
)

from creditscope.gazetteer import distance_km, load_gazetteer
from creditscope.models import is_valid_hours
from creditscope.sandbox.events import DEFAULT_CITY_QUERY


async def _everything(make_app: AppFactory) -> list[dict[str, object]]:
    async with client_for(make_app()) as http:
        http.headers.update(AUTH)
        bodies = [
            (await http.get(PATHS["discovery"], params={"lat": 52.52, "lng": 13.40})).json(),
            (await http.post(PATHS["find_company"], json={"name": "Woodgrove"})).json(),
            (await http.get(PATHS["search"], params={"location": "Tokyo"})).json(),
        ]
        restaurant = await first_restaurant_id(http, "Mexico City")
        for name in ("details", "menu", "reviews"):
            bodies.append((await http.get(PATHS[name], params={"id": restaurant})).json())
    return bodies


async def test_same_requests_give_identical_json_across_app_instances(
    make_app: AppFactory,
) -> None:
    assert await _everything(make_app) == await _everything(make_app)


async def test_pages_run_to_the_end_without_repeats(client: httpx.AsyncClient) -> None:
    seen: list[str] = []
    cursor: str | None = None
    pages = 0
    while True:
        params: dict[str, object] = {"lat": 41.39, "lng": 2.17, "limit": 17}
        if cursor:
            params["cursor"] = cursor
        feed = (await client.get(PATHS["discovery"], params=params)).json()
        seen += [event["id"] for event in feed["events"]]
        pages += 1
        cursor = feed["cursor"]
        if cursor is None:
            break
        assert feed["count"] == 17
    assert len(seen) == len(set(seen))
    assert 60 <= len(seen) <= 150
    assert pages == -(-len(seen) // 17)


async def test_events_are_sorted_by_start_and_all_upcoming(client: httpx.AsyncClient) -> None:
    feed = (await client.get(PATHS["discovery"], params={"limit": 50})).json()
    starts = [e["date"]["start"] for e in feed["events"]]
    assert starts == sorted(starts)
    assert all(datetime.fromisoformat(s.replace("Z", "+00:00")) > FROZEN for s in starts)


async def test_cursor_from_another_location_is_refused(client: httpx.AsyncClient) -> None:
    lisbon = (await client.get(PATHS["discovery"], params={"lat": 38.72, "lng": -9.14})).json()
    answer = await client.get(
        PATHS["discovery"], params={"lat": 35.68, "lng": 139.69, "cursor": lisbon["cursor"]}
    )
    assert_error(answer, 400, "invalid_parameter", names="cursor")
    # The same city from a nearby point keeps working.
    nearby = await client.get(
        PATHS["discovery"], params={"lat": 38.73, "lng": -9.15, "cursor": lisbon["cursor"]}
    )
    assert nearby.status_code == 200


async def test_omitted_point_is_the_default_city(client: httpx.AsyncClient) -> None:
    feed = (await client.get(PATHS["discovery"])).json()
    city = load_gazetteer().resolve(DEFAULT_CITY_QUERY)
    assert city is not None
    assert feed["location"] == {"lat": city.lat, "lng": city.lng, "nearest_city": city.name}


async def test_events_are_believable_for_their_city(client: httpx.AsyncClient) -> None:
    feed = (
        await client.get(PATHS["discovery"], params={"lat": 35.69, "lng": 139.70, "limit": 50})
    ).json()
    tokyo = load_gazetteer().resolve("Tokyo")
    assert tokyo is not None and feed["location"]["nearest_city"] == "Tokyo"
    statuses = [e["status"] for e in feed["events"]]
    assert statuses.count("on-sale") > len(statuses) * 0.7
    assert set(statuses) <= {"on-sale", "sold-out", "cancelled", "rescheduled"}
    on_sale_past = 0
    for event in feed["events"]:
        venue = event["venue"]
        assert distance_km(tokyo.lat, tokyo.lng, venue["latitude"], venue["longitude"]) <= 20
        assert venue["country_code"] == "JP" and event["date"]["timezone"] == "Asia/Tokyo"
        price = event["price"]
        assert price["currency"] == "JPY" and price["amount"] >= price["amount_from"] > 0
        assert price["display"] == f"¥{price['amount']:,}"
        start = datetime.fromisoformat(event["date"]["start"].replace("Z", "+00:00"))
        local_start = start.astimezone(ZoneInfo("Asia/Tokyo"))
        assert 18 <= local_start.hour <= 21  # evening shows, local time
        on_sale = datetime.fromisoformat(event["date"]["on_sale"].replace("Z", "+00:00"))
        assert on_sale < start
        on_sale_past += on_sale < FROZEN
    assert 0 < on_sale_past < len(feed["events"])  # some sales have opened, some not yet


async def test_prices_display_in_local_currency(client: httpx.AsyncClient) -> None:
    cases = {
        (48.85, 2.35): ("EUR", r"^€\d+\.\d{2}$"),
        (51.51, -0.13): ("GBP", r"^£\d+\.\d{2}$"),
        (40.71, -74.0): ("USD", r"^\$\d+\.\d{2}$"),
    }
    for (lat, lng), (currency, shape) in cases.items():
        feed = (await client.get(PATHS["discovery"], params={"lat": lat, "lng": lng})).json()
        for event in feed["events"]:
            assert event["price"]["currency"] == currency
            assert re.match(shape, event["price"]["display"])
            major = event["price"]["amount"] / 100
            assert event["price"]["display"].endswith(f"{major:.2f}")


async def test_restaurant_search_resolves_places_like_a_person_would(
    client: httpx.AsyncClient,
) -> None:
    for text in ("Lisbon", "lisbon, PT", "Chiado, Lisbon", "LISBOA", "38.7223, -9.1393"):
        body = (await client.get(PATHS["search"], params={"location": text})).json()
        assert body["location"] == "Lisbon, PT", text
        assert body["total"] > 0
    unknown = (await client.get(PATHS["search"], params={"location": "Narnia"})).json()
    assert unknown == {"location": "Narnia", "total": 0, "results": []}


async def test_search_is_nearest_first_and_filters_by_cuisine(client: httpx.AsyncClient) -> None:
    every = (await client.get(PATHS["search"], params={"location": "Rome", "limit": 30})).json()
    distances = [r["distance_km"] for r in every["results"]]
    assert distances == sorted(distances) and all(d <= 8 for d in distances)
    italian = (
        await client.get(
            PATHS["search"], params={"location": "Rome", "cuisine": "italian", "limit": 30}
        )
    ).json()
    assert italian["total"] <= every["total"] and italian["results"]
    assert {r["cuisine"] for r in italian["results"]} == {"italian"}
    assert all(1 <= r["price_level"] <= 4 and 1 <= r["rating"] <= 5 for r in every["results"])


async def test_search_ids_work_in_details_menu_and_reviews(client: httpx.AsyncClient) -> None:
    body = (await client.get(PATHS["search"], params={"location": "Osaka", "limit": 3})).json()
    for summary in body["results"]:
        details = (await client.get(PATHS["details"], params={"id": summary["id"]})).json()
        assert {k: details[k] for k in ("id", "name", "rating", "address")} == {
            k: summary[k] for k in ("id", "name", "rating", "address")
        }
        assert all(is_valid_hours(v) for v in details["hours"].values())
        assert set(details["hours"]) <= {
            "monday",
            "tuesday",
            "wednesday",
            "thursday",
            "friday",
            "saturday",
            "sunday",
        }
        assert details["phone"].startswith("+81 ")
        menu = (await client.get(PATHS["menu"], params={"id": summary["id"]})).json()
        assert menu["restaurant_id"] == summary["id"] and menu["currency"] == "JPY"
        items = [item for section in menu["sections"] for item in section["items"]]
        assert any(item["popular"] for item in items)
        assert all(item["price"] >= 100 for item in items)  # yen, not euros
        reviews = (
            await client.get(PATHS["reviews"], params={"id": summary["id"], "limit": 50})
        ).json()
        assert reviews["total"] == summary["review_count"]
        assert reviews["average_rating"] == summary["rating"]
        dates = [r["date"] for r in reviews["reviews"]]
        assert dates == sorted(dates, reverse=True) and all(
            1 <= r["rating"] <= 5 for r in reviews["reviews"]
        )
        assert len(reviews["reviews"]) == min(50, summary["review_count"])


async def test_menus_carry_dietary_tags(client: httpx.AsyncClient) -> None:
    restaurant = await first_restaurant_id(client, "Berlin")
    menu = (await client.get(PATHS["menu"], params={"id": restaurant})).json()
    tags = {tag for s in menu["sections"] for item in s["items"] for tag in item["dietary"]}
    assert {"vegan", "vegetarian", "gluten-free"} <= tags
    assert menu["currency"] == "EUR"


async def test_open_now_follows_local_opening_hours(make_app: AppFactory) -> None:
    # 04:30 in Lisbon: no restaurant is open. 20:30: most are.
    early = datetime(2026, 3, 4, 4, 30, tzinfo=UTC)
    late = early + timedelta(hours=16)
    counts = []
    for moment in (early, late):
        async with client_for(make_app(frozen_time=moment)) as http:
            http.headers.update(AUTH)
            body = (
                await http.get(PATHS["search"], params={"location": "Lisbon", "limit": 30})
            ).json()
        counts.append(sum(r["open_now"] for r in body["results"]))
    assert counts[0] == 0 and counts[1] > 20
