"""The ``creditscope web`` server: textual-serve with access rules, tab limits and local assets.

Routes are textual-serve's (page, WebSocket, downloads, static files) with
static directory listings off; :mod:`creditscope.commands.web_access` guards
all of them. Each WebSocket starts one :class:`~creditscope.commands.web_tabs.TabProcess`
while fewer than ``max_tabs`` are open, after checking (again, per tab) that
no live API key has appeared in the configuration of a public server.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from collections.abc import Callable

import aiohttp_jinja2
import jinja2
from aiohttp import web
from rich.logging import RichHandler

from creditscope.commands.textual_serve_patch import OwnRoutesServer, offline_index_template
from creditscope.commands.web_access import AccessPolicy, access_middleware, is_wildcard
from creditscope.commands.web_tabs import MAX_MESSAGE_BYTES, TabProcess, TerminalBounds, relay

DEFAULT_MAX_TABS = 4

# Why a tab may not start now (a live key appeared on a public server), or None.
TabRefusal = Callable[[], str | None]


def browser_url(host: str, port: int, token: str | None = None) -> str:
    """The address to print for a bind of ``host``:``port`` (with the token, if any)."""
    if is_wildcard(host):
        host = "<this machine's address>"
    elif ":" in host:
        host = f"[{host.strip('[]')}]"
    return f"http://{host}:{port}/" + (f"?token={token}" if token else "")


class OneLineErrors(logging.Filter):
    """aiohttp's errors in one line, the exception named but not quoted: a malformed
    request (NUL in ``Host``, an 8 KB header) was a 17-line traceback each, so anyone
    could flood the presenter's terminal, and the message may quote the header's bytes
    (a cookie's session id)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.exc_info and record.exc_info[1] is not None:
            name = type(record.exc_info[1]).__name__
            record.msg, record.args = f"{record.getMessage()}: {name}", None
            record.exc_info = record.exc_text = None
        return True


class DemoServer(OwnRoutesServer):
    """textual-serve's server with access rules, a tab cap, bounded terminals and local assets."""

    def __init__(
        self,
        command: str,
        *,
        host: str,
        port: int,
        policy: AccessPolicy,
        max_tabs: int = DEFAULT_MAX_TABS,
        bounds: TerminalBounds | None = None,
        refuse_tab: TabRefusal | None = None,
    ) -> None:
        super().__init__(command, host=host, port=port, title="creditscope")
        self.policy = policy
        self.max_tabs = max_tabs
        self.bounds = bounds or TerminalBounds()
        self.refuse_tab = refuse_tab
        self.open_tabs = 0
        self.tabs: set[TabProcess] = set()
        self.run_id = uuid.uuid4().hex  # this server's tabs share the presenter's budget
        self._endings: set[asyncio.Future[None]] = set()

    async def web_app(self) -> web.Application:
        """textual-serve's routes behind the access rules, with static listings off."""
        app = web.Application(middlewares=[access_middleware(self.policy)])
        aiohttp_jinja2.setup(
            app, loader=jinja2.DictLoader({"app_index.html": offline_index_template()})
        )
        app.add_routes([
            web.get("/", self.handle_index, name="index"),
            web.get("/ws", self.open_tab, name="websocket"),
            web.get("/download/{key}", self.handle_download, name="download"),
            web.static("/static", self.statics_path, show_index=False, name="static"),
        ])
        app.on_startup.append(self.on_startup)
        app.on_shutdown.append(self.on_shutdown)
        return app

    def initialize_logging(self) -> None:
        """textual-serve's logging without tracebacks' local variables (they hold the
        token and session ids) and without the access log (one line per request is noise).
        """
        logging.basicConfig(
            level="DEBUG" if self.debug else "INFO",
            format="%(message)s",
            handlers=[RichHandler(show_path=False, show_time=False, rich_tracebacks=False,
                                  console=self.console)],
            force=True,
        )
        logging.getLogger("aiohttp.access").setLevel(logging.WARNING)
        server_log = logging.getLogger("aiohttp.server")
        if not any(isinstance(f, OneLineErrors) for f in server_log.filters):
            server_log.addFilter(OneLineErrors())

    async def handle_index(self, request: web.Request) -> web.Response:
        """The page, with URLs built from the address the browser used."""
        if self.open_tabs >= self.max_tabs:
            return self._too_many_tabs()
        secure = request.scheme == "https"
        base = f"{request.scheme}://{request.host}"
        font_size = request.query.get("fontsize", "16")
        context = {
            # isascii: "²" is a digit to isdigit() and not a number to int().
            "font_size": min(int(font_size), 64)
            if font_size.isascii() and font_size.isdigit() else 16,
            "app_websocket_url": f"{'wss' if secure else 'ws'}://{request.host}/ws",
            "config": {"static": {"url": f"{base}/static/"}},
            "application": {"name": self.title},
        }
        response = aiohttp_jinja2.render_template("app_index.html", request, context)
        # Another site must not frame the page and steer the presenter's keys.
        response.headers["X-Frame-Options"] = "DENY"
        response.headers["Content-Security-Policy"] = "frame-ancestors 'none'"
        response.headers["Cache-Control"] = "no-store"
        return response

    def _too_many_tabs(self) -> web.Response:
        return web.Response(
            status=503,
            text=f"creditscope web: {self.max_tabs} tabs are open, the most this server runs "
            "(--max-tabs). Close one and reload.\n",
        )

    async def open_tab(self, request: web.Request) -> web.StreamResponse:
        """Start one explorer for this tab, if the cap and the key rules allow it.

        Not an override of ``handle_websocket``: a refused tab is answered with a plain
        HTTP response, not a websocket."""
        if self.open_tabs >= self.max_tabs:
            return self._too_many_tabs()
        # Reserved before the first await, so simultaneous tabs cannot pass the cap;
        # given back only once the tab's process is gone.
        self.open_tabs += 1
        try:
            refusal = await asyncio.to_thread(self.refuse_tab) if self.refuse_tab else None
            websocket = web.WebSocketResponse(heartbeat=15, max_msg_size=MAX_MESSAGE_BYTES)
            if refusal is None:
                await websocket.prepare(request)
        except BaseException:
            self.open_tabs -= 1
            raise
        if refusal is not None:
            self.open_tabs -= 1
            return web.Response(status=403, text=f"creditscope web: {refusal}\n")

        async def close_socket() -> None:  # aiohttp's close() answers a bool nobody reads
            await websocket.close()

        tab = TabProcess(
            self.command,
            self.bounds,
            write_bytes=websocket.send_bytes,
            write_str=websocket.send_str,
            close=close_socket,
            download_manager=self.download_manager,
            run_id=self.run_id,
            debug=self.debug,
        )
        self.tabs.add(tab)
        try:
            await tab.start(*self.bounds.clamp(
                request.query.get("width", "80"), request.query.get("height", "24")
            ))
            await relay(websocket, tab)
        except ConnectionError:
            pass  # the browser went away; the tab ends below
        finally:
            # aiohttp may cancel this handler when the socket drops: the ending runs in
            # its own task so a cancellation cannot leave the process behind.
            ending = asyncio.ensure_future(self._end_tab(tab))
            self._endings.add(ending)
            ending.add_done_callback(self._endings.discard)
            await asyncio.shield(ending)
        await websocket.close()
        return websocket

    async def _end_tab(self, tab: TabProcess) -> None:
        try:
            await tab.end()
        finally:
            self.tabs.discard(tab)
            self.open_tabs -= 1

    async def on_startup(self, app: web.Application) -> None:
        """Print the address (with its token) once the port is bound."""
        self.console.print(
            f"Open {browser_url(self.host, self.port, self.policy.token)} in a browser. "
            "Ctrl+C stops.",
            highlight=False,
            soft_wrap=True,
        )

    async def on_shutdown(self, app: web.Application) -> None:
        """End every tab's explorer."""
        await asyncio.gather(
            *(tab.end() for tab in list(self.tabs)), *self._endings, return_exceptions=True
        )
