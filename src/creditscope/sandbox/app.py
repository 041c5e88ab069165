"""The sandbox service: a FastAPI app answering all eight operations of the spec
with the same paths, auth, prices, error shape and deterministic data."""

from __future__ import annotations

import hashlib
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Annotated, Any, Literal

from fastapi import Depends, FastAPI, Query, Request
from fastapi.responses import JSONResponse
from pydantic import ValidationError

from creditscope import __version__, models, operations
from creditscope.sandbox import DEMO_KEY, clock
from creditscope.sandbox import events as event_feed
from creditscope.sandbox import restaurants as restaurant_data
from creditscope.sandbox.accounts import Account, AccountStore
from creditscope.sandbox.catalog import catalog
from creditscope.sandbox.company_lookup import find_company, validate
from creditscope.sandbox.config import SandboxConfig
from creditscope.sandbox.faults import Faults
from creditscope.sandbox.http import RequestGuard, install_error_handlers, request_id_of
from creditscope.sandbox.problems import ApiProblem, invalid_parameter

Cuisine = Literal[
    "italian",
    "japanese",
    "indian",
    "mexican",
    "thai",
    "french",
    "korean",
    "greek",
    "turkish",
    "vietnamese",
]
assert set(Cuisine.__args__) == set(models.CUISINES)  # type: ignore[attr-defined]

_ERROR_TEXT: dict[int, str] = {
    400: "invalid_parameter: the message names the parameter; nothing charged",
    401: "invalid_api_key: missing, unknown or revoked key",
    402: "insufficient_credits: balance below the price; nothing charged",
    404: "not_found: unknown restaurant id; nothing charged",
    413: "payload_too_large: bodies are limited to 64 KiB",
    503: "service_unavailable (injected fault); nothing charged",
}
_HEADER_DOCS: dict[str, tuple[str, str]] = {
    "X-Request-Id": ("string", "Identifier of this request (`req_` + 16 hex digits)."),
    "X-Credits-Charged": ("integer", "Credits this request cost."),
    "X-Credits-Remaining": ("integer", "The key's balance after this request."),
}


def _headers_doc(*names: str) -> dict[str, Any]:
    return {
        name: {"required": True, "description": text, "schema": {"type": kind}}
        for name, (kind, text) in ((n, _HEADER_DOCS[n]) for n in names)
    }


def _responses(*statuses: int, keyed: bool) -> dict[int | str, dict[str, Any]]:
    """The documented answers of one operation: its real error statuses, all in the
    spec's error shape, and the credit headers a success carries."""
    charged = ("X-Credits-Charged", "X-Credits-Remaining") if keyed else ("X-Credits-Charged",)
    documented: dict[int | str, dict[str, Any]] = {
        200: {"headers": _headers_doc("X-Request-Id", *charged)},
    }
    for status in statuses:
        documented[status] = {
            "model": models.ErrorBody,
            "description": _ERROR_TEXT[status],
            "headers": _headers_doc("X-Request-Id"),
        }
    return documented


# What each operation really answers (tests/reliability fuzzes against this).
KEYED_GET_ERRORS = _responses(400, 401, 402, 503, keyed=True)
RESTAURANT_ERRORS = _responses(400, 401, 402, 404, 503, keyed=True)
KEYED_POST_ERRORS = _responses(400, 401, 402, 413, 503, keyed=True)
CATALOG_ERRORS = _responses(503, keyed=False)
PUBLIC_POST_ERRORS = _responses(400, 413, 503, keyed=False)
INVALID_KEY = "The provided API key is invalid or has been revoked."
IDEMPOTENCY_HEADER = "Idempotency-Key"


def _presented_key(request: Request) -> str | None:
    key = request.headers.get("x-api-key")
    if key:
        return key.strip()
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    if scheme.lower() == "bearer" and token.strip():
        return token.strip()
    return None


def _json_body(raw: bytes) -> Any:
    if not raw.strip():
        raise invalid_parameter("body", "a JSON object is required", reason="body_required")
    try:
        body = json.loads(raw)
        # A lone surrogate ("\\ud800") parses but is not text: refuse it here.
        json.dumps(body, ensure_ascii=False).encode("utf-8")
    except (ValueError, RecursionError):  # RecursionError: absurdly deep nesting
        raise invalid_parameter("body", "is not valid JSON", reason="invalid_json") from None
    return body


def _fingerprint(body: Any) -> str:
    return hashlib.sha256(json.dumps(body, sort_keys=True).encode()).hexdigest()


def _idempotency_key(request: Request) -> str | None:
    key = request.headers.get(IDEMPOTENCY_HEADER)
    if key is not None and not 1 <= len(key) <= 255:
        raise invalid_parameter(IDEMPOTENCY_HEADER, "must be 1 to 255 characters")
    return key


def _body_schema(model: type[models.RequestModel]) -> dict[str, Any]:
    return {
        "requestBody": {
            "required": True,
            "content": {"application/json": {"schema": model.model_json_schema()}},
        },
        "parameters": [
            {
                "name": IDEMPOTENCY_HEADER,
                "in": "header",
                "required": False,
                "description": "The same key within 24 h returns the first answer, charged once.",
                "schema": {"type": "string", "minLength": 1, "maxLength": 255},
            }
        ],
    }


SECURITY_SCHEMES: dict[str, Any] = {
    "ApiKeyHeader": {"type": "apiKey", "in": "header", "name": "X-API-Key"},
    "BearerKey": {"type": "http", "scheme": "bearer"},
}


def openapi_document(app: FastAPI) -> dict[str, Any]:
    """FastAPI's document, corrected to what the sandbox really does: invalid input
    is a 400 in the error shape (never FastAPI's 422), and keyed operations declare
    the API key as their security requirement."""
    if app.openapi_schema is not None:
        return app.openapi_schema
    from fastapi.openapi.utils import get_openapi

    document = get_openapi(
        title=app.title, version=app.version, description=app.description, routes=app.routes
    )
    keyed_paths = {op.path for op in operations.OPERATIONS if op.requires_key}
    for path, methods in document.get("paths", {}).items():
        for spec in methods.values():
            spec.get("responses", {}).pop("422", None)
            if path in keyed_paths:
                spec["security"] = [{"ApiKeyHeader": []}, {"BearerKey": []}]
    components = document.setdefault("components", {})
    for unused in ("HTTPValidationError", "ValidationError"):
        components.get("schemas", {}).pop(unused, None)
    components["securitySchemes"] = SECURITY_SCHEMES
    app.openapi_schema = document
    return document


async def fault_gate(request: Request) -> None:
    """Injected latency and 503s, before anything else is looked at."""
    faults: Faults = request.app.state.faults
    await faults.before_answer()


def account(request: Request) -> Account:
    """The caller's account from ``X-API-Key`` or ``Authorization: Bearer``; else 401."""
    presented = _presented_key(request)
    if presented is None:
        raise ApiProblem(
            401,
            "invalid_api_key",
            "No API key: send it as 'X-API-Key: KEY' or 'Authorization: Bearer KEY'.",
        )
    store: AccountStore = request.app.state.store
    found = store.authenticate(presented)
    if found is None or found.revoked:
        raise ApiProblem(401, "invalid_api_key", INVALID_KEY)
    return found


Caller = Annotated[Account, Depends(account)]
RestaurantId = Annotated[str, Query(min_length=1, max_length=100)]


def create_app(config: SandboxConfig | None = None) -> FastAPI:
    """A sandbox app; ``config`` None = in-memory database with the demo key."""
    config = config or SandboxConfig()
    store = AccountStore(config.db_path, config.keys)
    faults = Faults(config)

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        # A test client may run the lifespan once per request: reopen what the last one closed.
        store.reopen()
        yield
        store.close()

    app = FastAPI(
        lifespan=lifespan,
        title="creditscope sandbox",
        version=__version__,
        description=(
            "A local, deterministic implementation of the credit-metered data API. "
            f"Demo key: `{DEMO_KEY}` (send it as `X-API-Key` or `Authorization: Bearer`)."
        ),
    )
    app.state.store = store
    app.state.config = config
    app.state.faults = faults
    app.openapi = lambda: openapi_document(app)  # type: ignore[method-assign]
    install_error_handlers(app)
    app.add_middleware(RequestGuard)

    def charged(
        request: Request,
        caller: Account,
        op_name: str,
        body: dict[str, Any],
        remember: tuple[str, str, str] | None = None,
    ) -> JSONResponse:
        """Charge the exact price atomically, then answer; a short balance is 402 and no charge."""
        op = operations.get(op_name)
        outcome = store.charge(
            caller.key_hash,
            op.credits,
            op.name,
            request_id_of(request),
            remember=(*remember, body) if remember else None,
        )
        if not outcome.ok:
            raise ApiProblem(
                402,
                "insufficient_credits",
                f"This request costs {op.credits} credits; the balance is {outcome.remaining}.",
                headers={"X-Credits-Charged": "0", "X-Credits-Remaining": str(outcome.remaining)},
            )
        return JSONResponse(
            body,
            headers={
                "X-Credits-Charged": str(op.credits),
                "X-Credits-Remaining": str(outcome.remaining),
            },
        )

    def now() -> Any:
        return clock.now(config.frozen_time)

    gate = [Depends(fault_gate)]

    @app.get("/", include_in_schema=False)
    async def index() -> dict[str, Any]:
        return {"service": "creditscope sandbox", "catalog": "/catalog", "openapi": "/openapi.json"}

    @app.get(
        "/ticketing/discovery",
        response_model=models.EventFeed,
        responses=KEYED_GET_ERRORS,
        dependencies=gate,
        summary="Events near a point (3 credits)",
    )
    async def discovery(
        request: Request,
        caller: Caller,
        lat: Annotated[float | None, Query(ge=-90, le=90)] = None,
        lng: Annotated[float | None, Query(ge=-180, le=180)] = None,
        limit: Annotated[int, Query(ge=1, le=50)] = 20,
        cursor: Annotated[str | None, Query(max_length=200)] = None,
    ) -> JSONResponse:
        if (lat is None) != (lng is None):
            missing = "lng" if lng is None else "lat"
            raise invalid_parameter(missing, "lat and lng must be given together (or both omitted)")
        anchor = clock.week_anchor(now())
        body = event_feed.feed(lat, lng, limit, cursor or None, anchor)
        return charged(request, caller, "ticketing/discovery", body)

    @app.post(
        "/professional_network/find_company",
        response_model=models.CompanyLookup,
        responses=KEYED_POST_ERRORS,
        dependencies=gate,
        summary="Find a company page (10 credits)",
        openapi_extra=_body_schema(models.FindCompanyRequest),
    )
    async def company(request: Request, caller: Caller) -> JSONResponse:
        idempotency_key = _idempotency_key(request)
        raw = _json_body(await request.body())
        lookup = validate(raw)
        scope = f"{caller.key_hash}:find_company"
        if idempotency_key is not None:
            replay = _replay(request, scope, idempotency_key, _fingerprint(raw))
            if replay is not None:
                replay.headers["X-Credits-Remaining"] = str(store.balance(caller.key_hash))
                return replay
        body = find_company(lookup, faults.unavailable_rate, faults.rng)
        remember = (scope, idempotency_key, _fingerprint(raw)) if idempotency_key else None
        return charged(request, caller, "professional_network/find_company", body, remember)

    def _replay(request: Request, scope: str, key: str, fingerprint: str) -> JSONResponse | None:
        stored = store.recall(scope, key)
        if stored is None:
            return None
        if stored.fingerprint != fingerprint:
            raise invalid_parameter(
                IDEMPOTENCY_HEADER,
                "already used with a different body in the last 24 hours",
                reason="idempotency_key_reused",
            )
        return JSONResponse(
            stored.body, headers={"X-Credits-Charged": "0", "Idempotent-Replayed": "true"}
        )

    @app.get(
        "/restaurants/search",
        response_model=models.RestaurantSearch,
        responses=KEYED_GET_ERRORS,
        dependencies=gate,
        summary="Search restaurants (2 credits)",
    )
    async def search(
        request: Request,
        caller: Caller,
        location: Annotated[str, Query(min_length=1, max_length=200)],
        cuisine: Annotated[Cuisine | None, Query()] = None,
        limit: Annotated[int, Query(ge=1, le=30)] = 10,
    ) -> JSONResponse:
        if not location.strip():
            raise invalid_parameter("location", "must not be blank")
        body = restaurant_data.search(location, cuisine, limit, now())
        return charged(request, caller, "restaurants/search", body)

    @app.get(
        "/restaurants/details",
        response_model=models.RestaurantDetails,
        responses=RESTAURANT_ERRORS,
        dependencies=gate,
        summary="Restaurant details (2 credits)",
    )
    async def details(request: Request, caller: Caller, id: RestaurantId) -> JSONResponse:
        body = restaurant_data.find(id.strip()).details
        return charged(request, caller, "restaurants/details", body)

    @app.get(
        "/restaurants/menu",
        response_model=models.Menu,
        responses=RESTAURANT_ERRORS,
        dependencies=gate,
        summary="Restaurant menu (5 credits)",
    )
    async def menu(request: Request, caller: Caller, id: RestaurantId) -> JSONResponse:
        body = restaurant_data.menu(id.strip(), clock.week_anchor(now()).date())
        return charged(request, caller, "restaurants/menu", body)

    @app.get(
        "/restaurants/reviews",
        response_model=models.Reviews,
        responses=RESTAURANT_ERRORS,
        dependencies=gate,
        summary="Restaurant reviews (3 credits)",
    )
    async def reviews(
        request: Request,
        caller: Caller,
        id: RestaurantId,
        limit: Annotated[int, Query(ge=1, le=50)] = 10,
    ) -> JSONResponse:
        body = restaurant_data.reviews(id.strip(), limit, clock.week_anchor(now()).date())
        return charged(request, caller, "restaurants/reviews", body)

    @app.get(
        "/catalog",
        response_model=models.Catalog,
        responses=CATALOG_ERRORS,
        dependencies=gate,
        summary="Providers, endpoints and prices (public, free)",
    )
    async def get_catalog() -> JSONResponse:
        return JSONResponse(catalog(), headers={"X-Credits-Charged": "0"})

    @app.post(
        "/provider-requests",
        response_model=models.ProviderRequestCreated,
        responses=PUBLIC_POST_ERRORS,
        dependencies=gate,
        summary="Request coverage of a new app or site (public, free)",
        openapi_extra=_body_schema(models.ProviderRequest),
    )
    async def provider_request(request: Request) -> JSONResponse:
        idempotency_key = _idempotency_key(request)
        raw = _json_body(await request.body())
        if not isinstance(raw, dict):
            raise invalid_parameter("body", "must be a JSON object")
        try:
            wanted = models.ProviderRequest.model_validate(raw)
        except ValidationError as exc:
            first = exc.errors()[0]
            name = str(first["loc"][0]) if first["loc"] else "body"
            message = "is required" if first["type"] == "missing" else first["msg"]
            message = message.removeprefix("Value error, ")
            raise invalid_parameter(name, message[:1].lower() + message[1:]) from None
        scope = "public:provider-requests"
        remember = None
        if idempotency_key is not None:
            replay = _replay(request, scope, idempotency_key, _fingerprint(raw))
            if replay is not None:
                return replay
            remember = (scope, idempotency_key, _fingerprint(raw))
        new_id = store.add_provider_request(wanted.name, wanted.url, wanted.email, remember)
        return JSONResponse({"ok": True, "id": new_id}, headers={"X-Credits-Charged": "0"})

    return app
