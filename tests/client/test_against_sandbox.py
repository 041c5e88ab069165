"""The client against the real sandbox app, in-process (ASGI transport, no port)."""

from __future__ import annotations

import asyncio
import stat
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest

from client_fakes import CountingTransport
from creditscope import models, operations
from creditscope.client import errors
from creditscope.client.cache import CACHE_FORMAT
from creditscope.client.client import DataClient
from creditscope.client.records import CacheStatus
from creditscope.sandbox import DEMO_KEY, REVOKED_KEY
from creditscope.sandbox.app import create_app
from creditscope.sandbox.config import SandboxConfig
from creditscope.settings import Settings, load_settings, save_settings
from creditscope.wiring import build_client

LIVE_KEY = "sk_live_do_not_leak_31415926"


async def test_all_eight_operations_return_typed_results(
    sandbox_client: Callable[..., DataClient],
) -> None:
    client = sandbox_client()
    events = await client.call(operations.EVENTS, {"lat": 38.72, "lng": -9.14, "limit": 5})
    assert isinstance(events.data, models.EventFeed) and len(events.data.events) <= 5
    search = await client.call(operations.RESTAURANT_SEARCH,
                               {"location": "Lisbon", "cuisine": "thai"})
    assert isinstance(search.data, models.RestaurantSearch) and search.data.results
    rid = search.data.results[0].id
    details = await client.call(operations.RESTAURANT_DETAILS, {"id": rid})
    assert isinstance(details.data, models.RestaurantDetails) and details.data.id == rid
    menu = await client.call(operations.RESTAURANT_MENU, {"id": rid})
    assert isinstance(menu.data, models.Menu) and menu.data.restaurant_id == rid
    reviews = await client.call(operations.RESTAURANT_REVIEWS, {"id": rid, "limit": 3})
    assert isinstance(reviews.data, models.Reviews) and len(reviews.data.reviews) <= 3
    company = await client.call(operations.FIND_COMPANY,
                                {"name": "Acme Ltd", "website": "acme.example"})
    assert isinstance(company.data, models.CompanyLookup)
    catalog = await client.call(operations.CATALOG, {})
    assert isinstance(catalog.data, models.Catalog) and catalog.data.totalEndpoints == 8
    created = await client.call(operations.PROVIDER_REQUESTS,
                                {"name": "Mapsy", "url": "https://mapsy.example"})
    assert isinstance(created.data, models.ProviderRequestCreated)
    assert created.data.ok and created.data.id.startswith("preq_")

    charged = [r.credits_charged for r in client.ledger.session_records]
    assert charged == [3, 2, 2, 5, 3, 10, 0, 0]
    assert client.ledger.remaining == 10_000 - 25
    assert all(r.request_id for r in client.ledger.session_records)


async def test_cache_hit_is_free_and_saved_against_the_sandbox(
    sandbox_client: Callable[..., DataClient],
) -> None:
    client = sandbox_client()
    await client.call(operations.RESTAURANT_SEARCH, {"location": "Porto"})
    hit = await client.call("restaurants/search", {"location": "Porto", "limit": 10})
    assert (hit.record.cache, hit.record.credits_charged, hit.record.credits_saved) == (
        CacheStatus.HIT, 0, 2)
    assert client.ledger.session_totals().spent == 2


async def test_ten_concurrent_calls_reach_the_sandbox_once(
    sandbox_client: Callable[..., DataClient],
) -> None:
    client = sandbox_client()
    results = await asyncio.gather(
        *(client.call(operations.RESTAURANT_SEARCH, {"location": "Lisbon"}) for _ in range(10)))
    transport = client._http._transport
    assert isinstance(transport, CountingTransport) and transport.count == 1
    assert len({r.data.total for r in results}) == 1
    assert client.ledger.session_totals().spent == 2


async def test_sandbox_errors_map_to_their_classes(
    sandbox_client: Callable[..., DataClient],
) -> None:
    with pytest.raises(errors.InvalidApiKey):
        await sandbox_client(key=REVOKED_KEY).call(operations.RESTAURANT_DETAILS, {"id": "x"})
    with pytest.raises(errors.InvalidApiKey):
        await sandbox_client(key="sk_unknown_key_0000").call(operations.RESTAURANT_MENU,
                                                             {"id": "x"})
    with pytest.raises(errors.NotFound):
        await sandbox_client().call(operations.RESTAURANT_DETAILS, {"id": "no_such_restaurant"})
    poor = sandbox_client(keys={DEMO_KEY: 4})
    found = await poor.call(operations.RESTAURANT_SEARCH, {"location": "Lisbon"})  # 2 of 4 credits
    rid = found.data.results[0].id
    with pytest.raises(errors.InsufficientCredits) as caught:
        await poor.call(operations.RESTAURANT_MENU, {"id": rid})  # 5 credits
    assert caught.value.record is not None and caught.value.record.credits_charged == 0


async def test_default_settings_build_the_in_process_sandbox(
    isolated_dirs: dict[str, Path],
) -> None:
    settings, _ = load_settings()
    async with build_client(settings) as client:
        assert client.is_sandbox and client.key_hint == "sk_…4242"
        result = await client.call(operations.RESTAURANT_SEARCH, {"location": "Lisbon"})
        assert result.record.credits_charged == 2
    assert (isolated_dirs["data"] / "creditscope" / "sandbox.sqlite3").exists()
    assert list((isolated_dirs["cache"] / "creditscope" / CACHE_FORMAT).iterdir())


async def test_the_key_is_only_ever_in_the_0600_config_file(
    isolated_dirs: dict[str, Path],
) -> None:
    settings = Settings(base_url="https://api.example.test", api_key=LIVE_KEY)  # type: ignore[arg-type]
    config = save_settings(settings)
    loaded, _ = load_settings()
    app = create_app(SandboxConfig(keys={LIVE_KEY: 100}))
    async with build_client(loaded, transport=httpx.ASGITransport(app=app)) as client:
        await client.call(operations.RESTAURANT_SEARCH, {"location": "Lisbon"})
        await client.call(operations.RESTAURANT_SEARCH, {"location": "Lisbon"})  # hit
        await client.call(operations.FIND_COMPANY, {"name": "Acme", "website": "acme.example"})
        await client.call(operations.CATALOG, {})
        with pytest.raises(errors.NotFound):
            await client.call(operations.RESTAURANT_MENU, {"id": "missing"})
        with pytest.raises(errors.InvalidRequest):
            await client.call(operations.RESTAURANT_MENU, {"id": ""})
        assert LIVE_KEY not in repr(client)
        for rec in client.ledger.session_records:
            assert LIVE_KEY not in repr(rec)
        client.ledger.close()
        assert client.cache is not None
        client.cache.close()

    holders = [
        path for root in isolated_dirs.values() for path in root.rglob("*")
        if path.is_file() and LIVE_KEY.encode() in path.read_bytes()
    ]
    assert holders == [config]
    assert stat.S_IMODE(config.stat().st_mode) == 0o600
