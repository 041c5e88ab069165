"""The public, free endpoints: the service index, ``GET /catalog`` and
``POST /provider-requests``. They need no key and charge nothing."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from pydantic import ValidationError

from creditscope import models
from creditscope.sandbox.accounts import AccountStore
from creditscope.sandbox.catalog import catalog
from creditscope.sandbox.openapi import CATALOG_ERRORS, PUBLIC_POST_ERRORS, body_schema
from creditscope.sandbox.post_bodies import PostBody
from creditscope.sandbox.problems import invalid_parameter
from creditscope.sandbox.rate_limit import ClientRate
from creditscope.sandbox.routes.endpoint import operation_route

router = APIRouter()


@router.get("/", include_in_schema=False)
async def index() -> dict[str, Any]:
    # Where to start: the catalog and the OpenAPI document.
    return {"service": "creditscope sandbox", "catalog": "/catalog", "openapi": "/openapi.json"}


@operation_route(
    router, "catalog", CATALOG_ERRORS, summary="Providers, endpoints and prices (public, free)"
)
async def get_catalog() -> JSONResponse:
    # Every provider and endpoint with its price.
    return JSONResponse(catalog(), headers={"X-Credits-Charged": "0"})


@operation_route(
    router, "provider-requests", PUBLIC_POST_ERRORS,
    summary="Request coverage of a new app or site (public, free)",
    openapi_extra=body_schema(models.ProviderRequest),
)
async def provider_request(request: Request) -> JSONResponse:
    # Store a request for a new provider; the answer carries its id.
    rate: ClientRate = request.app.state.provider_rate
    rate.check(request.client.host if request.client else "", "provider requests")
    posted = await PostBody.read(request)
    if not isinstance(posted.raw, dict):
        raise invalid_parameter("body", "must be a JSON object")
    try:
        wanted = models.ProviderRequest.model_validate(posted.raw)
    except ValidationError as exc:
        first = exc.errors()[0]
        name = str(first["loc"][0]) if first["loc"] else "body"
        message = "is required" if first["type"] == "missing" else first["msg"]
        message = message.removeprefix("Value error, ")
        raise invalid_parameter(name, message[:1].lower() + message[1:]) from None
    scope = "public:provider-requests"
    store: AccountStore = request.app.state.store
    replay = posted.replay(store, scope)
    if replay is not None:
        return replay
    remember = posted.remember(scope)
    new_id = store.add_provider_request(wanted.name, wanted.url, wanted.email, remember)
    if not isinstance(new_id, str):  # a duplicate that raced the first: its answer
        return posted.replayed(new_id)
    return JSONResponse({"ok": True, "id": new_id}, headers={"X-Credits-Charged": "0"})
