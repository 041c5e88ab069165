"""``find_company``: strip legal suffixes, run site-restricted searches, hydrate
the top hits and grade each one."""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from rapidfuzz import fuzz

from creditscope import models
from creditscope.gazetteer import fold
from creditscope.sandbox.companies import NETWORK_HOST, is_flaky, pages
from creditscope.sandbox.problems import invalid_parameter

HYDRATE_LIMIT = 5  # hits fetched in full and returned as matches
SEARCH_RESULTS = 10  # hits one name search returns
STRONG_NAME = 0.85  # name similarity above which a match without website conflict is "medium"
NAME_MAX = 200

LEGAL_SUFFIXES = (
    "limited",
    "ltd",
    "llc",
    "l l c",
    "inc",
    "incorporated",
    "plc",
    "gmbh",
    "corp",
    "corporation",
    "co",
    "company",
    "s a",
    "sa",
    "ag",
    "bv",
    "b v",
    "nv",
    "oy",
    "ab",
    "as",
    "srl",
    "s r l",
    "spa",
    "s p a",
    "sarl",
    "pty",
    "pty ltd",
    "kk",
    "lp",
    "llp",
)
_SUFFIX = re.compile(
    r"(?:[\s,]+(?:"
    + "|".join(re.escape(s).replace(r"\ ", r"[\s.]*") for s in LEGAL_SUFFIXES)
    + r")\.?)+\s*$",
    re.IGNORECASE,
)
_DOMAIN = re.compile(r"^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$")


def strip_legal_suffixes(name: str) -> str:
    """``"Northwind Labs Ltd."`` -> ``"Northwind Labs"``; keeps the name when only a suffix."""
    cleaned = " ".join(name.split()).strip(" ,")
    stripped = _SUFFIX.sub("", cleaned).strip(" ,&")
    return stripped or cleaned


def normalise_domain(website: str) -> str:
    """``"HTTPS://www.Northwind.com/about"`` -> ``"northwind.com"``."""
    text = website.strip()
    if "://" not in text:
        text = "http://" + text
    try:
        host = (urlsplit(text).hostname or "").lower().rstrip(".")
    except ValueError:  # e.g. an unbalanced "[" reads as a broken IPv6 literal
        return ""
    return host[4:] if host.startswith("www.") else host


def _comparable(name: str) -> str:
    return fold(strip_legal_suffixes(name))


def name_similarity(query: str, company_name: str) -> float:
    """0..1: how alike two company names are once suffixes, case and accents are gone."""
    return round(fuzz.ratio(_comparable(query), _comparable(company_name)) / 100, 3)


@dataclass(frozen=True)
class LookupRequest:
    """A validated find_company body."""

    name: str
    website: str | None


def validate(body: Any) -> LookupRequest:
    """Check the JSON body; errors are 400 ``invalid_parameter`` with a ``reason``."""
    if not isinstance(body, dict):
        raise invalid_parameter("body", "must be a JSON object", reason="body_not_object")
    unknown = sorted(set(body) - {"name", "website"})
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
        if len(website) > 500:
            raise invalid_parameter("website", "at most 500 characters", reason="website_too_long")
        if website.strip() == "":
            website = None
        elif not _DOMAIN.match(normalise_domain(website)):
            raise invalid_parameter(
                "website", "must be a domain or URL such as example.com", reason="website_invalid"
            )
    return LookupRequest(name=name, website=website)


def _serp(company: models.Company) -> tuple[str, str]:
    title = f"{company.name} | Company Page"
    snippet = (
        f"{company.name} | {company.followers:,} followers on the network. "
        f"{company.tagline} {company.industry} · {company.headquarters}."
    )
    return title, snippet


def find_company(
    request: LookupRequest, unavailable_rate: float, fault_rng: random.Random
) -> dict[str, Any]:
    """The find_company body: searches run, hits hydrated and graded, best first."""
    query = strip_legal_suffixes(request.name)
    queries = [f'site:{NETWORK_HOST}/company "{query}"']
    wanted = normalise_domain(request.website) if request.website else None
    everything = pages()
    folded_query = _comparable(query)
    scored = sorted(
        (
            (fuzz.WRatio(folded_query, _comparable(page.name or "")), slug)
            for slug, page in everything.items()
        ),
        key=lambda pair: (-pair[0], pair[1]),
    )
    hits = [slug for score, slug in scored[:SEARCH_RESULTS] if score >= 70]
    if wanted:
        queries.append(f'site:{NETWORK_HOST}/company "{wanted}"')
        site_hits = [
            slug
            for slug, page in sorted(everything.items())
            if normalise_domain(page.website or "") == wanted
        ]
        hits = site_hits + [slug for slug in hits if slug not in site_hits]
    matches = []
    for slug in hits[:HYDRATE_LIMIT]:
        page = everything[slug]
        title, snippet = _serp(page)
        unavailable = is_flaky(slug) or (
            unavailable_rate > 0 and fault_rng.random() < unavailable_rate
        )
        similarity = name_similarity(query, page.name or "")
        page_domain = normalise_domain(page.website or "")
        # Without the page we cannot see its website: never "high" then.
        website_match = bool(wanted) and not unavailable and page_domain == wanted
        if website_match:
            confidence = "high"
        elif similarity >= STRONG_NAME and not (wanted and not unavailable):
            confidence = "medium"
        else:
            confidence = "low"
        matches.append(
            models.Match(
                company_url=page.url or "",
                serp_title=title,
                serp_snippet=snippet,
                company=None if unavailable else page,
                website_match=website_match,
                name_similarity=similarity,
                confidence=confidence,
            )
        )
    rank = {"high": 0, "medium": 1, "low": 2}
    matches.sort(
        key=lambda m: (rank[m.confidence or "low"], -(m.name_similarity or 0), m.company_url)
    )
    return {
        "query": query,
        "queries": queries,
        "count": len(matches),
        "matches": [m.model_dump(mode="json") for m in matches],
    }
