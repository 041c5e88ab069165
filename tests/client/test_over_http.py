"""The client against ``creditscope serve`` on a loopback port: real HTTP, real process."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from creditscope import models, operations
from creditscope.client import errors
from creditscope.client.cache import ResponseCache
from creditscope.client.client import DataClient
from creditscope.client.records import CacheStatus
from creditscope.sandbox import DEMO_KEY

# One server for the module: its tests run on one pytest-xdist worker.
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("over_http")]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``creditscope serve`` in a subprocess; yields its base URL."""
    root = tmp_path_factory.mktemp("serve")
    port = _free_port()
    env = {**os.environ, "XDG_DATA_HOME": str(root), "XDG_CACHE_HOME": str(root),
           "XDG_CONFIG_HOME": str(root)}
    log = root / "serve.log"
    process = subprocess.Popen(
        [sys.executable, "-m", "creditscope", "serve", "--port", str(port),
         "--db", str(root / "sandbox.sqlite3")],
        env=env, stdout=subprocess.DEVNULL, stderr=log.open("wb"),
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError as exc:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"serve did not start: {log.read_text()}") from exc
                time.sleep(0.1)
        yield f"http://127.0.0.1:{port}"
    finally:
        process.terminate()
        process.wait(timeout=10)


async def test_typed_results_cache_and_single_flight_over_http(
    server: str, tmp_path: Path
) -> None:
    async with DataClient(server, DEMO_KEY, cache=ResponseCache(tmp_path / "c")) as client:
        search = await client.call(operations.RESTAURANT_SEARCH, {"location": "Lisbon"})
        rid = search.data.results[0].id
        answers = [
            await client.call(operations.EVENTS, {"lat": 38.7, "lng": -9.1}),
            await client.call(operations.RESTAURANT_DETAILS, {"id": rid}),
            await client.call(operations.RESTAURANT_MENU, {"id": rid}),
            await client.call(operations.RESTAURANT_REVIEWS, {"id": rid}),
            await client.call(operations.FIND_COMPANY, {"name": "Acme"}),
            await client.call(operations.CATALOG, {}),
            await client.call(operations.PROVIDER_REQUESTS, {"name": "Mapsy"}),
        ]
        kinds = [type(a.data) for a in answers]
        assert kinds == [models.EventFeed, models.RestaurantDetails, models.Menu,
                         models.Reviews, models.CompanyLookup, models.Catalog,
                         models.ProviderRequestCreated]
        hit = await client.call(operations.RESTAURANT_SEARCH, {"location": "Lisbon", "limit": 10})
        assert (hit.record.cache, hit.record.credits_saved) == (CacheStatus.HIT, 2)
        same = await asyncio.gather(
            *(client.call(operations.RESTAURANT_REVIEWS, {"id": rid, "limit": 2})
              for _ in range(10)))
        assert sum(r.record.credits_charged for r in same) == 3
        with pytest.raises(errors.InvalidApiKey):
            client.set_api_key("sk_wrong_key_000000")
            await client.call(operations.RESTAURANT_MENU, {"id": rid}, refresh=True)


def test_cli_call_against_the_server(server: str, tmp_path: Path) -> None:
    env = {**os.environ, "CREDITSCOPE_BASE_URL": server, "CREDITSCOPE_API_KEY": DEMO_KEY,
           "XDG_CACHE_HOME": str(tmp_path), "XDG_DATA_HOME": str(tmp_path),
           "XDG_CONFIG_HOME": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-m", "creditscope", "call", "restaurants/search",
         "--location", "Lisbon", "--cuisine", "thai"],
        env=env, capture_output=True, text=True, timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["results"]
    assert done.stderr.startswith("2 credits · cache miss · ")
    assert "left" in done.stderr
