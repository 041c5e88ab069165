"""``find_company``: strip legal suffixes, run site-restricted searches, hydrate
the top hits and grade each one.

The name search finds the company itself (curated, well-known or generated, see
:mod:`creditscope.sandbox.company_world`), its namesakes, and every known page
whose name (or a well-known company's other name: "Facebook" for Meta) is
similar enough; the website search finds the pages listing exactly that domain.
Grading follows the spec: ``high`` only when the page lists exactly the passed
website; ``medium`` for a name alike enough (``STRONG_NAME``) when no website
contradicts it, never for a name that resembles nothing the world knows
(:mod:`creditscope.sandbox.plausibility`), and when a well-known company's
name was typed in full, only for that company (not for "Neste" after
"Nestlé"), which is ``medium`` however its group word was typed ("Volkswagen
AG" for Volkswagen Group); ``low`` otherwise. An invented company never comes
before a real one of the same name.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from creditscope import models
from creditscope.sandbox.companies import is_flaky, pages
from creditscope.sandbox.company_pages import NETWORK_HOST
from creditscope.sandbox.company_world import Fate, WorldCompany, company_named, namesakes
from creditscope.sandbox.listed import by_domain, listed_page, profiles_like
from creditscope.sandbox.naming import (
    STRONG_NAME,
    name_similarity,
    profile,
    profile_similarity,
    strip_legal_suffixes,
)
from creditscope.sandbox.plausibility import is_nonsense
from creditscope.sandbox.problems import invalid_parameter
from creditscope.sandbox.websites import normalise_domain
from creditscope.web_hosts import website_problem
from creditscope.wording import counted

__all__ = [
    "HYDRATE_LIMIT",
    "LookupRequest",
    "find_company",
    "name_similarity",
    "normalise_domain",
    "strip_legal_suffixes",
    "validate",
]

HYDRATE_LIMIT = 5  # hits fetched in full and returned as matches
SEARCH_RESULTS = 10  # hits one name search returns
SEARCH_FLOOR = 0.3  # a page less similar than this is not a hit of the name search
# A well-known company shares at least a distinctive word ("Bakery" finds no "Baker Hughes").
LISTED_SEARCH_FLOOR = 0.5
NAME_MAX = models.max_length_of(models.FindCompanyRequest, "name")
WEBSITE_MAX = models.max_length_of(models.FindCompanyRequest, "website")
CONFIDENCE_RANK = {"high": 0, "medium": 1, "low": 2}


@dataclass(frozen=True)
class LookupRequest:
    """A validated find_company body."""

    name: str
    website: str | None


def validate(body: Any) -> LookupRequest:
    """Check the JSON body; errors are 400 ``invalid_parameter`` with a ``reason``."""
    if not isinstance(body, dict):
        raise invalid_parameter("body", "must be a JSON object", reason="body_not_object")
    unknown = sorted(set(body) - set(models.FindCompanyRequest.model_fields))
    if unknown:
        raise invalid_parameter(unknown[0], "unknown field", reason="unknown_field")
    name = body.get("name")
    if name is None:
        raise invalid_parameter("name", "is required", reason="name_required")
    if not isinstance(name, str):
        raise invalid_parameter("name", "must be a string", reason="name_not_string")
    if not name.strip():
        raise invalid_parameter("name", "must not be empty", reason="name_required")
    if len(name) > NAME_MAX:
        raise invalid_parameter("name", f"at most {NAME_MAX} characters", reason="name_too_long")
    website = body.get("website")
    if website is not None:
        if not isinstance(website, str):
            raise invalid_parameter("website", "must be a string", reason="website_not_string")
        if len(website) > WEBSITE_MAX:
            raise invalid_parameter(
                "website", f"at most {WEBSITE_MAX} characters", reason="website_too_long"
            )
        # The client's own rule (web_hosts): what it refuses locally, the service refuses
        # too, before any charge; an e-mail's domain is never taken for the website.
        problem = website_problem(website)
        if problem is not None:
            raise invalid_parameter("website", problem, reason="website_invalid")
        if website.strip() == "":
            website = None
    return LookupRequest(name=name, website=website)


def _serp(company: models.Company) -> tuple[str, str]:
    title = f"{company.name} | Company Page"
    followers = counted(company.followers or 0, "follower", grouped=True)
    snippet = (
        f"{company.name} | {followers} on the network. "
        f"{company.tagline} {company.industry} · {company.headquarters}."
    )
    return title, snippet


@dataclass(frozen=True)
class Hit:
    """A search hit: the page, whether it loads when hydrated, and the names it is found by."""

    page: models.Company
    unavailable: bool
    names: tuple[str, ...] = ()
    invented: bool = False  # a generated namesake: below a real company of the same name


def _hit(company: WorldCompany) -> Hit:
    invented = not company.known and company.listed is None
    return Hit(company.page, company.fate is Fate.UNAVAILABLE, company.names, invented)


def _name_hits(query: str, subject: WorldCompany, others: list[WorldCompany]) -> list[Hit]:
    """What the name search returns: the company itself, its namesakes, similar known pages."""
    wanted = profile(query)
    found: dict[str, tuple[float, Hit]] = {}
    if subject.fate is not Fate.NO_PAGE:
        # The company itself comes first, but an invented one never before a real company
        # whose name is exactly the one typed.
        first = 2.0 if subject.known or subject.listed is not None else 1.0
        found[subject.page.url or subject.slug] = (first, _hit(subject))
    for other in others:
        similarity = profile_similarity(wanted, profile(other.name))
        found.setdefault(other.page.url or other.slug, (similarity, _hit(other)))
    for slug, page in pages().items():
        similarity = profile_similarity(wanted, profile(page.name or ""))
        if similarity >= SEARCH_FLOOR and (page.url or slug) not in found:
            found[page.url or slug] = (similarity, Hit(page, is_flaky(slug)))
    for company, names in profiles_like(wanted):
        similarity = max(profile_similarity(wanted, name) for name in names)
        if similarity >= LISTED_SEARCH_FLOOR:
            page = listed_page(company)
            hit = Hit(page, False, company.names)
            found.setdefault(page.url or company.slug, (similarity, hit))
    ranked = sorted(found.items(), key=lambda item: (-item[1][0], item[1][1].invented, item[0]))
    return [hit for _, (_, hit) in ranked[:SEARCH_RESULTS]]


def _website_hits(wanted: str, subject: WorldCompany, others: list[WorldCompany]) -> list[Hit]:
    """What the website search returns: pages listing exactly that domain."""
    hits = [
        _hit(company)
        for company in (subject, *others)
        if company.fate is not Fate.NO_PAGE and normalise_domain(company.website) == wanted
    ]
    hits += [
        Hit(page, is_flaky(slug))
        for slug, page in sorted(pages().items())
        if normalise_domain(page.website or "") == wanted and slug != subject.slug
    ]
    listed = by_domain().get(wanted)
    if listed is not None:
        hits.append(Hit(listed_page(listed), False, listed.names))
    unique: dict[str, Hit] = {}
    for hit in hits:
        unique.setdefault(hit.page.url or "", hit)
    return list(unique.values())


def _grade(
    hit: Hit, query: str, wanted: str | None, unavailable: bool, credible: bool, exact: bool,
    subject: bool = False,
) -> models.Match:
    page = hit.page
    title, snippet = _serp(page)
    similarity = max(name_similarity(query, name) for name in hit.names or (page.name or "",))
    # Without the page we cannot see its website: never "high" then.
    listed = normalise_domain(page.website or "")
    website_match = bool(wanted) and not unavailable and listed == wanted
    if website_match:
        confidence = "high"
    elif (
        credible
        # the real company a name means, typed with or without its group word, is itself
        and (similarity >= STRONG_NAME or subject)
        and not (exact and similarity < 1 and not subject)
        and not (wanted and not unavailable)
    ):
        confidence = "medium"
    else:
        confidence = "low"
    return models.Match(
        company_url=page.url or "",
        serp_title=title,
        serp_snippet=snippet,
        company=None if unavailable else page,
        website_match=website_match,
        name_similarity=similarity,
        confidence=confidence,
    )


def find_company(
    request: LookupRequest, unavailable_rate: float, fault_rng: random.Random
) -> dict[str, Any]:
    """The find_company body: searches run, hits hydrated and graded, best first."""
    query = strip_legal_suffixes(request.name)
    queries = [f'site:{NETWORK_HOST}/company "{query}"']
    wanted = normalise_domain(request.website) if request.website else None
    subject = company_named(query, request.website)
    others = namesakes(subject, request.website)
    hits = _name_hits(query, subject, others)
    if wanted:
        queries.append(f'site:{NETWORK_HOST}/company "{wanted}"')
        site_hits = _website_hits(wanted, subject, others)
        site_urls = {hit.page.url for hit in site_hits}
        hits = site_hits + [hit for hit in hits if hit.page.url not in site_urls]
    credible = not is_nonsense(query)
    exact = subject.listed is not None  # a well-known name typed in full: look-alikes are low
    graded = []
    for hit in hits[:HYDRATE_LIMIT]:
        unavailable = hit.unavailable or (
            unavailable_rate > 0 and fault_rng.random() < unavailable_rate
        )
        itself = exact and hit.page.url == subject.page.url
        match = _grade(hit, query, wanted, unavailable, credible, exact, itself)
        graded.append((match, not itself, hit.invented))
    # Equally similar names: the company the name means (its current name before another's
    # former one: Fortis before Assurant, once Fortis) first, then real before invented.
    graded.sort(
        key=lambda graded_hit: (
            CONFIDENCE_RANK[graded_hit[0].confidence or "low"],
            -(graded_hit[0].name_similarity or 0), graded_hit[1], graded_hit[2],
            graded_hit[0].company_url,
        )
    )  # fmt: skip
    matches = [match for match, _, _ in graded]
    return {
        "query": query,
        "queries": queries,
        "count": len(matches),
        "matches": [m.model_dump(mode="json") for m in matches],
    }
