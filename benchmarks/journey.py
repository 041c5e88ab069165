"""The scripted journey the credit, memory, soak and latency benchmarks share: what a
user views, in order. Plain data only: importing it loads neither the client nor the
sandbox, so a benchmark that measures the explorer's memory measures only the explorer's
own imports."""

from __future__ import annotations

from dataclasses import dataclass

# --- the journey: what a user views, in order ----------------------------------------


@dataclass(frozen=True)
class SearchRestaurants:
    """Restaurants screen: search a city (also "back" to that city's result list)."""

    city: str


@dataclass(frozen=True)
class OpenRestaurant:
    """Restaurant detail: the ``rank``-th result of ``city``'s search, one of its tabs."""

    city: str
    rank: int
    part: str  # "details" | "menu" | "reviews"


@dataclass(frozen=True)
class LookupCompany:
    """Company screen: look a company up by name and website."""

    name: str
    website: str | None = None


@dataclass(frozen=True)
class EventsPage:
    """Events screen: the feed near a point; page 0 is the first, n follows page n-1's cursor."""

    lat: float
    lng: float
    page: int


Step = SearchRestaurants | OpenRestaurant | LookupCompany | EventsPage

CITIES = ("Lisbon", "Paris", "Tokyo")
OPENED = (("Lisbon", 0), ("Lisbon", 1), ("Paris", 0), ("Paris", 2), ("Tokyo", 0))
PARTS = ("details", "menu", "reviews")
COMPANIES = (LookupCompany("Acme Ltd", "acme.example"), LookupCompany("Globex Corporation"))
LISBON = (38.72, -9.14)


def build_journey() -> list[Step]:
    """The scripted journey of issue 9, as the ordered list of views a user opens."""
    first_pass: list[Step] = [SearchRestaurants(city) for city in CITIES]
    first_pass += [OpenRestaurant(c, r, part) for c, r in OPENED for part in PARTS]
    for city, rank in reversed(OPENED):  # back to the list, forth into the restaurant
        first_pass.append(SearchRestaurants(city))
        first_pass += [OpenRestaurant(city, rank, part) for part in PARTS]
    first_pass += [*COMPANIES, *COMPANIES]
    first_pass += [EventsPage(*LISBON, page) for page in range(3)]
    return first_pass + list(first_pass)  # then revisit everything


JOURNEY: list[Step] = build_journey()
