"""Fixtures for the client tests: a fake service and clients wired to temporary stores."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

from client_fakes import FakeService, InstantRetry
from creditscope.client.cache import ResponseCache
from creditscope.client.client import DataClient
from creditscope.client.ledger import CreditLedger

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
