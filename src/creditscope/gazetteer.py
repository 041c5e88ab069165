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
import heapq
import math
import re
from array import array
from collections.abc import Iterable, Iterator
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
from creditscope.place_columns import City as City  # where callers have always found it
from creditscope.place_columns import CitySequence, Places, name_index, parse_places
from creditscope.text_folding import fold

_KEY_PARTS = re.compile(r"^([a-z0-9-]+_[a-z]{2})(?:-(\d+))?$")
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
class Country:
    """A country's display name, currency and telephone calling code."""

    code: str
    name: str
    currency: str
    calling_code: str


@dataclass(frozen=True)
class Region:
    """A country's state or province (GeoNames' admin1): its code, name and short form."""

    country: str
    code: str
    name: str
    short: str  # what people write after a place ("IL", "ON"); "" when it is the code

    @property
    def key(self) -> str:
        """``"US.IL"``: as a place's row names its region."""
        return f"{self.country}.{self.code}"


class Gazetteer:
    """Cities ordered most populous first, with indexes for lookup by name and prefix.

    The name index is one sorted array of (rank, which name) entries compared by their
    folded names, folded again when looked at: no second copy of 45,000 names.
    """

    def __init__(self, places: Places, countries: dict[str, Country],
                 regions: Iterable[Region] = ()) -> None:
        self.places = places
        self.cities = CitySequence(places)
        self.countries = countries
        # States and provinces: what a place's row says, and what people write after it.
        self._region_by_text: dict[str, tuple[str, ...]] = {}
        for region in regions:
            for spelled in {fold(region.name), fold(region.short or region.code)}:
                self._region_by_text[spelled] = (*self._region_by_text.get(spelled, ()),
                                                 region.key)
        self._names = name_index(places)
        self._country_by_text: dict[str, str] = {}
        for country in countries.values():
            self._country_by_text[fold(country.code)] = country.code
            self._country_by_text[fold(country.name)] = country.code
        self._country_by_text.update({"uk": "GB", "usa": "US", "america": "US"})

    def _entry_name(self, entry: int) -> str:
        """The folded name an index entry stands for: rank * 2, plus 1 for the ASCII spelling."""
        rank = entry >> 1
        return fold(self.places.spellings[rank] if entry & 1 else self.places.names[rank])

    def _ranks_named(self, folded: str) -> list[int]:
        """Ranks of the places answering to ``folded``, most populous first."""
        start = bisect.bisect_left(self._names, folded, key=self._entry_name)
        end = bisect.bisect_right(self._names, folded, lo=start, key=self._entry_name)
        return sorted({entry >> 1 for entry in self._names[start:end]})

    def _cities_named(self, folded: str) -> list[City]:
        return [self.places.city(rank) for rank in self._ranks_named(folded)]

    def _rank_of(self, city: City) -> int | None:
        for rank in self._ranks_named(fold(city.ascii_name)):
            if self.places.city(rank) == city:
                return rank
        return None

    @cached_property
    def _vectors(self) -> array[float]:
        """x, y, z of each place's unit vector, three per rank (built on first use)."""
        vectors = array("d")
        for lat, lng in zip(self.places.lat, self.places.lng, strict=True):
            vectors.extend(unit_vector(lat / 10_000, lng / 10_000))
        return vectors

    @cached_property
    def _grid(self) -> tuple[array[int], array[int]]:
        """Places by 1-degree cell: ranks ordered by cell, and where each cell starts."""
        cells = [_cell_number(lat / 10_000, lng / 10_000)
                 for lat, lng in zip(self.places.lat, self.places.lng, strict=True)]
        ranks = array("I", sorted(range(len(cells)), key=cells.__getitem__))
        starts = array("I", [0]) * (_CELLS + 1)
        for number in cells:
            starts[number + 1] += 1
        for number in range(_CELLS):
            starts[number + 1] += starts[number]
        return ranks, starts

    def _in_cell(self, cell: tuple[int, int]) -> array[int]:
        ranks, starts = self._grid
        number = (cell[0] + 90) * 360 + cell[1]
        return ranks[starts[number]:starts[number + 1]]

    def is_capital(self, city: City) -> bool:
        """True for a national capital."""
        return self._rank_of(city) in self.places.capitals

    def __len__(self) -> int:
        return len(self.places)

    def names(self) -> list[str]:
        """Every folded name a city answers to (for fuzzy matching), most populous first."""
        named: dict[str, None] = {}
        for rank in range(len(self.places)):
            named[fold(self.places.names[rank])] = None
            named[fold(self.places.ascii_name(rank))] = None
        return list(named)

    def named(self, folded: str) -> list[City]:
        """The cities answering to the folded name ``folded``, most populous first."""
        return self._cities_named(folded)

    def of_country(self, code: str) -> Iterator[City]:
        """The places of one country, most populous first."""
        if code not in self.places.country_codes:
            return
        wanted = self.places.country_codes.index(code)
        for rank, country in enumerate(self.places.countries):
            if country == wanted:
                yield self.places.city(rank)

    def country(self, code: str) -> Country:
        """The country with this two-letter code (an unknown code gets a USD placeholder)."""
        return self.countries.get(code.upper()) or Country(code.upper(), code.upper(), "USD", "1")

    def key(self, city: City) -> str:
        """A stable, URL-safe identifier of a city, e.g. ``"lisbon_pt"``: its ASCII name
        and country, then ``-2``, ``-3`` ... for smaller places of the same name."""
        rank = self._rank_of(city)
        if rank is None:
            raise KeyError(city)
        base = _key_base(self.places.ascii_name(rank), city.country_code)
        same = self._same_base(base)
        position = same.index(rank)
        return base if position == 0 else f"{base}-{position + 1}"

    def _same_base(self, base: str) -> list[int]:
        """Ranks whose key starts with ``base``, most populous first."""
        spelled = base.rpartition("_")[0]
        folded = spelled.replace("-", " ")
        candidates = self._ranks_named(folded)
        if folded == "city":  # a name that folds to nothing is keyed "city" too
            candidates = sorted({*candidates, *self._ranks_named("")})
        return [rank for rank in candidates
                if _key_base(self.places.ascii_name(rank),
                             self.places.country_codes[self.places.countries[rank]]) == base]

    def by_key(self, key: str) -> City | None:
        """The city whose ``key`` is this, if any."""
        found = _KEY_PARTS.match(key)
        if found is None:
            return None
        base, number = found.group(1), int(found.group(2) or 1)
        same = self._same_base(base)
        if not 1 <= number <= len(same):
            return None
        city = self.places.city(same[number - 1])
        return city if self.key(city) == key else None  # "x_pt-1", "x_pt-02": not keys

    def resolve(self, text: str) -> City | None:
        """The city a user means by ``text``, most populous first.

        Accepts plain names (``"Lisbon"``, ``"zurich"``), ``"London, GB"``,
        ``"Paris, France"``, a state or province (``"Springfield, Illinois"``,
        ``"Springfield, IL, US"``, ``"London, Ontario"``), ``"Soho, London"`` (a
        district before its city),
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
        keyed = self.by_key(text.strip().lower())
        if keyed is not None:
            return (keyed,)
        parts = [fold(p) for p in text.split(",")]
        parts = [p for p in parts if p]
        return self._read(parts, None, None) if parts else ()

    def _read(self, parts: list[str], country: str | None,
              regions: frozenset[str] | None) -> tuple[City, ...]:
        """The places ``parts`` name (most specific first), within ``country`` and
        ``regions`` when given. The last part may narrow the others: a country
        ("Paris, France"), or a state or province ("Springfield, Illinois",
        "London, ON"); "IL" is Israel and Illinois, so each reading is tried in turn."""
        if len(parts) > 1:
            for narrowed_country, narrowed_regions in self._narrowings(parts[-1], country,
                                                                       regions):
                found = self._read(parts[:-1], narrowed_country, narrowed_regions)
                if found:
                    return found
            if regions is None and parts[-1] in self._country_by_text:
                return ()  # a country named: nothing outside it
            country = country or self._only_country(parts[-1])  # "Lisbon, Ohio": in the US
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
            within = self._within(parts[0], parts[1], country, regions)
            if within:
                return within
            if parts[-1] in self._region_by_text:
                return ()  # a state named, and no such place in it (nor near a city so named)
        # Most specific part first, then the enclosing ones ("Chiado, Lisbon").
        for part in parts:
            found = self._namesakes(part, country, regions)
            if found:
                return found
        return ()

    def _narrowings(self, text: str, country: str | None, regions: frozenset[str] | None,
                    ) -> list[tuple[str | None, frozenset[str] | None]]:
        """What ``text`` may narrow a place to, in the order tried: a country (unless one
        is named already), then the states or provinces so named (of that country)."""
        if regions is not None:
            return []
        readings: list[tuple[str | None, frozenset[str] | None]] = []
        if country is None and text in self._country_by_text:
            readings.append((self._country_by_text[text], None))
        named = frozenset(code for code in self._region_by_text.get(text, ())
                          if country is None or code.startswith(f"{country}."))
        if named:
            readings.append((country, named))
        return readings

    def _only_country(self, text: str) -> str | None:
        """The country of every state or province ``text`` names, when there is one."""
        countries = {code.partition(".")[0] for code in self._region_by_text.get(text, ())}
        return countries.pop() if len(countries) == 1 else None

    def _within(self, inner: str, outer: str, country: str | None,
                regions: frozenset[str] | None = None) -> tuple[City, ...]:
        """``"Soho, London"``: the place called ``inner`` near one called ``outer``, or,
        when it lies within that city's reach (a district), the city itself."""
        for city in self._namesakes(outer, country, regions):
            for place in self._namesakes(inner, country, regions):
                gap = distance_km(place.lat, place.lng, city.lat, city.lng)
                if gap <= NEARBY_KM:
                    inside = gap <= reach_km(city.population) and place.population < city.population
                    return (city,) if inside else (place,)
        return ()

    def _namesakes(self, folded: str, country: str | None,
                   regions: frozenset[str] | None = None) -> tuple[City, ...]:
        """The places called ``folded`` (or its everyday alias), most populous first; of
        ``country`` and ``regions`` ("US.IL") only, when given."""
        ranks = self._ranks_named(folded)
        alias = ALIASES.get(folded)
        if alias:
            ranks = sorted({*ranks, *self._ranks_named(alias)})
        places = self.places
        return tuple(
            places.city(rank) for rank in ranks
            if (country is None or places.country_codes[places.countries[rank]] == country)
            and (regions is None or places.region_code(rank) in regions)
        )

    def suggest(self, prefix: str, limit: int = 8) -> list[City]:
        """Cities whose name starts with ``prefix``, most populous first."""
        key = fold(prefix)
        if not key or limit <= 0:
            return []
        start = bisect.bisect_left(self._names, key, key=self._entry_name)
        # Every name starting with the prefix sorts before the prefix + the last character.
        end = bisect.bisect_left(self._names, key + "\U0010ffff", lo=start, key=self._entry_name)
        ranks = heapq.nsmallest(limit, {entry >> 1 for entry in self._names[start:end]})
        return [self.places.city(rank) for rank in ranks]

    def nearest(self, lat: float, lng: float) -> City:
        """The city a point is in: the closest place, unless the closest is a town
        (below ``TOWN_POPULATION``) and the point is within a larger city's reach
        (``reach_km``), which then wins. So a city of 150,000 or more is found at its
        own coordinates, as before towns were added, and so is a town away from
        bigger places; Vatican City's point, within Rome's reach, gives Rome."""
        return _nearest_cached(self, round(lat, 4), round(lng, 4))

    def _nearest(self, lat: float, lng: float) -> City:
        closest = self.places.city(self._closest_rank(lat, lng))
        if closest.population >= TOWN_POPULATION:
            return closest
        row, column = math.floor(lat), math.floor(lng)
        nearby = (self.places.city(rank)
                  for cell in ring_cells(row, column, 1, include_inside=True)
                  for rank in self._in_cell(cell))
        covering = [
            city for city in nearby
            if city.population > closest.population
            and distance_km(lat, lng, city.lat, city.lng) <= reach_km(city.population)
        ]
        return min(covering, key=_size_order) if covering else closest

    def _closest_rank(self, lat: float, lng: float) -> int:
        """The rank of the place closest to the point, searching the grid ring by ring."""
        x, y, z = unit_vector(lat, lng)
        vectors = self._vectors
        row, column = math.floor(lat), math.floor(lng)
        best, best_dot = -1, -2.0

        def closer(ranks: Iterable[int]) -> None:
            nonlocal best, best_dot
            for rank in ranks:
                at = rank * 3
                dot = x * vectors[at] + y * vectors[at + 1] + z * vectors[at + 2]
                if dot > best_dot or (dot == best_dot and rank < best):
                    best, best_dot = rank, dot

        for ring in range(_NEAR_RINGS + 1):
            if best >= 0 and ring_bound_km(lat, ring) > dot_km(best_dot):
                return best
            for cell in ring_cells(row, column, ring):
                closer(self._in_cell(cell))
        closer(range(len(self.places)))  # far from everything (mid-ocean, the poles)
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


_CELLS = 180 * 360  # one-degree cells from the south pole


def _cell_number(lat: float, lng: float) -> int:
    return (min(89, math.floor(lat)) + 90) * 360 + math.floor(lng) % 360


def _key_base(ascii_name: str, country_code: str) -> str:
    return f"{fold(ascii_name).replace(' ', '-') or 'city'}_{country_code.lower()}"


@lru_cache(maxsize=1)
def load_gazetteer() -> Gazetteer:
    """The shipped gazetteer, read from disk on first use and then kept."""
    countries = {
        code: Country(code, name, currency, calling)
        for code, name, currency, calling in _data_lines("countries.tsv")
    }
    regions = [Region(row[0], row[1], row[2], row[3] if len(row) > 3 else "")
               for row in _data_lines("regions.tsv")]
    with gzip.open(DATA_DIR / CITIES_FILE, "rt", encoding="utf-8") as lines:
        places = parse_places(lines, {region.key: region.name for region in regions})
    return Gazetteer(places, countries, regions)
