"""The company corpus: a few hundred fictional companies, families of similar
names on different websites, and small companies that have no page at all."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from creditscope import models
from creditscope.gazetteer import load_gazetteer
from creditscope.sandbox.places import slugify
from creditscope.sandbox.seeding import rng_for, stable_hash

NETWORK_HOST = "network.example"
NETWORK_URL = f"https://{NETWORK_HOST}/company"
LOGO_HOST = f"https://media.{NETWORK_HOST}/logos"

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
KINDS = (
    ("Analytics", "Information Technology & Services"),
    ("Logistics", "Transportation & Logistics"),
    ("Foods", "Food & Beverages"),
    ("Energy", "Renewables & Environment"),
    ("Health", "Hospital & Health Care"),
    ("Capital", "Financial Services"),
    ("Media", "Online Media"),
    ("Robotics", "Industrial Automation"),
    ("Studio", "Design"),
    ("Consulting", "Management Consulting"),
    ("Partners", "Legal Services"),
    ("Systems", "Computer Software"),
    ("Labs", "Research"),
    ("Travel", "Leisure, Travel & Tourism"),
)
TLDS = (".com", ".io", ".co.uk", ".de", ".fr", ".net", ".eu", ".co")
LEGAL = ("", "", "", " Ltd", " Inc", " LLC", " GmbH", " PLC", " S.A.")
SIZES = (
    "2-10 employees",
    "11-50 employees",
    "51-200 employees",
    "201-500 employees",
    "501-1,000 employees",
    "1,001-5,000 employees",
    "5,001-10,000 employees",
)
ORG_TYPES = ("Privately Held", "Public Company", "Partnership", "Privately Held", "Nonprofit")
TAGLINES = (
    "Building what comes next.",
    "Trusted since day one.",
    "Simple tools for hard problems.",
    "We move things forward.",
    "Quality you can measure.",
    "People first, always.",
)


@dataclass(frozen=True)
class CorpusEntry:
    """A company of the world: its page exists only when ``has_page``."""

    name: str
    website: str
    industry: str
    has_page: bool = True


def _generated() -> list[CorpusEntry]:
    rng = rng_for("company-corpus")
    entries = []
    for root in ROOTS:
        kinds = rng.sample(KINDS, rng.randint(3, 6))
        for kind, industry in kinds:
            name = f"{root} {kind}{rng.choice(LEGAL)}"
            domain = slugify(f"{root}{kind}") if rng.random() < 0.5 else slugify(f"{root} {kind}")
            entries.append(CorpusEntry(name, f"https://www.{domain}{rng.choice(TLDS)}", industry))
    return entries


@lru_cache(maxsize=1)
def corpus() -> tuple[CorpusEntry, ...]:
    """Every company the sandbox knows, with and without a page."""
    entries: list[CorpusEntry] = []
    for family in FAMILIES.values():
        for index, (name, website) in enumerate(family):
            kind = KINDS[stable_hash(name) % len(KINDS)][1]
            entries.append(CorpusEntry(name, website, kind if index else "Information Technology"))
    entries.extend(_generated())
    entries.extend(
        CorpusEntry(name, site, "Small Business", has_page=False) for name, site in NO_PAGE
    )
    return tuple(entries)


@lru_cache(maxsize=1)
def pages() -> dict[str, models.Company]:
    """The network's company pages by slug (companies without a page are absent)."""
    cities = load_gazetteer().cities[:300]
    result: dict[str, models.Company] = {}
    for entry in corpus():
        if not entry.has_page:
            continue
        slug = slugify(entry.name)
        rng = rng_for("company", slug)
        size = rng.choice(SIZES)
        employees_cap = int(size.split("-")[1].split()[0].replace(",", ""))
        city = rng.choice(cities)
        topics = ["consulting", "software", "logistics", "data", "design", "retail", "research"]
        result[slug] = models.Company(
            slug=slug,
            name=entry.name,
            url=f"{NETWORK_URL}/{slug}",
            logo=f"{LOGO_HOST}/{slug}.png",
            tagline=rng.choice(TAGLINES),
            description=(
                f"{entry.name} is a {entry.industry.lower()} company headquartered in "
                f"{city.name}. Founded in {rng.randint(1965, 2021)}, it serves customers "
                f"in {rng.randint(2, 60)} countries."
            ),
            website=entry.website,
            industry=entry.industry,
            company_size=size,
            headquarters=f"{city.name}, {city.country_code}",
            organization_type=rng.choice(ORG_TYPES),
            specialties=", ".join(rng.sample(topics, 3)),
            followers=rng.randint(40, 250_000),
            employees_on_network=rng.randint(1, employees_cap),
            organization_id=str(stable_hash("org", slug) % 90_000_000 + 10_000_000),
        )
    return result


def is_flaky(slug: str) -> bool:
    """A deterministic few pages are always "momentarily unavailable"."""
    return stable_hash("flaky", slug) % 13 == 0 and not any(
        slug == slugify(name) for family in FAMILIES.values() for name, _ in family
    )
