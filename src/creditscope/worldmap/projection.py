"""Web-Mercator viewport: centre + zoom + size in cells <-> dots, cells, lat/lng.

Why Web-Mercator (clipped to +-85.05 degrees) and not equirectangular: it is
conformal, so a city keeps its shape at every latitude and one km scale bar is
right both across and down; it is also the projection people know from web
maps. Braille dots are roughly square (a cell is 2 dots wide, 4 tall, and about
twice as tall as wide), so the maths works in dots.

World units: ``x`` in [0, 1) from 180W eastwards, ``y`` in [0, 1] from 85.05N
southwards. Zoom 1 shows the world exactly once: all 360 degrees of longitude
across the width, cropped in latitude around the centre, as long as that
leaves at least 60N..45S in view. A map too short and wide for that band fits
the band's height instead and shows one copy of the world between empty
margins (:attr:`Viewport.world_window`), never two side by side. Each zoom
step multiplies the scale.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, replace

MAX_LATITUDE = 85.05112878
MIN_ZOOM = 1.0
MAX_ZOOM = 2048.0
EARTH_CIRCUMFERENCE_KM = 40075.017


def world_x(lng: float) -> float:
    """Longitude in degrees to world x in [0, 1]."""
    return (lng + 180.0) / 360.0


def world_y(lat: float) -> float:
    """Latitude in degrees to world y in [0, 1] (north at 0), clipped to +-85.05."""
    lat = max(-MAX_LATITUDE, min(MAX_LATITUDE, lat))
    return (1.0 - math.log(math.tan(math.pi / 4 + math.radians(lat) / 2)) / math.pi) / 2


def longitude(x: float) -> float:
    """World x to longitude, wrapped into [-180, 180)."""
    return (x * 360.0) % 360.0 - 180.0


def latitude(y: float) -> float:
    """World y to latitude in degrees (y is clamped to the map)."""
    y = max(0.0, min(1.0, y))
    return math.degrees(math.atan(math.sinh(math.pi * (1 - 2 * y))))


# The band of latitude zoom 1 always shows (Scandinavia to Patagonia's start).
WORLD_BAND = (60.0, -45.0)
_WORLD_BAND_HEIGHT = world_y(WORLD_BAND[1]) - world_y(WORLD_BAND[0])
# The closest ``fitted`` frames a group of points: about half a km per cell.
FIT_MIN_KM_PER_CELL = 0.5


def wrap_longitude(lng: float) -> float:
    """Any longitude to [-180, 180)."""
    return (lng + 180.0) % 360.0 - 180.0


@dataclass(frozen=True, slots=True)
class Viewport:
    """What part of the world a ``width`` x ``height`` cell map shows.

    Hashable, so it doubles as the raster cache key. ``center`` is (lat, lng).
    Build one through :meth:`normalised` to keep the centre on the map.
    """

    width: int
    height: int
    center_lat: float = 0.0
    center_lng: float = 0.0
    zoom: float = 1.0

    @property
    def dots_wide(self) -> int:
        """Braille dots across (2 per cell)."""
        return self.width * 2

    @property
    def dots_high(self) -> int:
        """Braille dots down (4 per cell)."""
        return self.height * 4

    @property
    def scale(self) -> float:
        """Dots per world unit (the whole world is 1 unit wide)."""
        # Width-fit (360 degrees across) unless that would crop the band.
        base = min(self.dots_wide, self.dots_high / _WORLD_BAND_HEIGHT)
        return max(base, 1.0) * self.zoom

    @property
    def world_window(self) -> tuple[float, float] | None:
        """Dot columns [left, right) of the one world copy, when narrower than the view.

        None when the world is at least as wide as the view (then any column
        shows the world, wrapped across the antimeridian when panned there).
        """
        if self.scale >= self.dots_wide:
            return None
        middle = self.dots_wide / 2
        return middle - self.scale / 2, middle + self.scale / 2

    @property
    def center_world(self) -> tuple[float, float]:
        """The centre in world units."""
        return world_x(self.center_lng), world_y(self.center_lat)

    @property
    def origin(self) -> tuple[float, float]:
        """World coordinates of the top-left corner of dot (0, 0)."""
        cx, cy = self.center_world
        return cx - self.dots_wide / (2 * self.scale), cy - self.dots_high / (2 * self.scale)

    @property
    def km_per_cell(self) -> float:
        """Ground distance across one cell at the centre latitude."""
        stretch = math.cos(math.radians(self.center_lat))
        return EARTH_CIRCUMFERENCE_KM * stretch * 2 / self.scale

    def normalised(self) -> Viewport:
        """Same view with zoom in range, longitude wrapped, and no empty band past the poles."""
        zoom = max(MIN_ZOOM, min(MAX_ZOOM, self.zoom))
        view = replace(self, zoom=zoom, center_lng=wrap_longitude(self.center_lng))
        half = view.dots_high / (2 * view.scale)
        cy = world_y(self.center_lat)
        cy = 0.5 if half >= 0.5 else max(half, min(1 - half, cy))
        return replace(view, center_lat=latitude(cy))

    def latlng_to_dot(self, lat: float, lng: float) -> tuple[float, float]:
        """Dot coordinates (floats) of a point, on the copy of the world nearest the centre."""
        cx, cy = self.center_world
        dx = (world_x(lng) - cx + 0.5) % 1.0 - 0.5
        return (
            dx * self.scale + self.dots_wide / 2,
            (world_y(lat) - cy) * self.scale + self.dots_high / 2,
        )

    def dot_to_latlng(self, x: float, y: float) -> tuple[float, float]:
        """(lat, lng) at a dot position."""
        ox, oy = self.origin
        return latitude(oy + y / self.scale), longitude(ox + x / self.scale)

    def latlng_to_cell(self, lat: float, lng: float) -> tuple[int, int] | None:
        """The cell showing a point, or None when it is outside the view."""
        x, y = self.latlng_to_dot(lat, lng)
        cell = (math.floor(x / 2), math.floor(y / 4))
        if 0 <= cell[0] < self.width and 0 <= cell[1] < self.height:
            return cell
        return None

    def cell_to_latlng(self, x: float, y: float) -> tuple[float, float]:
        """(lat, lng) at the centre of cell (x, y); fractional cells are allowed."""
        return self.dot_to_latlng(x * 2 + 1, y * 4 + 2)

    def panned(self, cells_x: float, cells_y: float) -> Viewport:
        """The view moved by a number of cells (positive: east / south)."""
        cx, cy = self.center_world
        cx += cells_x * 2 / self.scale
        cy += cells_y * 4 / self.scale
        return replace(self, center_lat=latitude(cy), center_lng=longitude(cx)).normalised()

    def zoomed(self, factor: float, anchor: tuple[float, float] | None = None) -> Viewport:
        """Zoom by ``factor`` keeping the point under ``anchor`` (a cell) still."""
        zoom = max(MIN_ZOOM, min(MAX_ZOOM, self.zoom * factor))
        if anchor is None:
            return replace(self, zoom=zoom).normalised()
        ax, ay = anchor[0] * 2 + 1, anchor[1] * 4 + 2
        ox, oy = self.origin
        wx, wy = ox + ax / self.scale, oy + ay / self.scale
        scale = self.scale * zoom / self.zoom
        cx = wx - (ax - self.dots_wide / 2) / scale
        cy = wy - (ay - self.dots_high / 2) / scale
        view = replace(self, zoom=zoom, center_lat=latitude(cy), center_lng=longitude(cx))
        return view.normalised()

    def zoom_for_km_per_cell(self, km: float, lat: float) -> float:
        """The zoom at which one cell is ``km`` across at latitude ``lat``."""
        base = self.scale / self.zoom
        return EARTH_CIRCUMFERENCE_KM * math.cos(math.radians(lat)) * 2 / (base * km)

    def fitted(
        self,
        points: Iterable[tuple[float, float]],
        margin: tuple[int, int] = (3, 1),
        min_km_per_cell: float = FIT_MIN_KM_PER_CELL,
    ) -> Viewport:
        """A view centred on ``points`` (lat, lng) and zoomed in as far as shows them all.

        The closest view that holds every point also spreads them furthest
        apart, so markers overlap least. ``margin`` is (across, down) cells
        kept free on each side: across leaves room for a marker's label to the
        right of its point, down only a row, since a short map has few.
        A single point (or points very close together) zooms no closer than
        ``min_km_per_cell``.
        """
        pts = [(world_x(lng), world_y(lat)) for lat, lng in points]
        if not pts:
            return self
        xs = sorted(x for x, _ in pts)
        # Choose the seam in the widest empty band of longitude, so a set of
        # points on both sides of the antimeridian is framed the short way.
        gaps = [(xs[0] + 1 - xs[-1], 0)]
        gaps += [(xs[i] - xs[i - 1], i) for i in range(1, len(xs))]
        _, start = max(gaps)
        unwrapped = [x + (1 if i < start else 0) for i, x in enumerate(xs)]
        min_x, max_x = min(unwrapped), max(unwrapped)
        ys = [y for _, y in pts]
        span_x, span_y = max_x - min_x, max(ys) - min(ys)
        # Room between the outermost points: they sit in a cell each, so one
        # cell less than the width inside the margins.
        room_x = max(self.dots_wide - 2 * (2 * margin[0] + 1), 2)
        room_y = max(self.dots_high - 4 * (2 * margin[1] + 1), 4)
        base = self.scale / self.zoom
        middle_lat = latitude((max(ys) + min(ys)) / 2)
        zoom = self.zoom_for_km_per_cell(min_km_per_cell, middle_lat)
        if span_x > 0:
            zoom = min(zoom, room_x / (span_x * base))
        if span_y > 0:
            zoom = min(zoom, room_y / (span_y * base))
        view = replace(
            self,
            zoom=zoom,
            center_lat=middle_lat,
            center_lng=longitude((min_x + max_x) / 2),
        )
        return view.normalised()
