"""The built-in sandbox as the explorer's child process, answering over its stdin and
stdout (``python -m creditscope.sandbox.pipe_server [--db FILE]``).

The explorer keeps open all day; running the sandbox here keeps FastAPI, the sandbox's
routes and its generated data out of the explorer's memory, and its work off the
explorer's event loop. No port is opened: the pipe is private to the two processes.
The process ends when its stdin closes, so it never outlives the explorer.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import threading
from pathlib import Path
from typing import IO, Any

import httpx

from creditscope.sandbox.pipe_frames import FrameError, encode_frame, read_frame

READY = {"id": 0, "ready": True}  # the first frame: the app is built and answering


class PipeServer:
    """Reads request frames on one thread, answers each on the event loop as it comes."""

    def __init__(self, app: Any, out: IO[bytes]) -> None:
        self._http = httpx.AsyncClient(transport=httpx.ASGITransport(app=app),
                                       base_url="http://sandbox")
        self._out = out
        self._write_lock = threading.Lock()
        self._tasks: set[asyncio.Task[None]] = set()

    def send(self, header: dict[str, Any], body: bytes = b"") -> None:
        frame = encode_frame(header, body)
        with self._write_lock:  # one frame at a time, whole
            self._out.write(frame)
            self._out.flush()

    async def answer(self, header: dict[str, Any], body: bytes) -> None:
        """Send one request to the app; write its answer (or what went wrong) back."""
        ident = header.get("id")
        try:
            response = await self._http.request(
                str(header["method"]), str(header["url"]),
                headers=[(str(k), str(v)) for k, v in header.get("headers", [])],
                content=body,
            )
        except Exception as error:  # the parent shows it as a failed request, never hangs
            self.send({"id": ident, "error": f"{type(error).__name__}: {error}"})
            return
        headers = [[k, v] for k, v in response.headers.multi_items()]
        self.send({"id": ident, "status": response.status_code, "headers": headers},
                  response.content)

    async def run(self, stdin: IO[bytes]) -> None:
        """Answer frames until stdin ends (the explorer closed it, or exited)."""
        loop = asyncio.get_running_loop()
        finished = asyncio.Event()

        def reader() -> None:
            try:
                while (frame := read_frame(stdin)) is not None:
                    loop.call_soon_threadsafe(self._start, *frame)
            except (FrameError, OSError, ValueError):
                pass  # a broken pipe ends the process like a closed one
            loop.call_soon_threadsafe(finished.set)

        threading.Thread(target=reader, name="sandbox-pipe-reader", daemon=True).start()
        self.send(READY)
        await finished.wait()
        if self._tasks:
            await asyncio.wait(self._tasks, timeout=5)
        await self._http.aclose()

    def _start(self, header: dict[str, Any], body: bytes) -> None:
        task = asyncio.ensure_future(self.answer(header, body))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, default=None, help="balances and provider requests")
    args = parser.parse_args(argv)
    from creditscope.sandbox.app import create_app
    from creditscope.sandbox.config import SandboxConfig

    app = create_app(SandboxConfig(db_path=args.db))
    stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
    sys.stdout = sys.stderr  # a stray print must not corrupt the frames
    asyncio.run(PipeServer(app, stdout).run(stdin))


if __name__ == "__main__":
    main()
