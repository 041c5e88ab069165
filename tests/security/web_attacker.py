"""An attacker's tools against `creditscope web` on loopback: the server in-process
(its tabs a tiny stand-in) or as a subprocess, and a WebSocket client that plays a
browser tab (sends keys, reads what the terminal painted, sees download offers).

Everything is bounded: every wait has a timeout, every server is stopped and
every explorer it started is killed when the test ends.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import shlex
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager, suppress
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from pathlib import Path
from typing import Any

import aiohttp
from aiohttp.test_utils import TestClient, TestServer

from creditscope.commands import web

_ESCAPES = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]")
_PRINTED_URL = re.compile(r"Open (http://\S+) in a browser")

TOKEN = "t0ken-for-tests-only"
# A stand-in for the explorer: says it is a Textual app, then waits for stdin to close.
STAND_IN = shlex.join([
    sys.executable, "-c",
    "import sys; sys.stdout.write('__GANGLION__\\n'); sys.stdout.flush(); sys.stdin.read()",
])


@asynccontextmanager
async def in_process(**options: Any) -> AsyncIterator[tuple[TestClient[Any, Any], Any]]:
    """The real aiohttp app of ``creditscope web`` (port 0: its cookie is
    ``creditscope_web_0``), its tabs :data:`STAND_IN`; the client and the server."""
    server = web.build_server("127.0.0.1", 0, STAND_IN, token=TOKEN, **options)
    client: TestClient[Any, Any] = TestClient(TestServer(await server.web_app()))
    await client.start_server()
    try:
        yield client, server
    finally:
        await client.close()
        await server.on_shutdown(client.app)


def cookie(server: Any) -> dict[str, str]:
    """The cookie of a visitor who opened the printed URL (a session of this run)."""
    return {"Cookie": f"creditscope_web_0={server.policy.open_session()}"}


def free_port() -> int:
    """A TCP port on 127.0.0.1 nothing listens on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def explorer_children(parent: int) -> list[int]:
    """PIDs of the `creditscope tui` processes whose parent is ``parent`` (Linux /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ")
        except OSError:
            continue
        # Field 4 of stat is the parent pid; the command name (2) may hold spaces.
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        if ppid == parent and b"creditscope tui" in cmdline and b"<defunct>" not in cmdline:
            state = stat.rsplit(")", 1)[1].split()[0]
            if state != "Z":
                found.append(int(entry.name))
    return found


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


def login(url: str) -> str:
    """Open the printed ``url`` as a browser does; the session id its cookie holds."""
    opener = urllib.request.build_opener(_NoRedirect)
    try:
        opener.open(url, timeout=10)
    except urllib.error.HTTPError as answer:  # the 303 that sets the cookie
        cookie = SimpleCookie(answer.headers["Set-Cookie"])
        [morsel] = cookie.values()
        return morsel.value
    raise AssertionError(f"{url} set no cookie")


@dataclass
class WebServer:
    """A running `creditscope web` subprocess."""

    process: subprocess.Popen[str]
    port: int
    url: str
    log_path: Path
    seen_children: set[int] = field(default_factory=set)

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def token(self) -> str:
        return self.url.split("token=", 1)[1]

    @property
    def cookie(self) -> dict[str, str]:
        """The cookie a browser gets by opening the printed URL (a fresh session each time)."""
        return {self.cookie_name: login(self.url)}

    @property
    def cookie_name(self) -> str:
        return f"creditscope_web_{self.port}"

    def explorers(self) -> list[int]:
        pids = explorer_children(self.process.pid)
        self.seen_children.update(pids)
        return pids

    def log(self) -> str:
        return self.log_path.read_text(encoding="utf-8", errors="replace")


@contextmanager
def web_server(
    tmp_path: Path, *args: str, env: dict[str, str] | None = None
) -> Iterator[WebServer]:
    """`creditscope web --port P ARGS` until the block ends; then nothing it started is left."""
    port = free_port()
    log_path = tmp_path / f"web-{port}.log"
    environment = {**os.environ, "PYTHONUNBUFFERED": "1", **(env or {})}
    workdir = tmp_path / "server-cwd"  # where a careless server would write files
    workdir.mkdir(exist_ok=True)
    with log_path.open("w", encoding="utf-8") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "creditscope", "web", "--port", str(port), *args],
            env=environment, stdout=log, stderr=subprocess.STDOUT, text=True,
            start_new_session=True, cwd=workdir,
        )
    server = WebServer(process, port, "", log_path)
    try:
        deadline = time.monotonic() + 30
        while not (match := _PRINTED_URL.search(server.log())):
            if process.poll() is not None or time.monotonic() > deadline:
                raise AssertionError(f"`creditscope web` did not start:\n{server.log()[-2000:]}")
            time.sleep(0.1)
        server.url = match[1]
        yield server
    finally:
        server.explorers()
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=5)
        for pid in server.seen_children:  # only what this server started, if still there
            with suppress(OSError):
                if b"creditscope tui" in Path(f"/proc/{pid}/cmdline").read_bytes().replace(
                    b"\0", b" "
                ):
                    os.kill(pid, signal.SIGKILL)


class Tab:
    """A browser tab's WebSocket: keys in, painted text and download offers out."""

    def __init__(self, websocket: aiohttp.ClientWebSocketResponse) -> None:
        self.websocket = websocket
        self.chunks: list[str] = []
        self.messages: list[Any] = []
        self.closed = False
        self._reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        async for message in self.websocket:
            if message.type == aiohttp.WSMsgType.BINARY:
                self.chunks.append(message.data.decode("utf-8", "replace"))
            elif message.type == aiohttp.WSMsgType.TEXT:
                self.messages.append(json.loads(message.data))
        self.closed = True

    def mark(self) -> int:
        return len(self.chunks)

    def text(self, since: int = 0) -> str:
        return _ESCAPES.sub("", "".join(self.chunks[since:]))

    async def wait_for(self, needle: str, since: int = 0, timeout: float = 30) -> None:
        deadline = time.monotonic() + timeout
        while needle not in self.text(since):
            if self.closed or time.monotonic() > deadline:
                raise AssertionError(f"never painted {needle!r}; last:\n{self.text(since)[-1500:]}")
            await asyncio.sleep(0.1)

    async def wait_message(self, kind: str, timeout: float = 15) -> Any:
        deadline = time.monotonic() + timeout
        while True:
            for message in self.messages:
                if isinstance(message, list) and message and message[0] == kind:
                    return message
            if self.closed or time.monotonic() > deadline:
                raise AssertionError(f"no {kind!r} message; got {self.messages!r}")
            await asyncio.sleep(0.1)

    async def keys(self, *keys: str, pause: float = 0.3) -> None:
        """Type ``keys`` one message each (Escape needs a pause, or it reads as Alt+key)."""
        for key in keys:
            mark = self.mark()
            await self.websocket.send_str(json.dumps(["stdin", key]))
            await asyncio.sleep(pause)
            if key == "\x1b":
                # A loaded machine may read Escape and the next key as one Alt+key: wait
                # for the frame Escape paints (or a second) before the next key.
                deadline = time.monotonic() + 0.5
                while self.mark() == mark and time.monotonic() < deadline:
                    await asyncio.sleep(0.05)
                await asyncio.sleep(0.1)

    async def resize(self, width: int, height: int) -> None:
        await self.websocket.send_str(json.dumps(["resize", {"width": width, "height": height}]))

    async def close(self) -> None:
        await self.websocket.close()
        self._reader.cancel()
        with suppress(asyncio.CancelledError):
            await self._reader


async def open_tab(session: aiohttp.ClientSession, base: str, size: str = "120x36") -> Tab:
    """A tab of the web demo at ``base``, opened as a browser opens it (same Origin)."""
    width, height = size.split("x")
    websocket = await session.ws_connect(
        f"{base.replace('http', 'ws')}/ws?width={width}&height={height}",
        headers={"Origin": base}, timeout=aiohttp.ClientWSTimeout(ws_close=5),
    )
    return Tab(websocket)
