"""EventMap in a tiny harness app: keys, mouse, messages, drawing, snapshot."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from textual import events
from textual.app import App, ComposeResult
from textual.message import Message

from creditscope.tui.widgets.event_map import WORLD_CENTER, EventMap, MapMarker

SIZE = (120, 40)
MARKERS = [
    MapMarker(1, 48.86, 2.35, "Paris"),
    MapMarker(2, 40.71, -74.0, "New York"),
    MapMarker(3, 35.68, 139.69, "Tokyo"),
    MapMarker(4, -33.87, 151.21, "Sydney"),
    MapMarker(12, -23.55, -46.63, "São Paulo"),
]


class MapApp(App[None]):
    """Mounts only an EventMap and records the messages it posts."""

    def __init__(self, markers: list[MapMarker] | None = None) -> None:
        super().__init__()
        self.initial_markers = markers or []
        self.messages: list[Message] = []

    def compose(self) -> ComposeResult:
        event_map = EventMap()
        event_map.markers = list(self.initial_markers)
        yield event_map

    def on_event_map_marker_selected(self, message: EventMap.MarkerSelected) -> None:
        self.messages.append(message)

    def on_event_map_point_picked(self, message: EventMap.PointPicked) -> None:
        self.messages.append(message)


def row_text(event_map: EventMap, y: int) -> str:
    return event_map.render_line(y).text


def style_at(event_map: EventMap, x: int, y: int) -> object:
    """The style cell (x, y) of the map is drawn in."""
    position = 0
    for segment in event_map.render_line(y):
        if position <= x < position + len(segment.text):
            return segment.style
        position += len(segment.text)
    raise AssertionError(f"cell {x},{y} not drawn")


async def test_keys_zoom_pan_and_reset() -> None:
    app = MapApp()
    async with app.run_test(size=SIZE) as pilot:
        event_map = app.query_one(EventMap)
        assert event_map.has_focus
        await pilot.press("plus")
        assert event_map.zoom == 2
        await pilot.press("equals_sign", "equals_sign")
        assert event_map.zoom == 8
        await pilot.press("minus")
        assert event_map.zoom == 4
        lat, lng = event_map.center
        await pilot.press("right")
        assert event_map.center[1] > lng
        await pilot.press("up")
        assert event_map.center[0] > lat
        await pilot.press("0")
        assert event_map.zoom == 1
        assert event_map.center == pytest.approx(WORLD_CENTER)


async def test_wheel_zooms_around_the_pointer() -> None:
    app = MapApp()
    async with app.run_test(size=SIZE) as pilot:
        event_map = app.query_one(EventMap)
        under_pointer = event_map.cell_to_latlng(30, 12)
        event_map.post_message(
            events.MouseScrollUp(event_map, 30, 12, 0, 0, 0, False, False, False)
        )
        await pilot.pause()
        assert event_map.zoom == pytest.approx(1.5)
        assert event_map.cell_to_latlng(30, 12) == pytest.approx(under_pointer, abs=1e-6)
        event_map.post_message(
            events.MouseScrollDown(event_map, 30, 12, 0, 0, 0, False, False, False)
        )
        await pilot.pause()
        assert event_map.zoom == pytest.approx(1.0)


async def test_drag_pans_the_map_and_does_not_pick_a_point() -> None:
    app = MapApp()
    async with app.run_test(size=SIZE) as pilot:
        event_map = app.query_one(EventMap)
        event_map.zoom = 4
        grabbed = event_map.cell_to_latlng(60, 20)
        await pilot.mouse_down(event_map, offset=(60, 20))
        await pilot.hover(event_map, offset=(50, 20))
        await pilot.mouse_up(event_map, offset=(50, 20))
        # The land that was under the pointer moved with it.
        assert event_map.cell_to_latlng(50, 20) == pytest.approx(grabbed, abs=1e-6)
        assert app.messages == []


async def test_click_on_a_marker_selects_it() -> None:
    app = MapApp(MARKERS)
    async with app.run_test(size=SIZE) as pilot:
        event_map = app.query_one(EventMap)
        cell = event_map.latlng_to_cell(40.71, -74.0)
        assert cell is not None
        await pilot.click(event_map, offset=cell)
        assert len(app.messages) == 1
        message = app.messages[0]
        assert isinstance(message, EventMap.MarkerSelected)
        assert message.number == 2
        assert message.control is event_map


async def test_click_on_the_ocean_picks_that_point() -> None:
    app = MapApp(MARKERS)
    async with app.run_test(size=SIZE) as pilot:
        event_map = app.query_one(EventMap)
        cell = event_map.latlng_to_cell(30.0, -40.0)
        assert cell is not None
        await pilot.click(event_map, offset=cell)
        (message,) = app.messages
        assert isinstance(message, EventMap.PointPicked)
        # One cell at world view is 3 degrees wide.
        assert message.lat == pytest.approx(30.0, abs=3)
        assert message.lng == pytest.approx(-40.0, abs=3)
        assert event_map.search_point == (message.lat, message.lng)
        await pilot.pause()
        assert "╋" in row_text(event_map, cell[1])


async def test_enter_picks_the_centre() -> None:
    app = MapApp()
    async with app.run_test(size=SIZE) as pilot:
        event_map = app.query_one(EventMap)
        event_map.zoom = 64
        event_map.center = (45.76, 4.84)
        await pilot.press("enter")
        (message,) = app.messages
        assert isinstance(message, EventMap.PointPicked)
        assert (message.lat, message.lng) == pytest.approx((45.76, 4.84))


async def test_selected_marker_is_drawn_in_the_selected_style() -> None:
    app = MapApp(MARKERS)
    async with app.run_test(size=SIZE) as pilot:
        event_map = app.query_one(EventMap)
        x, y = event_map.latlng_to_cell(35.68, 139.69) or (0, 0)

        assert row_text(event_map, y)[x] == "3"
        marker = event_map.get_component_rich_style("event-map--marker")
        assert style_at(event_map, x, y) == marker
        event_map.selected = 3
        await pilot.pause()
        selected = event_map.get_component_rich_style("event-map--selected")
        assert style_at(event_map, x, y) == selected
        assert selected != event_map.get_component_rich_style("event-map--marker")


async def test_markers_close_together_read_as_one_count_and_hold_the_selection() -> None:
    # Three events at one venue and a fourth next door: no run of digits like "1234",
    # and no number glued to a badge like "1+3" (read as a sum, or as "1" and "+3").
    close = [
        MapMarker(1, 48.86, 2.35, "a"),
        MapMarker(2, 48.86, 2.35, "a"),
        MapMarker(3, 48.86, 2.35, "a"),
        MapMarker(4, 48.87, 2.36, "b"),
    ]
    app = MapApp(close)
    async with app.run_test(size=SIZE) as pilot:
        event_map = app.query_one(EventMap)
        x, y = event_map.latlng_to_cell(48.86, 2.35) or (0, 0)
        assert row_text(event_map, y)[x : x + 3] == "(4)"
        assert not row_text(event_map, y)[x + 3].isdigit()
        assert event_map.marker_at(x + 2, y) == close[0]
        cluster = event_map.get_component_rich_style("event-map--cluster")
        assert style_at(event_map, x, y) == cluster
        event_map.selected = 3
        await pilot.pause()
        # The selected event's number whole, apart from the count of the others.
        assert row_text(event_map, y)[x] == "3"
        assert row_text(event_map, y)[x + 2 : x + 5] == "(3)"
        assert event_map.marker_at(x, y) == close[2]
        selected = event_map.get_component_rich_style("event-map--selected")
        assert style_at(event_map, x, y) == selected
        assert style_at(event_map, x + 2, y) == cluster


async def test_clicking_a_cluster_steps_through_its_markers() -> None:
    same_venue = [MapMarker(5, 41.39, 2.17, "a"), MapMarker(7, 41.39, 2.17, "a")]
    app = MapApp(same_venue)
    async with app.run_test(size=SIZE) as pilot:
        event_map = app.query_one(EventMap)
        cell = event_map.latlng_to_cell(41.39, 2.17)
        assert cell is not None
        await pilot.click(event_map, offset=cell)
        event_map.selected = app.messages[-1].number  # what the Events screen does
        await pilot.pause()
        await pilot.click(event_map, offset=cell)
        event_map.selected = app.messages[-1].number
        await pilot.pause()
        await pilot.click(event_map, offset=cell)
        picked = [m.number for m in app.messages if isinstance(m, EventMap.MarkerSelected)]
        assert picked == [5, 7, 5]


async def test_neighbouring_markers_never_run_together() -> None:
    # A city's worth of venues at world zoom: every number is readable on its own.
    venues = [MapMarker(n, 38.7 + n * 0.01, -9.1 + n * 0.01) for n in range(1, 21)]
    app = MapApp(venues)
    async with app.run_test(size=(56, 12)) as pilot:
        event_map = app.query_one(EventMap)
        event_map.fit([(m.lat, m.lng) for m in venues])
        await pilot.pause()
        for zoom in (1.0, 8.0, event_map.zoom):
            event_map.zoom = zoom
            await pilot.pause()
            alone: list[int] = []
            clustered = 0
            for y in range(11):  # the bottom row is the caption
                # Each run is one label: a marker's number, or a cluster's "(N)".
                for run in re.findall(r"[0-9()+]+", row_text(event_map, y)):
                    assert re.fullmatch(r"\d+|\(\d+\)", run), row_text(event_map, y)
                    if run.startswith("("):
                        clustered += int(run.strip("()"))
                    else:
                        alone.append(int(run))
            assert len(alone) + clustered == 20 and set(alone) <= set(range(1, 21))


async def test_the_whole_world_is_shown_once_on_a_short_wide_map() -> None:
    app = MapApp()
    async with app.run_test(size=(56, 12)) as pilot:
        event_map = app.query_one(EventMap)
        await pilot.pause()
        view = event_map.viewport
        # 360 degrees across the width: a step of a full map width comes back
        # to the same longitude, and the seam is at the edges.
        west = event_map.cell_to_latlng(-0.5, 6)[1]
        east = event_map.cell_to_latlng(55.5, 6)[1]
        assert west == pytest.approx(-180.0, abs=0.01)
        assert east == pytest.approx(180.0, abs=0.01) or east == pytest.approx(-180.0, abs=0.01)
        for lat, lng in [(48.86, 2.35), (40.71, -74.0), (-23.55, -46.63), (35.68, 139.69)]:
            assert view.latlng_to_cell(lat, lng) is not None


async def test_fit_zooms_to_half_a_km_per_cell_at_most() -> None:
    app = MapApp()
    async with app.run_test(size=(56, 12)) as pilot:
        event_map = app.query_one(EventMap)
        event_map.fit([(38.7, -9.14), (38.7005, -9.1405)])
        await pilot.pause()
        assert event_map.viewport.km_per_cell == pytest.approx(0.5, rel=0.01)


async def test_scale_bar_appears_at_city_scale_only() -> None:
    app = MapApp()
    async with app.run_test(size=SIZE) as pilot:
        event_map = app.query_one(EventMap)
        bottom = SIZE[1] - 1
        assert " km" not in row_text(event_map, bottom)
        event_map.zoom = 300
        event_map.center = (48.86, 2.35)
        await pilot.pause()
        text = row_text(event_map, bottom)
        assert "├" in text and " km" in text
        assert "48.86°N 2.35°E" in text


async def test_fit_shows_all_markers_and_the_search_point() -> None:
    app = MapApp()
    async with app.run_test(size=SIZE) as pilot:
        event_map = app.query_one(EventMap)
        points = [(48.85, 2.35), (48.80, 2.20), (48.95, 2.55), (48.70, 2.40)]
        event_map.search_point = points[0]
        event_map.fit(points)
        await pilot.pause()
        assert event_map.zoom > 50
        assert all(event_map.latlng_to_cell(lat, lng) is not None for lat, lng in points)


def test_world_view_with_markers_snapshot(snap_compare: object, tmp_path: Path) -> None:
    app = MapApp(MARKERS)

    async def run_before(pilot: object) -> None:
        event_map = app.query_one(EventMap)
        event_map.search_point = (51.5, -0.12)
        event_map.selected = 3

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)  # type: ignore[operator]
