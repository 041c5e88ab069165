"""The composition root: the client the user configured, over the live service or
the built-in sandbox in-process.

``client/`` and ``sandbox/`` are peers that never import each other; this is the
one module where they meet, used by the explorer (``commands/tui.py``), the CLI
commands and ``doctor``. It also names where the client keeps its files.
"""

from __future__ import annotations

import asyncio
import functools
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import httpx

from creditscope.client.account_id import account_fingerprint
from creditscope.client.cache import CACHE_FORMAT, ResponseCache
from creditscope.client.client import DataClient
from creditscope.client.errors import ClientUnavailable
from creditscope.client.ledger import CreditLedger
from creditscope.client.session import SpendSession
from creditscope.client.shared_budget import SharedBudget
from creditscope.client.store import Store
from creditscope.private_files import private_database
from creditscope.sandbox import DEMO_KEY, REVOKED_KEY, SANDBOX_BASE_URL
from creditscope.settings import Settings
from creditscope.web_demo import web_demo_active, web_run

if TYPE_CHECKING:
    from fastapi import FastAPI

SANDBOX_DB = "sandbox.sqlite3"
# Separate ledgers so sandbox play money never mixes with real spend.
LIVE_LEDGER = "ledger.sqlite3"
SANDBOX_LEDGER = "sandbox-ledger.sqlite3"
WEB_RUN_BUDGETS = "web-run-budgets.sqlite3"  # what each tab of a `creditscope web` run committed


def ledger_path(settings: Settings) -> Path:
    """Where the lifetime ledger of the configured service lives."""
    return settings.data_dir / (SANDBOX_LEDGER if settings.is_sandbox else LIVE_LEDGER)


def configured_account(settings: Settings) -> str:
    """The account the settings name (service and key, hashed): what ``credits`` shows."""
    address = service_address(settings)
    return account_fingerprint(address.base_url, address.api_key)


def open_ledger(settings: Settings, session: SpendSession | None = None, *,
                own_session_only: bool = False) -> CreditLedger:
    """The configured service's ledger file. Calls recorded before the ledger named
    accounts go to the sandbox's demo account in the sandbox's own file (nothing else
    writes it); a live file cannot tell which key made them: "unknown account"."""
    legacy = account_fingerprint(SANDBOX_BASE_URL, DEMO_KEY) if settings.is_sandbox else None
    ledger = CreditLedger(ledger_path(settings), session, own_session_only=own_session_only,
                          legacy_account=legacy)
    ledger.settle_abandoned_flights()  # a process killed mid-call: its possible charge
    return ledger


def sandbox_db_path(settings: Settings) -> Path:
    """The built-in sandbox's database (balances, provider requests): in-process and served."""
    return settings.data_dir / SANDBOX_DB


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
    return TimedASGITransport(app=sandbox_app(db_path))


def sandbox_app(db_path: Path | None) -> FastAPI:
    """The sandbox app, its database at ``db_path`` (None: in memory)."""
    from creditscope.sandbox.app import create_app
    from creditscope.sandbox.config import SandboxConfig

    return create_app(SandboxConfig(db_path=db_path))


@dataclass(frozen=True)
class ServiceAddress:
    """Where the configured service answers and the key it is called with (never shown)."""

    base_url: str
    api_key: str | None
    is_sandbox: bool


def service_address(settings: Settings) -> ServiceAddress:
    """The live base URL and configured key, or the sandbox's address and demo key."""
    configured = settings.api_key.get_secret_value() if settings.api_key else None
    if not settings.is_sandbox:
        assert settings.base_url is not None  # is_sandbox is False only with a base URL
        return ServiceAddress(settings.base_url, configured, False)
    # A real key is never handed to the sandbox; only its own demo keys are used there.
    key = configured if configured in (DEMO_KEY, REVOKED_KEY) else DEMO_KEY
    return ServiceAddress(SANDBOX_BASE_URL, key, True)


def service_transport(settings: Settings) -> httpx.AsyncBaseTransport | None:
    """The in-process sandbox (its database in the data directory) when no base URL is
    configured; None for the network. Share it to reach the same sandbox twice."""
    if not settings.is_sandbox:
        return None
    return sandbox_transport(usable_sandbox_db(settings))


def explorer_transport(settings: Settings) -> httpx.AsyncBaseTransport | None:
    """The explorer's way to the service: the sandbox on a thread of its own (off the
    explorer's loop; see ``sandbox_thread`` for why not a child), or None for the network."""
    if not settings.is_sandbox:
        return None
    from creditscope.sandbox_thread import SandboxThreadTransport

    return SandboxThreadTransport(functools.partial(sandbox_app, usable_sandbox_db(settings)))


def usable_sandbox_db(settings: Settings) -> Path:
    """The sandbox's database file, made private (created empty if missing).

    Raises ``ClientUnavailable`` naming the file when it cannot be one (a directory, a
    link to a device, no permission), instead of a traceback from deep in the sandbox."""
    path = sandbox_db_path(settings)
    try:
        return private_database(path)
    except OSError as exc:
        raise ClientUnavailable(
            f"The built-in sandbox's database {path} cannot be used"
            f" ({exc.strerror or exc}): move it aside; a new one is made on the next start."
        ) from None


def build_client(
    settings: Settings, *, transport: httpx.AsyncBaseTransport | None = None,
    session: SpendSession | None = None,
) -> DataClient:
    """The DataClient for ``settings``: no base URL -> the sandbox in-process.

    ``transport`` replaces the network (or the sandbox) in tests. ``session`` is the
    process's spending session (records, budget reservations), passed again to every
    rebuilt client so the session outlives it.
    """
    def opened_ledger() -> CreditLedger:
        ledger = open_ledger(settings, session, own_session_only=web_demo_active())
        ledger.history.prune(settings.history_days)  # retention: on every start
        return ledger

    # Both files are opened, checked and indexed on the store's own thread.
    store = Store.opening(opened_ledger, lambda: ResponseCache(cache_directory(settings)))
    ledger = store.ledger
    run = web_run()
    if run is not None and not ledger.session.budget_is_shared:
        ledger.session.share_budget(SharedBudget(
            settings.data_dir / WEB_RUN_BUDGETS, run, ledger.session_id))
    address = service_address(settings)
    if transport is None:
        transport = service_transport(settings)
    return DataClient(
        address.base_url, address.api_key, transport=transport, store=store,
        offline=settings.offline, budget=settings.budget, ttls=settings.ttl.by_operation(),
        timeout=request_timeout(settings), is_sandbox=address.is_sandbox,
    )


def explorer_client(
    settings: Settings, *, service: httpx.AsyncBaseTransport | None = None
) -> DataClient:
    """The explorer's client, as ``creditscope`` builds it (and the explorer's tests do).

    Built in the app's worker thread after the first frame: importing this module pulls
    in httpx and pydantic, both slow. Its sandbox runs on a thread of its own
    (:func:`explorer_transport`); ``service`` replaces the service only (a test's
    sandbox with a frozen clock, a slow or failing fake), never the client's insides.
    """
    return build_client(settings, transport=service or explorer_transport(settings))


@functools.cache
def example_sandbox() -> httpx.AsyncBaseTransport:
    """The throwaway sandbox (in memory) that answers the catalog's examples, on its own
    thread, started on the first example. It ends with the explorer."""
    from creditscope.sandbox_thread import SandboxThreadTransport

    return SandboxThreadTransport(functools.partial(sandbox_app, None))


async def sandbox_example(operation: str, params: dict[str, Any]) -> tuple[int, str]:
    """The built-in sandbox's answer to ``operation`` with ``params`` (status, body), from
    a throwaway sandbox in memory: free, recorded nowhere, whatever service is configured."""
    from creditscope import operations
    from creditscope.client.responses import query_params

    op = operations.get(operation)
    url = httpx.URL(SANDBOX_BASE_URL + op.path)
    headers = {"X-API-Key": DEMO_KEY}
    if op.is_post:
        request = httpx.Request("POST", url, json=params, headers=headers)
    else:
        request = httpx.Request("GET", url, params=query_params(params), headers=headers)
    request.extensions["timeout"] = {"read": 30.0}
    response = await example_sandbox().handle_async_request(request)
    return response.status_code, (await response.aread()).decode()
