"""Every company page agrees with itself: the curated corpus and 1,000 generated names."""

from __future__ import annotations

import random

import pytest
from company_samples import generated_names

from creditscope import models
from creditscope.gazetteer import load_gazetteer
from creditscope.sandbox.companies import pages
from creditscope.sandbox.company_lookup import find_company, validate
from creditscope.sandbox.company_pages import (
    COUNTRIES_BY_FORM,
    FOLLOWERS_PER_EMPLOYEE,
    PUBLIC_FROM_SIZE,
    SIZES,
    legal_form_of,
)
from creditscope.sandbox.industries import BY_NAME, industry_of
from creditscope.sandbox.listed import listed, listed_page
from creditscope.sandbox.naming import profile
from creditscope.sandbox.websites import EU_COUNTRIES, normalise_domain, split_domain

# Written out by hand, not taken from the code under test.
CCTLD_COUNTRIES = {
    "co.uk": "GB", "uk": "GB", "de": "DE", "fr": "FR", "jp": "JP", "co.jp": "JP",
    "com.au": "AU", "in": "IN", "es": "ES", "ch": "CH", "nl": "NL", "pl": "PL", "it": "IT",
    "se": "SE", "com.br": "BR", "co.nz": "NZ", "com": None, "io": None, "net": None,
    "co": None, "ai": None, "dev": None, "studio": None, "eu": None,
}  # fmt: skip


@pytest.mark.parametrize(("suffix", "country"), sorted(CCTLD_COUNTRIES.items()))
def test_country_code_domains_name_their_country(suffix: str, country: str | None) -> None:
    domain = split_domain(f"www.example.{suffix}")
    assert (domain.name, domain.suffix, domain.country) == ("example", suffix, country)


def disagreements(page: models.Company) -> list[str]:
    """What is inconsistent on one page ([] when everything agrees)."""
    problems = []
    hq_country = (page.headquarters or "").rsplit(", ", 1)[-1]
    domain = split_domain(normalise_domain(page.website or ""))
    expected = CCTLD_COUNTRIES.get(domain.suffix, domain.country)
    if expected and hq_country != expected:
        problems.append(f"website {page.website} but headquarters {page.headquarters}")
    if domain.suffix == "eu" and hq_country not in EU_COUNTRIES:
        problems.append(f".eu website but headquarters {page.headquarters}")
    form = legal_form_of(page.name or "")
    if form in COUNTRIES_BY_FORM and hq_country not in COUNTRIES_BY_FORM[form]:
        problems.append(f"legal form {form!r} but headquarters {page.headquarters}")
    size = [s for s in SIZES if s[0] == page.company_size]
    staff = page.employees_on_network or 0
    followers = page.followers or 0
    if len(size) != 1 or not 1 <= staff <= size[0][2]:
        problems.append(f"{staff} employees on the network for {page.company_size}")
    elif staff < 0.3 * size[0][1] - 1:
        problems.append(f"only {staff} employees on the network for {page.company_size}")
    most = FOLLOWERS_PER_EMPLOYEE[1] * 4
    if not staff * FOLLOWERS_PER_EMPLOYEE[0] * 0.99 <= followers <= staff * most + 1:
        problems.append(f"{followers} followers for {staff} employees on the network")
    if page.organization_type == "Public Company" and (
        not size or SIZES.index(size[0]) < PUBLIC_FROM_SIZE
    ):
        problems.append(f"a public company of {page.company_size}")
    field = BY_NAME.get(page.industry or "")
    if field is None:
        return [*problems, f"unknown industry {page.industry}"]
    named = industry_of(profile(page.name or "").words)
    if named is not None and named is not field:
        problems.append(f"{page.name!r} is in {page.industry}")
    if page.tagline not in field.taglines:
        problems.append(f"tagline {page.tagline!r} is not from {field.name}")
    if not set((page.specialties or "").split(", ")) <= set(field.specialties):
        problems.append(f"specialties {page.specialties!r} are not from {field.name}")
    city = (page.headquarters or "").rsplit(", ", 1)[0]
    description = page.description or ""
    if field.noun not in description or field.offer not in description or city not in description:
        problems.append(f"description {description!r} is about another company")
    return problems


def test_every_curated_page_agrees_with_itself() -> None:
    problems = {slug: disagreements(page) for slug, page in pages().items()}
    assert {slug: found for slug, found in problems.items() if found} == {}


def test_every_page_of_400_generated_lookups_agrees_with_itself() -> None:
    seen: dict[str, models.Company] = {}
    for name, website in generated_names(400):
        body = find_company(validate({"name": name, "website": website}), 0.0, random.Random(0))
        for match in body["matches"]:
            if match["company"] is not None:
                page = models.Company.model_validate(match["company"])
                seen[page.url or ""] = page
    assert len(seen) > 400  # the companies themselves and their namesakes
    # Well-known companies show their real facts (test_sandbox_company_listed.py checks them).
    real = {listed_page(company).url for company in listed()}
    problems = {url: disagreements(page) for url, page in seen.items() if url not in real}
    assert {url: found for url, found in problems.items() if found} == {}


def test_headquarters_are_real_cities_of_their_country() -> None:
    gazetteer = load_gazetteer()
    places = {(c.name, c.country_code) for c in gazetteer.cities}
    for page in pages().values():
        city, country = (page.headquarters or "").rsplit(", ", 1)
        assert (city, country) in places, page.headquarters


def test_the_readme_contradiction_is_gone() -> None:
    page = pages()["northwind-labs-ltd"]
    assert page.website == "https://www.northwind-labs.co.uk"
    assert page.headquarters and page.headquarters.endswith(", GB")
    assert page.industry == "Research" and "research" in (page.description or "")
