"""A compact world gazetteer: resolve place names, suggest them while typing, find
the nearest city to a point.

The data (``data/cities.tsv``, ``data/countries.tsv``) is derived from GeoNames
(CC BY 4.0) by ``tools/derive_cities.py``. This module imports nothing heavy
(no FastAPI, no Textual) so the explorer can use it for suggestions.
"""

from __future__ import annotations

import bisect
import math
import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

_POINT = re.compile(r"^\s*([-+]?\d{1,2}(?:\.\d+)?)\s*[, ]\s*([-+]?\d{1,3}(?:\.\d+)?)\s*$")
EARTH_RADIUS_KM = 6371.0088
DATA_DIR = Path(__file__).resolve().parent / "data"
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


def fold(text: str) -> str:
    """Case- and accent-insensitive form: ``"  Zürich-West "`` -> ``"zurich west"``."""
    decomposed = unicodedata.normalize("NFKD", text)
    stripped = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return " ".join(re.sub(r"[^0-9a-z]+", " ", stripped.casefold()).split())


def distance_km(lat1: float, lng1: float, lat2: float, lng2: float) -> float:
    """Great-circle (haversine) distance in kilometres."""
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dp, dl = p2 - p1, math.radians(lng2 - lng1)
    a = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * EARTH_RADIUS_KM * math.asin(min(1.0, math.sqrt(a)))


def parse_point(text: str) -> tuple[float, float] | None:
    """``"38.72, -9.14"`` -> ``(38.72, -9.14)``; None unless it is a valid lat/lng pair."""
    found = _POINT.match(text)
    if not found:
        return None
    lat, lng = float(found.group(1)), float(found.group(2))
    if not (-90 <= lat <= 90 and -180 <= lng <= 180):
        return None
    return lat, lng


class Gazetteer:
    """Cities ordered most populous first, with indexes for lookup by name and prefix."""

    def __init__(self, cities: list[City], countries: dict[str, Country]) -> None:
        self.cities = sorted(cities, key=lambda c: (-c.population, c.name, c.country_code))
        self.countries = countries
        self._by_name: dict[str, list[City]] = {}
        for city in self.cities:
            for key in {fold(city.name), fold(city.ascii_name)}:
                self._by_name.setdefault(key, []).append(city)
        # Sorted (folded name, rank) pairs: a prefix is a contiguous slice.
        self._prefix_index = sorted(
            {(fold(c.ascii_name), rank) for rank, c in enumerate(self.cities)}
            | {(fold(c.name), rank) for rank, c in enumerate(self.cities)}
        )
        self._prefix_keys = [key for key, _ in self._prefix_index]
        self._country_by_text: dict[str, str] = {}
        for country in countries.values():
            self._country_by_text[fold(country.code)] = country.code
            self._country_by_text[fold(country.name)] = country.code
        self._country_by_text.update({"uk": "GB", "usa": "US", "america": "US"})
        self._unit = [_unit_vector(c.lat, c.lng) for c in self.cities]
        self._keys: dict[City, str] = {}
        self._by_key: dict[str, City] = {}
        for city in self.cities:
            base = (
                f"{fold(city.ascii_name).replace(' ', '-') or 'city'}_{city.country_code.lower()}"
            )
            key, n = base, 1
            while key in self._by_key:  # same name twice in one country: -2, -3 ...
                n += 1
                key = f"{base}-{n}"
            self._keys[city] = key
            self._by_key[key] = city

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
        ``"Paris, France"``, ``"Soho, London"`` (a district before its city) and
        ``"38.72, -9.14"`` (the nearest city to that point).
        """
        return _resolve_cached(self, text)

    def _resolve(self, text: str) -> City | None:
        point = parse_point(text)
        if point is not None:
            return self.nearest(*point)
        parts = [fold(p) for p in text.split(",")]
        parts = [p for p in parts if p]
        if not parts:
            return None
        country: str | None = None
        if len(parts) > 1 and parts[-1] in self._country_by_text:
            country = self._country_by_text[parts[-1]]
            parts = parts[:-1]
        if len(parts) == 1 and country is None:
            # "Paris France" or "london gb": a trailing country without a comma.
            words = parts[0].split()
            for cut in range(1, min(3, len(words))):
                tail = " ".join(words[-cut:])
                head = " ".join(words[:-cut])
                if tail in self._country_by_text and head in self._by_name:
                    found = self._first(head, self._country_by_text[tail])
                    if found is not None:
                        return found
        # Most specific part first, then the enclosing ones ("Soho, London").
        for part in parts:
            found = self._first(part, country)
            if found is not None:
                return found
        return None

    def _first(self, folded: str, country: str | None) -> City | None:
        candidates = self._by_name.get(folded) or self._by_name.get(ALIASES.get(folded, ""), [])
        for city in candidates:
            if country is None or city.country_code == country:
                return city
        return None

    def suggest(self, prefix: str, limit: int = 8) -> list[City]:
        """Cities whose name starts with ``prefix``, most populous first."""
        key = fold(prefix)
        if not key or limit <= 0:
            return []
        start = bisect.bisect_left(self._prefix_keys, key)
        ranks: set[int] = set()
        for folded, rank in self._prefix_index[start:]:
            if not folded.startswith(key):
                break
            ranks.add(rank)
        return [self.cities[rank] for rank in sorted(ranks)[:limit]]

    def nearest(self, lat: float, lng: float) -> City:
        """The gazetteer city closest to the point."""
        return _nearest_cached(self, round(lat, 4), round(lng, 4))

    def _nearest(self, lat: float, lng: float) -> City:
        x, y, z = _unit_vector(lat, lng)
        # The largest dot product of unit vectors is the smallest great-circle distance.
        best = max(
            range(len(self._unit)),
            key=lambda i: x * self._unit[i][0] + y * self._unit[i][1] + z * self._unit[i][2],
        )
        return self.cities[best]

    parse_point = staticmethod(parse_point)


def _unit_vector(lat: float, lng: float) -> tuple[float, float, float]:
    p, lam = math.radians(lat), math.radians(lng)
    return (math.cos(p) * math.cos(lam), math.cos(p) * math.sin(lam), math.sin(p))


@lru_cache(maxsize=4096)
def _resolve_cached(gazetteer: Gazetteer, text: str) -> City | None:
    return gazetteer._resolve(text)


@lru_cache(maxsize=4096)
def _nearest_cached(gazetteer: Gazetteer, lat: float, lng: float) -> City:
    return gazetteer._nearest(lat, lng)


def _data_lines(filename: str) -> list[list[str]]:
    text = (DATA_DIR / filename).read_text(encoding="utf-8")
    return [line.split("\t") for line in text.splitlines() if line and not line.startswith("#")]


@lru_cache(maxsize=1)
def load_gazetteer() -> Gazetteer:
    """The shipped gazetteer, read from disk on first use and then kept."""
    cities = [
        City(name, ascii_name, cc, float(lat), float(lng), tz, int(pop))
        for name, ascii_name, cc, lat, lng, tz, pop in _data_lines("cities.tsv")
    ]
    countries = {
        code: Country(code, name, currency, calling)
        for code, name, currency, calling in _data_lines("countries.tsv")
    }
    return Gazetteer(cities, countries)
