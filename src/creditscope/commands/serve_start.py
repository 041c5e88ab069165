"""How ``creditscope serve`` starts: it listens first, then says where.

The socket is bound before anything is printed, so a busy port is one error naming
the port (not an address printed as if served, then uvicorn's failure), and
``--port 0`` prints the port the system chose. Then the banner: the address a
client reaches (loopback for a bind to every interface, the one name the ``Host``
check always answers), the keys, and a sample curl that runs as printed: a key
that is not the public demo key is never printed, so the command reads it from
``$CREDITSCOPE_API_KEY`` in double quotes, where the shell expands it (the
variable the explorer, ``call`` and Activity's copied commands read).
"""

from __future__ import annotations

import errno
import shlex
import socket
from pathlib import Path
from typing import TYPE_CHECKING

import click

from creditscope.client.curl import KEY_ENV_VAR
from creditscope.commands.bind_address import is_wildcard
from creditscope.commands.serve_keys import shown_key
from creditscope.sandbox import DEMO_KEY, REVOKED_KEY

if TYPE_CHECKING:
    import uvicorn

# uvicorn's exit status when the app could not start (``uvicorn.config.STARTUP_FAILURE``).
STARTUP_FAILURE = 3


def listening_socket(host: str, port: int) -> socket.socket:
    """A socket bound to ``host``:``port`` for uvicorn to serve on (inheritable, for
    ``--workers``); ``click.ClickException`` naming the port when it cannot be bound."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn binds
    try:
        sock.bind((host.strip("[]"), port))
    except OSError as exc:
        sock.close()
        raise click.ClickException(_bind_problem(host, port, exc)) from None
    sock.set_inheritable(True)
    return sock


def _bind_problem(host: str, port: int, exc: OSError) -> str:
    if exc.errno == errno.EADDRINUSE:
        return (f"port {port} on {host} is in use (another creditscope serve?): stop what "
                f"holds it, or choose another port with --port {port + 1 if port else 0}, "
                "or --port 0 for any free one.")
    if exc.errno == errno.EACCES:
        return f"port {port} on {host} needs privileges here: choose a port above 1023."
    return f"cannot listen on {host} port {port}: {exc.strerror or exc}."


def client_base(host: str, sock: socket.socket) -> str:
    """The address a client on this machine uses: the bound port, and loopback for a
    bind to every interface (``http://0.0.0.0:…`` names no host the server answers)."""
    port = int(sock.getsockname()[1])
    if is_wildcard(host):
        host = "::1" if ":" in host else "127.0.0.1"
    host = host.strip("[]")
    return f"http://{f'[{host}]' if ':' in host else host}:{port}"


def sample_curl(base: str, key: str) -> str:
    """A paid request that runs as printed: the demo key written out, any other read
    from ``$CREDITSCOPE_API_KEY`` (double quotes: the shell expands the variable)."""
    header = f"X-API-Key: {key}" if key == DEMO_KEY else f"X-API-Key: ${KEY_ENV_VAR}"
    return (f'curl -s -H "{header}" '
            f"{shlex.quote(f'{base}/restaurants/search?location=Lisbon&limit=3')}")


def banner(host: str, base: str, keys: list[str], db_path: Path) -> list[str]:
    """What serve prints once it listens on ``host``: where, which keys, and how to call
    it."""
    every = f" (listening on {host}: every interface)" if is_wildcard(host) else ""
    lines = [
        f"creditscope sandbox at {base}{every}",
        f"  API keys:  {', '.join(shown_key(key) for key in keys)}"
        f"  (revoked demo key: {REVOKED_KEY})",
        f"  database:  {db_path}",
        f"  OpenAPI:   {base}/openapi.json",
        "  try:",
    ]
    if keys[0] != DEMO_KEY:
        lines.append(f"    # with {KEY_ENV_VAR} set to one of the keys above:")
    lines += [f"    {sample_curl(base, keys[0])}", f"    curl -s {base}/catalog"]
    return lines


def serve_on(config: uvicorn.Config, sock: socket.socket) -> None:
    """Serve on the socket already bound, as ``uvicorn.run`` serves on the one it binds:
    in this process, or in ``config.workers`` processes sharing it."""
    import uvicorn
    from uvicorn.supervisors import Multiprocess

    server = uvicorn.Server(config)
    try:
        if config.workers > 1:
            Multiprocess(config, sockets=[sock]).run()
        else:
            server.run(sockets=[sock])
    except KeyboardInterrupt:  # Ctrl+C: a normal end, as under uvicorn.run
        pass
    if config.workers == 1 and not server.started:
        raise SystemExit(STARTUP_FAILURE)
