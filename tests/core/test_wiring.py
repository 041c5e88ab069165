"""What the composition root promises a user at every start: a real key never reaches
the built-in sandbox, and history retention prunes old calls before anything else."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import httpx
import pytest
from pydantic import SecretStr

from creditscope import operations
from creditscope.client.history import HistoryQuery
from creditscope.client.ledger import CreditLedger
from creditscope.client.records import CacheStatus, CallRecord
from creditscope.sandbox import DEMO_KEY, SANDBOX_BASE_URL
from creditscope.settings import Settings, load_settings
from creditscope.wiring import build_client, ledger_path, sandbox_transport

REAL_KEY = "sk_live_customer_REAL_5150"


class KeyRecorder(httpx.AsyncBaseTransport):
    """The in-memory sandbox, remembering every key header it was sent."""

    def __init__(self) -> None:
        self.inner = sandbox_transport(None)
        self.keys: list[str] = []

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        self.keys += [request.headers.get("X-API-Key", ""),
                      request.headers.get("Authorization", "")]
        return await self.inner.handle_async_request(request)


def configured(**fields: object) -> Settings:
    settings, _ = load_settings()
    return settings.model_copy(update=fields)


@pytest.mark.parametrize("base_url", [None, SANDBOX_BASE_URL, SANDBOX_BASE_URL + "/"])
async def test_a_real_key_is_never_sent_to_the_sandbox(base_url: str | None) -> None:
    """A live key left in the settings while the sandbox is in use: the sandbox gets its
    demo key, and the real one never leaves the client."""
    recorder = KeyRecorder()
    settings = configured(base_url=base_url, api_key=SecretStr(REAL_KEY))
    async with build_client(settings, transport=recorder) as client:
        answer = await client.call(operations.RESTAURANT_SEARCH, {"location": "Lisbon"})
    assert answer.record.status == 200  # the sandbox accepted its own demo key
    assert DEMO_KEY in recorder.keys
    assert not any(REAL_KEY in sent for sent in recorder.keys)


def _old_call(now: datetime) -> CallRecord:
    return CallRecord("restaurants/search", "GET", "http://service.test/restaurants/search",
                      {"location": "Oslo"}, status=200, credits_charged=2,
                      cache=CacheStatus.MISS, started_at=now - timedelta(days=40))


@pytest.mark.parametrize("starts", [1, 2])
def test_history_retention_prunes_at_every_start(starts: int) -> None:
    """A call older than `history_days` is gone from the history once the client starts,
    on the first start and again on a later one; its cost stays in the totals."""
    settings = configured(history_days=30)
    for _ in range(starts):
        earlier = CreditLedger(ledger_path(settings))  # a session from weeks ago
        earlier.record(_old_call(datetime.now(UTC)))
        earlier.close()
        client = build_client(settings)
        assert client.ledger.history.find(HistoryQuery()) == []
        client.ledger.close()
    totals = CreditLedger(ledger_path(settings)).lifetime_totals()
    assert totals.spent == 2 * starts


def test_the_sandbox_ledger_is_not_the_live_one() -> None:
    """Sandbox play money never mixes with real spend."""
    sandbox = configured()
    live = configured(base_url="https://api.example.test", api_key=SecretStr(REAL_KEY))
    assert ledger_path(sandbox) != ledger_path(live)
    assert ledger_path(sandbox).parent == ledger_path(live).parent
