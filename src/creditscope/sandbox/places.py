"""Believable street addresses, people's names and points near a city."""

from __future__ import annotations

import math
import random

from creditscope.gazetteer import City
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
        distance = max_km * math.sqrt(rng.random()) * rng.uniform(0.3, 1.0)
        bearing = rng.uniform(0, 2 * math.pi)
        dlat = distance / 111.32 * math.cos(bearing)
        stretch = max(0.05, math.cos(math.radians(city.lat)))
        dlng = distance / (111.32 * stretch) * math.sin(bearing)
        lat = max(-90.0, min(90.0, city.lat + dlat))
        lng = ((city.lng + dlng + 180) % 360) - 180
        if is_land(lat, lng):
            break
    return round(lat, 5), round(lng, 5)


def slugify(text: str) -> str:
    """``"Trattoria Luna"`` -> ``"trattoria-luna"``."""
    from creditscope.gazetteer import fold

    return fold(text).replace(" ", "-")
