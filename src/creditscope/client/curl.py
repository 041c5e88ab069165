"""Showing a request to a human without showing the key: masking and curl commands."""

from __future__ import annotations

import json
import shlex
from dataclasses import dataclass

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


@dataclass(frozen=True)
class LocalService:
    """Where a call made in-process can be repeated over HTTP, and how to start it there.

    The explorer's built-in sandbox has no address (``base_url`` is a placeholder that
    resolves nowhere); ``creditscope serve`` runs the same sandbox at ``address``.
    """

    base_url: str  # the placeholder the in-process records carry
    address: str  # where `start` serves it, e.g. http://127.0.0.1:8080
    start: str  # the command line that starts it (it prints the key it accepts)


def curl_command(record: CallRecord, *, local: LocalService | None = None) -> str:
    """A curl command that repeats ``record``, reading the key from ``$CREDITSCOPE_API_KEY``.

    With ``local`` (a call made to the in-process sandbox), the command goes to the
    served sandbox's address instead, after a comment line saying how to start it.
    """
    url = record.url
    preface = ""
    if local is not None and url.startswith(local.base_url.rstrip("/")):
        url = local.address.rstrip("/") + url[len(local.base_url.rstrip("/")):]
        preface = (
            f"# The explorer's sandbox runs in-process; serve it first, in another terminal:\n"
            f"#   {local.start}\n"
            f"# and export {KEY_ENV_VAR} with the API key it prints.\n"
        )
    parts = ["curl", "-sS", "-X", record.method, shlex.quote(url)]
    for name, value in record.request_headers.items():
        lowered = name.lower()
        if lowered in ("x-api-key", "authorization"):
            continue  # re-added below from the environment, never from the record
        if lowered in ("idempotency-key", "content-length", "host", "user-agent"):
            continue
        parts += ["-H", shlex.quote(f"{name}: {value}")]
    if any(name.lower() in _SECRET_HEADERS for name in record.request_headers):
        # Double quotes so the shell expands the variable at run time; never the key itself.
        parts += ["-H", f'"X-API-Key: ${KEY_ENV_VAR}"']
    if record.method.upper() == "POST":
        if not any(name.lower() == "content-type" for name in record.request_headers):
            parts += ["-H", shlex.quote("Content-Type: application/json")]
        body = json.dumps(record.params, separators=(",", ":"), ensure_ascii=False)
        parts += ["--data", shlex.quote(body)]
    return preface + " ".join(parts)
