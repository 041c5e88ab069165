"""Venues and restaurants stand on land, now that the city map shows the water."""

from __future__ import annotations

import httpx
from sandbox_support import PATHS

from creditscope.worldmap.landmask import is_land

COASTAL = [("Lisbon", 38.72, -9.14), ("Sydney", -33.87, 151.21), ("Istanbul", 41.01, 28.98)]


async def test_event_venues_are_on_land(client: httpx.AsyncClient) -> None:
    for city, lat, lng in COASTAL:
        feed = (await client.get(PATHS["discovery"], params={"lat": lat, "lng": lng})).json()
        venues = {(e["venue"]["latitude"], e["venue"]["longitude"]) for e in feed["events"]}
        assert len(venues) >= 3, city
        assert all(is_land(*venue) for venue in venues), city


async def test_restaurants_are_on_land(client: httpx.AsyncClient) -> None:
    for city, _, _ in COASTAL:
        found = (await client.get(PATHS["search"], params={"location": city, "limit": 30})).json()
        assert found["results"], city
        details = [
            (await client.get(PATHS["details"], params={"id": r["id"]})).json()
            for r in found["results"][:10]
        ]
        points = [(d["coordinates"]["lat"], d["coordinates"]["lng"]) for d in details]
        assert all(is_land(*point) for point in points), city
