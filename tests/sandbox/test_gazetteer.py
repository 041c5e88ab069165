"""The gazetteer: resolving what people type, suggestions, nearest city."""

from __future__ import annotations

import subprocess
import sys
import time

import pytest

from creditscope.gazetteer import City, load_gazetteer, parse_point


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("London", ("London", "GB")),
        ("london, gb", ("London", "GB")),
        ("London, CA", ("London", "CA")),
        ("London, Canada", ("London", "CA")),
        ("Soho, London", ("London", "GB")),
        ("zurich", ("Zürich", "CH")),
        ("ZÜRICH", ("Zürich", "CH")),
        ("Sao Paulo", ("São Paulo", "BR")),
        ("Paris France", ("Paris", "FR")),
        ("New York", ("New York City", "US")),
        ("38.72, -9.14", ("Lisbon", "PT")),
    ],
)
def test_resolve_understands_everyday_place_names(text: str, expected: tuple[str, str]) -> None:
    city = load_gazetteer().resolve(text)
    assert city is not None and (city.name, city.country_code) == expected


@pytest.mark.parametrize("text", ["", "   ", ",,", "Atlantis", "Lisbon, Japan"])
def test_resolve_returns_none_for_unknown_places(text: str) -> None:
    assert load_gazetteer().resolve(text) is None


def test_cities_carry_time_zone_and_population() -> None:
    gazetteer = load_gazetteer()
    assert 2000 <= len(gazetteer) <= 10000
    tokyo = gazetteer.resolve("Tokyo")
    assert isinstance(tokyo, City) and tokyo.timezone == "Asia/Tokyo" and tokyo.population > 1e6
    assert gazetteer.country("JP").currency == "JPY"
    assert gazetteer.by_key(gazetteer.key(tokyo)) == tokyo


def test_suggest_is_prefix_population_ordered_and_fast() -> None:
    gazetteer = load_gazetteer()
    names = [c.name for c in gazetteer.suggest("lon", limit=8)]
    assert names[0] == "London" and len(names) == 8
    assert all(n.lower().startswith("lon") for n in names)
    assert [c.name for c in gazetteer.suggest("zür")] == [c.name for c in gazetteer.suggest("zur")]
    assert gazetteer.suggest("") == [] and gazetteer.suggest("qqqq") == []
    started = time.perf_counter()
    for prefix in ("s", "sa", "san", "m", "be", "ly"):
        gazetteer.suggest(prefix)
    assert time.perf_counter() - started < 0.05


def test_nearest_finds_the_closest_city() -> None:
    gazetteer = load_gazetteer()
    assert gazetteer.nearest(48.86, 2.34).name == "Paris"
    assert gazetteer.nearest(-33.87, 151.21).name == "Sydney"
    assert gazetteer.nearest(64.14, -21.9).name == "Reykjavík"


def test_parse_point() -> None:
    assert parse_point("38.72, -9.14") == (38.72, -9.14)
    assert parse_point("38.72 -9.14") == (38.72, -9.14)
    assert parse_point("95, 10") is None and parse_point("Lisbon") is None


def test_gazetteer_does_not_import_fastapi() -> None:
    code = (
        "import sys, creditscope.gazetteer as g; g.load_gazetteer(); "
        "print('fastapi' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_data_file_credits_geonames_and_stays_small() -> None:
    from creditscope.gazetteer import DATA_DIR

    cities = DATA_DIR / "cities.tsv"
    assert "GeoNames" in cities.read_text(encoding="utf-8").splitlines()[0]
    assert cities.stat().st_size < 400_000
