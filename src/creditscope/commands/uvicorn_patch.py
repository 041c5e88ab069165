"""The one place creditscope reaches into uvicorn's internals, for the locked uvicorn only.

One workaround: a deadline on reading each request (``creditscope serve``). uvicorn
starts no timer until a connection's first response, and restarts none while bytes
trickle in, so a client sending its request a byte at a time (or nothing at all)
keeps its connection, and a file descriptor, for as long as it likes (uvicorn's
``timeout_keep_alive`` only runs between requests). :class:`RequestDeadlineProtocol`
subclasses uvicorn's ``H11Protocol`` (``uvicorn.protocols.http.h11_impl``, not a
public API) and reads its ``conn``, ``loop`` and ``transport`` attributes and its
``handle_events`` / ``on_response_complete`` hooks: every request, headers and body,
gets ``read_timeout_s`` to arrive, from the moment the connection opens or the
previous response ends; then the connection is closed.

On any other uvicorn, or one without that module (the import is guarded:
:data:`MISSING` says why), :func:`http_protocol` answers uvicorn's stock ``"h11"`` (the
connection cap and keep-alive timeout still apply; ``serve`` says the deadline is
off), and ``tests/security/test_uvicorn_patch.py`` fails until this is read again
against the new ``H11Protocol``.
"""

from __future__ import annotations

import asyncio
from functools import cache
from importlib.metadata import version

import h11

try:
    from uvicorn.protocols.http.h11_impl import H11Protocol

    MISSING: str | None = None
except ImportError as missing:  # a uvicorn that moved it: the deadline is off, serve runs
    H11Protocol = object  # type: ignore[misc,assignment]
    MISSING = f"{type(missing).__name__}: {missing}"

CHECKED_UVICORN = "0.54.0"
"""The uvicorn version whose ``H11Protocol`` this was read against."""

REQUEST_READ_TIMEOUT_S = 10.0


@cache
def applies() -> bool:
    """True when the installed uvicorn is the one this patch was checked against, and
    still has the private module it subclasses."""
    return MISSING is None and version("uvicorn") == CHECKED_UVICORN


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


def http_protocol() -> type[H11Protocol] | str:
    """What ``uvicorn.run(http=...)`` gets: the deadline protocol, or on an unchecked
    uvicorn its stock ``"h11"``."""
    return RequestDeadlineProtocol if applies() else "h11"
