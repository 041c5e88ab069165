"""Load the country polygons and border lines from the packaged ``land.bin``.

The file is derived by ``tools/derive_land.py`` from Natural Earth 1:110m
admin-0 countries (public domain). Coordinates are projected once, at load, to
Web-Mercator world units (see :mod:`creditscope.worldmap.projection`) so each
redraw only scales and shifts them.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from functools import cache
from importlib import resources

from creditscope.worldmap.projection import world_x, world_y

MAGIC = b"CSLAND\x01\x00"
LON_UNIT = 180.0 / 32767
LAT_UNIT = 90.0 / 32767


@dataclass(frozen=True, slots=True)
class Shape:
    """A ring or polyline in world units, with its bounding box.

    ``points`` is flat: ``[x0, y0, x1, y1, ...]`` (x grows east, y grows south).
    """

    points: tuple[float, ...]
    min_x: float
    min_y: float
    max_x: float
    max_y: float


@dataclass(frozen=True, slots=True)
class Country:
    """One Natural Earth admin-0 country: its rings, filled even-odd."""

    iso: str
    name: str
    rings: tuple[Shape, ...]
    min_x: float
    min_y: float
    max_x: float
    max_y: float


@dataclass(frozen=True, slots=True)
class World:
    """Everything the rasteriser draws: countries and the borders between them."""

    countries: tuple[Country, ...]
    borders: tuple[Shape, ...]


class LandFileError(ValueError):
    """The land file is missing, truncated or not in the expected format."""


def _shape(raw: tuple[int, ...]) -> Shape:
    """Project a flat (lon, lat) int16 sequence to a world-unit Shape."""
    points: list[float] = []
    for index in range(0, len(raw), 2):
        points.append(world_x(raw[index] * LON_UNIT))
        points.append(world_y(raw[index + 1] * LAT_UNIT))
    xs = points[0::2]
    ys = points[1::2]
    return Shape(tuple(points), min(xs), min(ys), max(xs), max(ys))


def parse_world(data: bytes) -> World:
    """Decode the bytes of a land file into a :class:`World`."""
    if data[:8] != MAGIC:
        raise LandFileError("not a creditscope land file")
    try:
        offset = 8
        country_count, border_count = struct.unpack_from("<HH", data, offset)
        offset += 4

        def read_points() -> tuple[int, ...]:
            nonlocal offset
            (count,) = struct.unpack_from("<H", data, offset)
            raw = struct.unpack_from(f"<{count * 2}h", data, offset + 2)
            offset += 2 + count * 4
            return raw

        countries: list[Country] = []
        for _ in range(country_count):
            iso = data[offset : offset + 2].decode("ascii").strip("\0")
            name_length = data[offset + 2]
            name = data[offset + 3 : offset + 3 + name_length].decode("utf-8")
            offset += 3 + name_length
            (ring_count,) = struct.unpack_from("<H", data, offset)
            offset += 2
            rings = tuple(_shape(read_points()) for _ in range(ring_count))
            countries.append(
                Country(
                    iso,
                    name,
                    rings,
                    min(ring.min_x for ring in rings),
                    min(ring.min_y for ring in rings),
                    max(ring.max_x for ring in rings),
                    max(ring.max_y for ring in rings),
                )
            )
        borders = tuple(_shape(read_points()) for _ in range(border_count))
    except (struct.error, UnicodeDecodeError, ValueError) as error:
        raise LandFileError(f"corrupt land file: {error}") from error
    return World(tuple(countries), borders)


@cache
def load_world() -> World:
    """Return the packaged world (parsed once per process)."""
    data = resources.files("creditscope").joinpath("data", "land.bin").read_bytes()
    return parse_world(data)
