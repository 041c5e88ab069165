"""Helpers for the browser test: a `creditscope web` subprocess, headless
Chromium through Playwright, and a reader for what the page's terminal shows.

Reading the terminal: textual-serve's xterm.js draws to a WebGL/canvas layer
and keeps its Terminal object private, so the DOM holds no text. The page
receives every byte it draws over its WebSocket, though, and Playwright sees
those frames; :class:`TerminalStream` keeps them with the escape sequences
removed, so a test can wait for text the app painted after a given moment.
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page, Playwright, WebSocket

CHROMIUM = Path("/usr/bin/chromium")
# Debian's chromium in a container: no sandbox or GPU, and nothing that phones home.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]

# CSI (colours, cursor moves, modes), OSC (titles, ended by BEL or ST), other ESC pairs.
_ESCAPES = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]")


def require_browser() -> Path:
    """Chromium's path; skip locally, fail under CI=true, if it or Playwright is missing."""
    problems = []
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        problems.append("the playwright package is not installed (pip install -e '.[dev]')")
    if not (CHROMIUM.exists() and os.access(CHROMIUM, os.X_OK)):
        problems.append(f"{CHROMIUM} is missing (apt-get install chromium; .ci/run does it)")
    if problems:
        reason = "browser test needs: " + "; ".join(problems)
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail(reason + " (CI must not skip this test)", pytrace=False)
        pytest.skip(reason)
    return CHROMIUM


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def wait_for_port(port: int, process: subprocess.Popen[str], timeout: float) -> None:
    """Return once ``port`` accepts connections; fail if ``process`` dies or time runs out."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            output = process.stdout.read() if process.stdout else ""
            pytest.fail(f"`creditscope web` exited with {process.returncode}:\n{output}")
        with suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=0.5):
            return
        time.sleep(0.1)
    pytest.fail(f"`creditscope web` did not listen on port {port} within {timeout:.0f}s")


_PRINTED_URL = re.compile(r"Open (http://\S+) in a browser")


def printed_url(log_path: Path, process: subprocess.Popen[str], timeout: float = 20) -> str:
    """The address (with its token) `creditscope web` printed in its log."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if match := _PRINTED_URL.search(log_path.read_text(encoding="utf-8", errors="replace")):
            return match[1]
        if process.poll() is not None:
            break
        time.sleep(0.1)
    pytest.fail(f"`creditscope web` printed no address:\n{log_path.read_text()[-2000:]}")


@contextmanager
def web_server(
    port: int, env: dict[str, str], log_path: Path, *extra: str
) -> Iterator[subprocess.Popen[str]]:
    """Run ``creditscope web --port PORT [extra...]`` (this Python) until the block ends."""
    with log_path.open("w+", encoding="utf-8") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "creditscope", "web", "--port", str(port), *extra],
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            text=True,
            # Its own process group, so the explorers it spawned are stopped with it.
            start_new_session=True,
        )
        try:
            yield process
        finally:
            stop_process_group(process)


def stop_process_group(process: subprocess.Popen[str]) -> None:
    """SIGTERM the server's process group, then SIGKILL it if it lingers."""
    import signal

    if process.poll() is None:
        with suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            with suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=5)
    # Explorer processes left behind in the group (the server quits them normally).
    with suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)


@contextmanager
def chromium(playwright: Playwright, executable: Path) -> Iterator[Browser]:
    """Headless Debian chromium, closed when the block ends."""
    browser = playwright.chromium.launch(
        executable_path=str(executable), args=CHROMIUM_ARGS, headless=True, timeout=20_000
    )
    try:
        yield browser
    finally:
        browser.close()


class TerminalStream:
    """The text the page's terminal received over its WebSocket, escapes removed."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.chunks: list[str] = []
        self.closed = False
        page.on("websocket", self._on_websocket)

    def _on_websocket(self, websocket: WebSocket) -> None:
        websocket.on("framereceived", self._on_frame)
        websocket.on("close", self._on_close)

    def _on_close(self, _websocket: WebSocket) -> None:
        # The explorer process ended (crashed or quit): waiting longer cannot help.
        self.closed = True

    def _on_frame(self, payload: str | bytes) -> None:
        # Binary frames are terminal output; text frames are JSON control messages.
        if isinstance(payload, bytes):
            self.chunks.append(payload.decode("utf-8", "replace"))

    def mark(self) -> int:
        """A position: :meth:`wait_for` with ``since=mark`` ignores what came before."""
        return len(self.chunks)

    def text(self, since: int = 0) -> str:
        """Everything received since ``since``, without escape sequences."""
        return _ESCAPES.sub("", "".join(self.chunks[since:]))

    def wait_for(self, *needles: str, since: int = 0, timeout: float = 15.0) -> str:
        """Wait until one of ``needles`` is painted after ``since``; return it, or fail."""
        deadline = time.monotonic() + timeout
        while True:
            text = self.text(since)
            for needle in needles:
                if needle in text:
                    return needle
            if self.closed or time.monotonic() > deadline:
                why = "the session ended" if self.closed else f"{timeout:.0f}s passed"
                tail = text[-1500:]
                pytest.fail(f"{why}; the page never showed any of {needles!r}. Last text:\n{tail}")
            # Waiting through Playwright lets it deliver the frame events meanwhile.
            self.page.wait_for_timeout(100)


def open_explorer(page: Page, url: str, stream: TerminalStream) -> None:
    """Load the explorer at ``url`` and wait until it has painted and takes keys."""
    page.goto(url, wait_until="load")
    # The token became a cookie; a screen share no longer shows it.
    assert "token" not in page.url
    # The explorer's header is the first thing it paints.
    stream.wait_for("creditscope", timeout=30)
    page.wait_for_selector("body.-first-byte", state="attached")
    page.focus(".xterm-helper-textarea")
