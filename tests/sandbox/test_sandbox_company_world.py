"""Any company name answers plausibly, and the same on every machine."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from typing import Any

import httpx
import pytest
from company_samples import generated_names
from sandbox_support import PATHS

from creditscope.sandbox.company_lookup import find_company, validate
from creditscope.sandbox.company_world import Fate, company_named, fate_of

WELL_KNOWN = (
    "Acme", "Google", "Stripe", "Shopify", "Microsoft", "Apple", "Amazon", "Netflix",
    "Spotify", "Airbnb", "Siemens", "Toyota", "Nestlé", "Samsung", "Coca-Cola", "IBM",
)  # fmt: skip


def lookup(name: str, website: str | None = None) -> dict[str, Any]:
    """The find_company body for ``name`` (and ``website``), without HTTP."""
    body = {"name": name} | ({"website": website} if website else {})
    return find_company(validate(body), 0.0, random.Random(0))


@pytest.mark.parametrize("name", WELL_KNOWN)
def test_well_known_names_have_a_page(name: str) -> None:
    body = lookup(name)
    best = body["matches"][0]
    assert best["company"] is not None and best["name_similarity"] == 1.0
    assert best["confidence"] == "medium"


# Brand names the sandbox invents a company for (real ones: test_sandbox_company_listed.py).
INVENTED = ("Acme", "Stripe", "Zalora Foods", "Brightline", "Quillbot")


@pytest.mark.parametrize("name", INVENTED)
@pytest.mark.parametrize("tld", ["com", "io", "co.uk", "de"])
def test_invented_names_with_their_website_are_high(name: str, tld: str) -> None:
    label = "".join(ch for ch in name.lower() if ch.isalnum()).replace("é", "e")
    body = lookup(name, f"https://www.{label}.{tld}/")
    best = body["matches"][0]
    assert best["confidence"] == "high" and best["website_match"] is True
    assert best["company"]["website"].endswith(f"{label}.{tld}")
    assert [m["confidence"] for m in body["matches"]].count("high") == 1


@pytest.mark.parametrize(
    "website", ["acme-foods.com", "acmecorp.com", "getacme.io", "acme.example", "northwind.com"]
)
def test_the_company_lists_the_passed_website_only_when_it_bears_its_name(website: str) -> None:
    own = {"acmecorp.com", "getacme.io", "acme.example"}
    body = lookup("Acme", website)
    subject = next(m for m in body["matches"] if m["company"] and m["company"]["name"] == "Acme")
    assert subject["website_match"] is (website in own)
    if website == "northwind.com":  # another company's site: that company is the high match
        assert body["matches"][0]["company"]["name"] == "Northwind"


def test_a_website_of_another_country_moves_the_headquarters() -> None:
    for tld, country in [("co.uk", "GB"), ("de", "DE"), ("co.jp", "JP"), ("com.au", "AU")]:
        best = lookup("Acme", f"acme.{tld}")["matches"][0]["company"]
        assert best["headquarters"].endswith(f", {country}"), (tld, best["headquarters"])


def test_namesakes_come_from_other_trades_and_countries() -> None:
    rows = [m["company"] for m in lookup("Acme")["matches"][1:] if m["company"]]
    assert rows, "Acme has namesakes"
    assert all(row["name"].startswith("Acme ") for row in rows)
    assert len({row["industry"] for row in rows}) == len(rows)


def test_a_namesake_looked_up_directly_is_the_same_page() -> None:
    checked = 0
    for name, _ in generated_names(60, seed=3):
        for match in lookup(name)["matches"][1:]:
            page = match["company"]
            if page is None or page["url"].split("/")[-1] != company_named(page["name"]).slug:
                continue
            again = lookup(page["name"])["matches"][0]["company"]
            assert again == page
            checked += 1
    assert checked >= 20


def test_some_names_have_no_page_and_some_pages_are_unavailable() -> None:
    samples = generated_names(1000)
    fates = [fate_of(company_named(name).name) for name, _ in samples]
    no_page = fates.count(Fate.NO_PAGE) / len(fates)
    unavailable = fates.count(Fate.UNAVAILABLE) / len(fates)
    assert 0.05 <= no_page <= 0.25 and 0.01 <= unavailable <= 0.1, (no_page, unavailable)


def test_a_small_company_without_a_page_gets_only_low_matches_or_none() -> None:
    small = [name for name, _ in generated_names(400) if fate_of(name) is Fate.NO_PAGE]
    assert len(small) >= 20
    counts = []
    for name in small:
        site = "".join(ch for ch in name.lower() if ch.isalnum()) + ".com"
        for body in (lookup(name), lookup(name, site)):
            assert all(m["confidence"] == "low" for m in body["matches"]), (name, body)
            counts.append(body["count"])
    assert 0 in counts and any(counts)


def test_an_unavailable_page_is_a_null_company() -> None:
    name = next(n for n, _ in generated_names(400) if fate_of(n) is Fate.UNAVAILABLE)
    best = lookup(name)["matches"][0]
    assert best["company"] is None and best["serp_title"].endswith("| Company Page")
    assert best["name_similarity"] == 1.0 and best["confidence"] == "medium"


def test_same_name_same_answer_in_another_process_with_another_hash_seed() -> None:
    names = ["Acme", "Blue Heron Consulting", "Zanjo Studio B.V.", "شركة الاتصالات", "🚀"]
    script = (
        "import json, random, sys\n"
        "from creditscope.sandbox.company_lookup import find_company, validate\n"
        "names = json.loads(sys.argv[1])\n"
        "print(json.dumps([find_company(validate({'name': n}), 0.0, random.Random(0))"
        " for n in names]))\n"
    )
    answers = []
    for seed in ("1", "4242"):
        run = subprocess.run(
            [sys.executable, "-c", script, json.dumps(names)],
            capture_output=True, text=True, check=True, timeout=120,
            env={**os.environ, "PYTHONHASHSEED": seed},
        )
        answers.append(json.loads(run.stdout))
    assert answers[0] == answers[1] == [lookup(name) for name in names]


BAD_NAMES = [
    "A", "x" * 200, "Ltd", "Ltd.", "Inc", "12345", "0", "🚀", "🚀🚀 Rocket", "شركة الاتصالات",
    "חברה בע\"מ", "東京電機", "&&&", "- . -", "Ω", "The", "\u200b", "Northwind\u00a0Labs",
]  # fmt: skip
BAD_WEBSITES = [
    "acme.io:8080", "https://acme.io:8443/about?x=1#top", "www.acme.io", "ACME.IO",
    "HTTPS://WWW.ACME.IO/", "bücher.de", "https://münchen-bäckerei.de/shop", "例え.jp",
    "xn--bcher-kva.de", "acme.io:99999", "acme.io.", "http://[::1]", "localhost", "10.0.0.1",
    "acme", "acme..io", "http://", "   ",
]  # fmt: skip


@pytest.mark.parametrize("name", BAD_NAMES)
async def test_odd_names_are_answered_in_the_spec_shape(
    client: httpx.AsyncClient, name: str
) -> None:
    answer = await client.post(PATHS["find_company"], json={"name": name})
    assert answer.status_code in (200, 400), answer.text
    body = answer.json()
    if answer.status_code == 400:
        assert body["error"]["code"] == "invalid_parameter" and body["error"]["reason"]
        assert answer.headers.get("X-Credits-Charged", "0") == "0"  # nothing charged
        return
    assert set(body) == {"query", "queries", "count", "matches"}
    assert body["count"] == len(body["matches"]) <= 5
    assert all(0 <= m["name_similarity"] <= 1 for m in body["matches"])


@pytest.mark.parametrize("website", BAD_WEBSITES)
async def test_odd_websites_are_answered_in_the_spec_shape(
    client: httpx.AsyncClient, website: str
) -> None:
    answer = await client.post(PATHS["find_company"], json={"name": "Acme", "website": website})
    assert answer.status_code in (200, 400), answer.text
    if answer.status_code == 400:
        assert answer.json()["error"]["reason"] == "website_invalid"
        assert answer.headers.get("X-Credits-Charged", "0") == "0"  # nothing charged
    else:
        assert answer.headers["X-Credits-Charged"] == "10"
        assert answer.json()["matches"]


@pytest.mark.parametrize(
    "website", ["acme.io:8080", "www.acme.io", "ACME.IO", "https://acme.io:8443/about?x=1#top"]
)
def test_port_path_www_and_case_do_not_hide_the_website(website: str) -> None:
    assert lookup("Acme", website)["matches"][0]["confidence"] == "high"


@pytest.mark.parametrize(
    ("name", "website"),
    [
        ("Bücher", "bücher.de"),
        ("Bücher", "xn--bcher-kva.de"),
        ("München Bäckerei Lab", "münchen-bäckerei.de"),
    ],
)
def test_international_domains_match_their_company(name: str, website: str) -> None:
    best = lookup(name, website)["matches"][0]
    assert best["confidence"] == "high"
    assert best["company"]["website"].endswith(".de")
