"""The client against the real sandbox app, in-process (ASGI transport, no port)."""

from __future__ import annotations

import asyncio
import stat
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import httpx
import pytest

from client_fakes import InstantRetry
from creditscope import models
from creditscope.client import errors
from creditscope.client.cache import CACHE_FORMAT, ResponseCache
from creditscope.client.client import DataClient
from creditscope.client.ledger import CreditLedger
from creditscope.client.records import CacheStatus
from creditscope.sandbox import DEMO_KEY, REVOKED_KEY, SANDBOX_BASE_URL
from creditscope.sandbox.app import create_app
from creditscope.sandbox.config import SandboxConfig
from creditscope.settings import Settings, load_settings, save_settings
from creditscope.wiring import build_client

LIVE_KEY = "sk_live_do_not_leak_31415926"


class CountingTransport(httpx.AsyncBaseTransport):
    """Wraps a transport and counts the requests that reach it."""

    def __init__(self, inner: httpx.AsyncBaseTransport) -> None:
        self.inner = inner
        self.count = 0

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        self.count += 1
        return await self.inner.handle_async_request(request)


@pytest.fixture
async def sandbox_client(tmp_path: Path) -> AsyncIterator[Callable[..., DataClient]]:
    made: list[DataClient] = []

    def make(keys: dict[str, int] | None = None, key: str = DEMO_KEY) -> DataClient:
        app = create_app(SandboxConfig(keys=keys or {DEMO_KEY: 10_000}))
        client = DataClient(
            SANDBOX_BASE_URL, key,
            transport=CountingTransport(httpx.ASGITransport(app=app)),
            cache=ResponseCache(tmp_path / f"cache{len(made)}"),
            ledger=CreditLedger(None), retry_policy=InstantRetry(), is_sandbox=True,
        )
        made.append(client)
        return client

    yield make
    for client in made:
        await client.aclose()


async def test_all_eight_operations_return_typed_results(
    sandbox_client: Callable[..., DataClient],
) -> None:
    client = sandbox_client()
    events = await client.discover_events(lat=38.72, lng=-9.14, limit=5)
    assert isinstance(events.data, models.EventFeed) and len(events.data.events) <= 5
    search = await client.search_restaurants("Lisbon", cuisine="thai")
    assert isinstance(search.data, models.RestaurantSearch) and search.data.results
    rid = search.data.results[0].id
    details = await client.restaurant_details(rid)
    assert isinstance(details.data, models.RestaurantDetails) and details.data.id == rid
    menu = await client.restaurant_menu(rid)
    assert isinstance(menu.data, models.Menu) and menu.data.restaurant_id == rid
    reviews = await client.restaurant_reviews(rid, limit=3)
    assert isinstance(reviews.data, models.Reviews) and len(reviews.data.reviews) <= 3
    company = await client.find_company("Acme Ltd", website="acme.example")
    assert isinstance(company.data, models.CompanyLookup)
    catalog = await client.catalog()
    assert isinstance(catalog.data, models.Catalog) and catalog.data.totalEndpoints == 8
    created = await client.request_provider("Mapsy", url="https://mapsy.example")
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
    await client.search_restaurants("Porto")
    hit = await client.call("restaurants/search", {"location": "Porto", "limit": 10})
    assert (hit.record.cache, hit.record.credits_charged, hit.record.credits_saved) == (
        CacheStatus.HIT, 0, 2)
    assert client.ledger.session_totals().spent == 2


async def test_ten_concurrent_calls_reach_the_sandbox_once(
    sandbox_client: Callable[..., DataClient],
) -> None:
    client = sandbox_client()
    results = await asyncio.gather(*(client.search_restaurants("Lisbon") for _ in range(10)))
    transport = client._http._transport
    assert isinstance(transport, CountingTransport) and transport.count == 1
    assert len({r.data.total for r in results}) == 1
    assert client.ledger.session_totals().spent == 2


async def test_sandbox_errors_map_to_their_classes(
    sandbox_client: Callable[..., DataClient],
) -> None:
    with pytest.raises(errors.InvalidApiKey):
        await sandbox_client(key=REVOKED_KEY).restaurant_details("x")
    with pytest.raises(errors.InvalidApiKey):
        await sandbox_client(key="sk_unknown_key_0000").restaurant_menu("x")
    with pytest.raises(errors.NotFound):
        await sandbox_client().restaurant_details("no_such_restaurant")
    poor = sandbox_client(keys={DEMO_KEY: 4})
    rid = (await poor.search_restaurants("Lisbon")).data.results[0].id  # 2 of 4 credits
    with pytest.raises(errors.InsufficientCredits) as caught:
        await poor.restaurant_menu(rid)  # 5 credits
    assert caught.value.record is not None and caught.value.record.credits_charged == 0


async def test_default_settings_build_the_in_process_sandbox(
    isolated_dirs: dict[str, Path],
) -> None:
    settings, _ = load_settings()
    async with build_client(settings) as client:
        assert client.is_sandbox and client.key_hint == "sk_…4242"
        result = await client.search_restaurants("Lisbon")
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
        await client.search_restaurants("Lisbon")
        await client.search_restaurants("Lisbon")  # hit
        await client.find_company("Acme", website="acme.example")
        await client.catalog()
        with pytest.raises(errors.NotFound):
            await client.restaurant_menu("missing")
        with pytest.raises(errors.InvalidRequest):
            await client.restaurant_menu("")
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
