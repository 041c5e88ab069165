"""A stand-in for the data API on a real loopback socket, for tests where another
process (a child ``creditscope``) must reach the service, or where the answer must
cross real HTTP. What it answers is a function of the test's; it runs in a thread of
the test process, on a port of the range these tests may use."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

# The ports these tests may bind (one range per worker of the project's machine).
PORTS = range(19200, 19300)


@dataclass
class Answer:
    """What the service sends back: a status, a JSON body and headers."""

    status: int
    body: object
    headers: dict[str, str] = field(default_factory=dict)


# A request's path (with its query) -> the answer; None: send nothing and close.
Handler = Callable[[str], Answer | None]


def _handler_class(answer: Handler) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            found = answer(self.path)
            if found is None:
                self.close_connection = True
                return
            content = json.dumps(found.body).encode()
            try:
                self.send_response(found.status)
                for name, value in {"Content-Type": "application/json",
                                    **found.headers}.items():
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(content)))
                self.end_headers()
                self.wfile.write(content)
            except OSError:  # the client is gone (killed): nothing to answer
                self.close_connection = True

        def log_message(self, format: str, *args: object) -> None:
            return  # quiet: a test's output is its assertions

    return Handler


@contextmanager
def loopback_service(answer: Handler) -> Iterator[str]:
    """Serve ``answer`` on 127.0.0.1 at the first free port of ``PORTS``; yields the base
    URL and stops the server at the end."""
    server: ThreadingHTTPServer | None = None
    for port in PORTS:
        try:
            server = ThreadingHTTPServer(("127.0.0.1", port), _handler_class(answer))
            break
        except OSError:  # taken (another test, another worker): the next one
            continue
    if server is None:
        raise RuntimeError(f"no free loopback port in {PORTS}")
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)
