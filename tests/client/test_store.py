"""The store: prices from memory that follow what this process and others write, and a
thread that runs every job in order, even one whose caller gave up (issue 35)."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from client_fakes import FakeService
from creditscope import operations
from creditscope.client import store as store_module
from creditscope.client.answer_store import answer_key
from creditscope.client.cache import ResponseCache
from creditscope.client.client import DataClient
from creditscope.client.records import CacheStatus
from creditscope.client.store_thread import StoreThread

LISBON = {"location": "Lisbon"}


async def looked_again(client: DataClient) -> CacheStatus:
    """The state after the store has had its chance to look for other processes' writes."""
    client.cache_state(operations.RESTAURANT_SEARCH.name, LISBON)  # asks for a look
    await client.store.run(lambda: None)  # the look is done
    return client.cache_state(operations.RESTAURANT_SEARCH.name, LISBON)


async def test_an_answer_this_client_stores_is_priced_cached_at_once(
    client: DataClient, service: FakeService,
) -> None:
    assert client.cache_state(operations.RESTAURANT_SEARCH.name, LISBON) is CacheStatus.MISS
    await client.call(operations.RESTAURANT_SEARCH, LISBON)
    assert client.cache_state(operations.RESTAURANT_SEARCH.name, LISBON) is CacheStatus.HIT
    assert client.plan(operations.RESTAURANT_SEARCH.name, LISBON).cost == 0


async def test_another_process_writing_or_clearing_the_cache_reaches_the_prices(
    make_client: Callable[..., DataClient], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(store_module, "REFRESH_EVERY", 0.0)  # look at every lookup
    client = make_client()
    other = ResponseCache(tmp_path / "cache" / "v1")  # its own connection, as another process
    assert await looked_again(client) is CacheStatus.MISS
    clean = client.validate(operations.RESTAURANT_SEARCH.name, LISBON)
    other.set(answer_key(client.base_url, operations.RESTAURANT_SEARCH, clean),
              operation=operations.RESTAURANT_SEARCH.name, params=clean,
              body='{"results": [], "total": 0}', status=200, headers={}, ttl=3600)
    try:
        assert await looked_again(client) is CacheStatus.HIT  # PRAGMA data_version moved
        other.clear()
        assert await looked_again(client) is CacheStatus.MISS
    finally:
        other.close()


async def test_a_cache_that_can_no_longer_be_read_prices_its_answers_as_not_cached(
    client: DataClient, service: FakeService, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A button must not promise "cached (free)" for an answer the file cannot give."""
    monkeypatch.setattr(store_module, "REFRESH_EVERY", 0.0)
    await client.call(operations.RESTAURANT_SEARCH, LISBON)
    assert await looked_again(client) is CacheStatus.HIT
    assert client.cache is not None
    await client.store.run(client.cache._db.close)  # the file went away under the client
    assert await looked_again(client) is CacheStatus.MISS


async def test_a_price_lookup_reads_no_file(client: DataClient, service: FakeService) -> None:
    await client.call(operations.RESTAURANT_SEARCH, LISBON)
    cache = client.cache
    assert cache is not None
    read = cache.get
    calls: list[str] = []
    cache.get = lambda key: calls.append(key) or read(key)  # type: ignore[method-assign]
    for _ in range(5):
        assert client.cache_state(operations.RESTAURANT_SEARCH.name, LISBON) is CacheStatus.HIT
    assert calls == []


async def test_jobs_run_in_order_on_one_thread_even_when_their_caller_gave_up() -> None:
    thread = StoreThread()
    gate = threading.Event()
    ran: list[tuple[str, int]] = []

    def job(name: str) -> None:
        gate.wait(5)
        ran.append((name, threading.get_ident()))

    first = asyncio.ensure_future(thread.run(job, "first"))
    second = asyncio.ensure_future(thread.run(job, "second"))
    await asyncio.sleep(0)
    second.cancel()  # the caller goes; its job still runs, after the first
    gate.set()
    await first
    await thread.run(lambda: None)
    assert [name for name, _ in ran] == ["first", "second"]
    assert {ident for _, ident in ran} == {thread.ident} != {threading.get_ident()}
    thread.close()
    thread.join(5)
