"""Sending one request: the HTTP attempt, retried as the ``RetryPolicy`` allows,
and the ``CallRecord`` filled from whatever came back.

Credits a retried attempt was charged still count. An attempt whose answer was
lost after the request left ends the call: its price is *possibly charged*
(``CallRecord.possibly_charged`` and the error's), never re-sent. The caller gets
the parsed ``Answer``, or the ``CreditscopeError`` for the failure (its record
filled in, not yet in the ledger).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import httpx
from pydantic import BaseModel

from creditscope import operations
from creditscope.client.errors import (
    ConnectionFailed,
    CreditscopeError,
    Timeout,
    UnexpectedResponse,
)
from creditscope.client.records import CallRecord
from creditscope.client.responses import (
    body_text,
    credits_header,
    drop_rows_past_limit,
    error_from,
    parse_success,
    query_params,
    send_capped,
    too_large,
)
from creditscope.client.retry import RetryPolicy, never_left


@dataclass
class Answer:
    """A successful answer, shared with identical calls that waited on it."""

    data: BaseModel
    status: int
    body: str
    headers: dict[str, str]
    request_id: str | None


async def send_with_retries(
    http: httpx.AsyncClient,
    op: operations.Operation[Any],
    clean: dict[str, Any],
    headers: dict[str, str],
    rec: CallRecord,
    *,
    price: int,
    policy: RetryPolicy,
    base_url: str,
    started: float,
    on_lost: Callable[[], None] = lambda: None,
) -> Answer:
    """Send ``op`` until it answers or the policy gives up; ``rec`` records every attempt.

    ``on_lost`` is called when an attempt's answer was lost after the request may
    have reached the service (it may have been charged); that attempt is the last.
    """
    charged_on_retries = 0
    while True:
        rec.attempts += 1
        try:
            response, content = await send_capped(http, http.build_request(
                op.method, op.path,
                params=None if op.is_post else query_params(clean),
                json=clean if op.is_post else None,
                headers=headers,
            ))
        except httpx.TransportError as exc:
            lost = not never_left(exc)
            if lost:  # the request left: it may have been charged, so it is not re-sent
                rec.possibly_charged = price
                on_lost()
            if not lost and rec.attempts <= policy.max_retries \
                    and policy.retries_exception(op.method, exc):
                await policy.sleep(policy.backoff(rec.attempts - 1))
                continue
            rec.latency_ms = (time.perf_counter() - started) * 1000
            rec.credits_charged = charged_on_retries
            error: CreditscopeError
            if isinstance(exc, httpx.TimeoutException):
                error = Timeout(f"No answer from {base_url} in time", code="timeout")
            else:
                error = ConnectionFailed(f"Cannot reach {base_url}: {exc}",
                                         code="connection_failed")
            error.possibly_charged = rec.possibly_charged
            raise error from exc
        status = response.status_code
        if status >= 400 and policy.retries_status(op.method, status):
            retry_after = policy.parse_retry_after(response.headers.get("Retry-After"))
            too_long = retry_after is not None and retry_after > policy.max_retry_after
            if not too_long and rec.attempts <= policy.max_retries:
                charged_on_retries += credits_header(response, "X-Credits-Charged") or 0
                delay = retry_after if retry_after is not None else policy.backoff(
                    rec.attempts - 1)
                await policy.sleep(delay)
                continue
        break

    body = "" if content is None else body_text(response, content)
    request_id = response.headers.get("X-Request-Id")
    reported = credits_header(response, "X-Credits-Charged")
    success = 200 <= status < 300
    charged = reported if reported is not None else (price if success else 0)
    rec.status = status
    rec.credits_charged = charged + charged_on_retries
    rec.remaining = credits_header(response, "X-Credits-Remaining")
    rec.request_id = request_id
    rec.raw_body = body
    rec.response_headers = dict(response.headers)
    rec.latency_ms = (time.perf_counter() - started) * 1000
    try:
        if content is None:
            raise too_large(op, status, request_id)
        if not success:
            raise error_from(response, body, request_id, policy)
        data = parse_success(op, body, status, request_id)
    except UnexpectedResponse:
        if reported is None:
            # A failed call counts only what the service said it charged (issue 10).
            rec.credits_charged = charged_on_retries
        raise
    rec.note = drop_rows_past_limit(op, data, clean)
    return Answer(data, status, body, dict(response.headers), request_id)
