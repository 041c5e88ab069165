"""The well-known companies: about 5,900 listed ones with their public facts.

``data/companies.tsv`` (derived by ``tools/derive_companies.py`` from the
pytickersymbols package and the FinanceDatabase repository's current and 2023
databases, both MIT, and a hand-checked supplement) gives each its name, the other
names it is searched
by (former, short and local-script names), its website, industry, headquarters,
employees and founding year, and the 100 largest their market-cap rank. Their
pages show those facts: the size band holds the real headcount, the
headquarters are the real city; only the network's own figures (followers,
employees on the network) and the industry's wording are derived, by stable
hashing as everywhere in the sandbox.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from creditscope import models
from creditscope.sandbox.company_pages import (
    SIZES,
    article,
    country_name,
    network_figures,
    page_links,
    page_slug,
)
from creditscope.sandbox.industries import BY_NAME
from creditscope.sandbox.naming import FILLER_WORDS, NameProfile, identity, profile
from creditscope.sandbox.places import slugify
from creditscope.sandbox.seeding import rng_for
from creditscope.sandbox.websites import registrable_matches, split_domain

WORLDWIDE_FROM = 10_001  # a company this large serves customers around the world
LISTED_SIZES = range(4, len(SIZES))  # a listed company without a headcount: 501 and up
MAX_COMMON_TLD = 3  # longer top-level domains are brands' own (global.toyota): no "www."


@dataclass(frozen=True)
class ListedCompany:
    """One row of ``companies.tsv``."""

    name: str
    domain: str
    industry: str
    city: str
    country: str
    employees: int | None
    founded: int | None
    rank: int | None
    aliases: tuple[str, ...]
    slug: str = ""  # its page's address on the network ("microsoft"), unique (see listed())

    @property
    def names(self) -> tuple[str, ...]:
        """Its name and the other names it is searched by."""
        return (self.name, *self.aliases)

    @property
    def website(self) -> str:
        """``"https://www.microsoft.com"``; a subdomain or a brand's own top-level domain
        (``global.toyota``) stays as it is."""
        domain = split_domain(self.domain)
        top = domain.suffix.rsplit(".", 1)[-1]
        plain = f"{domain.name}.{domain.suffix}" == self.domain and len(top) <= MAX_COMMON_TLD
        return f"https://www.{self.domain}" if plain else f"https://{self.domain}"

    @property
    def label(self) -> str:
        """Its name as its country sites spell it: ``"microsoft"``, ``"toyota"`` (global.toyota)."""
        name = split_domain(self.domain).name
        if registrable_matches(self.domain, self.name):
            return name
        distinctive = profile(self.name).distinctive
        return slugify(distinctive[0]) if distinctive else name


def _number(text: str) -> int | None:
    return int(text) if text.isdigit() else None


@lru_cache(maxsize=1)
def listed() -> tuple[ListedCompany, ...]:
    """Every well-known company, the largest first."""
    text = resources.files("creditscope.data").joinpath("companies.tsv").read_text("utf-8")
    found = []
    taken: set[str] = set()
    for line in text.splitlines():
        if not line or line.startswith("#"):
            continue
        name, domain, industry, city, country, employees, founded, rank, aliases = line.split(
            "\t"
        )
        slug = unique_slug(page_slug(name), country, taken)
        taken.add(slug)
        found.append(
            ListedCompany(
                name, domain, industry, city, country, _number(employees), _number(founded),
                _number(rank), tuple(a for a in aliases.split("; ") if a), slug,
            )
        )  # fmt: skip
    return tuple(found)


def unique_slug(slug: str, country: str, taken: set[str]) -> str:
    """``slug``, or when another company has it, with the country (``"eqt-se"``), then a number:
    two companies of one name (First Bancorp) keep their own pages."""
    if slug not in taken:
        return slug
    candidate = f"{slug}-{country.lower()}"
    number = 2
    while candidate in taken:
        candidate, number = f"{slug}-{country.lower()}-{number}", number + 1
    return candidate


@lru_cache(maxsize=1)
def listed_slugs() -> frozenset[str]:
    """The addresses of the well-known companies' pages: no invented company takes one."""
    return frozenset(company.slug for company in listed())


@lru_cache(maxsize=1)
def by_words() -> dict[tuple[str, ...], ListedCompany]:
    """Well-known companies by the folded words of each of their names (the largest wins)."""
    return _index(lambda name: profile(name).words)


def _index(key: Callable[[str], tuple[str, ...]]) -> dict[tuple[str, ...], ListedCompany]:
    """Companies by ``key`` of each of their names: current names before other (former)
    names, the largest first."""
    found: dict[tuple[str, ...], ListedCompany] = {}
    for company in listed():
        found.setdefault(key(company.name), company)
    for company in listed():
        for name in company.aliases:
            found.setdefault(key(name), company)
    found.pop((), None)
    return found


@lru_cache(maxsize=1)
def by_domain() -> dict[str, ListedCompany]:
    """Well-known companies by their website's domain."""
    return {company.domain: company for company in listed()}


@lru_cache(maxsize=1)
def profiles() -> tuple[tuple[ListedCompany, tuple[NameProfile, ...]], ...]:
    """Each company with the comparable forms of its names (what the name search scans)."""
    return tuple((c, tuple(profile(name) for name in c.names)) for c in listed())


@lru_cache(maxsize=1)
def by_identity() -> dict[tuple[str, ...], ListedCompany]:
    """Well-known companies by the words that say which company each of their names means,
    without the group or holding words (the largest wins)."""
    return _index(identity)


def _word_ends(name: NameProfile) -> set[str]:
    """Keys two names share whenever a word of one is a word of the other, or differs from it
    by a typo or a plural (an edit or two leave a word's first or last letters alone, or shift
    them by one: "Rogers", "Kroger"), or their letters run together are the same."""
    keys = {f"={name.compact}"}
    for word in name.words:
        if word not in FILLER_WORDS:  # "the", "and": they alone never make names alike
            keys.update((f"<{word[:2]}", f"<{word[1:3]}", f">{word[-2:]}", f">{word[-3:-1]}"))
    return keys


@lru_cache(maxsize=1)
def _by_word_ends() -> dict[str, tuple[int, ...]]:
    found: dict[str, set[int]] = {}
    for index, (_, names) in enumerate(profiles()):
        for name in names:
            for key in _word_ends(name):
                found.setdefault(key, set()).add(index)
    return {key: tuple(sorted(indexes)) for key, indexes in found.items()}


def profiles_like(wanted: NameProfile) -> list[tuple[ListedCompany, tuple[NameProfile, ...]]]:
    """The companies (with their names' profiles) whose names may be like ``wanted``: the
    name search compares only these, not all of them (a lookup stays fast). Measured on 3,000
    typos of the data's names, it keeps every look-alike the full scan finds but 9 faint
    ones (one word alike at the 0.8 floor, differing at both ends: "Australia", "Astral")."""
    index = _by_word_ends()
    found: set[int] = set()
    for key in _word_ends(wanted):
        found.update(index.get(key, ()))
    every = profiles()
    return [every[i] for i in sorted(found)]


def listed_named(name: str) -> ListedCompany | None:
    """The well-known company one of whose names has these words, if any: as written first,
    else with or without its group or holding words ("Volkswagen AG" is Volkswagen Group)."""
    return by_words().get(profile(name).words) or by_identity().get(identity(name))


def size_index(employees: int) -> int:
    """The index in ``SIZES`` of the band that holds ``employees``."""
    return next((i for i, (_, _, most) in enumerate(SIZES) if employees <= most), len(SIZES) - 1)


@lru_cache(maxsize=2048)
def listed_page(company: ListedCompany) -> models.Company:
    """The network's page of a well-known company: its public facts, the network's figures."""
    rng = rng_for("listed", company.slug, company.domain)
    industry = BY_NAME[company.industry]
    if company.employees:
        size, staff = size_index(company.employees), company.employees
    else:
        size = rng.choice(LISTED_SIZES)
        _, fewest, most = SIZES[size]
        staff = round(math.exp(rng.uniform(math.log(fewest), math.log(most))))
    on_network, followers = network_figures(rng, staff, industry)
    home = country_name(company.country)
    place = f"{company.city}, {home}"
    reach = "around the world" if staff >= WORLDWIDE_FROM else f"in {home} and beyond"
    founded = f"Founded in {company.founded}, it" if company.founded else "It"
    return models.Company(
        **page_links(company.slug),
        name=company.name,
        tagline=rng.choice(industry.taglines),
        description=(
            f"{company.name} is {article(industry.noun)} {industry.noun} headquartered in "
            f"{place}. {founded} {industry.offer} for customers {reach}."
        ),
        website=company.website,
        industry=industry.name,
        company_size=SIZES[size][0],
        headquarters=f"{company.city}, {company.country}",
        organization_type="Public Company",
        specialties=", ".join(rng.sample(industry.specialties, 3)),
        followers=followers,
        employees_on_network=on_network,
    )
