"""The sandbox in-process, with the faults the money edges are about: an answer lost
after the service charged (a timeout), and a request held on the wire until the
test lets it go (no sleeps: events order everything)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import httpx

from client_fakes import InstantRetry
from creditscope.client.cache import ResponseCache
from creditscope.client.client import DataClient
from creditscope.client.ledger import CreditLedger
from creditscope.client.session import SpendSession
from creditscope.sandbox import DEMO_KEY, SANDBOX_BASE_URL
from creditscope.sandbox.accounts import key_digest
from creditscope.sandbox.app import create_app
from creditscope.sandbox.config import SandboxConfig

START_BALANCE = 10_000


class FaultyTransport(httpx.AsyncBaseTransport):
    """The sandbox behind switchable faults.

    ``lose_next``: answers to drop after the sandbox handled (and charged) them,
    raising ``ReadTimeout`` instead. ``drop_next``: requests that time out before
    they reach the sandbox (never charged, but the client cannot tell). ``hold``:
    while set, each request waits at the gate (after ``arrived`` is set) until the
    test opens it.
    """

    def __init__(self, inner: httpx.AsyncBaseTransport) -> None:
        self.inner = inner
        self.lose_next = 0
        self.drop_next = 0
        self.hold = False
        self.gate = asyncio.Event()
        self.arrived = asyncio.Event()
        self.requests: list[httpx.Request] = []

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        if self.drop_next > 0:
            self.drop_next -= 1
            raise httpx.ReadTimeout("lost on the way, never charged", request=request)
        if self.hold:
            self.arrived.set()
            await self.gate.wait()
        response = await self.inner.handle_async_request(request)
        await response.aread()
        if self.lose_next > 0:
            self.lose_next -= 1
            raise httpx.ReadTimeout("answer lost after the service charged", request=request)
        return response


class ChargedThenHeld(httpx.AsyncBaseTransport):
    """The service charges at once; the answer waits until the test lets it go."""

    def __init__(self, inner: httpx.AsyncBaseTransport) -> None:
        self.inner = inner
        self.charged = asyncio.Event()
        self.gate = asyncio.Event()

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        response = await self.inner.handle_async_request(request)
        await response.aread()
        self.charged.set()
        await self.gate.wait()
        return response


class Sandbox:
    """One in-memory sandbox and a way to build clients against it."""

    def __init__(self, tmp_path: Path) -> None:
        self.app = create_app(SandboxConfig(db_path=None))
        self.transport = FaultyTransport(httpx.ASGITransport(app=self.app))
        self.tmp_path = tmp_path

    @property
    def balance(self) -> int:
        """The demo key's balance as the sandbox holds it."""
        return int(self.app.state.store.balance(key_digest(DEMO_KEY)))

    def spend_elsewhere(self, credits: int) -> None:
        """Another machine spends ``credits`` with the same key: no ledger sees it."""
        store = self.app.state.store
        assert store.charge(key_digest(DEMO_KEY), credits, "elsewhere", "req_elsewhere").ok

    def charge(self, credits: int) -> None:
        """The service charges a search it has not answered yet (its answer is on the
        wire, to a client that may never read it)."""
        store = self.app.state.store
        assert store.charge(key_digest(DEMO_KEY), credits, "restaurants/search",
                            f"req_held_{self.fall}").ok

    def top_up(self, credits: int) -> None:
        """The user buys ``credits`` more for the demo key."""
        store = self.app.state.store
        with store._transaction():
            store._db.execute("UPDATE accounts SET balance = balance + ? WHERE key_hash = ?",
                              (credits, key_digest(DEMO_KEY)))

    @property
    def fall(self) -> int:
        """How far the balance fell since the start."""
        return START_BALANCE - self.balance

    def client(
        self, *, session: SpendSession | None = None, budget: int | None = None,
        ledger_name: str = "ledger.sqlite3", transport: httpx.AsyncBaseTransport | None = None,
        **options: object,
    ) -> DataClient:
        """A client on this sandbox; pass ``session`` to share one across clients."""
        ledger = CreditLedger(self.tmp_path / ledger_name, session)
        return DataClient(
            SANDBOX_BASE_URL, DEMO_KEY, transport=transport or self.transport, ledger=ledger,
            cache=ResponseCache(self.tmp_path / "cache"), budget=budget,
            retry_policy=InstantRetry(), is_sandbox=True, **options,  # type: ignore[arg-type]
        )
