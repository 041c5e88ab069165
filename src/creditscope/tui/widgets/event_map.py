"""EventMap: a Braille world map with numbered venue markers and a search point.

Usage (the Events screen owns the data; the map only shows it and reports clicks)::

    event_map = EventMap(id="map")
    event_map.markers = [MapMarker(1, 48.86, 2.35, "Le Zénith"), ...]
    event_map.search_point = (48.85, 2.35)
    event_map.selected = 1
    event_map.fit([(m.lat, m.lng) for m in event_map.markers] + [event_map.search_point])

    @on(EventMap.MarkerSelected)      # a marker was clicked: select its feed row
    @on(EventMap.PointPicked)         # a click elsewhere, or Enter: search there

Keys: ``+``/``=`` zoom in, ``-`` zoom out, arrows pan, Enter picks the centre,
``0``/Home resets to the world. Mouse: the wheel zooms around the pointer,
drag pans, click picks a marker or a point.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.reactive import reactive
from textual.strip import Strip
from textual.widget import Widget

from creditscope.worldmap.projection import MAX_ZOOM, MIN_ZOOM, Viewport
from creditscope.worldmap.raster import BRAILLE_GLYPHS, map_layers
from creditscope.worldmap.scale import scale_bar

WORLD_CENTER = (35.0, 0.0)
ZOOM_STEP = 2.0
WHEEL_STEP = 1.5
PAN_FRACTION = 0.25

# Kinds of cell in a composed frame; each maps to one component class.
LAND, BORDER, OCEAN, MARKER, SELECTED, CROSSHAIR, RETICLE, CAPTION = range(8)
SOLID_LAND, BORDER_ON_LAND = 8, 9


@dataclass(frozen=True, slots=True)
class MapMarker:
    """A venue on the map, drawn as its number (the feed row's number)."""

    number: int
    lat: float
    lng: float
    label: str = ""


class EventMap(Widget, can_focus=True):
    """A zoomable, pannable world map of events around a search point."""

    DEFAULT_CSS = """
    EventMap {
        height: 1fr;
        min-height: 8;
        background: $background;
    }
    EventMap > .event-map--ocean { background: $background; }
    EventMap > .event-map--land { color: $success 70%; background: $success 10%; }
    EventMap > .event-map--border { color: $success 60%; }
    EventMap > .event-map--marker {
        color: auto 90%;
        background: $warning;
        text-style: bold;
    }
    EventMap > .event-map--selected {
        color: auto 90%;
        background: $foreground;
        text-style: bold;
    }
    EventMap > .event-map--crosshair { color: $error; text-style: bold; }
    EventMap > .event-map--reticle { color: $foreground 70%; }
    EventMap > .event-map--caption { color: $foreground 60%; background: $background 70%; }
    """

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "event-map--land",
        "event-map--border",
        "event-map--ocean",
        "event-map--marker",
        "event-map--selected",
        "event-map--crosshair",
        "event-map--reticle",
        "event-map--caption",
    }
    _KIND_CLASSES = (
        "event-map--land",
        "event-map--border",
        "event-map--ocean",
        "event-map--marker",
        "event-map--selected",
        "event-map--crosshair",
        "event-map--reticle",
        "event-map--caption",
    )

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("plus,equals_sign", "zoom_in", "Zoom in", id="map.zoom_in"),
        Binding("minus", "zoom_out", "Zoom out", id="map.zoom_out"),
        Binding("left", "pan(-1, 0)", "Pan", show=False, id="map.pan_left"),
        Binding("right", "pan(1, 0)", "Pan", show=False, id="map.pan_right"),
        Binding("up", "pan(0, -1)", "Pan", show=False, id="map.pan_up"),
        Binding("down", "pan(0, 1)", "Pan", show=False, id="map.pan_down"),
        Binding("enter", "pick_center", "Search here", id="map.pick"),
        Binding("0,home", "reset", "World", id="map.reset"),
    ]

    center: reactive[tuple[float, float]] = reactive(WORLD_CENTER)
    """The (lat, lng) in the middle of the map."""
    zoom: reactive[float] = reactive(MIN_ZOOM)
    """1 shows the whole world; each doubling halves the distance across."""
    search_point: reactive[tuple[float, float] | None] = reactive(None)
    """The (lat, lng) the events were searched around, drawn as a crosshair."""
    markers: reactive[list[MapMarker]] = reactive(list)
    """The venues to draw, numbered like the feed rows."""
    selected: reactive[int | None] = reactive(None)
    """The number of the highlighted marker, if any."""

    class MarkerSelected(Message):
        """A marker was clicked."""

        def __init__(self, event_map: EventMap, number: int) -> None:
            super().__init__()
            self.event_map = event_map
            self.number = number

        @property
        def control(self) -> EventMap:
            """The map that was clicked."""
            return self.event_map

    class PointPicked(Message):
        """A point was chosen (click away from markers, or Enter at the centre)."""

        def __init__(self, event_map: EventMap, lat: float, lng: float) -> None:
            super().__init__()
            self.event_map = event_map
            self.lat = lat
            self.lng = lng

        @property
        def control(self) -> EventMap:
            """The map the point was picked on."""
            return self.event_map

    def __init__(
        self,
        *,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
        disabled: bool = False,
    ) -> None:
        super().__init__(name=name, id=id, classes=classes, disabled=disabled)
        self._frame_key: tuple[object, ...] | None = None
        self._frame: list[Strip] = []
        self._drag_from: tuple[float, float] | None = None
        self._dragged = False

    # -- geometry ---------------------------------------------------------------------

    @property
    def viewport(self) -> Viewport:
        """The current view as a :class:`Viewport` (size, centre and zoom)."""
        lat, lng = self.center
        return Viewport(self.size.width, self.size.height, lat, lng, self.zoom)

    def cell_to_latlng(self, x: float, y: float) -> tuple[float, float]:
        """(lat, lng) at the centre of the widget cell (x, y)."""
        return self.viewport.cell_to_latlng(x, y)

    def latlng_to_cell(self, lat: float, lng: float) -> tuple[int, int] | None:
        """The widget cell showing (lat, lng), or None when it is off screen."""
        return self.viewport.latlng_to_cell(lat, lng)

    def marker_at(self, x: int, y: int) -> MapMarker | None:
        """The marker drawn at cell (x, y), the selected one first."""
        hit: MapMarker | None = None
        for marker, (mx, my), width in self._placed_markers(self.viewport):
            if my == y and mx <= x < mx + width:
                hit = marker
        return hit

    # -- public actions ---------------------------------------------------------------

    def fit(self, points: list[tuple[float, float]]) -> None:
        """Centre and zoom so every (lat, lng) in ``points`` is on screen."""
        if not points:
            return
        view = self.viewport.fitted(points)
        self.zoom = view.zoom
        self.center = (view.center_lat, view.center_lng)

    def action_zoom_in(self) -> None:
        """Zoom in around the centre."""
        self._apply(self.viewport.zoomed(ZOOM_STEP))

    def action_zoom_out(self) -> None:
        """Zoom out around the centre."""
        self._apply(self.viewport.zoomed(1 / ZOOM_STEP))

    def action_pan(self, dx: int, dy: int) -> None:
        """Move the view a quarter of its size east/west (dx) or south/north (dy)."""
        view = self.viewport
        self._apply(view.panned(dx * view.width * PAN_FRACTION, dy * view.height * PAN_FRACTION))

    def action_pick_center(self) -> None:
        """Set the search point to the centre and report it."""
        lat, lng = self.center
        self.search_point = (lat, lng)
        self.post_message(self.PointPicked(self, lat, lng))

    def action_reset(self) -> None:
        """Back to the whole world."""
        self.zoom = MIN_ZOOM
        self.center = WORLD_CENTER

    def _apply(self, view: Viewport) -> None:
        self.zoom = view.zoom
        self.center = (view.center_lat, view.center_lng)

    # -- reactive plumbing ------------------------------------------------------------

    def validate_zoom(self, zoom: float) -> float:
        """Keep the zoom between the whole world and street level."""
        return max(MIN_ZOOM, min(MAX_ZOOM, zoom))

    def validate_center(self, center: tuple[float, float]) -> tuple[float, float]:
        """Wrap longitude and keep the poles from scrolling into view."""
        lat, lng = center
        view = Viewport(self.size.width, self.size.height, lat, lng, self.zoom)
        if view.width and view.height:
            view = view.normalised()
        else:
            view = Viewport(1, 1, max(-85.0, min(85.0, lat)), lng, self.zoom)
        return (view.center_lat, view.center_lng)

    def watch_zoom(self) -> None:
        # Zooming out near a pole may need the centre pulled back onto the map.
        self.center = self.center

    def on_resize(self) -> None:
        """Re-check the centre for the new size."""
        self.center = self.center

    def notify_style_update(self) -> None:
        """Theme or CSS changed: forget the composed frame."""
        self._frame_key = None
        super().notify_style_update()

    def on_focus(self) -> None:
        """Show the centre reticle."""
        self.refresh()

    def on_blur(self) -> None:
        """Hide the centre reticle."""
        self.refresh()

    # -- mouse ------------------------------------------------------------------------

    def on_mouse_scroll_up(self, event: events.MouseScrollUp) -> None:
        """Wheel up: zoom in around the pointer."""
        event.stop()
        event.prevent_default()
        self._apply(self.viewport.zoomed(WHEEL_STEP, (event.x, event.y)))

    def on_mouse_scroll_down(self, event: events.MouseScrollDown) -> None:
        """Wheel down: zoom out around the pointer."""
        event.stop()
        event.prevent_default()
        self._apply(self.viewport.zoomed(1 / WHEEL_STEP, (event.x, event.y)))

    def on_mouse_down(self, event: events.MouseDown) -> None:
        """Start a possible drag."""
        if event.button == 1:
            self._drag_from = (event.screen_x, event.screen_y)
            self._dragged = False
            self.capture_mouse()

    def on_mouse_move(self, event: events.MouseMove) -> None:
        """Drag pans: the land under the pointer follows it."""
        if self._drag_from is None:
            return
        fx, fy = self._drag_from
        dx, dy = event.screen_x - fx, event.screen_y - fy
        if dx or dy:
            self._dragged = True
            self._drag_from = (event.screen_x, event.screen_y)
            self._apply(self.viewport.panned(-dx, -dy))

    def on_mouse_up(self, event: events.MouseUp) -> None:
        """End a drag."""
        if self._drag_from is not None:
            self._drag_from = None
            self.release_mouse()

    def on_click(self, event: events.Click) -> None:
        """Click a marker to select it, anywhere else to pick that point."""
        if self._dragged:
            self._dragged = False
            return
        marker = self.marker_at(event.x, event.y)
        if marker is not None:
            self.post_message(self.MarkerSelected(self, marker.number))
            return
        lat, lng = self.cell_to_latlng(event.x, event.y)
        self.search_point = (lat, lng)
        self.post_message(self.PointPicked(self, lat, lng))

    # -- drawing ----------------------------------------------------------------------

    def _placed_markers(self, view: Viewport) -> list[tuple[MapMarker, tuple[int, int], int]]:
        """Markers on screen with their cell and width, in drawing order (selected last)."""
        placed = []
        ordered = sorted(self.markers, key=lambda m: (m.number == self.selected, m.number))
        for marker in ordered:
            cell = view.latlng_to_cell(marker.lat, marker.lng)
            if cell is None:
                continue
            text = str(marker.number)
            # Keep two-digit numbers inside the right edge.
            x = min(cell[0], view.width - len(text))
            placed.append((marker, (x, cell[1]), len(text)))
        return placed

    def _overlay(self, view: Viewport) -> dict[tuple[int, int], tuple[str, int]]:
        """Cells drawn on top of the land: captions, crosshair, reticle, markers."""
        cells: dict[tuple[int, int], tuple[str, int]] = {}

        def put(x: int, y: int, text: str, kind: int) -> None:
            for offset, char in enumerate(text):
                if 0 <= x + offset < view.width and 0 <= y < view.height:
                    cells[(x + offset, y)] = (char, kind)

        bottom = view.height - 1
        lat, lng = self.center
        north_south = "N" if lat >= 0 else "S"
        east_west = "E" if lng >= 0 else "W"
        caption = f" {abs(lat):.2f}°{north_south} {abs(lng):.2f}°{east_west} ×{self.zoom:g} "
        put(view.width - len(caption), bottom, caption, CAPTION)
        bar = scale_bar(view.km_per_cell, max_cells=max(3, min(16, view.width // 4)))
        if bar is not None:
            put(1, bottom, f" {bar.text} ", CAPTION)
        if self.has_focus:
            put(view.width // 2, view.height // 2, "┼", RETICLE)
        if self.search_point is not None:
            cell = view.latlng_to_cell(*self.search_point)
            if cell is not None:
                x, y = cell
                put(x - 1, y, "━╋━", CROSSHAIR)
                put(x, y - 1, "┃", CROSSHAIR)
                put(x, y + 1, "┃", CROSSHAIR)
        for marker, (x, y), _ in self._placed_markers(view):
            put(x, y, str(marker.number), SELECTED if marker.number == self.selected else MARKER)
        return cells

    def _styles(self) -> list[Style]:
        """One Rich style per kind of cell, plus the two inland variants."""
        styles = [self.get_component_rich_style(name) for name in self._KIND_CLASSES]
        land, border, ocean = styles[LAND], styles[BORDER], styles[OCEAN]
        # The land component's background tints whole land cells only; coast
        # cells keep the ocean behind their dots so coastlines stay crisp.
        styles[LAND] = Style(color=land.color, bgcolor=ocean.bgcolor)
        styles[BORDER] = Style(color=border.color, bgcolor=ocean.bgcolor)
        styles.append(Style(color=land.color, bgcolor=land.bgcolor))
        styles.append(Style(color=border.color, bgcolor=land.bgcolor))
        return styles

    def _compose_frame(self, view: Viewport) -> list[Strip]:
        """Turn the cached land layers plus the overlay into one Strip per row."""
        layers = map_layers(view)
        overlay = self._overlay(view)
        styles = self._styles()
        glyphs = BRAILLE_GLYPHS
        strips: list[Strip] = []
        for y in range(view.height):
            land_row, border_row = layers.land[y], layers.borders[y]
            segments: list[Segment] = []
            run: list[str] = []
            run_kind = -1
            for x in range(view.width):
                over = overlay.get((x, y))
                if over is not None:
                    char, kind = over
                else:
                    land, border = land_row[x], border_row[x]
                    if border and land & ~border:
                        # A border is carved out of the land dots: a thin dark line.
                        kind = BORDER_ON_LAND if land == 0xFF else BORDER
                        char = glyphs[land & ~border]
                    elif land == 0xFF:
                        char, kind = glyphs[land], SOLID_LAND
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

    def render_line(self, y: int) -> Strip:
        """One row of the map (frames are composed once per state, then sliced)."""
        view = self.viewport
        key = (
            view,
            tuple(self.markers),
            self.selected,
            self.search_point,
            self.has_focus,
        )
        if key != self._frame_key:
            self._frame = self._compose_frame(view) if view.width and view.height else []
            self._frame_key = key
        if 0 <= y < len(self._frame):
            return self._frame[y]
        return Strip.blank(self.size.width, self.rich_style)
