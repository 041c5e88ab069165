"""The composition root: the client the user configured, over the live service or
the built-in sandbox in-process.

``client/`` and ``sandbox/`` are peers that never import each other; this is the
one module where they meet, used by the explorer (``commands/tui.py``), the CLI
commands and ``doctor``. It also names where the client keeps its files.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import httpx

from creditscope.client.cache import CACHE_FORMAT, ResponseCache
from creditscope.client.client import DataClient
from creditscope.client.ledger import CreditLedger
from creditscope.client.session import SpendSession
from creditscope.private_files import private_directory
from creditscope.sandbox import DEMO_KEY, REVOKED_KEY, SANDBOX_BASE_URL
from creditscope.settings import Settings

SANDBOX_DB = "sandbox.sqlite3"
# Separate ledgers so sandbox play money never mixes with real spend.
LIVE_LEDGER = "ledger.sqlite3"
SANDBOX_LEDGER = "sandbox-ledger.sqlite3"


def ledger_path(settings: Settings) -> Path:
    """Where the lifetime ledger of the configured service lives."""
    return settings.data_dir / (SANDBOX_LEDGER if settings.is_sandbox else LIVE_LEDGER)


def cache_directory(settings: Settings) -> Path:
    """The response cache directory, with its format version."""
    return settings.cache_dir / CACHE_FORMAT


def request_timeout(settings: Settings) -> httpx.Timeout:
    """The configured timeout; connecting gets at most 5 s (fail fast on a dead host)."""
    return httpx.Timeout(settings.timeout, connect=min(5.0, settings.timeout))


class TimedASGITransport(httpx.ASGITransport):
    """An in-process transport that keeps the request's read timeout, as the network
    does: a sandbox answer held back past it is a ``ReadTimeout``, not a long wait."""

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        """Answer ``request`` from the app, or raise ``ReadTimeout`` when it is late."""
        limit = request.extensions.get("timeout", {}).get("read")
        try:
            return await asyncio.wait_for(super().handle_async_request(request), limit)
        except TimeoutError as late:
            raise httpx.ReadTimeout("No answer in time", request=request) from late


def sandbox_transport(db_path: Path | None) -> httpx.ASGITransport:
    """The sandbox app behind an in-process transport (no port is opened).

    ``db_path`` keeps balances between runs; None is a throwaway in-memory database.
    FastAPI is imported here, not at module level, so a caller that builds the client
    in a worker keeps its first frame fast.
    """
    from creditscope.sandbox.app import create_app
    from creditscope.sandbox.config import SandboxConfig

    return TimedASGITransport(app=create_app(SandboxConfig(db_path=db_path)))


def build_client(
    settings: Settings, *, transport: httpx.AsyncBaseTransport | None = None,
    session: SpendSession | None = None,
) -> DataClient:
    """The DataClient for ``settings``: no base URL -> the sandbox in-process.

    ``transport`` replaces the network (or the sandbox) in tests. ``session`` is the
    process's spending session (records, budget reservations), passed again to every
    rebuilt client so the session outlives it.
    """
    cache = ResponseCache(cache_directory(settings))
    ledger = CreditLedger(ledger_path(settings), session)
    timeout = request_timeout(settings)
    ttls = settings.ttl.by_operation()
    if not settings.is_sandbox:
        assert settings.base_url is not None  # is_sandbox is False only with a base URL
        key = settings.api_key.get_secret_value() if settings.api_key else None
        return DataClient(
            settings.base_url, key, transport=transport, cache=cache, ledger=ledger,
            offline=settings.offline, budget=settings.budget, ttls=ttls, timeout=timeout,
        )
    if transport is None:
        private_directory(settings.data_dir)
        transport = sandbox_transport(settings.data_dir / SANDBOX_DB)
    # A real key is never handed to the sandbox; only its own demo keys are used there.
    configured = settings.api_key.get_secret_value() if settings.api_key else None
    key = configured if configured in (DEMO_KEY, REVOKED_KEY) else DEMO_KEY
    return DataClient(
        SANDBOX_BASE_URL, key, transport=transport, cache=cache, ledger=ledger,
        offline=settings.offline, budget=settings.budget, ttls=ttls, timeout=timeout,
        is_sandbox=True,
    )


async def sandbox_example(operation: str, params: dict[str, Any]) -> tuple[int, str]:
    """The built-in sandbox's answer to ``operation`` with ``params`` (status, body), from
    a throwaway sandbox in memory: free, recorded nowhere, whatever service is configured."""
    from creditscope import operations
    from creditscope.client.responses import query_params

    op = operations.get(operation)
    async with httpx.AsyncClient(transport=sandbox_transport(None),
                                 base_url=SANDBOX_BASE_URL,
                                 headers={"X-API-Key": DEMO_KEY}) as http:
        if op.is_post:
            response = await http.post(op.path, json=params)
        else:
            response = await http.get(op.path, params=query_params(params))
    return response.status_code, response.text
