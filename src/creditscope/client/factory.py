"""Building the client the user configured: the live service, or the built-in sandbox."""

from __future__ import annotations

from pathlib import Path

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


def build_client(
    settings: Settings, *, transport: httpx.AsyncBaseTransport | None = None,
    session: SpendSession | None = None,
) -> DataClient:
    """The DataClient for ``settings``: no base URL -> the sandbox in-process (no port).

    ``session`` is the process's spending session (records, budget reservations),
    passed again to every rebuilt client so the session outlives it.

    The sandbox (FastAPI) is imported here, not at module level, so a caller that
    builds the client in a worker keeps its first frame fast.
    """
    cache = ResponseCache(cache_directory(settings))
    common = {
        "cache": cache,
        "offline": settings.offline,
        "budget": settings.budget,
        "ttls": settings.ttl.by_operation(),
        "timeout": request_timeout(settings),
    }
    if not settings.is_sandbox:
        assert settings.base_url is not None
        key = settings.api_key.get_secret_value() if settings.api_key else None
        ledger = CreditLedger(ledger_path(settings), session)
        return DataClient(settings.base_url, key, transport=transport, ledger=ledger, **common)

    if transport is None:
        from creditscope.sandbox.app import create_app
        from creditscope.sandbox.config import SandboxConfig

        private_directory(settings.data_dir)
        app = create_app(SandboxConfig(db_path=settings.data_dir / SANDBOX_DB))
        transport = httpx.ASGITransport(app=app)
    # A real key is never handed to the sandbox; only its own demo keys are used there.
    configured = settings.api_key.get_secret_value() if settings.api_key else None
    key = configured if configured in (DEMO_KEY, REVOKED_KEY) else DEMO_KEY
    ledger = CreditLedger(ledger_path(settings), session)
    return DataClient(
        SANDBOX_BASE_URL, key, transport=transport, ledger=ledger, is_sandbox=True, **common
    )
