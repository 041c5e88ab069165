"""One HTTP request handed straight to an ASGI app, its answer collected whole.

The sandbox's thread (:mod:`creditscope.sandbox_thread`) answers the explorer's
requests this way, on its own loop, rather than through httpx's ``ASGITransport`` on
the caller's. Like ``ASGITransport``, it runs no lifespan.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, MutableMapping, Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import unquote, urlsplit

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
ASGIApp = Callable[[Scope, Callable[[], Awaitable[Message]],
                    Callable[[Message], Awaitable[None]]], Awaitable[None]]
CLIENT = ("127.0.0.1", 123)  # where the request "came from", as ASGITransport says


@dataclass
class Answer:
    """What the app sent back."""

    status: int = 500
    headers: list[tuple[str, str]] = field(default_factory=list)
    body: bytearray = field(default_factory=bytearray)


def request_scope(method: str, url: str, headers: Sequence[tuple[str, str]]) -> Scope:
    """The ASGI ``http`` scope of ``method url`` with ``headers`` (latin-1, as on the wire)."""
    parts = urlsplit(url)
    raw_path = parts.path or "/"
    return {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method.upper(),
        "scheme": parts.scheme or "http",
        "path": unquote(raw_path),  # decoded, as a server hands it over
        "raw_path": raw_path.encode("latin-1"),
        "query_string": parts.query.encode("latin-1"),
        "root_path": "",
        "headers": [(k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in headers],
        "client": CLIENT,
        "server": (parts.hostname or "", parts.port),
    }


async def call_app(app: ASGIApp, method: str, url: str,
                   headers: Sequence[tuple[str, str]], body: bytes) -> Answer:
    """Send one request to ``app`` and return its whole answer."""
    answer = Answer()
    sent_body = False
    answered = asyncio.Event()

    async def receive() -> Message:
        nonlocal sent_body
        if sent_body:  # the body is whole: the client "disconnects" once answered
            await answered.wait()
            return {"type": "http.disconnect"}
        sent_body = True
        return {"type": "http.request", "body": body, "more_body": False}

    async def send(message: Message) -> None:
        if message["type"] == "http.response.start":
            answer.status = int(message["status"])
            answer.headers = [(k.decode("latin-1"), v.decode("latin-1"))
                              for k, v in message.get("headers", [])]
        elif message["type"] == "http.response.body":
            answer.body += message.get("body", b"")
            if not message.get("more_body", False):
                answered.set()

    await app(request_scope(method, url, headers), receive, send)
    return answer
