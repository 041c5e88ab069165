"""The one place ``creditscope web`` reaches into textual-serve's internals, for the
pinned textual-serve only.

textual-serve is pinned exactly (pyproject); each reach below was read against
:data:`CHECKED_TEXTUAL_SERVE`. On any other version the classes here refuse to be
built (:func:`require`) and ``creditscope web`` says why, rather than serve pages
whose access rules or process handling no longer hold; and
``tests/security/test_textual_serve_patch.py`` fails until they are read again.

1. :class:`ExecAppService` overrides ``AppService._build_environment`` and
   ``AppService._open_app_process`` and sets the private ``_process`` and ``_stdin``
   that the rest of ``AppService`` reads. textual-serve starts a tab's command
   through a shell, so signals reach the shell and not the explorer, and passes
   on any terminal size the browser asks for; subclasses get the command run
   directly and two hooks, :meth:`ExecAppService.terminal_size` and
   :meth:`ExecAppService.environment`.
2. :class:`OwnRoutesServer` overrides ``Server._make_app`` (the aiohttp application:
   its middlewares, routes and template loader), the only way to put access rules in
   front of every route and to turn off static directory listings; subclasses build
   the application in :meth:`OwnRoutesServer.web_app`.
3. :func:`offline_index_template` edits textual-serve's packaged page template
   (``templates/app_index.html``) with a regular expression: its Google Fonts
   ``<link>`` becomes the same font from our own ``/static``, so a demo works offline
   and the page loads nothing from another host.
"""

from __future__ import annotations

import asyncio
import re
import shlex
from functools import cache
from importlib.metadata import version
from pathlib import Path

import textual_serve
from aiohttp import web

try:
    from textual_serve.app_service import AppService
    from textual_serve.server import Server

    MISSING: str | None = None
except ImportError as missing:  # a textual-serve that moved them: `web` refuses, saying why
    AppService = Server = object  # type: ignore[misc,assignment]
    MISSING = f"{type(missing).__name__}: {missing}"

CHECKED_TEXTUAL_SERVE = "1.1.3"
"""The textual-serve version whose ``AppService`` and ``Server`` this was read against."""


@cache
def applies() -> bool:
    """True when the installed textual-serve is the one this was checked against, with
    the modules it subclasses."""
    return MISSING is None and version("textual-serve") == CHECKED_TEXTUAL_SERVE


def require() -> None:
    """Raise ``RuntimeError`` unless the installed textual-serve is the checked one."""
    if MISSING is not None:
        raise RuntimeError(f"creditscope web needs textual-serve's internals ({MISSING}); "
                           f"reinstall textual-serve {CHECKED_TEXTUAL_SERVE}")
    if not applies():
        raise RuntimeError(
            f"creditscope web was checked against textual-serve {CHECKED_TEXTUAL_SERVE} "
            f"only; {version('textual-serve')} is installed"
        )


class ExecAppService(AppService):
    """textual-serve's ``AppService``, its command started without a shell (see 1.)."""

    process: asyncio.subprocess.Process | None = None

    def terminal_size(self, width: int, height: int) -> tuple[int, int]:
        """The size the command starts with, for the size the browser asked for."""
        return width, height

    def environment(self, environment: dict[str, str]) -> dict[str, str]:
        """The command's environment, given textual-serve's."""
        return environment

    def _build_environment(self, width: int = 80, height: int = 24) -> dict[str, str]:
        require()
        width, height = self.terminal_size(width, height)
        return self.environment(super()._build_environment(width=width, height=height))

    async def _open_app_process(
        self, width: int = 80, height: int = 24
    ) -> asyncio.subprocess.Process:
        # No shell in between: signals sent to `process` reach the command itself. It stays
        # in the server's process group, so Ctrl+C in the server's terminal reaches it too.
        environment = self._build_environment(width=width, height=height)
        self.process = process = await asyncio.create_subprocess_exec(
            *shlex.split(self.command),
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            env=environment,
        )
        # What the rest of AppService (stdin writes, stdout reads, stop) works with.
        self._process = process
        assert process.stdin is not None
        self._stdin = process.stdin
        return process


class OwnRoutesServer(Server):
    """textual-serve's ``Server``, its aiohttp application built by the subclass (see 2.)."""

    async def web_app(self) -> web.Application:
        """The aiohttp application to serve."""
        raise NotImplementedError

    async def _make_app(self) -> web.Application:
        require()
        return await self.web_app()


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


@cache
def offline_index_template() -> str:
    """textual-serve's page template with its only remote asset (a web font) made local
    (see 3.).

    Raises ``RuntimeError`` if the template still references another host, so an
    upgrade that adds a CDN asset fails loudly instead of breaking offline demos.
    """
    require()
    stock = Path(textual_serve.__file__).parent / "templates" / "app_index.html"
    text = _REMOTE_STYLESHEET.sub(_LOCAL_FONT_CSS, stock.read_text(encoding="utf-8"))
    if _REMOTE_REFERENCE.search(text):
        raise RuntimeError(f"{stock} loads an asset from another host; serve it locally")
    return text
