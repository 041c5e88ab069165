"""The sandbox service: ``create_app`` builds the FastAPI app answering all eight
operations of the spec with the same paths, auth, prices, error shape and
deterministic data. The routes live in ``sandbox/routes/``; this file wires the
account store, faults, middleware, error handlers and OpenAPI document together."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI

from creditscope import __version__
from creditscope.sandbox import DEMO_KEY
from creditscope.sandbox.accounts import AccountStore
from creditscope.sandbox.charging import INVALID_KEY, Caller, account
from creditscope.sandbox.config import SandboxConfig
from creditscope.sandbox.faults import Faults, StallAfterCharge
from creditscope.sandbox.http import RequestGuard, install_error_handlers
from creditscope.sandbox.openapi import (
    CATALOG_ERRORS,
    KEYED_GET_ERRORS,
    KEYED_POST_ERRORS,
    PUBLIC_POST_ERRORS,
    RESTAURANT_ERRORS,
    SECURITY_SCHEMES,
    openapi_document,
)
from creditscope.sandbox.post_bodies import IDEMPOTENCY_HEADER
from creditscope.sandbox.rate_limit import ClientRate
from creditscope.sandbox.routes import ROUTERS
from creditscope.sandbox.routes.endpoint import fault_gate
from creditscope.sandbox.routes.restaurants import Cuisine, RestaurantId

# Names this module held before the routes moved out; importers keep working.
__all__ = [
    "CATALOG_ERRORS",
    "IDEMPOTENCY_HEADER",
    "INVALID_KEY",
    "KEYED_GET_ERRORS",
    "KEYED_POST_ERRORS",
    "PUBLIC_POST_ERRORS",
    "RESTAURANT_ERRORS",
    "SECURITY_SCHEMES",
    "Caller",
    "Cuisine",
    "RestaurantId",
    "account",
    "create_app",
    "fault_gate",
    "openapi_document",
]


class SandboxAPI(FastAPI):
    """FastAPI, describing itself with the sandbox's corrected OpenAPI document."""

    def openapi(self) -> dict[str, Any]:
        return openapi_document(self)


def create_app(config: SandboxConfig | None = None) -> FastAPI:
    """A sandbox app; ``config`` None = in-memory database with the demo key."""
    config = config or SandboxConfig()
    store = AccountStore(config.db_path, config.keys)

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        # A test client may run the lifespan once per request: reopen what the last one closed.
        store.reopen()
        yield
        store.close()

    app = SandboxAPI(
        lifespan=lifespan,
        title="creditscope sandbox",
        version=__version__,
        description=(
            "A local, deterministic implementation of the credit-metered data API. "
            f"Demo key: `{DEMO_KEY}` (send it as `X-API-Key` or `Authorization: Bearer`)."
        ),
    )
    # The routes find these through request.app.state (tests swap fault rates live).
    app.state.store = store
    app.state.config = config
    app.state.faults = Faults(config)
    app.state.provider_rate = ClientRate(config.provider_requests_per_minute,
                                         config.provider_requests_burst)
    install_error_handlers(app)
    app.add_middleware(StallAfterCharge)  # injected: charged, then held back
    app.add_middleware(RequestGuard)
    for router in ROUTERS:
        app.include_router(router)
    return app
