"""``creditscope web``: serve the explorer in a web browser, for demos.

textual-serve runs one ``creditscope tui`` process per browser tab and relays
the terminal over a WebSocket. It has no authentication, so this command:

- binds loopback by default; any other address needs ``--public`` and prints
  a warning;
- refuses a non-loopback bind while a live API key is configured unless
  ``--allow-live-key`` is given too (anyone who reaches the page spends it);
- refuses WebSockets opened by other web sites (cross-site WebSocket
  hijacking: any page the presenter visits could otherwise type into the
  explorer) and, on a loopback bind, requests for host names other than
  loopback ones (DNS rebinding);
- serves every asset locally: the stock page loads its font from Google
  Fonts, which we replace with the font files textual-serve ships.
"""

from __future__ import annotations

import ipaddress
import re
import shlex
import sys
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

# This module is imported only when `web` runs (see cli.LAZY_COMMANDS), so these
# imports cost nothing to the rest of the CLI.
import aiohttp_jinja2
import click
import jinja2
import textual_serve
from aiohttp import web
from textual_serve.server import Server

from creditscope.sandbox import DEMO_KEY, SANDBOX_BASE_URL

if TYPE_CHECKING:
    from creditscope.settings import Settings

# Host names a loopback bind answers to; anything else is refused (DNS rebinding).
LOOPBACK_HOST_NAMES = frozenset({"localhost", "127.0.0.1", "::1"})

# Replaces the stock page's Google Fonts <link>: the same font, from our own /static.
_LOCAL_FONT_CSS = """<style>
      @font-face {
        font-family: "Roboto Mono";
        font-style: normal;
        font-weight: 100 700;
        src: url("{{ config.static.url }}fonts/RobotoMono-VariableFont_wght.ttf")
          format("truetype");
      }
      @font-face {
        font-family: "Roboto Mono";
        font-style: italic;
        font-weight: 100 700;
        src: url("{{ config.static.url }}fonts/RobotoMono-Italic-VariableFont_wght.ttf")
          format("truetype");
      }
    </style>"""

_REMOTE_STYLESHEET = re.compile(r"<link\b[^>]*\bhref=\"(?:https?:)?//[^\"]*\"[^>]*>", re.S)
_REMOTE_REFERENCE = re.compile(r"\b(?:src|href)=\"(?:https?:)?//|url\(\s*[\"']?(?:https?:)?//")


def is_loopback(host: str) -> bool:
    """True if ``host`` is ``localhost`` or a loopback IP address (IPv4 or IPv6)."""
    name = host.strip().strip("[]").lower()
    if name == "localhost":
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def explorer_command() -> str:
    """The shell command textual-serve runs per browser tab: this Python's ``creditscope tui``."""
    return shlex.join([sys.executable, "-m", "creditscope", "tui"])


def has_live_key(settings: Settings) -> bool:
    """True when a real service and an API key are configured (credits cost money).

    The sandbox's demo key is never live, whichever sandbox it is sent to.
    """
    key = settings.api_key.get_secret_value() if settings.api_key is not None else ""
    sandbox = settings.is_sandbox or (settings.base_url or "").rstrip("/") == SANDBOX_BASE_URL
    return not sandbox and bool(key) and key != DEMO_KEY


def browser_url(host: str, port: int) -> str:
    """The address to print for a bind of ``host``:``port``."""
    if host in ("", "0.0.0.0", "::"):
        host = "<this machine's address>"
    elif ":" in host:
        host = f"[{host}]"
    return f"http://{host}:{port}"


@cache
def offline_index_template() -> str:
    """textual-serve's page template with its only remote asset (a web font) made local.

    Raises ``RuntimeError`` if the template still references another host, so an
    upgrade that adds a CDN asset fails loudly instead of breaking offline demos.
    """
    stock = Path(textual_serve.__file__).parent / "templates" / "app_index.html"
    text = _REMOTE_STYLESHEET.sub(_LOCAL_FONT_CSS, stock.read_text(encoding="utf-8"))
    if _REMOTE_REFERENCE.search(text):
        raise RuntimeError(f"{stock} loads an asset from another host; serve it locally")
    return text


def _same_authority(origin: str, host: str) -> bool:
    # "http://127.0.0.1:8000" vs Host "127.0.0.1:8000": the scheme is left out
    # so a TLS-terminating proxy in front does not break the comparison.
    return origin.split("://", 1)[-1].rstrip("/").lower() == host.lower()


def _host_name(host_header: str) -> str:
    """``"[::1]:8000"`` -> ``"::1"``, ``"localhost:8000"`` -> ``"localhost"``."""
    if host_header.startswith("["):
        return host_header[1 : host_header.find("]")].lower()
    return host_header.rsplit(":", 1)[0].lower() if ":" in host_header else host_header.lower()


def build_server(host: str, port: int, command: str | None = None) -> DemoServer:
    """A :class:`DemoServer` for ``command`` (default: the explorer) on ``host``:``port``."""
    return DemoServer(command or explorer_command(), host=host, port=port)


class DemoServer(Server):
    """textual-serve's server with local assets and same-origin checks."""

    def __init__(self, command: str, *, host: str, port: int) -> None:
        super().__init__(command, host=host, port=port, title="creditscope")
        self.loopback_only = is_loopback(host)

    async def _make_app(self) -> web.Application:
        app = await super()._make_app()
        loader = jinja2.DictLoader({"app_index.html": offline_index_template()})
        aiohttp_jinja2.setup(app, loader=loader)
        return app

    def check_host(self, request: web.Request) -> None:
        """Refuse a non-loopback Host header on a loopback bind (DNS rebinding)."""
        if self.loopback_only and _host_name(request.host) not in LOOPBACK_HOST_NAMES:
            raise web.HTTPForbidden(text="creditscope web: unexpected Host header")

    async def handle_index(self, request: web.Request) -> web.Response:  # type: ignore[override]
        """The page, with URLs built from the address the browser used."""
        self.check_host(request)
        secure = request.scheme == "https"
        base = f"{request.scheme}://{request.host}"
        font_size = request.query.get("fontsize", "16")
        context = {
            "font_size": int(font_size) if font_size.isdigit() else 16,
            "app_websocket_url": f"{'wss' if secure else 'ws'}://{request.host}/ws",
            "config": {"static": {"url": f"{base}/static/"}},
            "application": {"name": self.title},
        }
        response = aiohttp_jinja2.render_template("app_index.html", request, context)
        # Another site must not frame the page and steer the presenter's keys.
        response.headers["X-Frame-Options"] = "DENY"
        response.headers["Content-Security-Policy"] = "frame-ancestors 'none'"
        return response

    async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
        """Start an explorer only for a same-origin page (WebSockets ignore CORS)."""
        self.check_host(request)
        origin = request.headers.get("Origin")
        if origin is not None and not _same_authority(origin, request.host):
            raise web.HTTPForbidden(text="creditscope web: cross-origin WebSocket refused")
        return await super().handle_websocket(request)

    async def on_startup(self, app: web.Application) -> None:
        # Printed once the port is bound; the stock banner shows the bind address,
        # which browsers cannot always use (0.0.0.0).
        self.console.print(
            f"Open {browser_url(self.host, self.port)} in a browser. Ctrl+C stops.",
            highlight=False,
        )


@click.command(name="web")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to bind.")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(1, 65535))
@click.option(
    "--public",
    is_flag=True,
    help="Allow binding a non-loopback address. The page has no authentication.",
)
@click.option(
    "--allow-live-key",
    is_flag=True,
    help="With --public: serve even though a live API key is configured.",
)
def command(host: str, port: int, public: bool, allow_live_key: bool) -> None:
    """Serve the explorer in a web browser (for demos), on the sandbox unless configured.

    Each browser tab runs its own explorer on this machine, with this machine's
    settings. Stop with Ctrl+C.
    """
    from creditscope.settings import SettingsError, load_settings

    try:
        settings, warnings = load_settings()
    except SettingsError as exc:
        raise click.ClickException(str(exc)) from None
    for warning in warnings:
        click.echo(f"warning: {warning}", err=True)

    live_key = has_live_key(settings)
    if not is_loopback(host):
        if not public:
            raise click.UsageError(
                f"--host {host} is reachable from other machines and the page has no "
                "authentication; add --public to do it anyway."
            )
        if live_key and not allow_live_key:
            raise click.UsageError(
                "a live API key is configured: anyone who reaches the page spends its "
                "credits. Use the sandbox (unset base_url), or add --allow-live-key."
            )
        click.echo(
            "warning: textual-serve has no authentication: anyone who can reach "
            f"{browser_url(host, port)} can use the explorer"
            + (" and spend the configured key's credits." if live_key else "."),
            err=True,
        )
    elif live_key:
        click.echo("note: a live API key is configured; the page spends its credits.", err=True)

    # Only the host name: a base URL may carry user:password.
    service = urlsplit(settings.base_url or "").hostname or "the configured service"
    target = "the built-in sandbox" if settings.is_sandbox else service
    click.echo(f"creditscope web: the explorer on {target}, one process per browser tab.")
    server = build_server(host, port)
    try:
        server.serve()
    except OSError as exc:
        raise click.ClickException(f"cannot serve on {host}:{port}: {exc}") from None
