"""The known companies: a few hundred fictional ones, families of similar names on
different websites (the README's examples), and small companies with no page.
Any other name is answered by :mod:`creditscope.sandbox.company_world`."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from creditscope import models
from creditscope.sandbox.company_pages import (
    LEGAL_FORMS,
    PageSeed,
    build_page,
    country_domain,
    weighted_country,
)
from creditscope.sandbox.industries import BRAND_FIELDS, Industry, industry_of
from creditscope.sandbox.naming import profile
from creditscope.sandbox.places import slugify
from creditscope.sandbox.seeding import rng_for, stable_hash
from creditscope.sandbox.websites import EU_COUNTRIES

# Each family shares a root name; every member has its own website. The first
# member is the bare root. Names may carry a legal suffix, as registries show them.
FAMILIES: dict[str, tuple[tuple[str, str], ...]] = {
    "Northwind": (
        ("Northwind", "https://www.northwind.com"),
        ("Northwind Traders", "https://northwindtraders.com"),
        ("Northwind Labs Ltd", "https://www.northwind-labs.co.uk"),
        ("Northwind Logistics GmbH", "https://northwind-logistics.de"),
        ("Northwind Health", "https://www.northwindhealth.io"),
    ),
    "Contoso": (
        ("Contoso", "https://www.contoso.com"),
        ("Contoso Pharmaceuticals", "https://contosopharma.com"),
        ("Contoso Bank PLC", "https://www.contosobank.co.uk"),
        ("Contoso Studios", "https://contoso.studio"),
    ),
    "Fabrikam": (
        ("Fabrikam Inc", "https://www.fabrikam.com"),
        ("Fabrikam Residences", "https://fabrikamresidences.com"),
        ("Fabrikam Robotics", "https://fabrikam-robotics.ai"),
    ),
    "Tailspin": (
        ("Tailspin Toys", "https://www.tailspintoys.com"),
        ("Tailspin Aviation LLC", "https://tailspin-aviation.com"),
        ("Tailspin", "https://tailspin.io"),
    ),
    "Litware": (
        ("Litware", "https://www.litware.com"),
        ("Litware Analytics", "https://litware-analytics.com"),
        ("Litware Labs Limited", "https://www.litwarelabs.co.uk"),
    ),
    "Adatum": (
        ("Adatum Corporation", "https://www.adatum.com"),
        ("Adatum Consulting", "https://adatumconsulting.com"),
    ),
    "Woodgrove": (
        ("Woodgrove Bank", "https://www.woodgrovebank.com"),
        ("Woodgrove Capital S.A.", "https://woodgrove-capital.es"),
        ("Woodgrove", "https://woodgrove.dev"),
    ),
    "Lucerne": (
        ("Lucerne Publishing", "https://www.lucernepublishing.com"),
        ("Lucerne Hotels AG", "https://lucerne-hotels.ch"),
    ),
    "Blue Yonder": (
        ("Blue Yonder Airlines", "https://www.blueyonderairlines.com"),
        ("Blue Yonder Energy", "https://blueyonder-energy.com"),
    ),
    "Proseware": (
        ("Proseware Inc.", "https://www.proseware.com"),
        ("Proseware Media", "https://prosewaremedia.com"),
    ),
}

# Small businesses with a website but no page on the network.
NO_PAGE: tuple[tuple[str, str], ...] = (
    ("Harbourside Bakery Ltd", "https://harboursidebakery.co.uk"),
    ("Greenleaf Plumbing", "https://greenleafplumbing.com"),
    ("Kowalski & Daughters", "https://kowalski-daughters.pl"),
    ("Blue Door Dental", "https://bluedoordental.com"),
    ("Sunny Side Childcare", "https://sunnysidechildcare.net"),
    ("Northwind Bakery", "https://northwindbakery.com"),
)

ROOTS = (
    "Alder",
    "Brightwave",
    "Cobalt",
    "Driftwood",
    "Ember",
    "Fernhill",
    "Granite",
    "Halcyon",
    "Ironbark",
    "Juniper",
    "Kestrel",
    "Larkspur",
    "Meridian",
    "Nimbus",
    "Oakridge",
    "Pinecrest",
    "Quarry",
    "Redwood",
    "Saltmarsh",
    "Thistle",
    "Upland",
    "Vantage",
    "Willowbrook",
    "Yarrow",
    "Zephyr",
    "Aurora",
    "Beacon",
    "Cascade",
    "Dovetail",
    "Evergreen",
    "Foxglove",
    "Gullwing",
    "Heron",
    "Inkwell",
    "Jetstream",
    "Keystone",
    "Lumen",
    "Mosaic",
    "Northstar",
    "Orchid",
    "Pebble",
    "Quillon",
    "Riverbend",
    "Summit",
    "Tidewater",
    "Umber",
    "Verdant",
    "Wayfarer",
)
KIND_WORDS = (
    "Analytics", "Logistics", "Foods", "Energy", "Health", "Capital", "Media", "Robotics",
    "Studio", "Consulting", "Partners", "Systems", "Labs", "Travel",
)  # fmt: skip
GENERIC_TLDS = ("com", "com", "com", "io", "net", "co", "eu")
# README examples that must keep behaving as described there.
ALWAYS_UNAVAILABLE = frozenset({"meridian-media"})


@dataclass(frozen=True)
class CorpusEntry:
    """A company of the world: its page exists only when ``has_page``."""

    name: str
    website: str
    has_page: bool = True

    @property
    def slug(self) -> str:
        """Its page's address on the network: ``"northwind-labs-ltd"``."""
        return slugify(self.name)


def _generated() -> list[CorpusEntry]:
    rng = rng_for("company-corpus", 2)
    entries = []
    for root in ROOTS:
        kinds = rng.sample(KIND_WORDS, rng.randint(3, 6))
        if root == "Meridian" and "Media" not in kinds:
            kinds[0] = "Media"
        for kind in kinds:
            country = weighted_country(rng)
            form = rng.choice(LEGAL_FORMS.get(country, ("",))) if rng.random() < 0.35 else ""
            if f"{root} {kind}" == "Meridian Media":
                form = ""
            tld = country_domain(country) if rng.random() < 0.55 else rng.choice(GENERIC_TLDS)
            if tld == "eu" and country not in EU_COUNTRIES:
                tld = "com"
            label = slugify(f"{root}{kind}") if rng.random() < 0.5 else slugify(f"{root} {kind}")
            name = f"{root} {kind} {form}".strip()
            entries.append(CorpusEntry(name, f"https://www.{label}.{tld}"))
    return entries


@lru_cache(maxsize=1)
def corpus() -> tuple[CorpusEntry, ...]:
    """Every company the sandbox knows by name, with and without a page."""
    entries = [
        CorpusEntry(name, website) for family in FAMILIES.values() for name, website in family
    ]
    entries.extend(_generated())
    entries.extend(CorpusEntry(name, site, has_page=False) for name, site in NO_PAGE)
    return tuple(entries)


def industry_for(name: str) -> Industry:
    """The field a name points to; a bare brand name gets one by its hash."""
    found = industry_of(profile(name).words)
    return found or BRAND_FIELDS[stable_hash("field", profile(name).compact) % len(BRAND_FIELDS)]


@lru_cache(maxsize=1)
def pages() -> dict[str, models.Company]:
    """The network's pages of the known companies, by slug (no page: absent)."""
    return {
        entry.slug: build_page(
            PageSeed(entry.name, entry.website, industry_for(entry.name), entry.slug)
        )
        for entry in corpus()
        if entry.has_page
    }


@lru_cache(maxsize=1)
def by_words() -> dict[tuple[str, ...], CorpusEntry]:
    """Known companies by the folded words of their name (the identity of a name)."""
    return {profile(entry.name).words: entry for entry in corpus()}


@lru_cache(maxsize=1)
def _family_slugs() -> frozenset[str]:
    return frozenset(slugify(name) for family in FAMILIES.values() for name, _ in family)


def is_flaky(slug: str) -> bool:
    """A deterministic few known pages are always "momentarily unavailable"."""
    if slug in ALWAYS_UNAVAILABLE:
        return True
    return stable_hash("flaky", slug) % 13 == 0 and slug not in _family_slugs()
