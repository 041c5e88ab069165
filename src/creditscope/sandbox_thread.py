"""The explorer's built-in sandbox in the explorer's process, on a thread of its own.

Where the sandbox lives is chosen by what the user's machine holds (measured by
``benchmarks/memory_tree.py``, the real command in a real terminal, after the journey):
in a child process the tree was 183 MB (explorer 105 + child 78: a second Python with
its own asyncio, pydantic, the models and the sandbox's data), in the explorer's process
126 MB. On its own thread and event loop, the sandbox's SQLite meter and its generated
answers stay off the explorer's loop, as they did in the child; a cached revisit never
reaches it. FastAPI and the sandbox are imported on that thread once the client is
built, after the first frame, and never on a live service.

The CLI's one-shot commands answer on their own loop (``wiring.sandbox_transport``).
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Callable
from concurrent.futures import Future, InvalidStateError

import httpx

from creditscope.sandbox.asgi_call import ASGIApp, call_app

START_TIMEOUT_S = 60.0  # importing FastAPI and building the app: ~1 s here
STOPPED = "The built-in sandbox stopped; reopen the explorer to start it again."


class SandboxThreadTransport(httpx.AsyncBaseTransport):
    """An httpx transport answered by the sandbox app on its own thread and loop."""

    def __init__(self, build_app: Callable[[], ASGIApp]) -> None:
        """``build_app`` makes the sandbox app; it runs on the new thread (FastAPI's
        import with it), so the caller does not wait for it."""
        self._build_app = build_app
        self._loop = asyncio.new_event_loop()
        self._app: Future[ASGIApp] = Future()
        self._thread = threading.Thread(target=self._serve, name="creditscope-sandbox",
                                        daemon=True)
        self._thread.start()

    @property
    def thread(self) -> threading.Thread:
        """The thread the sandbox answers on (for tests)."""
        return self._thread

    def _serve(self) -> None:
        asyncio.set_event_loop(self._loop)
        try:
            app = self._build_app()
        except BaseException as error:  # a request waiting for the app fails, never hangs
            with contextlib.suppress(InvalidStateError):
                self._app.set_exception(error)
            self._loop.close()
            return
        with contextlib.suppress(InvalidStateError):  # nobody waits any more: still served
            self._app.set_result(app)
        try:
            self._loop.run_forever()
        finally:
            self._loop.close()

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        """Answer ``request`` on the sandbox's loop; ``ReadTimeout`` past the read limit."""
        body = await request.aread()
        try:
            # Shielded: a request given up while the app is built (a search replaced by
            # the next) must not cancel the app every later request waits for.
            app = await asyncio.wait_for(asyncio.shield(asyncio.wrap_future(self._app)),
                                         START_TIMEOUT_S)
        except Exception as error:  # it could not be built: a failed request, as a child's
            raise httpx.ConnectError(f"The built-in sandbox could not start: {error}",
                                     request=request) from error
        if self._loop.is_closed() or not self._thread.is_alive():
            raise httpx.ConnectError(STOPPED, request=request)
        headers = [(k.decode("latin-1"), v.decode("latin-1")) for k, v in request.headers.raw]
        answering = asyncio.run_coroutine_threadsafe(
            call_app(app, request.method, str(request.url), headers, body), self._loop)
        limit = request.extensions.get("timeout", {}).get("read")
        try:
            answer = await asyncio.wait_for(asyncio.wrap_future(answering), limit)
        except TimeoutError as late:
            answering.cancel()
            raise httpx.ReadTimeout("No answer in time", request=request) from late
        except Exception as error:  # shown as a failed request, as a service's would be
            raise httpx.RemoteProtocolError(f"{type(error).__name__}: {error}",
                                            request=request) from error
        return httpx.Response(answer.status, headers=answer.headers, content=bytes(answer.body),
                              request=request)

    async def aclose(self) -> None:
        """Stop the sandbox's loop (its thread then ends)."""
        with contextlib.suppress(RuntimeError):  # already closed
            self._loop.call_soon_threadsafe(self._loop.stop)
