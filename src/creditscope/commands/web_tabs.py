"""One browser tab of ``creditscope web``: its explorer process and the WebSocket relay.

textual-serve's ``AppService`` runs the command through a shell and, when the
socket closes, asks the app to quit and waits for it forever. A tab resized to
thousands of cells can be too busy to read that request, so it lingered after
its socket closed. :class:`TabProcess` starts the explorer directly (no shell:
:class:`~creditscope.commands.textual_serve_patch.ExecAppService`),
clamps every terminal size it passes on, marks the tab as a web
demo (read-only settings, no server-side files) of its server's run (one budget for
all its tabs), and :meth:`TabProcess.end`
asks once, then terminates, then kills it.
"""

from __future__ import annotations

import asyncio
import os
import signal
from collections.abc import Awaitable, Callable
from contextlib import suppress
from dataclasses import dataclass
from typing import TYPE_CHECKING

from aiohttp import WSMsgType, web

from creditscope import json_limits
from creditscope.commands.textual_serve_patch import ExecAppService

if TYPE_CHECKING:  # textual-serve's internals: read for types only
    from textual_serve.download_manager import DownloadManager
from creditscope.web_demo import WEB_DEMO_ENV, WEB_RUN_ENV

# How long a tab's explorer gets to quit, then to exit after SIGTERM.
QUIT_GRACE_S = 3.0
TERM_GRACE_S = 2.0
# Input the explorer does not accept within this long ends the tab (it is stuck).
SEND_TIMEOUT_S = 10.0
# The largest WebSocket message a tab accepts (typed or pasted input, control messages).
MAX_MESSAGE_BYTES = 64 * 1024


@dataclass(frozen=True)
class TerminalBounds:
    """The smallest and largest terminal a tab may ask for, in cells."""

    min_width: int = 20
    min_height: int = 8
    max_width: int = 250
    max_height: int = 80

    def clamp(self, width: object, height: object) -> tuple[int, int]:
        """``width`` x ``height`` brought inside the bounds (garbage becomes 80 x 24)."""
        return (
            _bounded(width, 80, self.min_width, self.max_width),
            _bounded(height, 24, self.min_height, self.max_height),
        )


def _bounded(value: object, default: int, low: int, high: int) -> int:
    try:
        number = int(str(value))
    except ValueError:
        number = default
    return max(low, min(high, number))


class TabProcess(ExecAppService):
    """The explorer behind one tab, in its own process group, ended for sure by :meth:`end`."""

    def __init__(
        self,
        command: str,
        bounds: TerminalBounds,
        *,
        write_bytes: Callable[[bytes], Awaitable[None]],
        write_str: Callable[[str], Awaitable[None]],
        close: Callable[[], Awaitable[None]],
        download_manager: DownloadManager,
        run_id: str,
        debug: bool = False,
    ) -> None:
        super().__init__(command, write_bytes=write_bytes, write_str=write_str, close=close,
                         download_manager=download_manager, debug=debug)
        self.bounds = bounds
        self.run_id = run_id

    def terminal_size(self, width: int, height: int) -> tuple[int, int]:
        """The size asked for, clamped to the bounds."""
        return self.bounds.clamp(width, height)

    def environment(self, environment: dict[str, str]) -> dict[str, str]:
        """textual-serve's environment, marked as a web demo's and its server's run (the
        run's tabs share one budget)."""
        return {**environment, WEB_DEMO_ENV: "1", WEB_RUN_ENV: self.run_id}

    async def set_terminal_size(self, width: int, height: int) -> None:
        """Pass on a resize, clamped to the bounds."""
        await super().set_terminal_size(*self.bounds.clamp(width, height))

    async def end(self) -> None:
        """Ask the explorer to quit; SIGTERM, then SIGKILL it if it lingers.

        The final SIGKILL runs even if this is cancelled half-way (server shutdown).
        """
        try:
            with suppress(Exception):
                await asyncio.wait_for(self.stop(), QUIT_GRACE_S)
            process = self.process
            if process is not None:
                _signal(process, signal.SIGTERM)
                with suppress(TimeoutError):
                    await asyncio.wait_for(process.wait(), TERM_GRACE_S)
        finally:
            if self.process is not None:
                _signal(self.process, signal.SIGKILL)


def _signal(process: asyncio.subprocess.Process, sig: signal.Signals) -> None:
    # returncode is set once the child is reaped: until then its pid cannot be reused.
    if process.returncode is None:
        with suppress(ProcessLookupError):
            os.kill(process.pid, sig)


async def relay(websocket: web.WebSocketResponse, tab: TabProcess) -> None:
    """Pass the browser's messages to the explorer until the socket closes.

    Malformed messages are ignored; input the explorer cannot take within
    ``SEND_TIMEOUT_S`` ends the tab (its process is stuck).
    """
    async for message in websocket:
        if message.type != WSMsgType.TEXT:
            continue
        try:
            kind, data = json_limits.loads(message.data)
        except (ValueError, TypeError):
            continue
        try:
            await asyncio.wait_for(_forward(websocket, tab, kind, data), SEND_TIMEOUT_S)
        except TimeoutError:
            return


async def _forward(websocket: web.WebSocketResponse, tab: TabProcess, kind: object,
                   data: object) -> None:
    if kind == "stdin" and isinstance(data, str):
        await tab.send_bytes(data.encode("utf-8"))
    elif kind == "resize" and isinstance(data, dict):
        await tab.set_terminal_size(data.get("width", 80), data.get("height", 24))
    elif kind == "ping":
        await websocket.send_json(["pong", data])
    elif kind == "blur":
        await tab.blur()
    elif kind == "focus":
        await tab.focus()
