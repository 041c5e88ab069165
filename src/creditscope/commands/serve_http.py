"""How ``creditscope serve`` holds up against slow or numerous clients and other sites.

A cap on connections (the next is answered 503 at once), a keep-alive timeout, a
bound on a request's head, and a deadline on reading each whole request: the
deadline needs uvicorn's internals, so it lives in
:mod:`creditscope.commands.uvicorn_patch`, checked against the locked uvicorn.
And :class:`HostCheck`: the ``Host`` header must name the server, as for
``creditscope web`` (:mod:`creditscope.commands.bind_address`), so a page on
another site cannot reach it through DNS rebinding.
"""

from __future__ import annotations

import json
from typing import Any

from starlette.types import ASGIApp, Receive, Scope, Send

from creditscope.commands.bind_address import host_name
from creditscope.commands.uvicorn_patch import REQUEST_READ_TIMEOUT_S, http_protocol

__all__ = ["DEFAULT_MAX_CONNECTIONS", "REQUEST_READ_TIMEOUT_S", "HostCheck", "uvicorn_limits"]

KEEP_ALIVE_TIMEOUT_S = 5
DEFAULT_MAX_CONNECTIONS = 128
# The largest request head (request line + headers) accepted.
MAX_HEAD_BYTES = 16 * 1024


def uvicorn_limits(max_connections: int, trusted_proxies: str | None = None) -> dict[str, Any]:
    """The keyword arguments of ``uvicorn.run`` that bound slow and numerous clients.

    ``X-Forwarded-For`` is believed only from ``trusted_proxies`` (the operator's
    ``--forwarded-allow-ips``): uvicorn otherwise trusts it from 127.0.0.1, and any
    local client could then claim a new address per request and escape the per-client
    rate limit."""
    return {
        "proxy_headers": trusted_proxies is not None,
        "forwarded_allow_ips": trusted_proxies or "",
        "http": http_protocol(),
        "limit_concurrency": max_connections,
        "timeout_keep_alive": KEEP_ALIVE_TIMEOUT_S,
        "h11_max_incomplete_event_size": MAX_HEAD_BYTES,
        "timeout_graceful_shutdown": 5,
    }


_WRONG_HOST = json.dumps({"error": {
    "code": "forbidden_host",
    "message": "this server does not answer to that host name; start it with "
               "--allowed-host NAME for each name clients use",
}}).encode()


class HostCheck:
    """ASGI middleware: a request whose ``Host`` is not one of ``allowed`` is answered
    403 ``forbidden_host`` (the spec's error shape) before the app sees it."""

    def __init__(self, app: ASGIApp, allowed: frozenset[str]) -> None:
        self.app = app
        self.allowed = allowed

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":  # the sandbox has no WebSocket route
            host = dict(scope["headers"]).get(b"host", b"").decode("latin-1")
            if host_name(host) not in self.allowed:
                await send({"type": "http.response.start", "status": 403, "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(_WRONG_HOST)).encode()),
                ]})
                await send({"type": "http.response.body", "body": _WRONG_HOST})
                return
        await self.app(scope, receive, send)
