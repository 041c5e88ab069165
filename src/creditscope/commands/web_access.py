"""Who may use ``creditscope web``: allowed Host names, same-origin requests, the token.

One aiohttp middleware applies every rule to every route (the page, the
WebSocket, downloads, static files and unknown paths alike):

- the ``Host`` header must name an allowed host (loopback names by default,
  more with ``--allowed-host``), so a DNS-rebinding page cannot reach the
  server under its own name;
- a request that carries an ``Origin`` must come from the same authority
  (WebSockets ignore CORS; another site's page must not open one);
- everything but ``/static/`` needs the secret token: the printed URL carries
  it once (``/?token=...``), the server answers with a cookie and redirects to
  ``/`` so the address bar (on a screen share) no longer shows it. The cookie
  holds a fresh random session id that this run maps to the access, never the
  token (a cookie leaks more easily: other services on the host name, a jar);
  it is HttpOnly, SameSite=Strict, Path=/ and named after the port. The
  WebSocket and downloads are then authorised by that cookie.

A header that cannot be parsed (``Origin: http://[``) is refused like a wrong
one, with a 403: never a 500, so no traceback is logged and a flood of them
costs the loop no more than a flood of wrong ones.
"""

from __future__ import annotations

import hmac
import logging
import secrets
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from aiohttp import web

from creditscope.commands.bind_address import (
    allowed_host_names,
    host_name,
    is_loopback,
    is_wildcard,
)

# Paths anyone who reaches the server may fetch: the page's scripts, styles and fonts.
PUBLIC_PREFIX = "/static/"
# Session ids kept per run: each login with the token adds one; the oldest go first,
# so a script replaying the printed URL cannot grow the server's memory.
MAX_SESSIONS = 256

__all__ = ["AccessPolicy", "access_middleware", "is_loopback", "is_wildcard", "new_token"]

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]

log = logging.getLogger("creditscope.web")


def new_token() -> str:
    """A fresh secret for the printed URL (32 random bytes, URL-safe)."""
    return secrets.token_urlsafe(32)


@dataclass(frozen=True)
class AccessPolicy:
    """The rules of one server: the host names it answers to and its token (None: no token)."""

    allowed_hosts: frozenset[str]
    token: str | None
    cookie_name: str
    # Session ids handed out in cookies by this run, oldest first.
    sessions: OrderedDict[str, None] = field(default_factory=OrderedDict, compare=False)

    @classmethod
    def for_bind(
        cls, bind_host: str, port: int, extra_hosts: Iterable[str] = (), *, token: str | None
    ) -> AccessPolicy:
        """Loopback names, the bind address itself (unless a wildcard), and ``extra_hosts``."""
        # Cookies are per host, not per port: name it after the port so two servers
        # on one machine do not overwrite each other's.
        return cls(allowed_host_names(bind_host, extra_hosts), token, f"creditscope_web_{port}")

    def host_allowed(self, request: web.Request) -> bool:
        """True when the Host header names one of the allowed hosts."""
        name = host_name(request.headers.get("Host", ""))
        return name is not None and name in self.allowed_hosts

    def origin_allowed(self, request: web.Request) -> bool:
        """True without an ``Origin`` header, or when it is this server's own address."""
        origin = request.headers.get("Origin")
        if origin is None:
            return True
        try:
            parts = urlsplit(origin)
        except ValueError:  # "http://[": a broken IPv6 literal is no origin of ours
            return False
        # The scheme is left out so a TLS-terminating proxy in front does not break it.
        return (
            parts.scheme in ("http", "https")
            and parts.netloc.lower() == request.headers.get("Host", "").lower()
        )

    def token_matches(self, presented: str | None) -> bool:
        """Constant-time comparison with the token (always True when there is none)."""
        if self.token is None:
            return True
        return presented is not None and hmac.compare_digest(
            presented.encode("utf-8", "replace"), self.token.encode()
        )

    def open_session(self) -> str:
        """A new random session id for a visitor who presented the token."""
        session = secrets.token_urlsafe(32)
        self.sessions[session] = None
        while len(self.sessions) > MAX_SESSIONS:
            self.sessions.popitem(last=False)
        return session

    def authorised(self, request: web.Request) -> bool:
        """True when the request's cookie holds a session id of this run (or no token
        is needed)."""
        if self.token is None:
            return True
        presented = request.cookies.get(self.cookie_name)
        return presented is not None and presented in self.sessions


def _refuse(text: str) -> web.HTTPForbidden:
    return web.HTTPForbidden(text=f"creditscope web: {text}\n")


def access_middleware(policy: AccessPolicy) -> Callable[..., Awaitable[web.StreamResponse]]:
    """The aiohttp middleware enforcing ``policy`` on every request."""

    @web.middleware
    async def guard(request: web.Request, handler: Handler) -> web.StreamResponse:
        try:
            return await checked(request, handler)
        except web.HTTPException:
            raise
        except Exception as exc:
            # A traceback would print the frames' locals (the server's secrets among
            # them) and costs the loop far more than an answer: one line, no values.
            # %a: a path with escape sequences is logged escaped, not played on the terminal.
            log.error("creditscope web: %a %a failed (%s)", request.method, request.path,
                      type(exc).__name__)
            return web.Response(status=500, text="creditscope web: internal error\n")

    async def checked(request: web.Request, handler: Handler) -> web.StreamResponse:
        if not policy.host_allowed(request):
            raise _refuse("this server does not answer to that host name (see --allowed-host)")
        if not policy.origin_allowed(request):
            raise _refuse("requests from other web sites are refused")
        if request.path.startswith(PUBLIC_PREFIX) or policy.token is None:
            return await handler(request)
        if request.path == "/" and "token" in request.query:
            if not policy.token_matches(request.query.get("token")):
                raise _refuse("wrong token; open the address `creditscope web` printed")
            # Keep other query parameters (fontsize), drop the token from the address bar.
            query = {k: v for k, v in request.query.items() if k != "token"}
            location = request.rel_url.with_query(query).path_qs
            response = web.Response(status=303, headers={"Location": location})
            response.set_cookie(
                policy.cookie_name, policy.open_session(), httponly=True, samesite="Strict",
                path="/",
            )
            response.headers["Cache-Control"] = "no-store"
            return response
        if not policy.authorised(request):
            raise _refuse("open the address `creditscope web` printed (it carries a token)")
        return await handler(request)

    return guard
