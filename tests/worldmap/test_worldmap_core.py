"""The map's data, projection, rasteriser and scale bar, without Textual."""

from __future__ import annotations

from importlib import resources

import pytest

from creditscope.worldmap.land import LandFileError, load_world, parse_world
from creditscope.worldmap.markers import MapMarker, layout_markers
from creditscope.worldmap.projection import Viewport
from creditscope.worldmap.raster import map_layers, rasterise
from creditscope.worldmap.scale import scale_bar

WORLD = Viewport(120, 40, 35.0, 0.0, 1.0).normalised()


def is_land(view: Viewport, lat: float, lng: float) -> bool:
    cell = view.latlng_to_cell(lat, lng)
    assert cell is not None, f"{lat},{lng} is off screen"
    x, y = cell
    return map_layers(view).land[y][x] != 0


def test_land_file_has_the_countries_of_the_world() -> None:
    world = load_world()
    assert len(world.countries) >= 170
    codes = {country.iso for country in world.countries}
    assert {"FR", "NO", "US", "BR", "AU", "JP", "ZA", "LS"} <= codes
    assert len(world.borders) > 100


def test_a_corrupt_land_file_is_refused() -> None:
    with pytest.raises(LandFileError):
        parse_world(b"not a map")
    good = resources.files("creditscope").joinpath("data", "land.bin").read_bytes()
    with pytest.raises(LandFileError):
        parse_world(good[:500])


@pytest.mark.parametrize(
    ("place", "lat", "lng", "land"),
    [
        ("Paris", 48.86, 2.35, True),
        ("Sahara", 23.0, 10.0, True),
        ("Brasilia", -15.8, -47.9, True),
        ("Central Australia", -25.0, 134.0, True),
        ("mid-Atlantic", 30.0, -40.0, False),
        ("Pacific", 0.0, -140.0, False),
        ("Indian Ocean", -20.0, 75.0, False),
    ],
)
def test_world_view_has_land_where_the_continents_are(
    place: str, lat: float, lng: float, land: bool
) -> None:
    assert is_land(WORLD, lat, lng) is land, place


def test_a_country_inside_another_is_still_filled() -> None:
    # Lesotho sits in a hole of South Africa: per-country even-odd keeps it land.
    view = Viewport(120, 40, -29.5, 28.2, 64).normalised()
    assert is_land(view, -29.5, 28.2)


def test_borders_are_drawn_between_countries_not_along_coasts() -> None:
    view = Viewport(120, 40, 47.0, 4.0, 16).normalised()
    layers = map_layers(view)
    # The French-Belgian border runs just north of Lille.
    x, y = view.latlng_to_cell(50.7, 3.2) or (0, 0)
    assert any(layers.borders[row][col] for row in (y - 1, y, y + 1) for col in range(x - 3, x + 4))
    # Open Atlantic coast of Brittany has no border dots.
    bx, by = view.latlng_to_cell(48.0, -4.6) or (0, 0)
    assert not any(layers.borders[by][col] for col in range(bx - 2, bx + 3))


def test_projection_round_trip_lands_in_the_same_cell() -> None:
    view = Viewport(120, 40, 48.0, 2.0, 20.0).normalised()
    for lat, lng in [(48.86, 2.35), (45.76, 4.84), (51.5, -0.12), (46.2, 6.14)]:
        cell = view.latlng_to_cell(lat, lng)
        assert cell is not None
        back = view.cell_to_latlng(*cell)
        assert view.latlng_to_cell(*back) == cell
        assert abs(back[0] - lat) < 0.2 and abs(back[1] - lng) < 0.2
    dot = view.latlng_to_dot(48.86, 2.35)
    assert view.dot_to_latlng(*dot) == pytest.approx((48.86, 2.35), abs=1e-9)


def test_normalised_view_wraps_longitude_and_keeps_poles_off_screen() -> None:
    view = Viewport(120, 40, 89.0, 190.0, 1.0).normalised()
    assert view.center_lng == pytest.approx(-170.0)
    top_lat, _ = view.dot_to_latlng(0, 0)
    assert top_lat == pytest.approx(85.05, abs=0.01)


def test_zoom_keeps_the_anchor_cell_on_the_same_place() -> None:
    view = Viewport(120, 40, 35.0, 0.0, 1.0).normalised()
    before = view.cell_to_latlng(30, 12)
    after = view.zoomed(2.0, (30, 12))
    assert after.zoom == 2.0
    assert after.cell_to_latlng(30, 12) == pytest.approx(before, abs=1e-6)


def test_fitted_view_shows_every_point_even_across_the_antimeridian() -> None:
    view = Viewport(120, 40)
    points = [(-18.1, 178.4), (-17.7, -179.9), (-13.8, -172.1)]  # Fiji, Samoa
    fitted = view.fitted(points)
    assert fitted.zoom > 8
    assert all(fitted.latlng_to_cell(lat, lng) is not None for lat, lng in points)


def test_scale_bar_only_at_city_scale() -> None:
    assert scale_bar(WORLD.km_per_cell) is None
    city = Viewport(120, 40, 48.86, 2.35, 300).normalised()
    bar = scale_bar(city.km_per_cell)
    assert bar is not None
    assert bar.text.startswith("├") and bar.text.endswith(bar.label)
    # The bar's length matches its label to within one cell.
    assert abs(bar.cells * city.km_per_cell - bar.km) <= city.km_per_cell
    assert scale_bar(0.02, 16).label.endswith(" m")  # type: ignore[union-attr]


def test_layers_are_cached_per_viewport() -> None:
    view = Viewport(120, 40, 10.0, 20.0, 3.0).normalised()
    assert map_layers(view) is map_layers(view)
    assert map_layers(view) == rasterise(view)


def test_a_short_wide_map_shows_the_world_once() -> None:
    # The Events screen's map: 360 degrees across exactly, cropped in latitude.
    events_map = Viewport(56, 12, 25.0, 0.0, 1.0).normalised()
    assert events_map.world_window is None
    assert events_map.cell_to_latlng(-0.5, 6)[1] == pytest.approx(-180.0)
    assert events_map.cell_to_latlng(55.5, 6)[1] == pytest.approx(180.0, abs=1e-6) or (
        events_map.cell_to_latlng(55.5, 6)[1] == pytest.approx(-180.0, abs=1e-6)
    )
    top, bottom = events_map.cell_to_latlng(0, -0.5)[0], events_map.cell_to_latlng(0, 11.5)[0]
    assert top >= 60 and bottom <= -45
    # Too wide to crop that far: one world between empty margins, never two.
    strip = Viewport(120, 14, 25.0, 0.0, 1.0).normalised()
    assert strip.world_window is not None
    left, right = strip.world_window
    assert right - left == pytest.approx(strip.scale)
    layers = map_layers(strip)
    margins = [row[col] for row in layers.land for col in range(int(left // 2))]
    margins += [row[col] for row in layers.land for col in range(int(right // 2) + 1, 120)]
    assert not any(margins)
    assert is_land(strip, 48.86, 2.35) and is_land(strip, -15.8, -47.9)


def test_borders_wait_until_countries_are_big_enough_to_show_them() -> None:
    assert not any(any(row) for row in map_layers(WORLD).borders)
    assert any(any(row) for row in map_layers(Viewport(120, 40, 47.0, 4.0, 4).normalised()).borders)


def test_touching_labels_merge_into_one_count() -> None:
    view = Viewport(120, 40, 38.72, -9.14, 600).normalised()
    x, y = view.latlng_to_cell(38.72, -9.14) or (0, 0)
    near = view.cell_to_latlng(x + 1, y)  # "1" then "2" right after it: "12"
    far = view.cell_to_latlng(x + 10, y)
    markers = [MapMarker(1, 38.72, -9.14), MapMarker(2, *near), MapMarker(3, *far)]
    labels = layout_markers(markers, None, view)
    assert sorted(label.text for label in labels) == ["(2)", "3"]  # never "1+1"
    # The cluster holding the selection is drawn last (over the crosshair), its number
    # whole and apart from the count of the others; a click steps through its markers.
    labels = layout_markers(markers, 2, view)
    assert labels[-1].text == "2 (1)" and labels[-1].holds(2)
    assert labels[-1].after(2).number == 1 and labels[-1].after(1).number == 2


def test_fitted_view_spreads_close_points_to_half_a_km_per_cell() -> None:
    view = Viewport(56, 12).fitted([(38.70, -9.14), (38.71, -9.13)])
    assert view.km_per_cell == pytest.approx(0.5, rel=0.01)
    spread = Viewport(56, 12).fitted([(38.6, -9.3), (38.85, -8.95)])
    cells = [spread.latlng_to_cell(38.6, -9.3), spread.latlng_to_cell(38.85, -8.95)]
    # Both corners on screen with a row to spare above and below.
    assert all(cell is not None and 1 <= cell[1] <= 10 for cell in cells)
