"""How ``creditscope serve`` holds up against slow or numerous clients.

A cap on connections (the next is answered 503 at once), a keep-alive timeout, a
bound on a request's head, and a deadline on reading each whole request: the
deadline needs uvicorn's internals, so it lives in
:mod:`creditscope.commands.uvicorn_patch`, checked against the locked uvicorn.
"""

from __future__ import annotations

from typing import Any

from creditscope.commands.uvicorn_patch import REQUEST_READ_TIMEOUT_S, http_protocol

__all__ = ["DEFAULT_MAX_CONNECTIONS", "REQUEST_READ_TIMEOUT_S", "uvicorn_limits"]

KEEP_ALIVE_TIMEOUT_S = 5
DEFAULT_MAX_CONNECTIONS = 128
# The largest request head (request line + headers) accepted.
MAX_HEAD_BYTES = 16 * 1024


def uvicorn_limits(max_connections: int) -> dict[str, Any]:
    """The keyword arguments of ``uvicorn.run`` that bound slow and numerous clients."""
    return {
        "http": http_protocol(),
        "limit_concurrency": max_connections,
        "timeout_keep_alive": KEEP_ALIVE_TIMEOUT_S,
        "h11_max_incomplete_event_size": MAX_HEAD_BYTES,
        "timeout_graceful_shutdown": 5,
    }
