"""Reading one HTTP answer: the operation's model from a success, the matching
exception from an error (the status -> class tables themselves live in errors.py)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import httpx
from pydantic import BaseModel, ValidationError

from creditscope import json_limits, models, operations
from creditscope.client.errors import (
    CreditscopeError,
    RateLimited,
    UnexpectedResponse,
    bare_error_class_for,
    error_class_for,
)
from creditscope.client.retry import RetryPolicy
from creditscope.operations import ResponseT


def query_params(params: dict[str, Any]) -> dict[str, str]:
    """Query-string values as the service expects them (booleans lower-case)."""
    return {k: (str(v).lower() if isinstance(v, bool) else str(v)) for k, v in params.items()}


def int_header(response: httpx.Response, name: str) -> int | None:
    """An integer header such as ``X-Credits-Charged``; None when absent or garbled."""
    value = response.headers.get(name)
    # Plain ASCII digits only, as HTTP writes numbers: Python's int() also takes "1_000",
    # " 7", "+7" and other scripts' digits, which no service sends on purpose.
    text = value.strip() if value is not None else ""
    return int(text) if text.isascii() and text.isdigit() else None


MAX_CREDITS_HEADER = 10**9
"""The largest credit count a header may say. No call costs a billion credits, and sums
of such values stay far inside SQLite's 64-bit integers: one hostile header
(``X-Credits-Charged: 9223372036854775807``) once overflowed every later total."""


def credits_header(response: httpx.Response, name: str) -> int | None:
    """A credit count header; None (unknown) when absent, garbled, negative or absurdly
    large, so a hostile value is never trusted and reconciliation settles the truth."""
    value = int_header(response, name)
    return value if value is not None and 0 <= value <= MAX_CREDITS_HEADER else None


MAX_ANSWER_BYTES = 4 * 1024 * 1024
"""The largest answer body read. The spec's largest answers (50 events or reviews, a
long menu) are tens of kilobytes; 4 MiB is ~40 times that, and parsed it stays under
~100 MB. A hostile answer of 200,000 rows (45 MB) once took 830 MB and 12 s."""


async def read_capped(response: httpx.Response, cap: int) -> bytes | None:
    """The body of a streamed ``response``, or None (stopped reading) past ``cap`` bytes,
    so a huge answer never sits in memory whole."""
    declared = int_header(response, "Content-Length")
    if declared is not None and declared > cap:
        return None
    chunks: list[bytes] = []
    size = 0
    async for chunk in response.aiter_bytes():
        size += len(chunk)
        if size > cap:
            return None
        chunks.append(chunk)
    return b"".join(chunks)


async def send_capped(http: httpx.AsyncClient, request: httpx.Request
                      ) -> tuple[httpx.Response, bytes | None]:
    """Send ``request``; its response and body, or None for a body past
    :data:`MAX_ANSWER_BYTES` (read no further, the connection closed)."""
    response = await http.send(request, stream=True)
    try:
        return response, await read_capped(response, MAX_ANSWER_BYTES)
    finally:
        await response.aclose()


def body_text(response: httpx.Response, content: bytes) -> str:
    """``content`` decoded as httpx's ``Response.text`` would (charset, else UTF-8)."""
    try:
        return content.decode(response.charset_encoding or "utf-8", "replace")
    except LookupError:  # an unknown charset name
        return content.decode("utf-8", "replace")


def too_large(op: operations.Operation[Any], status: int, request_id: str | None
              ) -> UnexpectedResponse:
    """The error for an answer past :data:`MAX_ANSWER_BYTES` (its body was not kept)."""
    return UnexpectedResponse(
        f"{op.title}: the answer is larger than {MAX_ANSWER_BYTES // (1024 * 1024)} MB;"
        " it was not read", status=status, code="unexpected_response",
        request_id=request_id,
    )


def parse_success(
    op: operations.Operation[ResponseT], body: str, status: int, request_id: str | None
) -> ResponseT:
    """The operation's model from a success body, or UnexpectedResponse with the raw body."""
    try:
        payload = json_limits.loads(body)
    except json_limits.JsonTooDeep as deep:
        raise UnexpectedResponse(
            f"{op.title}: the answer is not usable: {deep}", status=status,
            code="unexpected_response", request_id=request_id, body=body,
        ) from None
    except ValueError:
        raise UnexpectedResponse(
            f"{op.title}: the answer is not JSON", status=status, code="unexpected_response",
            request_id=request_id, body=body,
        ) from None
    try:
        return op.response_model.model_validate(payload)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or "body"
        raise UnexpectedResponse(
            f"{op.title}: unexpected answer shape ({where}: {first['msg']})", status=status,
            code="unexpected_response", request_id=request_id, body=body,
        ) from None


def drop_rows_past_limit(op: operations.Operation[Any], data: BaseModel,
                         params: Mapping[str, Any]) -> str | None:
    """Keep at most the requested ``limit`` of the answer's rows (a validated limit, so
    never past the spec's maximum); returns a note when rows were dropped."""
    if op.rows is None:
        return None
    limit = params.get("limit", op.request_model.model_fields["limit"].default)
    rows = getattr(data, op.rows)
    if not isinstance(limit, int) or not isinstance(rows, list) or len(rows) <= limit:
        return None
    setattr(data, op.rows, rows[:limit])
    return (f"The service sent {len(rows):,} {op.rows} for a limit of {limit}; the"
            f" {len(rows) - limit:,} past the limit were dropped.")


def error_from(
    response: httpx.Response, body: str, request_id: str | None, policy: RetryPolicy
) -> CreditscopeError:
    """The exception for an error answer, carrying status, code, reason and request id."""
    status = response.status_code
    retry_after = policy.parse_retry_after(response.headers.get("Retry-After"))
    try:
        detail = models.ErrorBody.model_validate_json(body).error
    except ValidationError:
        detail = None
    if detail is None:
        cls: type[CreditscopeError] = bare_error_class_for(status)
        if cls is UnexpectedResponse:
            return UnexpectedResponse(
                f"HTTP {status} without the service's error body", status=status,
                code="unexpected_response", request_id=request_id, body=body,
            )
        message, code, reason = f"HTTP {status} {response.reason_phrase}".strip(), None, None
    else:
        cls = error_class_for(status, detail.code)
        message, code, reason = detail.message, detail.code, detail.reason
    common: dict[str, Any] = {
        "status": status, "code": code, "reason": reason, "request_id": request_id, "body": body,
    }
    if cls is RateLimited:
        return RateLimited(message, retry_after=retry_after, **common)
    return cls(message, **common)
