"""The same request, however typed, is paid for once; a website the service would refuse
is refused locally, free, and the sandbox refuses exactly the same values."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import httpx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from client_fakes import CountingTransport
from creditscope import operations
from creditscope.client import errors
from creditscope.client.cache import cache_key
from creditscope.client.client import DataClient
from creditscope.client.records import CacheStatus
from creditscope.client.validation import validate
from creditscope.sandbox import DEMO_KEY, SANDBOX_BASE_URL
from creditscope.sandbox.app import create_app
from creditscope.sandbox.company_lookup import validate as sandbox_validate
from creditscope.sandbox.config import SandboxConfig
from creditscope.sandbox.problems import ApiProblem
from creditscope.web_hosts import website_problem

FIND = "professional_network/find_company"
JUNK_WEBSITES = ("n/a", "-", "TBD", "https://", "info@example.co.uk", "not a site", "com",
                 "co.uk", "northwind.notatld")
GOOD_WEBSITES = ("northwind-labs.co.uk", "https://www.northwind-labs.co.uk/", "acme.example")


def sent(client: DataClient) -> int:
    transport = client._http._transport
    assert isinstance(transport, CountingTransport)
    return transport.count


async def test_lisbon_and_lisbon_share_one_cache_entry(
    sandbox_client: Callable[..., DataClient],
) -> None:
    client = sandbox_client()
    first = await client.call(operations.RESTAURANT_SEARCH, {"location": "Lisbon"})
    assert "location=Lisbon" in first.record.url  # sent as typed
    for typed in ("lisbon", " Lisbon ", "LISBON"):
        again = await client.call(operations.RESTAURANT_SEARCH, {"location": typed})
        assert (again.record.cache, again.record.credits_charged) == (CacheStatus.HIT, 0)
        assert again.data.total == first.data.total
    assert sent(client) == 1 and client.ledger.session_totals().spent == 2
    assert client.plan("restaurants/search", {"location": "lisbon "}).cost == 0


async def test_an_answer_cached_by_an_earlier_version_is_still_free(
    sandbox_client: Callable[..., DataClient],
) -> None:
    client = sandbox_client()
    first = await client.call(operations.RESTAURANT_SEARCH, {"location": "Lisbon"})
    assert client.cache is not None
    client.cache.clear()
    params = {"limit": 10, "location": "Lisbon"}  # the key was the parameters as sent
    client.cache.set(cache_key(SANDBOX_BASE_URL, "GET", "/restaurants/search", params),
                     operation="restaurants/search", params=params, body=first.record.raw_body
                     or "", status=200, headers={}, ttl=3600)
    again = await client.call(operations.RESTAURANT_SEARCH, {"location": "Lisbon"})
    assert (again.record.cache, again.data.total) == (CacheStatus.HIT, first.data.total)
    assert sent(client) == 1 and client.ledger.session_totals().spent == 2


async def test_near_duplicate_company_lookups_cost_once(
    sandbox_client: Callable[..., DataClient],
) -> None:
    client = sandbox_client()
    first = await client.call(operations.FIND_COMPANY, {
        "name": "Northwind Labs Ltd ", "website": "https://www.northwind-labs.co.uk/"})
    assert first.record.params == {"name": "Northwind Labs Ltd",  # trimmed, else as typed
                                   "website": "https://www.northwind-labs.co.uk/"}
    again = await client.call(operations.FIND_COMPANY, {
        "name": "northwind labs ltd", "website": "northwind-labs.co.uk"})
    assert again.record.cache is CacheStatus.HIT and again.data == first.data
    assert sent(client) == 1 and client.ledger.session_totals().spent == 10


async def test_variants_in_flight_together_are_sent_once(
    sandbox_client: Callable[..., DataClient],
) -> None:
    client = sandbox_client()
    results = await asyncio.gather(*(
        client.call(operations.RESTAURANT_SEARCH, {"location": typed}) for typed in
                                     ("Porto", "porto", " PORTO", "Porto ")))
    assert sent(client) == 1 and client.ledger.session_totals().spent == 2
    assert sorted(r.record.credits_charged for r in results) == [0, 0, 0, 2]


@pytest.mark.parametrize("website", JUNK_WEBSITES)
async def test_a_website_the_service_would_refuse_is_refused_free(
    sandbox_client: Callable[..., DataClient], website: str,
) -> None:
    client = sandbox_client()
    with pytest.raises(errors.InvalidRequest) as refused:
        await client.call(operations.FIND_COMPANY, {"name": "Northwind Labs", "website": website})
    # The shared rule's words (tests/core/test_request_identity.py), after the field's name.
    assert (refused.value.field, refused.value.message) == (
        "website", f"website {website_problem(website)}")
    with pytest.raises(errors.InvalidRequest):
        client.plan(FIND, {"name": "Northwind Labs", "website": website})  # never priced
    assert sent(client) == 0 and client.ledger.session_totals().spent == 0


async def test_the_sandbox_refuses_exactly_what_the_client_refuses_and_charges_nothing() -> None:
    app = create_app(SandboxConfig(keys={DEMO_KEY: 1_000}))
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app),
                                 base_url=SANDBOX_BASE_URL) as http:
        for website in JUNK_WEBSITES:
            answer = await http.post(f"/{FIND}", headers={"X-API-Key": DEMO_KEY},
                                     json={"name": "Northwind Labs", "website": website})
            assert answer.status_code == 400, website
            assert answer.json()["error"]["reason"] == "website_invalid"
        remaining = []
        for website in GOOD_WEBSITES:
            answer = await http.post(f"/{FIND}", headers={"X-API-Key": DEMO_KEY},
                                     json={"name": "Northwind Labs", "website": website})
            assert answer.status_code == 200, website
            remaining.append(int(answer.headers["X-Credits-Remaining"]))
    assert remaining == [990, 980, 970]  # the refusals cost nothing


def client_refuses(website: str) -> bool:
    try:
        validate(FIND, {"name": "Acme", "website": website})
    except errors.InvalidRequest:
        return True
    return False


def sandbox_refuses(website: str) -> bool:
    try:
        sandbox_validate({"name": "Acme", "website": website})
    except ApiProblem:
        return True
    return False


# What lands in a website cell: real sites, placeholders, e-mails, URLs, typos.
CELLS = st.one_of(
    st.sampled_from([*JUNK_WEBSITES, *GOOD_WEBSITES, "", "  ", "www.com", "x.co", "a@b",
                     "http://[", "ftp://acme.com", "acme.com:99999", "ACME.COM."]),
    st.text(alphabet=st.sampled_from("abcxyz.-/:@ w"), max_size=24),
    st.builds(lambda a, b: f"{a}.{b}", st.from_regex(r"[a-z]{1,8}", fullmatch=True),
              st.sampled_from(["com", "co.uk", "uk", "notatld", "example", "io", "1"])),
)


@settings(max_examples=300, deadline=None)
@given(website=CELLS)
def test_the_client_refuses_a_website_exactly_when_the_service_would(website: str) -> None:
    assert client_refuses(website) == sandbox_refuses(website)


@pytest.mark.parametrize("typed", ["Contoso\u200b Ltd", "Contoso\u00a0Ltd", "\ufeffContoso Ltd",
                                   "Con\u200dtoso\u2060 Ltd"])
async def test_an_invisible_character_costs_nothing_when_the_name_is_cached(
    sandbox_client: Callable[..., DataClient], typed: str,
) -> None:
    client = sandbox_client()
    first = await client.call(operations.FIND_COMPANY, {"name": "Contoso Ltd"})
    again = await client.call(operations.FIND_COMPANY, {"name": typed})
    assert again.record.cache is CacheStatus.HIT and again.data == first.data
    assert again.record.params == {"name": "Contoso Ltd"}  # folded before it would be sent
    assert sent(client) == 1 and client.ledger.session_totals().spent == 10


async def test_a_bidi_override_in_a_name_is_refused_free_naming_it(
    sandbox_client: Callable[..., DataClient],
) -> None:
    client = sandbox_client()
    with pytest.raises(errors.InvalidRequest) as refused:
        await client.call(operations.FIND_COMPANY, {"name": "Contoso\u202e Ltd"})
    assert "U+202E RIGHT-TO-LEFT OVERRIDE" in refused.value.message
    assert sent(client) == 0 and client.ledger.session_totals().spent == 0
