"""Compose one EventMap frame: cached land layers plus captions, crosshair and markers.

Everything here is a pure function of what the map shows (view, markers,
selection, search point, focus) and the styles the widget resolved from its
component classes, so a frame can be built and checked without an app.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rich.segment import Segment
from rich.style import Style
from textual.strip import Strip

from creditscope.worldmap.markers import MapMarker, PlacedMarker, layout_markers
from creditscope.worldmap.projection import Viewport
from creditscope.worldmap.raster import BRAILLE_GLYPHS, MASK_KM_PER_CELL, map_layers
from creditscope.worldmap.scale import scale_bar

# Kinds of cell in a composed frame; the first ones map to one component class each.
LAND, BORDER, OCEAN, MARKER, SELECTED, CLUSTER, CROSSHAIR, RETICLE, CAPTION, CITY_LAND = range(10)
SOLID_LAND, BORDER_ON_LAND = 10, 11
KIND_CLASSES = (
    "event-map--land",
    "event-map--border",
    "event-map--ocean",
    "event-map--marker",
    "event-map--selected",
    "event-map--cluster",
    "event-map--crosshair",
    "event-map--reticle",
    "event-map--caption",
    "event-map--city-land",
)


@dataclass(frozen=True, slots=True)
class MapState:
    """Everything besides the land that a frame depends on (also the frame cache key)."""

    view: Viewport
    markers: tuple[MapMarker, ...]
    selected: int | None
    search_point: tuple[float, float] | None
    focused: bool


def kind_styles(component_style: Callable[[str], Style]) -> list[Style]:
    """One Rich style per kind of cell, given the widget's component-class lookup."""
    styles = [component_style(name) for name in KIND_CLASSES]
    land, border, ocean = styles[LAND], styles[BORDER], styles[OCEAN]
    # The land component's background tints whole land cells only; coast
    # cells keep the ocean behind their dots so coastlines stay crisp.
    styles[LAND] = Style(color=land.color, bgcolor=ocean.bgcolor)
    styles[BORDER] = Style(color=border.color, bgcolor=ocean.bgcolor)
    styles.append(Style(color=land.color, bgcolor=land.bgcolor))
    styles.append(Style(color=border.color, bgcolor=land.bgcolor))
    return styles


def solid_land_kind(view: Viewport) -> int:
    """How a cell of land only is drawn: muted at city scale, so markers stand out."""
    return CITY_LAND if view.km_per_cell < MASK_KM_PER_CELL else SOLID_LAND


def caption_text(view: Viewport, room: int | None = None) -> str:
    """The centre and zoom, as shown bottom right: `` 48.86°N 2.35°E ×300 ``; in less than
    ``room`` cells the zoom alone, or nothing (the scale bar beside it stays whole)."""
    north_south = "N" if view.center_lat >= 0 else "S"
    east_west = "E" if view.center_lng >= 0 else "W"
    lat, lng = abs(view.center_lat), abs(view.center_lng)
    # A fitted zoom is fractional: whole numbers from 10 up, two digits below.
    zoom = f"{view.zoom:.0f}" if view.zoom >= 10 else f"{view.zoom:.2g}"
    whole = f" {lat:.2f}°{north_south} {lng:.2f}°{east_west} ×{zoom} "
    fitting = [text for text in (whole, f" ×{zoom} ") if room is None or len(text) <= room]
    return fitting[0] if fitting else ""


def overlay(
    state: MapState, labels: Sequence[PlacedMarker]
) -> dict[tuple[int, int], tuple[str, int]]:
    """Cells drawn on top of the land: captions, reticle, crosshair, then markers."""
    view = state.view
    cells: dict[tuple[int, int], tuple[str, int]] = {}

    def put(x: int, y: int, text: str, kind: int) -> None:
        for offset, char in enumerate(text):
            if 0 <= x + offset < view.width and 0 <= y < view.height:
                cells[(x + offset, y)] = (char, kind)

    bottom = view.height - 1
    bar = scale_bar(view.km_per_cell, max_cells=max(3, min(16, view.width // 4)))
    scale = f" {bar.text} " if bar is not None else ""
    if scale:
        put(1, bottom, scale, CAPTION)
    # The centre and zoom in what the scale leaves (at 80x24 it was drawn over the scale).
    caption = caption_text(view, room=view.width - len(scale) - 2)
    put(view.width - len(caption), bottom, caption, CAPTION)
    if state.focused:
        put(view.width // 2, view.height // 2, "┼", RETICLE)
    if state.search_point is not None:
        cell = view.latlng_to_cell(*state.search_point)
        if cell is not None:
            x, y = cell
            put(x - 1, y, "━╋━", CROSSHAIR)
            put(x, y - 1, "┃", CROSSHAIR)
            put(x, y + 1, "┃", CROSSHAIR)
    for label in labels:
        number, count = label.number_text, label.count_text
        put(label.x, label.y, number, SELECTED if label.selected else MARKER)
        put(label.x + len(number) + (1 if number else 0), label.y, count, CLUSTER)
    return cells


def compose_frame(state: MapState, styles: Sequence[Style]) -> list[Strip]:
    """Turn the cached land layers plus the overlay into one Strip per row."""
    view = state.view
    layers = map_layers(view)
    cells = overlay(state, layout_markers(state.markers, state.selected, view))
    glyphs = BRAILLE_GLYPHS
    solid = solid_land_kind(view)
    strips: list[Strip] = []
    for y in range(view.height):
        land_row, border_row = layers.land[y], layers.borders[y]
        segments: list[Segment] = []
        run: list[str] = []
        run_kind = -1
        for x in range(view.width):
            over = cells.get((x, y))
            if over is not None:
                char, kind = over
            else:
                land, border = land_row[x], border_row[x]
                if border and land & ~border:
                    # A border is carved out of the land dots: a thin dark line.
                    kind = BORDER_ON_LAND if land == 0xFF else BORDER
                    char = glyphs[land & ~border]
                elif land == 0xFF:
                    char, kind = glyphs[land], solid
                elif land:
                    char, kind = glyphs[land], LAND
                else:
                    char, kind = " ", OCEAN
            if kind != run_kind and run:
                segments.append(Segment("".join(run), styles[run_kind]))
                run = []
            run_kind = kind
            run.append(char)
        if run:
            segments.append(Segment("".join(run), styles[run_kind]))
        strips.append(Strip(segments, view.width))
    return strips
