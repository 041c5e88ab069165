"""The sandbox's OpenAPI document: each operation's error answers and credit headers,
the POST body schemas, and the corrections FastAPI's generated document needs."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI

from creditscope import models, operations
from creditscope.sandbox.post_bodies import IDEMPOTENCY_HEADER

_ERROR_TEXT: dict[int, str] = {
    400: "invalid_parameter: the message names the parameter; nothing charged",
    401: "invalid_api_key: missing, unknown or revoked key",
    402: "insufficient_credits: balance below the price; nothing charged",
    403: "forbidden_origin: sent by a page of another site (its Origin is not this server's)",
    404: "not_found: unknown restaurant id; nothing charged",
    413: "payload_too_large: bodies are limited to 64 KiB",
    415: "unsupported_media_type: the body is not sent as application/json",
    429: "rate_limited: too many requests from this address; Retry-After says when",
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
KEYED_POST_ERRORS = _responses(400, 401, 402, 403, 413, 415, 503, keyed=True)
CATALOG_ERRORS = _responses(503, keyed=False)
PUBLIC_POST_ERRORS = _responses(400, 403, 413, 415, 429, 503, keyed=False)

SECURITY_SCHEMES: dict[str, Any] = {
    "ApiKeyHeader": {"type": "apiKey", "in": "header", "name": "X-API-Key"},
    "BearerKey": {"type": "http", "scheme": "bearer"},
}


def body_schema(model: type[models.RequestModel]) -> dict[str, Any]:
    """``openapi_extra`` for a POST that reads its JSON body itself: the body's schema
    and the optional ``Idempotency-Key`` header."""
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
