"""EventMap: a Braille world map with numbered venue markers and a search point.

Usage (the Events screen owns the data; the map only shows it and reports clicks)::

    event_map = EventMap(id="map")
    event_map.markers = [MapMarker(1, 48.86, 2.35, "Le Zénith"), ...]
    event_map.search_point = (48.85, 2.35)
    event_map.selected = 1
    event_map.fit([(m.lat, m.lng) for m in event_map.markers] + [event_map.search_point])

    @on(EventMap.MarkerSelected)      # a marker was clicked: select its feed row
    @on(EventMap.PointPicked)         # a click elsewhere, or Enter: a point to search

Keys: ``+``/``=`` zoom in, ``-`` zoom out, arrows pan, Enter picks the centre,
``0``/Home resets to the world. Mouse: the wheel zooms around the pointer,
drag pans, click picks a marker or a point. Markers whose numbers would touch
share one label with a badge (``4+2``); clicking it again steps through them.

Modules: this one holds the state, keys and messages; drawing is in
``event_map_draw``, mouse handling in ``event_map_mouse`` and marker layout in
:mod:`creditscope.worldmap.markers`.
"""

from __future__ import annotations

from typing import ClassVar

from textual.binding import Binding, BindingType
from textual.message import Message
from textual.reactive import reactive
from textual.strip import Strip

from creditscope.tui.widgets.event_map_draw import (
    KIND_CLASSES,
    MapState,
    compose_frame,
    kind_styles,
)
from creditscope.tui.widgets.event_map_mouse import MapMouse
from creditscope.worldmap.markers import MapMarker, PlacedMarker, layout_markers
from creditscope.worldmap.projection import MAX_ZOOM, MIN_ZOOM, Viewport

__all__ = ["WORLD_CENTER", "EventMap", "MapMarker"]

# Zoom 1 is cropped around this latitude on a short map: Europe, Africa,
# Asia and the Americas in view, the poles left out.
WORLD_CENTER = (25.0, 0.0)
ZOOM_STEP = 2.0
PAN_FRACTION = 0.25


class EventMap(MapMouse, can_focus=True):
    """A zoomable, pannable world map of events around a search point."""

    # Land derives from the theme's $text-success (light on dark themes, dark
    # on light ones), so it keeps its contrast in textual-light; borders are
    # carved out of the land dots and their cell drawn fainter. At city scale a
    # cell of land only is muted (city-land), so the markers stand out on it.
    DEFAULT_CSS = """
    EventMap {
        height: 1fr;
        min-height: 8;
        background: $background;
    }
    EventMap > .event-map--ocean { background: $background; }
    EventMap > .event-map--land { color: $text-success 85%; background: $success 15%; }
    EventMap > .event-map--border { color: $text-success 65%; }
    EventMap > .event-map--city-land { color: $text-success 35%; background: $success 10%; }
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
    EventMap > .event-map--cluster {
        color: auto 90%;
        background: $warning 60%;
    }
    EventMap > .event-map--crosshair { color: $error; text-style: bold; }
    EventMap > .event-map--reticle { color: $foreground 70%; }
    EventMap > .event-map--caption { color: $foreground 60%; background: $background 70%; }
    """

    COMPONENT_CLASSES: ClassVar[set[str]] = set(KIND_CLASSES)

    BINDING_GROUP_TITLE = "the map"  # help says where its keys work
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("plus,equals_sign", "zoom_in", "Zoom in", id="map.zoom_in"),
        Binding("minus", "zoom_out", "Zoom out", id="map.zoom_out"),
        Binding("left", "pan(-1, 0)", "Pan", show=False, id="map.pan_left"),
        Binding("right", "pan(1, 0)", "Pan", show=False, id="map.pan_right"),
        Binding("up", "pan(0, -1)", "Pan", show=False, id="map.pan_up"),
        Binding("down", "pan(0, 1)", "Pan", show=False, id="map.pan_down"),
        Binding("enter", "pick_center", "Pick point", id="map.pick"),
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
        self._frame_state: MapState | None = None
        self._frame: list[Strip] = []

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

    def label_at(self, x: int, y: int) -> PlacedMarker | None:
        """The marker label (a lone marker or a cluster) drawn over cell (x, y)."""
        labels = layout_markers(self.markers, self.selected, self.viewport)
        return next((label for label in labels if label.covers(x, y)), None)

    def marker_at(self, x: int, y: int) -> MapMarker | None:
        """The marker drawn at cell (x, y): a cluster's head (the selected or the lowest)."""
        label = self.label_at(x, y)
        return None if label is None else label.head

    # -- public actions ---------------------------------------------------------------

    def fit(self, points: list[tuple[float, float]]) -> None:
        """Centre and zoom in as far as keeps every (lat, lng) in ``points`` on screen."""
        if not points:
            return
        self.show_view(self.viewport.fitted(points))

    def show_markers(
        self, markers: list[MapMarker], selected: int | None, *, fit: bool
    ) -> None:
        """Show ``markers`` with ``selected`` highlighted; with ``fit``, frame them and the
        search point (just the point, without diving to street level, when none)."""
        self.markers = markers
        self.selected = selected
        if not fit:
            return
        if not markers:
            if self.search_point is not None:
                self.center = self.search_point
            return
        points = [(marker.lat, marker.lng) for marker in markers]
        if self.search_point is not None:
            points.append(self.search_point)
        self.fit(points)

    def action_zoom_in(self) -> None:
        """Zoom in around the centre."""
        self.show_view(self.viewport.zoomed(ZOOM_STEP))

    def action_zoom_out(self) -> None:
        """Zoom out around the centre."""
        self.show_view(self.viewport.zoomed(1 / ZOOM_STEP))

    def action_pan(self, dx: int, dy: int) -> None:
        """Move the view a quarter of its size east/west (dx) or south/north (dy)."""
        view = self.viewport
        self.show_view(view.panned(dx * view.width * PAN_FRACTION, dy * view.height * PAN_FRACTION))

    def action_pick_center(self) -> None:
        """Set the search point to the centre and report it (picking never searches)."""
        lat, lng = self.center
        self.search_point = (lat, lng)
        self.post_message(self.PointPicked(self, lat, lng))

    def action_reset(self) -> None:
        """Back to the whole world."""
        self.zoom = MIN_ZOOM
        self.center = WORLD_CENTER

    def show_view(self, view: Viewport) -> None:
        """Move to ``view``'s centre and zoom."""
        self.zoom = view.zoom
        self.center = (view.center_lat, view.center_lng)

    def cell_clicked(self, x: int, y: int) -> None:
        """A marker selects it (again on a cluster: its next marker); elsewhere picks the point.

        A marker is hit on its label or on the cell of its venue (a label may be
        drawn beside it). A cluster click selects rather than zooms: markers that
        share a venue never separate, however far in one zooms, and the wheel
        already zooms around the pointer. Picking a point only reports it: the
        screen shows what a search there costs, and searching is its own action.
        """
        label = self.label_at(x, y)
        if label is not None:
            self.post_message(self.MarkerSelected(self, label.after(self.selected).number))
            return
        venue = next((m for m in self.markers if self.latlng_to_cell(m.lat, m.lng) == (x, y)),
                     None)
        if venue is not None:
            self.post_message(self.MarkerSelected(self, venue.number))
            return
        lat, lng = self.cell_to_latlng(x, y)
        self.search_point = (lat, lng)
        self.post_message(self.PointPicked(self, lat, lng))

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
        self._frame_state = None
        super().notify_style_update()

    def on_focus(self) -> None:
        """Show the centre reticle."""
        self.refresh()

    def on_blur(self) -> None:
        """Hide the centre reticle."""
        self.refresh()

    # -- drawing ----------------------------------------------------------------------

    def render_line(self, y: int) -> Strip:
        """One row of the map (frames are composed once per state, then sliced)."""
        view = self.viewport
        state = MapState(
            view, tuple(self.markers), self.selected, self.search_point, self.has_focus
        )
        if state != self._frame_state:
            styles = kind_styles(self.get_component_rich_style)
            self._frame = compose_frame(state, styles) if view.width and view.height else []
            self._frame_state = state
        if 0 <= y < len(self._frame):
            return self._frame[y]
        return Strip.blank(self.size.width, self.rich_style)
