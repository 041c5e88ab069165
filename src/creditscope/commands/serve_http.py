"""How ``creditscope serve`` holds up against slow or numerous clients.

uvicorn starts no timer until a connection's first response, and restarts
none while bytes trickle in, so a client sending its request a byte at a time
(or nothing at all) keeps its connection, and a file descriptor, for as long
as it likes. :class:`RequestDeadlineProtocol` gives every request, headers
and body, ``REQUEST_READ_TIMEOUT_S`` to arrive, from the moment the connection
opens or the previous response ends; then the connection is closed.
"""

from __future__ import annotations

import asyncio
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

REQUEST_READ_TIMEOUT_S = 10.0
KEEP_ALIVE_TIMEOUT_S = 5
DEFAULT_MAX_CONNECTIONS = 128
# The largest request head (request line + headers) accepted.
MAX_HEAD_BYTES = 16 * 1024


class RequestDeadlineProtocol(H11Protocol):
    """uvicorn's h11 protocol with a deadline on reading each whole request."""

    read_timeout_s = REQUEST_READ_TIMEOUT_S

    # uvicorn's H11Protocol already narrows asyncio's BaseTransport to Transport here;
    # this override keeps uvicorn's signature.
    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        """Start the clock for the first request."""
        self._read_deadline: asyncio.TimerHandle | None = None
        super().connection_made(transport)
        self._arm()

    def handle_events(self) -> None:
        """Stop the clock once the whole request (headers and body) has arrived."""
        super().handle_events()
        if self.conn.their_state is not h11.SEND_BODY and self.conn.their_state is not h11.IDLE:
            self._disarm()

    def on_response_complete(self) -> None:
        """The next request on this connection gets its own deadline."""
        super().on_response_complete()
        if self.conn.their_state is h11.IDLE:
            self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        """No clock for a closed connection."""
        self._disarm()
        super().connection_lost(exc)

    def _arm(self) -> None:
        self._disarm()
        self._read_deadline = self.loop.call_later(self.read_timeout_s, self._too_slow)

    def _disarm(self) -> None:
        if self._read_deadline is not None:
            self._read_deadline.cancel()
            self._read_deadline = None

    def _too_slow(self) -> None:
        self._read_deadline = None
        if self.conn.their_state in (h11.IDLE, h11.SEND_BODY) and not self.transport.is_closing():
            self.transport.close()


def uvicorn_limits(max_connections: int) -> dict[str, Any]:
    """The keyword arguments of ``uvicorn.run`` that bound slow and numerous clients."""
    return {
        "http": RequestDeadlineProtocol,
        "limit_concurrency": max_connections,
        "timeout_keep_alive": KEEP_ALIVE_TIMEOUT_S,
        "h11_max_incomplete_event_size": MAX_HEAD_BYTES,
        "timeout_graceful_shutdown": 5,
    }
