"""One company page from a name and a website, every field agreeing with the others.

The headquarters are in the country of the website's country-code domain
(anywhere for ``.com`` and other generic ones, within the legal form's
countries when the name carries one); the size bucket bounds the employees on
the network, which bound the followers; industry, tagline, description and
specialties come from one field; "Public Company" only for large companies
whose legal form allows it.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from functools import lru_cache

from creditscope import models
from creditscope.gazetteer import TOWN_POPULATION, City, distance_km, load_gazetteer
from creditscope.sandbox.industries import Industry
from creditscope.sandbox.naming import strip_legal_suffixes, word_set
from creditscope.sandbox.places import slugify
from creditscope.sandbox.seeding import rng_for, stable_hash
from creditscope.sandbox.websites import EU_COUNTRIES, normalise_domain, split_domain
from creditscope.text_folding import fold
from creditscope.wording import counted

NETWORK_HOST = "network.example"
NETWORK_URL = f"https://{NETWORK_HOST}/company"
LOGO_HOST = f"https://media.{NETWORK_HOST}/logos"

# (label, fewest staff, most staff) as the network shows company size.
SIZES: tuple[tuple[str, int, int], ...] = (
    ("2-10 employees", 2, 10),
    ("11-50 employees", 11, 50),
    ("51-200 employees", 51, 200),
    ("201-500 employees", 201, 500),
    ("501-1,000 employees", 501, 1_000),
    ("1,001-5,000 employees", 1_001, 5_000),
    ("5,001-10,000 employees", 5_001, 10_000),
    ("10,001+ employees", 10_001, 250_000),
)
SIZE_WEIGHTS = (10, 20, 22, 16, 10, 12, 5, 5)
LOCAL_SIZE_WEIGHTS = (7, 3, 0, 0, 0, 0, 0, 0)
PUBLIC_FROM_SIZE = 4  # index of the smallest size a listed company has
ON_NETWORK_SHARE = (0.3, 0.75)  # of the staff, how many list the company on their profile
FOLLOWERS_PER_EMPLOYEE = (6.0, 40.0)
CONSUMER_FOLLOWER_BOOST = 4.0

# Legal forms by country, as registries print them.
LEGAL_FORMS: dict[str, tuple[str, ...]] = {
    "US": ("Inc", "LLC", "Corp"), "CA": ("Inc", "Ltd"), "GB": ("Ltd", "PLC"),
    "IE": ("Ltd", "PLC"), "DE": ("GmbH", "AG"), "AT": ("GmbH", "AG"), "CH": ("AG", "GmbH", "SA"),
    "FR": ("SAS", "SA", "SARL"), "ES": ("S.L.", "S.A."), "IT": ("S.r.l.", "S.p.A."),
    "PT": ("Lda", "S.A."), "NL": ("B.V.", "N.V."), "BE": ("NV", "SA", "BV"), "SE": ("AB",),
    "NO": ("AS", "ASA"), "DK": ("ApS",), "FI": ("Oy", "Oyj"), "PL": ("Sp. z o.o.",),
    "JP": ("K.K.",), "AU": ("Pty Ltd",), "NZ": ("Ltd",), "IN": ("Pvt Ltd", "Ltd"),
    "SG": ("Pte Ltd",), "MY": ("Sdn Bhd",), "BR": ("Ltda", "S.A."), "ZA": ("Pty Ltd",),
    "MX": ("S.A. de C.V.",), "HK": ("Ltd",),
}  # fmt: skip
# Spellings of the same form (folded, letters only).
LEGAL_ALIASES = {"limited": "ltd", "incorporated": "inc", "corporation": "corp"}
# Forms of private companies: never "Public Company".
PRIVATE_FORMS = word_set(
    "ltd llc gmbh sas sarl sl srl lda bv aps oy spzoo ptyltd pvtltd pteltd sdnbhd ltda"
)
# Where companies with a generic domain are (weights), and their usual country domain.
BUSINESS_COUNTRIES: dict[str, int] = {
    "US": 30, "GB": 8, "DE": 6, "FR": 5, "IN": 5, "CA": 4, "AU": 3, "JP": 3, "NL": 3,
    "ES": 3, "IT": 3, "SE": 2, "CH": 2, "SG": 2, "BR": 2, "IE": 2, "IL": 1, "PL": 1,
    "DK": 1, "NO": 1, "FI": 1, "AT": 1, "BE": 1, "PT": 1, "NZ": 1, "ZA": 1, "MX": 1,
    "KR": 1, "AE": 1,
}  # fmt: skip
COUNTRY_DOMAINS = {
    "GB": "co.uk", "AU": "com.au", "JP": "co.jp", "NZ": "co.nz", "ZA": "co.za", "BR": "com.br",
    "MX": "com.mx", "SG": "com.sg", "KR": "co.kr", "IL": "co.il", "IN": "in",
    "US": "com",  # American companies rarely use .us
}  # fmt: skip
TOP_CITIES = 12  # headquarters are among a country's largest cities
SEPARATE_CITY_KM = 25.0  # closer to a larger city than this: a district of it (The Bronx)


def letters(text: str) -> str:
    """Lower-case letters and digits only: ``"S.A. de C.V."`` -> ``"sadecv"``."""
    return "".join(ch for ch in text.casefold() if ch.isalnum())


def legal_form_of(name: str) -> str:
    """The legal form the name ends with, folded (``"Northwind Labs Ltd."`` -> ``"ltd"``)."""
    tail = " ".join(name.split()).strip(" ,")[len(strip_legal_suffixes(name)):]
    form = letters(tail)
    return LEGAL_ALIASES.get(form, form)


def _countries_by_form() -> dict[str, frozenset[str]]:
    found: dict[str, set[str]] = {}
    for country, forms in LEGAL_FORMS.items():
        for form in forms:
            found.setdefault(letters(form), set()).add(country)
    return {form: frozenset(countries) for form, countries in found.items()}


COUNTRIES_BY_FORM = _countries_by_form()


def country_domain(country: str) -> str:
    """The domain companies of ``country`` use: ``"GB"`` -> ``"co.uk"``, ``"DE"`` -> ``"de"``."""
    return COUNTRY_DOMAINS.get(country, country.lower())


def weighted_country(rng: random.Random) -> str:
    """A country where a company with a generic domain might be."""
    return rng.choices(list(BUSINESS_COUNTRIES), weights=list(BUSINESS_COUNTRIES.values()))[0]


def home_countries(name: str, website: str) -> tuple[str, ...]:
    """The countries a company may be headquartered in, from its domain and legal form.

    () means anywhere. A country-code domain decides; ``.eu`` means the Union
    (and within it the legal form's countries); otherwise the legal form decides.
    """
    domain = split_domain(normalise_domain(website))
    if domain.country:
        return (domain.country,)
    by_form = COUNTRIES_BY_FORM.get(legal_form_of(name), frozenset())
    if domain.is_eu:
        return tuple(c for c in EU_COUNTRIES if c in by_form) or EU_COUNTRIES
    return tuple(sorted(by_form))


@lru_cache(maxsize=512)
def _largest_cities(country: str) -> tuple[City, ...]:
    """The country's largest cities, leaving out districts of a larger one."""
    kept: list[City] = []
    gazetteer = load_gazetteer()
    for city in gazetteer.of_country(country):  # most populous first
        if city.population < TOWN_POPULATION and not gazetteer.is_capital(city):
            continue  # a town: no headquarters there
        if all(distance_km(city.lat, city.lng, c.lat, c.lng) > SEPARATE_CITY_KM for c in kept):
            kept.append(city)
            if len(kept) == TOP_CITIES:
                break
    return tuple(kept)


def headquarters_city(rng: random.Random, countries: tuple[str, ...]) -> tuple[str, str]:
    """(place, country code): a large city of one of ``countries`` (any when empty)."""
    country = rng.choice(countries) if countries else weighted_country(rng)
    cities = _largest_cities(country)
    if not cities:  # a country-code domain of a place the gazetteer has no city for
        return country_name(country), country
    city = rng.choices(cities, weights=[math.sqrt(c.population) for c in cities])[0]
    return city.name, country


def country_name(code: str) -> str:
    """``"GB"`` -> ``"United Kingdom"``; the code itself when the gazetteer lacks it."""
    countries = load_gazetteer().countries
    return countries[code].name if code in countries else code


@dataclass(frozen=True)
class PageSeed:
    """What a page is made from: the name, its website and its field."""

    name: str
    website: str
    industry: Industry
    slug: str
    largest_size: int | None = None  # a subsidiary is no larger than its parent (SIZES index)


def countries(count: int) -> str:
    """``"in 1 country"``, ``"in 12 countries"``."""
    return f"in {count} {'country' if count == 1 else 'countries'}"


def article(noun: str) -> str:
    return "an" if noun[:1].lower() in "aeiou" else "a"


def _organization_type(rng: random.Random, seed: PageSeed, size: int) -> str:
    form = legal_form_of(seed.name)
    if seed.industry.name.startswith("Non-profit"):
        return "Nonprofit"
    if form in {"llp", "lp"} or "partners" in seed.name.casefold().split():
        return "Partnership"
    if seed.industry.local:
        return rng.choice(("Privately Held", "Self-Owned", "Partnership"))
    if size >= PUBLIC_FROM_SIZE and form not in PRIVATE_FORMS and rng.random() < 0.5:
        return "Public Company"
    return "Privately Held"


def network_figures(rng: random.Random, staff: int, industry: Industry) -> tuple[int, int]:
    """(employees on the network, followers) of a company of ``staff`` people."""
    on_network = max(1, round(staff * rng.uniform(*ON_NETWORK_SHARE)))
    boost = CONSUMER_FOLLOWER_BOOST if industry.consumer else 1.0
    return on_network, round(on_network * rng.uniform(*FOLLOWERS_PER_EMPLOYEE) * boost)


def page_slug(name: str) -> str:
    """A page's address: ``"Northwind Labs Ltd"`` -> ``"northwind-labs-ltd"``. A name with
    letters the address cannot spell (``"ソニー株式会社"``) gets the part it can spell, without
    the legal form, and an id from the whole name: never a bare legal form like ``"k-k"``."""
    slug = slugify(name)
    if slug and not any(ch.isalpha() and not fold(ch) for ch in name):
        return slug
    spelled = slugify(strip_legal_suffixes(name)) or "company"
    return f"{spelled}-{stable_hash('slug', name) % 16**8:08x}"


def page_links(slug: str) -> dict[str, str]:
    """The fields a page's address gives: slug, URL, logo and organisation id."""
    return {
        "slug": slug,
        "url": f"{NETWORK_URL}/{slug}",
        "logo": f"{LOGO_HOST}/{slug}.png",
        "organization_id": str(stable_hash("org", slug) % 90_000_000 + 10_000_000),
    }


def build_page(seed: PageSeed) -> models.Company:
    """The page of one company; the same seed always gives the same page."""
    rng = rng_for("company", seed.slug, normalise_domain(seed.website))
    industry = seed.industry
    size = rng.choices(
        range(len(SIZES)), weights=LOCAL_SIZE_WEIGHTS if industry.local else SIZE_WEIGHTS
    )[0]
    if seed.largest_size is not None:
        size = min(size, seed.largest_size)
    label, fewest, most = SIZES[size]
    staff = round(math.exp(rng.uniform(math.log(fewest), math.log(most))))
    on_network, followers = network_figures(rng, staff, industry)
    city, country = headquarters_city(rng, home_countries(seed.name, seed.website))
    home = country_name(country)
    place = city if city == home else f"{city}, {home}"
    reach = (
        f"in and around {city}"
        if industry.local
        else f"in {counted(rng.randint(1, 4 + 9 * size), 'country', 'countries')}"
    )
    founded = rng.randint(1975 if industry.local else 1950, 2022)
    return models.Company(
        **page_links(seed.slug),
        name=seed.name,
        tagline=rng.choice(industry.taglines),
        description=(
            f"{seed.name} is {article(industry.noun)} {industry.noun} headquartered in "
            f"{place}. Founded in {founded}, it {industry.offer} for customers {reach}."
        ),
        website=seed.website,
        industry=industry.name,
        company_size=label,
        headquarters=f"{city}, {country}",
        organization_type=_organization_type(rng, seed, size),
        specialties=", ".join(rng.sample(industry.specialties, 3)),
        followers=followers,
        employees_on_network=on_network,
    )
