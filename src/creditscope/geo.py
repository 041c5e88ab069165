"""Geometry on the sphere for places: distances, a typed "lat, lng", and the
one-degree grid the gazetteer searches for the nearest place. Pure and light."""

from __future__ import annotations

import math
import re
from collections.abc import Iterator

_POINT = re.compile(r"^\s*([-+]?\d{1,2}(?:\.\d+)?)\s*[, ]\s*([-+]?\d{1,3}(?:\.\d+)?)\s*$")
EARTH_RADIUS_KM = 6371.0088
KM_PER_DEGREE = math.pi * EARTH_RADIUS_KM / 180


def distance_km(lat1: float, lng1: float, lat2: float, lng2: float) -> float:
    """Great-circle (haversine) distance in kilometres."""
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dp, dl = p2 - p1, math.radians(lng2 - lng1)
    a = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * EARTH_RADIUS_KM * math.asin(min(1.0, math.sqrt(a)))


def parse_point(text: str) -> tuple[float, float] | None:
    """``"38.72, -9.14"`` -> ``(38.72, -9.14)``; None unless it is a valid lat/lng pair."""
    found = _POINT.match(text)
    if not found:
        return None
    lat, lng = float(found.group(1)), float(found.group(2))
    if not (-90 <= lat <= 90 and -180 <= lng <= 180):
        return None
    return lat, lng


def ring_cells(
    row: int, column: int, ring: int, *, include_inside: bool = False
) -> Iterator[tuple[int, int]]:
    """The 1-degree cells ``ring`` cells away from (row, column) (or within, with
    ``include_inside``), longitude wrapping round."""
    seen: set[tuple[int, int]] = set()
    for dr in range(-ring, ring + 1):
        for dc in range(-ring, ring + 1):
            if not include_inside and max(abs(dr), abs(dc)) != ring:
                continue
            cell = (row + dr, (column + dc) % 360)
            if cell not in seen and -90 <= cell[0] < 90:
                seen.add(cell)
                yield cell


def ring_bound_km(lat: float, ring: int) -> float:
    """No place in a cell ``ring`` or more rings away is closer than this."""
    if ring <= 1:
        return 0.0
    steps = ring - 1  # whole degrees between the point and the nearest such cell
    by_latitude = steps * KM_PER_DEGREE
    widest = min(90.0, abs(lat) + ring + 1)  # meridians converge: the smallest gap
    by_longitude = (
        2 * EARTH_RADIUS_KM
        * math.asin(min(1.0, math.cos(math.radians(widest)) * math.sin(math.radians(steps) / 2)))
    )
    return min(by_latitude, by_longitude)


def dot_km(dot: float) -> float:
    return EARTH_RADIUS_KM * math.acos(max(-1.0, min(1.0, dot)))


def unit_vector(lat: float, lng: float) -> tuple[float, float, float]:
    p, lam = math.radians(lat), math.radians(lng)
    return (math.cos(p) * math.cos(lam), math.cos(p) * math.sin(lam), math.sin(p))
