"""Credits are the user's money: cache hits are free, nothing is paid for twice."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

import httpx
import pytest

from client_fakes import FakeService
from creditscope import models, operations
from creditscope.client.client import DataClient
from creditscope.client.errors import BudgetExceeded, InvalidRequest, OfflineMiss
from creditscope.client.records import CacheStatus


async def test_first_call_is_charged_and_second_is_a_free_hit(
    client: DataClient, service: FakeService
) -> None:
    params = {"location": "Lisbon", "cuisine": "thai"}
    first = await client.call(operations.RESTAURANT_SEARCH, params)
    second = await client.call(operations.RESTAURANT_SEARCH, params)

    assert isinstance(second.data, models.RestaurantSearch)
    assert second.data.results[0].name == "Tasca"
    assert (first.record.cache, first.record.credits_charged) == (CacheStatus.MISS, 2)
    assert first.record.remaining == 9_998
    assert (second.record.cache, second.record.credits_charged) == (CacheStatus.HIT, 0)
    assert second.record.credits_saved == 2
    assert len(service.requests) == 1
    totals = client.ledger.session_totals()
    assert (totals.spent, totals.saved, totals.calls) == (2, 2, 2)
    assert totals.by_operation["restaurants/search"].saved == 2


async def test_spelled_out_default_limit_hits_the_same_entry(
    client: DataClient, service: FakeService
) -> None:
    await client.call(operations.RESTAURANT_SEARCH, {"location": "Lisbon"})
    again = await client.call("restaurants/search", {"limit": 10, "location": "Lisbon"})
    as_text = await client.call("restaurants/search", {"location": "Lisbon", "limit": "10"})

    assert again.record.cache is CacheStatus.HIT
    assert as_text.record.cache is CacheStatus.HIT
    assert len(service.requests) == 1
    assert service.requests[0].url.params["limit"] == "10"


async def test_other_params_are_a_different_entry(client: DataClient, service: FakeService) -> None:
    await client.call(operations.RESTAURANT_SEARCH, {"location": "Lisbon", "limit": 5})
    await client.call(operations.RESTAURANT_SEARCH, {"location": "Lisbon", "limit": 6})
    assert len(service.requests) == 2


async def test_refresh_bypasses_the_cache_and_is_charged(
    client: DataClient, service: FakeService
) -> None:
    await client.call(operations.RESTAURANT_MENU, {"id": "r1"})
    assert client.cache_state("restaurants/menu", {"id": "r1"}) is CacheStatus.HIT
    refreshed = await client.call(operations.RESTAURANT_MENU, {"id": "r1"}, refresh=True)
    assert refreshed.record.cache is CacheStatus.REFRESH
    assert refreshed.record.credits_charged == 5
    assert len(service.requests) == 2


async def test_stale_entry_is_fetched_again_online(
    make_client: Callable[..., DataClient], service: FakeService
) -> None:
    client = make_client(ttls={"restaurants/details": 0})
    await client.call(operations.RESTAURANT_DETAILS, {"id": "r1"})
    assert client.cache_state("restaurants/details", {"id": "r1"}) is CacheStatus.STALE
    again = await client.call(operations.RESTAURANT_DETAILS, {"id": "r1"})
    assert again.record.cache is CacheStatus.MISS
    assert len(service.requests) == 2


async def test_offline_serves_stale_entries_and_refuses_misses(
    make_client: Callable[..., DataClient], service: FakeService
) -> None:
    online = make_client(ttls={"restaurants/reviews": 0})
    await online.call(operations.RESTAURANT_REVIEWS, {"id": "r1"})
    offline = make_client(offline=True, cache=online.cache)

    stale = await offline.call(operations.RESTAURANT_REVIEWS, {"id": "r1"})
    assert stale.record.cache is CacheStatus.STALE
    assert stale.record.credits_saved == 3
    assert stale.data.restaurant_id == "r1"
    with pytest.raises(OfflineMiss):
        await offline.call(operations.RESTAURANT_REVIEWS, {"id": "r2"})
    assert len(service.requests) == 1
    assert offline.ledger.session_records[-1].error_code == "offline_miss"


async def test_provider_requests_are_never_cached(client: DataClient, service: FakeService) -> None:
    await client.call(operations.PROVIDER_REQUESTS, {"name": "Mapsy", "url": "https://mapsy.example"})
    await client.call(operations.PROVIDER_REQUESTS, {"name": "Mapsy", "url": "https://mapsy.example"})
    assert len(service.requests) == 2
    assert client.cache_state("provider-requests", {"name": "Mapsy"}) is CacheStatus.NONE
    assert client.cache is not None and client.cache.stats().entries == 0


async def test_ten_concurrent_identical_calls_make_one_request(
    make_client: Callable[..., DataClient],
) -> None:
    slow = FakeService(delay=0.05)
    client = make_client(transport=slow.transport)
    results = await asyncio.gather(
        *(client.call(operations.FIND_COMPANY, {"name": "Acme", "website": "acme.example"})
          for _ in range(10))
    )
    assert len(slow.requests) == 1
    assert {r.data.matches[0].company_url for r in results} == {
        "https://net.example/company/acme"
    }
    charged = [r.record.credits_charged for r in results]
    assert sorted(charged) == [0] * 9 + [10]
    assert sum(r.record.credits_saved for r in results) == 90


async def test_validation_refuses_before_sending_and_costs_nothing(
    client: DataClient, service: FakeService
) -> None:
    with pytest.raises(InvalidRequest) as caught:
        await client.call(operations.RESTAURANT_SEARCH,
                          {"location": "Lisbon", "cuisine": "martian"})
    assert caught.value.field == "cuisine"
    with pytest.raises(InvalidRequest) as caught:
        await client.call(operations.EVENTS, {"lat": 91, "lng": 0})
    assert caught.value.field == "lat"
    assert service.requests == []
    refused = client.ledger.session_records[-1]
    assert (refused.credits_charged, refused.cache, refused.attempts) == (0, CacheStatus.NONE, 0)
    assert refused.error_code == "invalid_parameter"


async def test_budget_refuses_a_call_that_would_pass_it(
    make_client: Callable[..., DataClient], service: FakeService
) -> None:
    client = make_client(budget=12)
    await client.call(operations.RESTAURANT_MENU, {"id": "r1"})  # 5
    await client.call(operations.RESTAURANT_MENU, {"id": "r2"})  # 10
    with pytest.raises(BudgetExceeded) as caught:
        await client.call(operations.RESTAURANT_MENU, {"id": "r3"})
    assert (caught.value.price, caught.value.spent, caught.value.budget) == (5, 10, 12)
    assert len(service.requests) == 2
    # A hit is free, so the budget allows it.
    cached = await client.call(operations.RESTAURANT_MENU, {"id": "r1"})
    assert cached.record.cache is CacheStatus.HIT
    confirmed = await client.call(operations.RESTAURANT_MENU, {"id": "r3"},
                                  confirm_over_budget=True)
    assert confirmed.record.credits_charged == 5


async def test_catalog_prices_replace_the_spec_table(client: DataClient) -> None:
    assert client.price_of("restaurants/search") == 2
    await client.call(operations.CATALOG, {})
    assert client.price_of("restaurants/search") == 4
    assert client.price_of("restaurants/menu") == 5


def _catalog_pricing_search_at(credits: int, *others: dict[str, object]) -> httpx.Response:
    endpoints = [*others, {"name": "search", "method": "get", "path": "/restaurants/search",
                           "credits": credits}]
    body = {"providers": [{"id": "restaurants", "name": "Restaurants", "endpoints": endpoints}],
            "totalEndpoints": len(endpoints)}
    return httpx.Response(200, json=body)


async def test_a_catalog_price_of_zero_is_honoured_as_free(
    make_client: Callable[..., DataClient], service: FakeService
) -> None:
    """The service's catalog says search is free: the client stops charging the spec's 2 cr,
    so a session with no budget left can still search."""
    client = make_client(budget=0)
    service.script.append(_catalog_pricing_search_at(0))
    await client.call(operations.CATALOG, {})
    assert client.price_of("restaurants/search") == 0
    assert client.plan("restaurants/search", {"location": "Lisbon"}).cost == 0
    answer = await client.call(operations.RESTAURANT_SEARCH, {"location": "Lisbon"})
    assert answer.record.cache is CacheStatus.MISS


async def test_catalog_endpoints_this_client_does_not_call_change_no_price(
    client: DataClient, service: FakeService
) -> None:
    """A new endpoint, or another method on a known path, is listed before search: search
    still takes the catalog's price (lower-case method and all), nothing else moves."""
    service.script.append(_catalog_pricing_search_at(
        7, {"name": "nearby", "method": "GET", "path": "/restaurants/nearby", "credits": 1},
        {"name": "add", "method": "POST", "path": "/restaurants/menu", "credits": 99}))
    await client.call(operations.CATALOG, {})
    assert client.price_of("restaurants/search") == 7
    assert client.price_of("restaurants/menu") == 5


async def test_a_negative_catalog_price_is_ignored(
    client: DataClient, service: FakeService
) -> None:
    """A catalog entry below zero is nonsense: the spec's price stays."""
    service.script.append(_catalog_pricing_search_at(-1))
    await client.call(operations.CATALOG, {})
    assert client.price_of("restaurants/search") == 2


async def test_recent_lists_cached_lookups_newest_first(client: DataClient) -> None:
    await client.call(operations.FIND_COMPANY, {"name": "Acme"})
    time.sleep(0.01)
    await client.call(operations.FIND_COMPANY, {"name": "Globex", "website": "globex.example"})
    recent = await client.recent("professional_network/find_company")
    assert recent == [{"name": "Globex", "website": "globex.example"}, {"name": "Acme"}]


async def test_plan_masks_the_key_and_prices_the_call(client: DataClient) -> None:
    plan = client.plan("restaurants/search", {"location": "Lisbon"})
    assert plan.url == "https://api.example.test/restaurants/search?limit=10&location=Lisbon"
    assert plan.headers["X-API-Key"] == "sk_…9876"
    assert (plan.price, plan.cost, plan.cache) == (2, 2, CacheStatus.MISS)
