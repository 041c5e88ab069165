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


def served_url(
    record: CallRecord, local: LocalService | None, comment: str = "#"
) -> tuple[str, str]:
    """The URL to repeat ``record`` at, and a preface of ``comment`` lines (or "").

    With ``local`` (a call made to the in-process sandbox), the URL is the served
    sandbox's instead, and the preface says how to start it and where the key goes.
    """
    if local is None or not record.url.startswith(base := local.base_url.rstrip("/")):
        return record.url, ""
    lines = ("The explorer's sandbox runs in-process; serve it first, in another terminal:",
             f"  {local.start}", f"and export {KEY_ENV_VAR} with the API key it prints.")
    return (local.address.rstrip("/") + record.url[len(base):],
            "".join(f"{comment} {line}\n" for line in lines))


def replayed_headers(record: CallRecord) -> dict[str, str]:
    """The request headers worth repeating: no credential (that comes from the
    environment), nothing the HTTP library sets itself, nothing single-use."""
    dropped = _SECRET_HEADERS | {"idempotency-key", "content-length", "host", "user-agent"}
    return {name: value for name, value in record.request_headers.items()
            if name.lower() not in dropped}


def sends_key(record: CallRecord) -> bool:
    """Whether ``record`` carried the API key (public endpoints do not)."""
    return any(name.lower() in _SECRET_HEADERS for name in record.request_headers)


def curl_command(record: CallRecord, *, local: LocalService | None = None) -> str:
    """A curl command that repeats ``record``, reading the key from ``$CREDITSCOPE_API_KEY``.

    With ``local`` (a call made to the in-process sandbox), the command goes to the
    served sandbox's address instead, after a comment line saying how to start it.
    """
    url, preface = served_url(record, local)
    parts = ["curl", "-sS", "-X", record.method, shlex.quote(url)]
    for name, value in replayed_headers(record).items():
        parts += ["-H", shlex.quote(f"{name}: {value}")]
    if sends_key(record):
        # Double quotes so the shell expands the variable at run time; never the key itself.
        parts += ["-H", f'"X-API-Key: ${KEY_ENV_VAR}"']
    if record.method.upper() == "POST":
        if not any(name.lower() == "content-type" for name in record.request_headers):
            parts += ["-H", shlex.quote("Content-Type: application/json")]
        body = json.dumps(record.params, separators=(",", ":"), ensure_ascii=False)
        parts += ["--data", shlex.quote(body)]
    return preface + " ".join(parts)
