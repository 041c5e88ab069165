"""The city-zoom land mask: where land and water are, to about 1 km.

The 1:110m country outlines say nothing at city scale (Lisbon is a solid block
with no Tagus), so views closer than the scale-bar threshold sample this mask
instead. The packaged ``landmask.bin`` is derived by ``tools/derive_landmask.py``
from the GLOBE 30-arc-second grid (public domain). It holds two levels of
120 x 120 pixel tiles, 1 km and 4 km, where each all-water or all-land tile is a
single byte and each coastal tile is zlib-compressed, so it is read on the
first city view and tiles are only inflated when a view needs them.
"""

from __future__ import annotations

import itertools
import math
import mmap
import struct
import zlib
from array import array
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib import resources
from pathlib import Path

from creditscope.worldmap.projection import Viewport, latitude, longitude

MAGIC = b"CSMASK\x01\x00"
WATER, LAND, MIXED = 0, 1, 2
TILE_CACHE_SIZE = 64  # inflated tiles kept (14 kB each at 120 x 120): a city view and its pans


class LandMaskError(ValueError):
    """The land mask file is missing, truncated or not in the expected format."""


@dataclass(frozen=True, slots=True)
class MaskLevel:
    """One resolution of the mask: tile states, and where each coastal tile's bytes are."""

    pixels_per_degree: int
    tile: int
    rows: int
    columns: int
    states: bytes
    starts: array  # where each coastal tile's bytes start in the file, then where the last ends

    def span(self, tile_index: int) -> tuple[int, int]:
        """(start, end) in the file of a coastal tile's compressed pixels."""
        ordinal = self.states.count(MIXED, 0, tile_index)  # coastal tiles before this one
        return self.starts[ordinal], self.starts[ordinal + 1]

    @property
    def degrees_per_pixel(self) -> float:
        """Size of one pixel in degrees of longitude (and latitude)."""
        return 1.0 / self.pixels_per_degree


@dataclass(frozen=True, slots=True)
class LandMask:
    """Every level of the mask, finest first, over the bytes of the file."""

    levels: tuple[MaskLevel, ...]
    data: bytes | mmap.mmap

    def level_for(self, degrees_per_dot: float) -> int:
        """The coarsest level still at least as fine as one dot (the finest when none is)."""
        chosen = 0
        for index, level in enumerate(self.levels):
            if level.degrees_per_pixel <= degrees_per_dot:
                chosen = index
        return chosen


def parse_mask(data: bytes | mmap.mmap) -> LandMask:
    """Decode the index of a land mask file (tiles stay compressed until used)."""
    if data[:8] != MAGIC:
        raise LandMaskError("not a creditscope land mask file")
    try:
        offset = 9
        levels = []
        for _ in range(data[8]):
            per_degree, tile, rows, columns = struct.unpack_from("<HHHH", data, offset)
            offset += 8
            states = data[offset : offset + rows * columns]
            offset += rows * columns
            mixed = states.count(MIXED)
            lengths = struct.unpack_from(f"<{mixed}H", data, offset)
            offset += 2 * mixed
            starts = array("I", itertools.accumulate(lengths, initial=offset))
            offset = starts[-1]
            if len(states) != rows * columns or offset > len(data):
                raise LandMaskError("truncated land mask file")
            levels.append(MaskLevel(per_degree, tile, rows, columns, states, starts))
    except (struct.error, IndexError) as error:
        raise LandMaskError(f"corrupt land mask file: {error}") from error
    return LandMask(tuple(levels), data)


@cache
def load_mask() -> LandMask:
    """The packaged mask (opened once per process, on the first city view), mapped rather
    than read: a city view touches a few of its 1.5 MB, and only those pages are resident."""
    packaged = resources.files("creditscope").joinpath("data", "landmask.bin")
    if not isinstance(packaged, Path):  # inside a zip: no file to map
        return parse_mask(packaged.read_bytes())
    with packaged.open("rb") as file:
        return parse_mask(mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ))


@lru_cache(maxsize=TILE_CACHE_SIZE)
def tile_pixels(level_index: int, tile_index: int) -> bytes:
    """One tile's pixels, a byte each (1 land, 0 water), row-major from its north-west."""
    mask = load_mask()
    level = mask.levels[level_index]
    state = level.states[tile_index]
    if state != MIXED:
        return bytes([state]) * (level.tile * level.tile)
    start, end = level.span(tile_index)
    return zlib.decompress(mask.data[start:end])


def is_land(lat: float, lng: float) -> bool:
    """Whether the finest level has land at (lat, lng)."""
    level = load_mask().levels[0]
    per_degree, side = level.pixels_per_degree, level.tile
    row = min(max(math.floor((90.0 - lat) * per_degree), 0), 180 * per_degree - 1)
    column = math.floor((lng + 180.0) * per_degree) % (360 * per_degree)
    tile = tile_pixels(0, (row // side) * level.columns + column // side)
    return tile[(row % side) * side + column % side] == LAND


def _column_runs(
    view: Viewport, columns: tuple[int, int], level: MaskLevel
) -> list[tuple[int, int, int, list[int]]]:
    """Dot columns grouped by the tile column they fall in: (tile, first, end, pixel columns)."""
    ox = view.origin[0]
    width = 360 * level.pixels_per_degree
    runs: list[tuple[int, int, int, list[int]]] = []
    for x in range(*columns):
        lng = longitude(ox + (x + 0.5) / view.scale)
        pixel = math.floor((lng + 180.0) * level.pixels_per_degree) % width
        tile, inside = divmod(pixel, level.tile)
        if runs and runs[-1][0] == tile and runs[-1][2] == x:
            runs[-1][3].append(inside)
            runs[-1] = (tile, runs[-1][1], x + 1, runs[-1][3])
        else:
            runs.append((tile, x, x + 1, [inside]))
    return runs


def land_dots(view: Viewport, columns: tuple[int, int]) -> list[bytearray]:
    """One 0/1 byte per dot, per dot row: land where the mask's nearest pixel is land."""
    mask = load_mask()
    level_index = mask.level_for(360.0 / view.scale)
    level = mask.levels[level_index]
    runs = _column_runs(view, columns, level)
    height = 180 * level.pixels_per_degree
    oy = view.origin[1]
    rows: list[bytearray] = []
    previous: tuple[int, bytearray] | None = None
    for y in range(view.dots_high):
        lat = latitude(oy + (y + 0.5) / view.scale)
        pixel_row = min(max(math.floor((90.0 - lat) * level.pixels_per_degree), 0), height - 1)
        if previous is not None and previous[0] == pixel_row:
            rows.append(bytearray(previous[1]))  # several dots down one pixel: same row
            continue
        tile_row, inside_row = divmod(pixel_row, level.tile)
        line = bytearray(view.dots_wide)
        base = inside_row * level.tile
        for tile_column, first, end, pixels in runs:
            tile = tile_pixels(level_index, tile_row * level.columns + tile_column)
            line[first:end] = bytes(map(tile[base : base + level.tile].__getitem__, pixels))
        rows.append(line)
        previous = (pixel_row, line)
    return rows


def clear_tile_cache() -> None:
    """Forget inflated tiles (benchmarks measure cold redraws)."""
    tile_pixels.cache_clear()
