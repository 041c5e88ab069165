"""At city zoom the map shows land and water to about a kilometre (Lisbon and the Tagus)."""

from __future__ import annotations

from importlib import resources

import pytest

from creditscope.worldmap.landmask import LandMaskError, load_mask, parse_mask
from creditscope.worldmap.projection import Viewport
from creditscope.worldmap.raster import MASK_KM_PER_CELL, map_layers

SIZE = (120, 40)
LISBON = (38.72, -9.14)


def city_view(lat: float, lng: float, km_per_cell: float) -> Viewport:
    """A 120 x 40 view centred on (lat, lng) at ``km_per_cell``."""
    view = Viewport(*SIZE, lat, lng)
    return Viewport(*SIZE, lat, lng, view.zoom_for_km_per_cell(km_per_cell, lat)).normalised()


def dot_is_land(view: Viewport, lat: float, lng: float) -> bool:
    """Whether the dot under (lat, lng) is drawn as land."""
    x, y = (int(v) for v in view.latlng_to_dot(lat, lng))
    cell = map_layers(view).land[y // 4][x // 2]
    bit = {(0, 0): 1, (0, 1): 2, (0, 2): 4, (1, 0): 8, (1, 1): 16, (1, 2): 32, (0, 3): 64,
           (1, 3): 128}[(x % 2, y % 4)]  # fmt: skip
    return bool(cell & bit)


LISBON_PLACES = [
    ("Baixa, Lisbon", 38.711, -9.137, True),
    ("Almada, across the river", 38.676, -9.158, True),
    ("the Tagus off Terreiro do Paço", 38.695, -9.13, False),
    ("the Tagus estuary (Mar da Palha)", 38.73, -9.03, False),
    ("the Atlantic off Cascais", 38.65, -9.50, False),
    ("Montijo, east of the estuary", 38.705, -8.975, True),
]


@pytest.mark.parametrize("km_per_cell", [0.5, 1.0, 2.0])
def test_lisbon_coast_and_the_tagus_at_city_zoom(km_per_cell: float) -> None:
    view = city_view(*LISBON, km_per_cell)
    shown = [p for p in LISBON_PLACES if view.latlng_to_cell(p[1], p[2]) is not None]
    assert len(shown) >= 5
    drawn = {place: dot_is_land(view, lat, lng) for place, lat, lng, _ in shown}
    assert drawn == {place: land for place, _, _, land in shown}


@pytest.mark.parametrize("km_per_cell", [0.5, 2.0, 10.0, 40.0])
def test_a_coastal_city_is_land_and_water_not_a_solid_block(km_per_cell: float) -> None:
    layers = map_layers(city_view(*LISBON, km_per_cell))
    cells = [cell for row in layers.land for cell in row]
    solid = sum(cell == 0xFF for cell in cells) / len(cells)
    empty = sum(cell == 0 for cell in cells) / len(cells)
    assert 0.15 < solid < 0.85 and 0.1 < empty < 0.85, (solid, empty)


def test_the_mask_takes_over_exactly_at_city_scale() -> None:
    # Just outside city scale the 1:110m outline fills the Tagus; inside, the mask opens it.
    outside = city_view(38.70, -9.05, MASK_KM_PER_CELL * 1.01)
    inside = city_view(38.70, -9.05, 1.0)
    assert dot_is_land(outside, 38.73, -9.03)
    assert not dot_is_land(inside, 38.73, -9.03)


@pytest.mark.parametrize(
    ("lat", "lng", "land"),
    [(48.86, 2.35, True), (35.68, 139.69, True), (-33.87, 151.21, True), (40.45, -73.6, False),
     (59.33, 18.07, True), (37.82, -122.44, False)],
)  # fmt: skip
def test_other_cities_at_city_zoom(lat: float, lng: float, land: bool) -> None:
    # Paris, Tokyo, Sydney, Stockholm are land; off Long Island and in the Bay are water.
    view = city_view(lat, lng, 1.0)
    assert dot_is_land(view, lat, lng) is land


def test_coarser_views_use_the_coarser_level() -> None:
    mask = load_mask()
    assert len(mask.levels) == 2
    fine, coarse = mask.levels
    assert fine.pixels_per_degree == 120 and coarse.pixels_per_degree == 30
    assert mask.level_for(1 / 500) == 0 and mask.level_for(1 / 120) == 0
    assert mask.level_for(1 / 30) == 1 and mask.level_for(0.3) == 1


def test_the_mask_file_is_small_and_a_corrupt_one_is_refused() -> None:
    data = resources.files("creditscope").joinpath("data", "landmask.bin").read_bytes()
    assert len(data) < 3_000_000
    with pytest.raises(LandMaskError):
        parse_mask(b"not a mask")
    with pytest.raises(LandMaskError):
        parse_mask(data[:5000])


def test_a_view_across_the_antimeridian_samples_both_sides() -> None:
    # Wrangel Island straddles 180 degrees: land on both sides of the seam.
    view = city_view(71.1, 180.0, 2.0)
    assert dot_is_land(view, 71.0, 179.9) and dot_is_land(view, 71.0, -179.9)
