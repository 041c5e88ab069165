"""Braille rasteriser: land fill and country borders for a viewport, cached.

A map of W x H cells is drawn on 2W x 4H dots. At city scale land is sampled
from the 1 km land mask (:mod:`creditscope.worldmap.landmask`); further out it
is filled by an even-odd scanline fill per country (so a country inside
another's hole, like Lesotho, stays filled). Borders are Bresenham lines on a
separate layer so the widget can draw them fainter. Both layers are packed
into one byte of Braille bits per cell (``chr(0x2800 + bits)`` is the glyph)
and cached per viewport.

When the whole world is narrower than the view (a short, wide map at zoom 1)
only one copy is drawn, clipped to :attr:`Viewport.world_window`, so the map
never shows two Americas side by side.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from creditscope.worldmap.land import Shape, World, load_world
from creditscope.worldmap.landmask import clear_tile_cache, land_dots
from creditscope.worldmap.projection import Viewport
from creditscope.worldmap.scale import CITY_SCALE_KM_PER_CELL

BRAILLE_BASE = 0x2800
# Braille dot weights for (column, row) inside a cell, dots 1..8 in order.
DOT_BITS = {
    (0, 0): 1, (0, 1): 2, (0, 2): 4, (1, 0): 8,
    (1, 1): 16, (1, 2): 32, (0, 3): 64, (1, 3): 128,
}  # fmt: skip
BRAILLE_GLYPHS = tuple(chr(BRAILLE_BASE + bits) for bits in range(256))
# Coarser than this, borders are left out: at 2x4 dots a cell, lines between
# countries a few cells across would carve most of a continent's dots away.
BORDER_MAX_KM_PER_CELL = 120.0
# From city scale in (where the scale bar shows), land comes from the 1 km mask,
# not from the 1:110m outlines, which have no coastline detail there.
MASK_KM_PER_CELL = CITY_SCALE_KM_PER_CELL


@dataclass(frozen=True, slots=True)
class MapLayers:
    """Rasterised layers of one viewport: per cell row, one byte of dot bits per cell."""

    land: tuple[bytes, ...]
    borders: tuple[bytes, ...]


def _copies(min_x: float, max_x: float, left: float, right: float) -> range:
    """Whole-world offsets k for which [min_x + k, max_x + k] meets [left, right]."""
    return range(math.ceil(left - max_x), math.floor(right - min_x) + 1)


def _columns(view: Viewport) -> tuple[int, int]:
    """The dot columns [left, right) that may be drawn: all, or the one world copy."""
    window = view.world_window
    if window is None:
        return 0, view.dots_wide
    left, right = window
    return max(math.ceil(left - 0.5), 0), min(math.ceil(right - 0.5), view.dots_wide)


def _fill_country(
    rings: tuple[Shape, ...],
    shift_x: float,
    view: Viewport,
    rows: list[bytearray],
    columns: tuple[int, int],
) -> None:
    """Even-odd scanline fill of one country's rings into the dot rows, within ``columns``."""
    ox, oy = view.origin
    scale = view.scale
    dots_high = view.dots_high
    first_column, end_column = columns
    ceil = math.ceil
    crossings: dict[int, list[float]] = {}
    for ring in rings:
        pts = ring.points
        xs = [(x + shift_x - ox) * scale for x in pts[0::2]]
        ys = [(y - oy) * scale for y in pts[1::2]]
        # Scanline r samples y = r + 0.5; a point's "row" is the first row below it.
        row_of = [ceil(y - 0.5) for y in ys]
        px, py, prow = xs[-1], ys[-1], row_of[-1]
        for x, y, row in zip(xs, ys, row_of, strict=True):
            if row != prow:
                # Rows whose centre lies in [top, bottom) of this edge.
                first, last = (prow, row) if prow < row else (row, prow)
                first = max(first, 0)
                last = min(last, dots_high)
                if first < last:
                    slope = (x - px) / (y - py)
                    base = px + (0.5 - py) * slope
                    for scan in range(first, last):
                        hits = crossings.get(scan)
                        if hits is None:
                            crossings[scan] = [base + scan * slope]
                        else:
                            hits.append(base + scan * slope)
            px, py, prow = x, y, row
    ones = b"\x01" * end_column
    for scan, hits in crossings.items():
        hits.sort()
        line = rows[scan]
        for pair in range(0, len(hits) - 1, 2):
            start = max(ceil(hits[pair] - 0.5), first_column)
            end = min(ceil(hits[pair + 1] - 0.5), end_column)
            if start < end:
                line[start:end] = ones[: end - start]


def _clip(
    x0: float, y0: float, x1: float, y1: float, columns: tuple[int, int], height: int
) -> tuple[float, float, float, float] | None:
    """Liang-Barsky clip of a segment to the dot rectangle; None when outside."""
    low, high = 0.0, 1.0
    dx, dy = x1 - x0, y1 - y0
    left, right = columns
    for p, q in ((-dx, x0 - left), (dx, right - 1 - x0), (-dy, y0), (dy, height - 1 - y0)):
        if p == 0:
            if q < 0:
                return None
        else:
            t = q / p
            if p < 0:
                low = max(low, t)
            else:
                high = min(high, t)
            if low > high:
                return None
    return x0 + low * dx, y0 + low * dy, x0 + high * dx, y0 + high * dy


def _draw_line(
    line: Shape,
    shift_x: float,
    view: Viewport,
    rows: list[bytearray],
    columns: tuple[int, int],
) -> None:
    """Bresenham polyline into the dot rows, clipped to the view and ``columns``."""
    ox, oy = view.origin
    scale = view.scale
    height = view.dots_high
    min_x, max_x, max_y = columns[0], columns[1] - 1, height - 1
    pts = line.points
    xs = [(x + shift_x - ox) * scale for x in pts[0::2]]
    ys = [(y - oy) * scale for y in pts[1::2]]
    px, py = xs[0], ys[0]
    for x, y in zip(xs, ys, strict=True):
        if min_x <= px <= max_x and 0 <= py <= max_y and min_x <= x <= max_x and 0 <= y <= max_y:
            ax, ay, bx, by = int(px), int(py), int(x), int(y)
        else:
            clipped = _clip(px, py, x, y, columns, height)
            if clipped is None:
                px, py = x, y
                continue
            ax, ay, bx, by = (int(value) for value in clipped)
        px, py = x, y
        if ax == bx and ay == by:
            rows[ay][ax] = 1
            continue
        dx, dy = abs(bx - ax), -abs(by - ay)
        step_x = 1 if ax < bx else -1
        step_y = 1 if ay < by else -1
        error = dx + dy
        while True:
            rows[ay][ax] = 1
            if ax == bx and ay == by:
                break
            double = 2 * error
            if double >= dy:
                error += dy
                ax += step_x
            if double <= dx:
                error += dx
                ay += step_y


def _pack_cells(rows: list[bytearray], width: int) -> tuple[bytes, ...]:
    """Turn 0/1 dot rows into one byte of Braille bits per cell, per cell row.

    Each dot row's even and odd columns are read as big integers of 0/1 bytes
    and summed with their Braille weights; the weights add up to 255, so no
    byte ever carries into its neighbour and the sum *is* the cell bytes.
    """
    cells: list[bytes] = []
    for top in range(0, len(rows), 4):
        total = 0
        for sub_row in range(4):
            dots = rows[top + sub_row]
            total += int.from_bytes(dots[0::2], "big") * DOT_BITS[(0, sub_row)]
            total += int.from_bytes(dots[1::2], "big") * DOT_BITS[(1, sub_row)]
        cells.append(total.to_bytes(width, "big"))
    return tuple(cells)


def rasterise(view: Viewport, world: World | None = None) -> MapLayers:
    """Draw land and borders for ``view`` (uncached; see :func:`map_layers`)."""
    world = world or load_world()
    ox, oy = view.origin
    columns = _columns(view)
    # World x of the drawable columns, to pick which copies of a shape to draw.
    left = ox + columns[0] / view.scale
    right = ox + columns[1] / view.scale
    bottom = oy + view.dots_high / view.scale
    borders = [bytearray(view.dots_wide) for _ in range(view.dots_high)]
    if view.km_per_cell < MASK_KM_PER_CELL:
        land = land_dots(view, columns)
    else:
        land = [bytearray(view.dots_wide) for _ in range(view.dots_high)]
        for country in world.countries:
            if country.max_y < oy or country.min_y > bottom:
                continue
            for shift in _copies(country.min_x, country.max_x, left, right):
                _fill_country(country.rings, shift, view, land, columns)
    for line in world.borders if view.km_per_cell <= BORDER_MAX_KM_PER_CELL else ():
        if line.max_y < oy or line.min_y > bottom:
            continue
        for shift in _copies(line.min_x, line.max_x, left, right):
            _draw_line(line, shift, view, borders, columns)
    return MapLayers(_pack_cells(land, view.width), _pack_cells(borders, view.width))


@lru_cache(maxsize=16)
def map_layers(view: Viewport) -> MapLayers:
    """Rasterised layers for ``view``, from a small LRU cache keyed by the viewport."""
    return rasterise(view)


def clear_cache() -> None:
    """Forget every cached viewport and mask tile (benchmarks measure cold redraws)."""
    map_layers.cache_clear()
    clear_tile_cache()
