"""A compact world gazetteer: resolve place names, suggest them while typing, find
the nearest city to a point.

The data (``data/cities.tsv.gz``: every place of 15,000 people or more, and
``data/countries.tsv``) is derived from GeoNames (CC BY 4.0) by
``tools/derive_cities.py``. This module imports nothing heavy (no FastAPI, no
Textual) so the explorer can use it for suggestions; the data is read on the
first ``load_gazetteer()`` call, never on import.

A name many places share ("Valencia", "Cordoba", "Cambridge") resolves to the
most populous; ``alternatives`` lists them all, largest first, and each can be
asked for by ``"Name, CC"`` or by its ``key`` (``"valencia_es"``).
"""

from __future__ import annotations

import bisect
import gzip
import math
import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property, lru_cache
from pathlib import Path

from creditscope.geo import distance_km as distance_km  # where callers have always found it
from creditscope.geo import (
    dot_km,
    ring_bound_km,
    ring_cells,
    unit_vector,
)
from creditscope.geo import parse_point as parse_point
from creditscope.text_folding import fold

_KEY = re.compile(r"^[a-z0-9-]+_[a-z]{2}(?:-\d+)?$")
DATA_DIR = Path(__file__).resolve().parent / "data"
CITIES_FILE = "cities.tsv.gz"
# Places below this many people are towns: a point within a larger city's reach
# (see ``reach_km``) belongs to that city even when a town's centre is closer, so
# a point in a big city's suburbs still finds the city its data is keyed by.
TOWN_POPULATION = 150_000
REACH_KM = 2.0  # a city of 100,000 reaches 2 km from its centre; growing as the cube root
MAX_REACH_KM = 15.0
NEARBY_KM = 50.0  # "Richmond, London": a place this close to the named city is the one meant
_NEAR_RINGS = 12  # grid rings searched before a plain scan of every place (mid-ocean)
# Everyday and local names for places whose gazetteer name differs (folded forms).
ALIASES: dict[str, str] = {
    "new york": "new york city",
    "nyc": "new york city",
    "sf": "san francisco",
    "lisboa": "lisbon",
    "roma": "rome",
    "milano": "milan",
    "napoli": "naples",
    "firenze": "florence",
    "venezia": "venice",
    "munchen": "munich",
    "koln": "cologne",
    "wien": "vienna",
    "praha": "prague",
    "warszawa": "warsaw",
    "bruxelles": "brussels",
    "kobenhavn": "copenhagen",
    "sevilla": "seville",
    "den haag": "the hague",
}


@dataclass(frozen=True)
class City:
    """One populated place of the gazetteer."""

    name: str
    ascii_name: str
    country_code: str
    lat: float
    lng: float
    timezone: str
    population: int

    @property
    def label(self) -> str:
        """``"Lisbon, PT"``: the name with its country code, as the sandbox echoes it."""
        return f"{self.name}, {self.country_code}"


@dataclass(frozen=True)
class Country:
    """A country's display name, currency and telephone calling code."""

    code: str
    name: str
    currency: str
    calling_code: str


class Gazetteer:
    """Cities ordered most populous first, with indexes for lookup by name and prefix."""

    def __init__(
        self,
        cities: list[City],
        countries: dict[str, Country],
        capitals: Iterable[City] = (),
    ) -> None:
        self.cities = sorted(cities, key=_size_order)
        self.countries = countries
        self.capitals = frozenset(capitals)  # national capitals
        self._by_name: dict[str, list[City]] = {}
        self._folded: list[tuple[str, str]] = []  # (folded name, folded ASCII name) by rank
        for city in self.cities:
            spelled = fold(city.ascii_name)
            name = spelled if city.name == city.ascii_name else fold(city.name)
            self._folded.append((name, spelled))
            self._by_name.setdefault(name, []).append(city)
            if spelled != name:
                self._by_name.setdefault(spelled, []).append(city)
        self._country_by_text: dict[str, str] = {}
        for country in countries.values():
            self._country_by_text[fold(country.code)] = country.code
            self._country_by_text[fold(country.name)] = country.code
        self._country_by_text.update({"uk": "GB", "usa": "US", "america": "US"})

    @cached_property
    def _by_key(self) -> dict[str, City]:
        """Every city by its key (built on first use: only the sandbox asks)."""
        by_key: dict[str, City] = {}
        for city, (_, spelled) in zip(self.cities, self._folded, strict=True):
            base = f"{spelled.replace(' ', '-') or 'city'}_{city.country_code.lower()}"
            key, n = base, 1
            while key in by_key:  # same name twice in one country: -2, -3 ...
                n += 1
                key = f"{base}-{n}"
            by_key[key] = city
        return by_key

    @cached_property
    def _keys(self) -> dict[City, str]:
        return {city: key for key, city in self._by_key.items()}

    @cached_property
    def _prefix_index(self) -> list[tuple[str, int]]:
        """Sorted (folded name, rank) pairs: a prefix is a contiguous slice (built on the
        first suggestion)."""
        pairs = {(name, rank) for rank, names in enumerate(self._folded) for name in names}
        return sorted(pairs)

    @cached_property
    def _prefix_keys(self) -> list[str]:
        return [key for key, _ in self._prefix_index]

    @cached_property
    def _grid(self) -> dict[tuple[int, int], list[tuple[int, float, float, float]]]:
        """Places by 1-degree cell: (rank, x, y, z of the unit vector), built on first use."""
        grid: dict[tuple[int, int], list[tuple[int, float, float, float]]] = {}
        for rank, city in enumerate(self.cities):
            cell = (math.floor(city.lat), math.floor(city.lng) % 360)
            grid.setdefault(cell, []).append((rank, *unit_vector(city.lat, city.lng)))
        return grid

    def is_capital(self, city: City) -> bool:
        """True for a national capital."""
        return city in self.capitals

    def __len__(self) -> int:
        return len(self.cities)

    def names(self) -> list[str]:
        """Every folded name a city answers to (for fuzzy matching)."""
        return list(self._by_name)

    def named(self, folded: str) -> list[City]:
        """The cities answering to the folded name ``folded``, most populous first."""
        return list(self._by_name.get(folded, ()))

    def country(self, code: str) -> Country:
        """The country with this two-letter code (an unknown code gets a USD placeholder)."""
        return self.countries.get(code.upper()) or Country(code.upper(), code.upper(), "USD", "1")

    def key(self, city: City) -> str:
        """A stable, URL-safe identifier of a city, e.g. ``"lisbon_pt"``."""
        return self._keys[city]

    def by_key(self, key: str) -> City | None:
        """The city whose ``key`` is this, if any."""
        return self._by_key.get(key)

    def resolve(self, text: str) -> City | None:
        """The city a user means by ``text``, most populous first.

        Accepts plain names (``"Lisbon"``, ``"zurich"``), ``"London, GB"``,
        ``"Paris, France"``, ``"Soho, London"`` (a district before its city),
        ``"38.72, -9.14"`` (the nearest city to that point) and a city's ``key``
        (``"valencia_es"``: one place exactly, as a remembered choice).
        """
        return _resolve_cached(self, text)

    def alternatives(self, text: str) -> list[City]:
        """Every place ``text`` could mean, most populous first.

        The first is the one ``resolve`` picks; more than one means the name is
        ambiguous: ``"Valencia"`` -> Valencia, VE; Valencia, ES; Valencia, US;
        Valencia, EC. A country narrows it (``"Valencia, ES"`` -> just Spain's);
        a point, a key or an unknown name gives at most the one place.
        """
        return list(_matches_cached(self, text))

    def _matches(self, text: str) -> tuple[City, ...]:
        point = parse_point(text)
        if point is not None:
            return (self.nearest(*point),)
        keyed = self._by_key.get(text.strip().lower()) if _KEY.match(text.strip().lower()) else None
        if keyed is not None:
            return (keyed,)
        parts = [fold(p) for p in text.split(",")]
        parts = [p for p in parts if p]
        if not parts:
            return ()
        country: str | None = None
        if len(parts) > 1 and parts[-1] in self._country_by_text:
            country = self._country_by_text[parts[-1]]
            parts = parts[:-1]
        if len(parts) == 1 and country is None and not self._namesakes(parts[0], None):
            # "Paris France" or "london gb": a trailing country without a comma.
            words = parts[0].split()
            for cut in range(1, min(3, len(words))):
                tail = " ".join(words[-cut:])
                head = " ".join(words[:-cut])
                if tail in self._country_by_text:
                    found = self._namesakes(head, self._country_by_text[tail])
                    if found:
                        return found
        if len(parts) > 1:
            within = self._within(parts[0], parts[1], country)
            if within:
                return within
        # Most specific part first, then the enclosing ones ("Chiado, Lisbon").
        for part in parts:
            found = self._namesakes(part, country)
            if found:
                return found
        return ()

    def _within(self, inner: str, outer: str, country: str | None) -> tuple[City, ...]:
        """``"Soho, London"``: the place called ``inner`` near one called ``outer``, or,
        when it lies within that city's reach (a district), the city itself."""
        for city in self._namesakes(outer, country):
            for place in self._namesakes(inner, country):
                gap = distance_km(place.lat, place.lng, city.lat, city.lng)
                if gap <= NEARBY_KM:
                    inside = gap <= reach_km(city.population) and place.population < city.population
                    return (city,) if inside else (place,)
        return ()

    def _namesakes(self, folded: str, country: str | None) -> tuple[City, ...]:
        """The places called ``folded`` (or its everyday alias), most populous first."""
        found = list(self._by_name.get(folded, ()))
        alias = ALIASES.get(folded)
        if alias:
            found += [c for c in self._by_name.get(alias, ()) if c not in found]
            found.sort(key=_size_order)
        return tuple(c for c in found if country is None or c.country_code == country)

    def suggest(self, prefix: str, limit: int = 8) -> list[City]:
        """Cities whose name starts with ``prefix``, most populous first."""
        key = fold(prefix)
        if not key or limit <= 0:
            return []
        index = self._prefix_index
        start = bisect.bisect_left(self._prefix_keys, key)
        ranks: set[int] = set()
        for folded, rank in index[start:]:
            if not folded.startswith(key):
                break
            ranks.add(rank)
        return [self.cities[rank] for rank in sorted(ranks)[:limit]]

    def nearest(self, lat: float, lng: float) -> City:
        """The city a point is in: the closest place, unless the closest is a town
        (below ``TOWN_POPULATION``) and the point is within a larger city's reach
        (``reach_km``), which then wins. So a city of 150,000 or more is found at its
        own coordinates, as before towns were added, and so is a town away from
        bigger places; Vatican City's point, within Rome's reach, gives Rome."""
        return _nearest_cached(self, round(lat, 4), round(lng, 4))

    def _nearest(self, lat: float, lng: float) -> City:
        closest = self.cities[self._closest_rank(lat, lng)]
        if closest.population >= TOWN_POPULATION:
            return closest
        row, column = math.floor(lat), math.floor(lng)
        covering = [
            self.cities[rank]
            for cell in ring_cells(row, column, 1, include_inside=True)
            for rank, *_ in self._grid.get(cell, ())
            if self.cities[rank].population > closest.population
            and distance_km(lat, lng, self.cities[rank].lat, self.cities[rank].lng)
            <= reach_km(self.cities[rank].population)
        ]
        return min(covering, key=_size_order) if covering else closest

    def _closest_rank(self, lat: float, lng: float) -> int:
        """The rank of the place closest to the point, searching the grid ring by ring."""
        x, y, z = unit_vector(lat, lng)
        row, column = math.floor(lat), math.floor(lng)
        best, best_dot = -1, -2.0
        for ring in range(_NEAR_RINGS + 1):
            if best >= 0 and ring_bound_km(lat, ring) > dot_km(best_dot):
                return best
            for cell in ring_cells(row, column, ring):
                for rank, cx, cy, cz in self._grid.get(cell, ()):
                    dot = x * cx + y * cy + z * cz
                    if dot > best_dot or (dot == best_dot and rank < best):
                        best, best_dot = rank, dot
        # Far from everything (mid-ocean, the poles): look at every place.
        for cell_places in self._grid.values():
            for rank, cx, cy, cz in cell_places:
                dot = x * cx + y * cy + z * cz
                if dot > best_dot or (dot == best_dot and rank < best):
                    best, best_dot = rank, dot
        return best


def reach_km(population: int) -> float:
    """How far from its centre a city of ``population`` reaches: 2 km at 100,000,
    growing as the cube root (Lisbon 3.5 km, London 9 km), 15 km at most."""
    return min(MAX_REACH_KM, REACH_KM * (max(population, 1) / 100_000) ** (1 / 3))


def _size_order(city: City) -> tuple[int, str, str]:
    """Most populous first; ties by name and country, then as the data file lists them
    (a stable sort: same-sized namesakes keep their keys)."""
    return (-city.population, city.name, city.country_code)


@lru_cache(maxsize=4096)
def _resolve_cached(gazetteer: Gazetteer, text: str) -> City | None:
    found = _matches_cached(gazetteer, text)
    return found[0] if found else None


@lru_cache(maxsize=4096)
def _matches_cached(gazetteer: Gazetteer, text: str) -> tuple[City, ...]:
    return gazetteer._matches(text)


@lru_cache(maxsize=4096)
def _nearest_cached(gazetteer: Gazetteer, lat: float, lng: float) -> City:
    return gazetteer._nearest(lat, lng)


def _data_lines(filename: str) -> list[list[str]]:
    text = (DATA_DIR / filename).read_text(encoding="utf-8")
    return [line.split("\t") for line in text.splitlines() if line and not line.startswith("#")]


def parse_cities(text: str) -> tuple[list[City], list[City]]:
    """The places of a cities file (layout in ``tools/derive_cities.py``): ``=CC`` lines
    with the country's time zones, then its places, each latitude a step from the last.
    Returns every place, and the national capitals among them."""
    cities: list[City] = []
    capitals: list[int] = []
    country, zones, lat = "", [""], 0
    for line in text.splitlines():
        if not line or line.startswith("#"):
            continue
        fields = line.split("\t")
        if line.startswith("="):
            country, zones, lat = fields[0][1:], fields[1:], 0
            continue
        name, spelled, step, lng, zone, population = fields[:6]
        lat += int(step)
        if fields[6:] == ["*"]:
            capitals.append(len(cities))
        cities.append(
            City(
                name,
                spelled or name,
                country,
                lat / 10_000,
                int(lng) / 10_000,
                zones[int(zone) if zone else 0],
                int(population),
            )
        )
    return cities, [cities[index] for index in capitals]


@lru_cache(maxsize=1)
def load_gazetteer() -> Gazetteer:
    """The shipped gazetteer, read from disk on first use and then kept."""
    text = gzip.decompress((DATA_DIR / CITIES_FILE).read_bytes()).decode("utf-8")
    countries = {
        code: Country(code, name, currency, calling)
        for code, name, currency, calling in _data_lines("countries.tsv")
    }
    cities, capitals = parse_cities(text)
    return Gazetteer(cities, countries, capitals)
