"""Showing a request to a human without showing the key: masking and curl commands."""

from __future__ import annotations

import json
import shlex

from creditscope.client.records import CallRecord

KEY_ENV_VAR = "CREDITSCOPE_API_KEY"
_SECRET_HEADERS = frozenset({"x-api-key", "authorization"})


def mask_key(key: str | None) -> str:
    """``sk_…1234``: the first 3 and last 4 characters; short keys are fully masked."""
    if not key:
        return ""
    if len(key) < 12:
        return "…" * 3
    return f"{key[:3]}…{key[-4:]}"


def mask_headers(headers: dict[str, str]) -> dict[str, str]:
    """A copy of ``headers`` with every credential masked."""
    masked: dict[str, str] = {}
    for name, value in headers.items():
        if name.lower() == "authorization" and value.lower().startswith("bearer "):
            masked[name] = "Bearer " + mask_key(value[7:])
        elif name.lower() in _SECRET_HEADERS:
            masked[name] = mask_key(value)
        else:
            masked[name] = value
    return masked


def curl_command(record: CallRecord) -> str:
    """A curl command that repeats ``record``, reading the key from ``$CREDITSCOPE_API_KEY``."""
    parts = ["curl", "-sS", "-X", record.method, shlex.quote(record.url)]
    for name, value in record.request_headers.items():
        lowered = name.lower()
        if lowered in ("x-api-key", "authorization"):
            continue  # re-added below from the environment, never from the record
        if lowered in ("idempotency-key", "content-length", "host", "user-agent"):
            continue
        parts += ["-H", shlex.quote(f"{name}: {value}")]
    if any(name.lower() in _SECRET_HEADERS for name in record.request_headers):
        # Double quotes so the shell expands the variable at run time.
        parts += ["-H", f'"X-API-Key: ${KEY_ENV_VAR}"']
    if record.method.upper() == "POST":
        if not any(name.lower() == "content-type" for name in record.request_headers):
            parts += ["-H", shlex.quote("Content-Type: application/json")]
        body = json.dumps(record.params, separators=(",", ":"), ensure_ascii=False)
        parts += ["--data", shlex.quote(body)]
    return " ".join(parts)
