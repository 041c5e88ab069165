"""The explorer's built-in sandbox in a child process, reached over a pipe.

The explorer runs all day; the in-process sandbox kept FastAPI, the sandbox's routes
and the data it generates (~12 MB) in the explorer's memory and ran its work on the
explorer's event loop. :class:`SandboxProcessTransport` starts
``python -m creditscope.sandbox.pipe_server`` when it is built (so the child is ready
by the first call) and sends each request there as a frame
(:mod:`creditscope.sandbox.pipe_frames`). No port is opened, and only the sandbox's
own demo keys ever cross the pipe (``wiring.service_address``). The child ends when
its stdin closes: on :meth:`aclose`, or when the explorer exits however it exits.

The CLI's one-shot commands keep the in-process sandbox: a child's start-up would cost
them more than it saves.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import os
import subprocess
import sys
import threading
from concurrent.futures import Future, InvalidStateError
from pathlib import Path
from typing import IO, Any

import httpx

from creditscope.sandbox.pipe_frames import FrameError, encode_frame, read_frame

START_TIMEOUT_S = 60.0  # the child imports FastAPI and builds the app: ~1 s here
STOPPED = "The built-in sandbox stopped; the next request starts it again."


def child_environment() -> dict[str, str]:
    """The explorer's environment without its own settings: a key in
    ``CREDITSCOPE_API_KEY`` has no business in the sandbox's process."""
    return {name: value for name, value in os.environ.items()
            if not name.startswith("CREDITSCOPE_")}


Answer = tuple[dict[str, Any], bytes]  # an answer's header and body


class SandboxProcessTransport(httpx.AsyncBaseTransport):
    """An httpx transport answered by the sandbox in a child process."""

    def __init__(self, db_path: Path | None) -> None:
        self._db_path = db_path
        self._ids = itertools.count(1)
        self._lock = threading.Lock()  # the child, its stdin and the waiting requests
        self._child: subprocess.Popen[bytes] | None = None
        self._ready: Future[None] = Future()
        # Requests waiting for an answer, with the child each was sent to.
        self._waiting: dict[int, tuple[subprocess.Popen[bytes], Future[Answer]]] = {}
        self._start()

    @property
    def pid(self) -> int | None:
        """The child's process id while it runs (for tests and doctor)."""
        child = self._child
        return child.pid if child is not None and child.poll() is None else None

    def _start(self) -> None:
        command = [sys.executable, "-m", "creditscope.sandbox.pipe_server"]
        if self._db_path is not None:
            command += ["--db", str(self._db_path)]
        child = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                 stderr=subprocess.DEVNULL, close_fds=True, env=child_environment())
        ready: Future[None] = Future()
        self._child, self._ready = child, ready
        assert child.stdout is not None
        threading.Thread(target=self._read_answers, args=(child, child.stdout, ready),
                         name="sandbox-answers", daemon=True).start()

    def _read_answers(self, child: subprocess.Popen[bytes], stdout: IO[bytes],
                      ready: Future[None]) -> None:
        """Hand each answer to the request waiting for it, until the child's stdout ends."""
        try:
            while (frame := read_frame(stdout)) is not None:
                header, body = frame
                if header.get("ready"):
                    _settle(ready, None)
                    continue
                with self._lock:
                    sent = self._waiting.pop(int(header.get("id", -1)), None)
                if sent is not None:
                    _settle(sent[1], (header, body))
        except (FrameError, OSError, ValueError):
            pass
        with self._lock:  # the child is gone: fail what still waits, start afresh next time
            if self._child is child:
                self._child = None
            # Only this child's requests: one sent to its successor is still answered.
            theirs = [ident for ident, (to, _) in self._waiting.items() if to is child]
            stranded = [self._waiting.pop(ident)[1] for ident in theirs]
        futures: list[Future[Any]] = [*stranded, ready]
        for waiting in futures:
            if not waiting.done():
                waiting.set_exception(httpx.ConnectError(STOPPED))

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        """Send ``request`` to the child; its answer, or ``ReadTimeout`` past the read limit."""
        body = await request.aread()
        ident = next(self._ids)
        answer: Future[Answer] = Future()
        header = {"id": ident, "method": request.method, "url": str(request.url),
                  "headers": [[k.decode("latin-1"), v.decode("latin-1")]
                              for k, v in request.headers.raw]}
        limit = request.extensions.get("timeout", {}).get("read")
        with self._lock:
            if self._child is None or self._child.poll() is not None:
                self._start()
            child, ready = self._child, self._ready
            assert child is not None  # just started if it was not running
            self._waiting[ident] = (child, answer)
        try:
            # Shielded: a request given up while the child starts (a search replaced by
            # the next) must not cancel the start every later request waits for.
            await asyncio.wait_for(asyncio.shield(asyncio.wrap_future(ready)),
                                   START_TIMEOUT_S)
            assert child.stdin is not None
            self._write(child.stdin, encode_frame(header, body), request)
            found, content = await asyncio.wait_for(asyncio.wrap_future(answer), limit)
        except TimeoutError as late:
            raise httpx.ReadTimeout("No answer in time", request=request) from late
        finally:
            with self._lock:
                self._waiting.pop(ident, None)
        if "error" in found:
            raise httpx.RemoteProtocolError(str(found["error"]), request=request)
        return httpx.Response(int(found["status"]), headers=found["headers"],
                              content=content, request=request)

    def _write(self, stdin: IO[bytes], frame: bytes, request: httpx.Request) -> None:
        try:
            with self._lock:  # frames whole, one after the other
                stdin.write(frame)
                stdin.flush()
        except OSError as error:
            raise httpx.ConnectError(STOPPED, request=request) from error

    async def aclose(self) -> None:
        """Close the child's stdin (it then exits) and wait for it a moment."""
        with self._lock:
            child, self._child = self._child, None
        if child is None:
            return
        with contextlib.suppress(OSError):
            assert child.stdin is not None
            child.stdin.close()
        for _ in range(50):  # up to 5 s, without blocking the event loop
            if child.poll() is not None:
                return
            await asyncio.sleep(0.1)
        child.kill()


def _settle(future: Future[Any], result: Any) -> None:
    """Give ``future`` its result unless its waiter gave up (cancelled while the app
    closed, say): a result for nobody is dropped, not raised in this reading thread."""
    with contextlib.suppress(InvalidStateError):
        future.set_result(result)
