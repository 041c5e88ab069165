"""Sandbox throughput: ``creditscope serve`` vs a trivial FastAPI endpoint, same uvicorn.

Run: ``.venv/bin/python benchmarks/sandbox_throughput.py [--clients 20] [--duration 10]``

Both servers are subprocesses on free loopback ports, started the same way
(``uvicorn.run(app, host, port, log_level="warning")``):

- ``creditscope serve`` with a temp database and a key holding 10^9 credits,
  loaded with ``GET /restaurants/search?location=Lisbon``;
- a trivial FastAPI app (``GET /ok`` -> ``{"ok": true}``) written to a temp module.

The load generator (this process) runs ``--clients`` concurrent tasks, each with
its own ``httpx.AsyncClient`` (keep-alive), for ``--duration`` seconds per
server, split into ``--rounds`` alternating rounds so both see the same noise.
Both the client count and the time are bounded. It prints requests/s, p50 and
p99 for both, then the throughput ratio. ``--profile`` also runs the search
handler in-process under cProfile and prints its hot spots.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import cProfile
import io
import pstats
import subprocess
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import httpx
from _common import PYTHON, free_port, isolated_env, median, percentile, print_figure, wait_for_port

HOST = "127.0.0.1"
KEY = "sk_bench_throughput_0001"
MAX_CLIENTS = 200
MAX_DURATION_S = 120.0
SEARCH = ("/restaurants/search", {"location": "Lisbon"})
TRIVIAL = ("/ok", {})

TRIVIAL_APP = '''
import sys

import uvicorn
from fastapi import FastAPI

app = FastAPI()


@app.get("/ok")
def ok() -> dict[str, bool]:
    return {"ok": True}


if __name__ == "__main__":
    uvicorn.run(app, host=sys.argv[1], port=int(sys.argv[2]), log_level="warning")
'''


@dataclass
class Load:
    """What one server answered under load."""

    latencies_ms: list[float] = field(default_factory=list)
    errors: int = 0
    seconds: float = 0.0

    @property
    def rps(self) -> float:
        """Successful requests per second."""
        return len(self.latencies_ms) / self.seconds if self.seconds else 0.0


@contextlib.contextmanager
def server(argv: list[str], port: int, home: Path) -> Iterator[str]:
    """Run a server subprocess until the block ends; yields its base URL."""
    log = (home / f"server-{port}.log").open("w")
    process = subprocess.Popen(argv, env=isolated_env(home), stdout=log, stderr=subprocess.STDOUT)
    try:
        wait_for_port(HOST, port)
        yield f"http://{HOST}:{port}"
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        log.close()


async def hammer(base_url: str, path: str, params: dict[str, str], clients: int,
                 seconds: float, into: Load) -> None:
    """``clients`` concurrent keep-alive clients send requests for ``seconds``."""
    headers = {"X-API-Key": KEY}

    async def one_client() -> None:
        async with httpx.AsyncClient(base_url=base_url, headers=headers, timeout=30) as client:
            while time.perf_counter() < deadline:
                started = time.perf_counter()
                try:
                    response = await client.get(path, params=params)
                    ok = response.status_code == 200
                except httpx.HTTPError:
                    ok = False
                if ok:
                    into.latencies_ms.append((time.perf_counter() - started) * 1000)
                else:
                    into.errors += 1

    started = time.perf_counter()
    deadline = started + seconds
    await asyncio.gather(*(one_client() for _ in range(clients)))
    into.seconds += time.perf_counter() - started


async def measure(urls: dict[str, str], clients: int, duration: float,
                  rounds: int) -> dict[str, Load]:
    """Alternate rounds of load on each server; a short warm-up first (not counted)."""
    targets = {"trivial FastAPI": TRIVIAL, "creditscope serve": SEARCH}
    loads = {name: Load() for name in targets}
    for name, (path, params) in targets.items():
        await hammer(urls[name], path, params, clients, 1.0, Load())
    for _ in range(rounds):
        for name, (path, params) in targets.items():
            await hammer(urls[name], path, params, clients, duration / rounds, loads[name])
    return loads


def profile_handler(requests: int = 300) -> None:
    """cProfile the sandbox's search handler in-process (ASGI, no socket) and print hot spots."""
    from creditscope.sandbox.app import create_app
    from creditscope.sandbox.config import SandboxConfig

    async def run() -> None:
        with tempfile.TemporaryDirectory() as tmp:
            app = create_app(SandboxConfig(db_path=Path(tmp) / "db.sqlite3", keys={KEY: 10**9}))
            transport = httpx.ASGITransport(app=app)
            async with httpx.AsyncClient(transport=transport, base_url="http://sandbox") as client:
                path, params = SEARCH
                await client.get(path, params=params, headers={"X-API-Key": KEY})
                profiler = cProfile.Profile()
                profiler.enable()
                for _ in range(requests):
                    await client.get(path, params=params, headers={"X-API-Key": KEY})
                profiler.disable()
        out = io.StringIO()
        pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(15)
        print(f"\nhot spots of {requests} in-process searches (by own time):")
        print("\n".join(line for line in out.getvalue().splitlines() if line.strip())[:4000])

    asyncio.run(run())


def main() -> None:
    """Start both servers, load them in alternation, print both, then the ratio."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--duration", type=float, default=10.0, help="seconds per server")
    parser.add_argument("--rounds", type=int, default=2, help="alternating rounds per server")
    parser.add_argument("--profile", action="store_true", help="also cProfile the handler")
    args = parser.parse_args()
    clients = max(1, min(args.clients, MAX_CLIENTS))
    duration = max(1.0, min(args.duration, MAX_DURATION_S))
    with tempfile.TemporaryDirectory(prefix="cs-tp-") as tmp:
        home = Path(tmp)
        trivial = home / "trivial_app.py"
        trivial.write_text(TRIVIAL_APP)
        trivial_port, sandbox_port = free_port(), free_port()
        key_file = home / "keys"
        key_file.write_text(KEY + "\n")
        key_file.chmod(0o600)
        serve = [PYTHON, "-m", "creditscope", "serve", "--host", HOST, "--port",
                 str(sandbox_port), "--db", str(home / "sandbox.sqlite3"), "--key-file",
                 str(key_file), "--credits", str(10**9)]
        with (server([PYTHON, str(trivial), HOST, str(trivial_port)], trivial_port, home) as t,
              server(serve, sandbox_port, home) as s):
            loads = asyncio.run(measure({"trivial FastAPI": t, "creditscope serve": s},
                                        clients, duration, args.rounds))
    print(f"{clients} concurrent keep-alive clients, {duration:g} s per server "
          f"in {args.rounds} alternating rounds, loopback")
    for name, load in loads.items():
        print(f"  {name:<18} {load.rps:8.1f} req/s   p50 {median(load.latencies_ms):6.1f} ms"
              f"   p99 {percentile(load.latencies_ms, 99):6.1f} ms   errors {load.errors}")
    if args.profile:
        profile_handler()
    ratio = loads["creditscope serve"].rps / loads["trivial FastAPI"].rps
    print_figure("sandbox_throughput_ratio", ratio, ">=", 0.5)


if __name__ == "__main__":
    main()
