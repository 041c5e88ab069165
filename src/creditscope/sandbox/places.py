"""Believable street addresses, people's names and points near a city."""

from __future__ import annotations

import math
import random
from collections.abc import Callable

from creditscope.gazetteer import City, distance_km, reach_km
from creditscope.sandbox.seeding import rng_for
from creditscope.worldmap.landmask import is_land

STREETS = (
    "Harbour",
    "Market",
    "Station",
    "Church",
    "Mill",
    "Garden",
    "River",
    "Park",
    "King",
    "Queen",
    "Bridge",
    "Castle",
    "Orchard",
    "Chapel",
    "Victoria",
    "Elm",
    "Oak",
    "Canal",
)
LAND_TRIES = 12  # draws of a venue's point before one in the water is kept
CITY_TRIES = 40  # draws of a point in the city before settling for any land near it
MIN_CITY_KM, MAX_CITY_KM = 2.0, 10.0  # how far venues of the smallest, largest city spread
CITY_SPREAD = 1.5  # venues spread over 1.5 times the city's reach (``gazetteer.reach_km``)
DISTINCT_TRIES = 30  # draws of another name or address before numbering the first
STEP_KM = 0.5  # samples along the way from the centre to a point (the land mask is ~1 km)
STREET_KINDS = ("Street", "Road", "Lane", "Avenue", "Square", "Row")
LOCAL_STREETS: dict[str, tuple[str, ...]] = {
    "FR": (
        "rue de la Paix",
        "rue du Marché",
        "avenue des Fleurs",
        "boulevard Voltaire",
        "rue des Arts",
        "quai des Célestins",
    ),
    "DE": (
        "Hauptstraße",
        "Bahnhofstraße",
        "Gartenstraße",
        "Schillerstraße",
        "Marktplatz",
        "Lindenallee",
    ),
    "AT": ("Hauptstraße", "Kirchengasse", "Ringstraße", "Mariahilfer Straße"),
    "CH": ("Bahnhofstrasse", "Seestrasse", "Kirchgasse", "Marktgasse"),
    "ES": (
        "Calle Mayor",
        "Calle del Sol",
        "Avenida de la Constitución",
        "Plaza Nueva",
        "Calle de Alcalá",
    ),
    "PT": (
        "Rua Augusta",
        "Rua do Comércio",
        "Avenida da Liberdade",
        "Rua das Flores",
        "Largo do Carmo",
    ),
    "BR": ("Rua Augusta", "Avenida Paulista", "Rua das Laranjeiras", "Rua Oscar Freire"),
    "IT": (
        "Via Roma",
        "Via Garibaldi",
        "Corso Vittorio Emanuele",
        "Via dei Mille",
        "Piazza del Duomo",
    ),
    "NL": ("Kerkstraat", "Prinsengracht", "Marktstraat", "Stationsweg"),
    "MX": ("Calle Madero", "Avenida Reforma", "Calle Hidalgo", "Calle Juárez"),
}
# Street number after the street name in these countries ("Via Roma 12").
NUMBER_AFTER = {"DE", "AT", "CH", "IT", "NL", "ES", "PT", "BR", "MX", "PL", "CZ", "SE", "DK", "NO"}

FIRST_NAMES = (
    "Ana",
    "Ben",
    "Chloé",
    "Daniel",
    "Elif",
    "Farah",
    "Giulia",
    "Hiro",
    "Inès",
    "Jonas",
    "Kavya",
    "Liam",
    "Mei",
    "Nadia",
    "Omar",
    "Priya",
    "Quentin",
    "Rosa",
    "Sven",
    "Tomás",
    "Uma",
    "Valentina",
    "Wen",
    "Yara",
    "Zoe",
    "Aiko",
    "Bruno",
    "Carmen",
    "Dmitri",
    "Emma",
    "Felix",
    "Grace",
    "Hugo",
    "Isabel",
    "Jae",
    "Lena",
    "Marco",
    "Noor",
    "Olivia",
    "Pablo",
)
LAST_NAMES = (
    "Silva",
    "Okafor",
    "Tanaka",
    "Müller",
    "Rossi",
    "Dubois",
    "Kowalski",
    "Nguyen",
    "Patel",
    "García",
    "Andersson",
    "Kim",
    "Yilmaz",
    "Murphy",
    "Costa",
    "Haddad",
    "Novak",
    "Moreau",
    "Fischer",
    "Santos",
    "Ivanova",
    "Chen",
    "O'Brien",
    "Lindqvist",
    "Ferreira",
    "Romano",
)


def street_address(rng: random.Random, city: City) -> str:
    """A street address in ``city``, in the local style when we know one."""
    number = rng.randint(1, 240)
    local = LOCAL_STREETS.get(city.country_code)
    street = rng.choice(local) if local else f"{rng.choice(STREETS)} {rng.choice(STREET_KINDS)}"
    if city.country_code in NUMBER_AFTER:
        return f"{street} {number}, {city.name}"
    return f"{number} {street}, {city.name}"


def distinct(
    drawn: str, taken: set[str], redraw: Callable[[random.Random], str], *seed: object
) -> str:
    """``drawn``, or, when ``taken`` has it, another from ``redraw`` with a generator of
    its own (seeded by ``seed``), so one city never lists two places at one address or
    two restaurants of one name; ``taken`` gains the answer."""
    chosen, own = drawn, rng_for("distinct", *seed)
    for attempt in range(DISTINCT_TRIES):
        if chosen not in taken:
            break
        chosen = redraw(own) if attempt < DISTINCT_TRIES - 1 else f"{drawn} II"
    taken.add(chosen)
    return chosen


def person_name(rng: random.Random) -> str:
    """A full name, e.g. ``"Giulia Novak"``."""
    return f"{rng.choice(FIRST_NAMES)} {rng.choice(LAST_NAMES)}"


def display_name(rng: random.Random) -> str:
    """A reviewer's display name, e.g. ``"Giulia N."``."""
    return f"{rng.choice(FIRST_NAMES)} {rng.choice(LAST_NAMES)[0]}."


def point_near(rng: random.Random, city: City, max_km: float) -> tuple[float, float]:
    """A point on land within ``max_km`` of the city centre, denser towards the centre.

    Venues and restaurants stand on land: a point in a river or the sea (which
    the city-zoom map shows) is drawn again, a few times at most.
    """
    lat, lng = city.lat, city.lng
    for _ in range(LAND_TRIES):
        lat, lng = _draw(rng, city, max_km)
        if is_land(lat, lng):
            break
    return round(lat, 5), round(lng, 5)


def city_radius_km(city: City) -> float:
    """How far from its centre a city's venues and restaurants stand: 2 km for a town,
    5 km for Lisbon, 10 km at most (London, Tokyo)."""
    return min(MAX_CITY_KM, max(MIN_CITY_KM, CITY_SPREAD * reach_km(city.population)))


def in_city(city: City, lat: float, lng: float, radius_km: float) -> bool:
    """True when the point is on land within ``radius_km`` of the centre and the way
    there crosses no water: a venue of Lisbon stands north of the Tagus, not in Almada.

    The first kilometre out is not looked at: at the mask's 1 km a centre on a
    waterfront may read as water."""
    distance = distance_km(city.lat, city.lng, lat, lng)
    if distance > radius_km or not is_land(lat, lng):
        return False
    steps = int(distance / STEP_KM)
    return all(
        is_land(city.lat + (lat - city.lat) * k / steps, city.lng + (lng - city.lng) * k / steps)
        for k in range(2, steps)
    )


def place_in_city(
    rng: random.Random, city: City, drawn_within_km: float, *seed: object
) -> tuple[float, float]:
    """Where a venue or restaurant of ``city`` stands: on land, within
    ``city_radius_km``, on the centre's side of any water (see ``in_city``).

    The point is first drawn from ``rng`` within ``drawn_within_km`` as the sandbox
    always drew it, so what ``rng`` gives next (names, addresses, prices) stays as it
    was; a point outside the city is drawn again from a generator of its own, seeded
    by ``seed`` (the city's key and what stands there). A city whose centre the mask
    puts in the water (a small island) settles for land within the radius, or the
    centre itself.
    """
    radius = city_radius_km(city)
    lat, lng = point_near(rng, city, drawn_within_km)
    if in_city(city, lat, lng, radius):
        return lat, lng
    own = rng_for("place", *seed)
    fallback: tuple[float, float] | None = None
    for _ in range(CITY_TRIES):
        lat, lng = _draw(own, city, radius)
        if in_city(city, lat, lng, radius):
            return round(lat, 5), round(lng, 5)
        if fallback is None and is_land(lat, lng):
            fallback = (round(lat, 5), round(lng, 5))
    return fallback or (round(city.lat, 5), round(city.lng, 5))


def _draw(rng: random.Random, city: City, max_km: float) -> tuple[float, float]:
    """A point within ``max_km`` of the city centre, denser towards the centre."""
    distance = max_km * math.sqrt(rng.random()) * rng.uniform(0.3, 1.0)
    bearing = rng.uniform(0, 2 * math.pi)
    dlat = distance / 111.32 * math.cos(bearing)
    stretch = max(0.05, math.cos(math.radians(city.lat)))
    dlng = distance / (111.32 * stretch) * math.sin(bearing)
    lat = max(-90.0, min(90.0, city.lat + dlat))
    lng = ((city.lng + dlng + 180) % 360) - 180
    return lat, lng


def slugify(text: str) -> str:
    """``"Trattoria Luna"`` -> ``"trattoria-luna"``."""
    from creditscope.text_folding import fold

    return fold(text).replace(" ", "-")
