"""Fixtures for the client tests: a fake service, the sandbox in-process, and clients
wired to temporary stores."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from client_fakes import CountingTransport, FakeService, InstantRetry
from creditscope.client.cache import ResponseCache
from creditscope.client.client import DataClient
from creditscope.client.ledger import CreditLedger
from creditscope.sandbox import DEMO_KEY, SANDBOX_BASE_URL
from creditscope.sandbox.app import create_app
from creditscope.sandbox.config import SandboxConfig

KEY = "sk_live_secret_9876"


@pytest.fixture
def service() -> FakeService:
    return FakeService()


@pytest.fixture
def retry() -> InstantRetry:
    return InstantRetry()


@pytest.fixture
async def make_client(
    tmp_path: Path, service: FakeService, retry: InstantRetry
) -> AsyncIterator[Callable[..., DataClient]]:
    made: list[DataClient] = []

    def make(**overrides: Any) -> DataClient:
        options: dict[str, Any] = {
            "transport": service.transport,
            "cache": ResponseCache(tmp_path / "cache" / "v1"),
            "ledger": CreditLedger(tmp_path / "data" / "ledger.sqlite3"),
            "retry_policy": retry,
        }
        options.update(overrides)
        client = DataClient("https://api.example.test", KEY, **options)
        made.append(client)
        return client

    yield make
    for client in made:
        await client.aclose()


@pytest.fixture
def client(make_client: Callable[..., DataClient]) -> DataClient:
    return make_client()


@pytest.fixture
async def sandbox_client(tmp_path: Path) -> AsyncIterator[Callable[..., DataClient]]:
    """``make(keys=..., key=...)`` -> a client on the real sandbox app (ASGI, no port),
    its transport counting the requests that reach the sandbox."""
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
