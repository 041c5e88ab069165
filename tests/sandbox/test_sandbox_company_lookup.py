"""find_company: suffix stripping, searches run, grading on similar-name families."""

from __future__ import annotations

import httpx
import pytest
from sandbox_support import AUTH, PATHS, AppFactory, client_for

from creditscope.sandbox.companies import FAMILIES, corpus, is_flaky, pages
from creditscope.sandbox.company_lookup import (
    HYDRATE_LIMIT,
    name_similarity,
    normalise_domain,
    strip_legal_suffixes,
)


@pytest.mark.parametrize(
    ("raw", "stripped"),
    [
        ("Northwind Labs Ltd", "Northwind Labs"),
        ("Northwind Labs Ltd.", "Northwind Labs"),
        ("Northwind Labs Limited", "Northwind Labs"),
        ("Contoso, Inc.", "Contoso"),
        ("Tailspin Aviation LLC", "Tailspin Aviation"),
        ("Contoso Bank PLC", "Contoso Bank"),
        ("Northwind Logistics GmbH", "Northwind Logistics"),
        ("Adatum Corp", "Adatum"),
        ("Fabrikam Co", "Fabrikam"),
        ("Woodgrove Capital S.A.", "Woodgrove Capital"),
        ("  Litware   Inc  ", "Litware"),
        ("Coconut Co Ltd", "Coconut"),
        ("Ltd", "Ltd"),  # nothing left: keep what was typed
    ],
)
def test_legal_suffixes_are_dropped(raw: str, stripped: str) -> None:
    assert strip_legal_suffixes(raw) == stripped


@pytest.mark.parametrize(
    "website",
    [
        "northwind.com",
        "https://www.northwind.com",
        "HTTP://WWW.Northwind.COM/about?x=1",
        "www.northwind.com/",
    ],
)
def test_domains_ignore_scheme_www_path_and_case(website: str) -> None:
    assert normalise_domain(website) == "northwind.com"


def test_corpus_has_families_and_companies_without_a_page() -> None:
    entries = corpus()
    assert 200 <= len(entries) <= 400
    assert len({e.website for e in entries}) == len(entries)  # every company its own site
    assert sum(not e.has_page for e in entries) >= 3
    northwinds = [e for e in entries if e.name.startswith("Northwind")]
    assert len(northwinds) >= 4 and len({normalise_domain(e.website) for e in northwinds}) == len(
        northwinds
    )


async def _lookup(http: httpx.AsyncClient, **body: str) -> dict[str, object]:
    answer = await http.post(PATHS["find_company"], json=body)
    assert answer.status_code == 200, answer.text
    return answer.json()


async def test_query_is_the_stripped_name_and_queries_are_listed(client: httpx.AsyncClient) -> None:
    by_name = await _lookup(client, name="Northwind Labs Ltd")
    assert by_name["query"] == "Northwind Labs"
    assert by_name["queries"] == ['site:network.example/company "Northwind Labs"']
    with_site = await _lookup(
        client, name="Northwind Labs Ltd", website="https://www.Northwind-Labs.co.uk/team"
    )
    assert with_site["queries"] == [
        'site:network.example/company "Northwind Labs"',
        'site:network.example/company "northwind-labs.co.uk"',
    ]


async def test_the_website_decides_the_high_match(client: httpx.AsyncClient) -> None:
    for name, website in FAMILIES["Northwind"]:
        body = await _lookup(client, name="Northwind", website=website)
        best = body["matches"][0]
        assert best["confidence"] == "high" and best["website_match"] is True
        assert best["company"]["name"] == name
        others = body["matches"][1:]
        assert others and all(m["confidence"] == "low" and not m["website_match"] for m in others)


async def test_strong_name_without_website_is_medium(client: httpx.AsyncClient) -> None:
    body = await _lookup(client, name="Northwind Traders Ltd")
    best = body["matches"][0]
    assert best["company"]["name"] == "Northwind Traders"
    assert best["confidence"] == "medium" and best["website_match"] is False
    assert best["name_similarity"] == 1.0
    assert all(m["confidence"] != "high" for m in body["matches"])
    similarities = [m["name_similarity"] for m in body["matches"]]
    assert similarities == sorted(similarities, reverse=True)
    assert all(0 <= s <= 1 for s in similarities)
    assert len(body["matches"]) <= HYDRATE_LIMIT and body["count"] == len(body["matches"])


async def test_website_conflict_makes_a_name_match_low(client: httpx.AsyncClient) -> None:
    body = await _lookup(client, name="Contoso", website="contoso-unknown.example")
    assert body["matches"] and all(m["confidence"] == "low" for m in body["matches"])


async def test_small_company_without_a_page_has_no_reliable_match(
    client: httpx.AsyncClient,
) -> None:
    body = await _lookup(client, name="Harbourside Bakery Ltd", website="harboursidebakery.co.uk")
    assert all(m["confidence"] == "low" for m in body["matches"])
    assert all(not m["website_match"] for m in body["matches"])


async def test_some_pages_are_momentarily_unavailable(client: httpx.AsyncClient) -> None:
    flaky = sorted(slug for slug in pages() if is_flaky(slug))
    assert 3 <= len(flaky) <= 30
    page = pages()[flaky[0]]
    body = await _lookup(client, name=page.name or "", website=page.website or "")
    match = next(m for m in body["matches"] if m["company_url"] == page.url)
    assert match["company"] is None and match["serp_title"] and match["confidence"] != "high"


async def test_unavailable_rate_one_hides_every_page(make_app: AppFactory) -> None:
    async with client_for(make_app(unavailable_rate=1.0)) as http:
        http.headers.update(AUTH)
        answer = await http.post(
            PATHS["find_company"], json={"name": "Contoso", "website": "contoso.com"}
        )
    body = answer.json()
    assert body["matches"] and all(m["company"] is None for m in body["matches"])
    assert answer.headers["X-Credits-Charged"] == "10"  # once, however many pages hydrate


async def test_lookup_errors_carry_a_reason(make_app: AppFactory) -> None:
    async with client_for(make_app(keys={"sk_poor": 5})) as http:
        unauth = await http.post(PATHS["find_company"], json={"name": "Contoso"})
        http.headers["X-API-Key"] = "sk_poor"
        poor = await http.post(PATHS["find_company"], json={"name": "Contoso"})
    assert unauth.json()["error"]["reason"] and poor.json()["error"]["reason"]
    assert poor.status_code == 402


def test_name_similarity_ignores_suffix_case_and_accents() -> None:
    assert name_similarity("NORTHWIND ltd", "Northwind") == 1.0
    assert name_similarity("Café Contoso", "Cafe Contoso GmbH") == 1.0
    assert 0 < name_similarity("Northwind", "Northwind Traders") < 0.85
