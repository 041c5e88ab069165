"""Doctor's reachability check: ``GET /catalog`` (public, free) and how long it took.

It is the only request doctor sends, and it carries no API key: the catalog
needs none, and every endpoint that checks a key is paid. The built-in
sandbox is asked in-process, on a throwaway in-memory database, so the check
also proves the sandbox and its data files load.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

import httpx
from pydantic import ValidationError

from creditscope import json_limits, operations
from creditscope.client.responses import send_capped
from creditscope.doctor.report import Finding
from creditscope.sandbox import SANDBOX_BASE_URL
from creditscope.settings import ENV_PREFIX, Settings
from creditscope.shown_url import shown_url

CATALOG = operations.get("catalog")
DEFAULT_TIMEOUT = 5.0
FIX_UNREACHABLE = (
    "Check the base URL (Settings, key 6, or {prefix}BASE_URL), your network and any proxy"
    " ({proxy}); or remove the base URL to use the built-in sandbox."
)


def check_catalog(
    settings: Settings,
    *,
    timeout: float = DEFAULT_TIMEOUT,
    transport: httpx.AsyncBaseTransport | None = None,
) -> Finding:
    """Ask the configured service (or the sandbox) for its catalog; report status and latency."""
    if settings.is_sandbox:
        base_url = SANDBOX_BASE_URL
        if transport is None:
            from creditscope.wiring import sandbox_transport

            transport = sandbox_transport(db_path=None)  # throwaway, in memory
    else:
        base_url = (settings.base_url or "").strip().rstrip("/")
    url = base_url + CATALOG.path
    details: dict[str, Any] = {"url": shown_url(url), "timeout_s": timeout}
    where = f"GET {details['url']}"
    try:
        status, location, body, latency_ms = asyncio.run(_get(url, timeout, transport))
    except httpx.TimeoutException:
        return _failed(settings, f"{where}: no answer within {timeout:g} s", details)
    except httpx.ConnectError as error:
        return _failed(settings, f"{where}: cannot connect ({error})", details)
    except (httpx.HTTPError, OSError, ValueError) as error:
        return _failed(settings, f"{where}: {type(error).__name__}: {error}", details)
    details.update(status=status, latency_ms=round(latency_ms, 1))
    if settings.is_sandbox:
        where = f"GET {CATALOG.path} (sandbox)"
    if 300 <= status < 400 and location:
        details["location"] = shown_url(location)
        return _failed(settings, f"{where} answered {status}, a redirect to"
                       f" {details['location']}: is the base URL right?", details)
    if status != 200:
        return _failed(settings, f"{where} answered {status}{_error_code(body)}", details)
    try:
        catalog = CATALOG.response_model.model_validate_json(body)
    except ValidationError:
        return _failed(
            settings, f"{where} answered 200 but not with a catalog: is this the data API?",
            details,
        )
    endpoints = sum(len(provider.endpoints) for provider in getattr(catalog, "providers", []))
    details["endpoints"] = endpoints
    return Finding("reachability", "ok", f"{where}: 200 in {latency_ms:.0f} ms, {endpoints}"
                   " endpoints", details=details)


async def _get(
    url: str, timeout: float, transport: httpx.AsyncBaseTransport | None
) -> tuple[int, str | None, bytes, float]:
    # No key, no cookies, no retries: one plain request, timed end to end.
    async with httpx.AsyncClient(transport=transport, timeout=timeout,
                                 follow_redirects=False) as http:
        started = time.perf_counter()
        response, content = await send_capped(
            http, http.build_request("GET", url, headers={"Accept": "application/json"}))
        body = b"" if content is None else content
        latency_ms = (time.perf_counter() - started) * 1000
        return response.status_code, response.headers.get("location"), body, latency_ms


def _failed(settings: Settings, reason: str, details: dict[str, Any]) -> Finding:
    details["error"] = reason
    if settings.offline:
        # The user chose offline mode; the explorer shows cached answers, nothing fails.
        return Finding("reachability", "note", f"{reason} (offline mode is on)", details=details)
    proxy = "HTTPS_PROXY, HTTP_PROXY, NO_PROXY"
    return Finding("reachability", "problem", reason,
                   fix=FIX_UNREACHABLE.format(prefix=ENV_PREFIX, proxy=proxy), details=details)


def _error_code(body: bytes) -> str:
    """`` (not_found)``: the spec's error code when the body has one."""
    try:
        error = json_limits.loads(body).get("error", {})
    except (ValueError, AttributeError):
        return ""
    code = error.get("code") if isinstance(error, dict) else None
    return f" ({code})" if isinstance(code, str) else ""


