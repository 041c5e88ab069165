"""`creditscope serve` against a local user reading `ps`, a holder of an old
key, and slow clients. Servers listen on loopback only; waits are bounded."""

from __future__ import annotations

import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import ExitStack, closing, contextmanager, suppress
from pathlib import Path
from typing import Any

import httpx
import pytest
from click.testing import CliRunner
from web_attacker import free_port

from creditscope.cli import main
from creditscope.commands import serve_http, serve_start, uvicorn_patch
from creditscope.sandbox import DEMO_KEY
from creditscope.sandbox.accounts import AccountStore

SECRET = "sk_live_serve_secret_31337"
SEARCH = "/restaurants/search?location=Lisbon&limit=1"


@contextmanager
def served(tmp_path: Path, *args: str, env: dict[str, str] | None = None) -> Iterator[Any]:
    port = free_port()
    log = tmp_path / f"serve-{port}.log"
    with log.open("w") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "creditscope", "serve", "--port", str(port), *args],
            stdout=out, stderr=subprocess.STDOUT, env={**os.environ, **(env or {})},
            start_new_session=True,
        )
    try:
        deadline = time.monotonic() + 20
        while True:
            assert process.poll() is None, log.read_text()
            with suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.5):
                break
            assert time.monotonic() < deadline, "serve did not start"
            time.sleep(0.1)
        process.base = f"http://127.0.0.1:{port}"  # type: ignore[attr-defined]
        process.log = log  # type: ignore[attr-defined]
        process.port = port  # type: ignore[attr-defined]
        yield process
    finally:
        with suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=5)


def every_command_line() -> str:
    """What any local user sees with `ps -eo args`: every process's command line."""
    lines = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with suppress(OSError):
                lines.append((entry / "cmdline").read_bytes().replace(b"\0", b" ").decode())
    return "\n".join(lines)


def key_file(tmp_path: Path, *keys: str, mode: int = 0o600) -> Path:
    path = tmp_path / "keys.txt"
    path.write_text("# keys for this run\n" + "\n".join(keys) + "\n")
    path.chmod(mode)
    return path


def test_earlier_keys_in_the_database_are_not_accepted(tmp_path: Path) -> None:
    db = tmp_path / "sandbox.sqlite3"
    AccountStore(db, {DEMO_KEY: 100}).close()  # a demo run left the public key behind
    store = AccountStore(db, {SECRET: 100})
    assert store.authenticate(SECRET) is not None
    assert store.authenticate(DEMO_KEY) is None
    store.close()


@pytest.mark.slow
@pytest.mark.parametrize("source", ["file", "environment"])
def test_the_key_shows_neither_in_ps_nor_in_the_banner(tmp_path: Path, source: str) -> None:
    db = tmp_path / "sandbox.sqlite3"
    AccountStore(db, {DEMO_KEY: 100}).close()
    if source == "file":
        args, env = ["--key-file", str(key_file(tmp_path, SECRET))], {}
    else:
        args, env = [], {"CREDITSCOPE_SERVE_KEYS": SECRET}
    with served(tmp_path, "--db", str(db), *args, env=env) as server:
        seen_by_ps = every_command_line()
        assert f"serve --port {server.port}" in seen_by_ps  # the process is there...
        assert SECRET not in seen_by_ps  # ...its key is not
        with httpx.Client(base_url=server.base, timeout=10) as http:
            ok = http.get(SEARCH, headers={"X-API-Key": SECRET})
            old = http.get(SEARCH, headers={"X-API-Key": DEMO_KEY})
        banner = server.log.read_text()
    assert ok.status_code == 200
    assert old.status_code == 401 and old.headers.get("X-Credits-Charged", "0") == "0"
    assert SECRET not in banner
    assert "sk_…1337" in banner


def test_key_on_the_command_line_is_refused_without_echoing_it() -> None:
    result = CliRunner().invoke(main, ["serve", "--key", SECRET])
    assert result.exit_code == 2
    assert "--key-file" in result.output
    assert SECRET not in result.output


@pytest.fixture
def uvicorn_calls(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """The uvicorn configurations serve would run (serving is a stand-in)."""
    calls: list[Any] = []
    monkeypatch.setattr(serve_start, "serve_on", lambda config, _sock: calls.append(config))
    return calls


@pytest.mark.parametrize(("host", "warned"), [("127.0.0.1", False), ("0.0.0.0", True)])
def test_limits_and_a_warning_on_non_loopback(
    tmp_path: Path, uvicorn_calls: list[Any], host: str, warned: bool
) -> None:
    result = CliRunner().invoke(
        main, ["serve", "--host", host, "--port", "0", "--db", str(tmp_path / "db"),
               "--max-connections", "50"]
    )
    assert result.exit_code == 0, result.output
    assert ("reachable from other machines" in result.output) is warned
    [config] = uvicorn_calls
    assert config.limit_concurrency == 50
    assert config.timeout_keep_alive <= 10
    assert config.http is uvicorn_patch.RequestDeadlineProtocol


def test_a_key_file_others_can_read_is_warned_about(
    tmp_path: Path, uvicorn_calls: list[Any]
) -> None:
    path = key_file(tmp_path, SECRET, mode=0o644)
    result = CliRunner().invoke(
        main, ["serve", "--port", "0", "--db", str(tmp_path / "db"), "--key-file", str(path)]
    )
    assert result.exit_code == 0, result.output
    assert "readable by other users" in result.output
    assert SECRET not in result.output


@pytest.mark.slow
def test_slow_clients_are_cut_off_and_the_connection_cap_answers_503(tmp_path: Path) -> None:
    started = time.monotonic()
    with served(tmp_path, "--db", str(tmp_path / "db"), "--max-connections", "10") as server:
        with ExitStack() as stack:
            slow = []
            for _ in range(30):  # each sends half a request line, then nothing
                sock = stack.enter_context(socket.create_connection(("127.0.0.1", server.port)))
                sock.sendall(b"GET /catalog HTTP/1.1\r\nHo")
                slow.append(sock)
            time.sleep(0.5)
            with httpx.Client(base_url=server.base, timeout=5) as http:
                crowded = http.get("/catalog")
            assert crowded.status_code == 503  # refused at once, not left hanging

            # Every slow client is disconnected once its request is overdue.
            deadline = time.monotonic() + serve_http.REQUEST_READ_TIMEOUT_S + 10
            for sock in slow:
                sock.settimeout(max(0.1, deadline - time.monotonic()))
                assert sock.recv(1024) == b"", "a slow client kept its connection"
        with httpx.Client(base_url=server.base, timeout=5) as http:
            assert http.get("/catalog").status_code == 200
    assert time.monotonic() - started < 40


def _app_of(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, *args: str) -> Any:
    """The ASGI app `creditscope serve ARGS` would run (serving is a stand-in)."""
    apps: list[Any] = []
    monkeypatch.setattr(serve_start, "serve_on", lambda config, _sock: apps.append(config.app))
    result = CliRunner().invoke(main, ["serve", "--port", "0", "--db", str(tmp_path / "db"),
                                       *args])
    assert result.exit_code == 0, result.output
    return apps[0]


@pytest.mark.parametrize(
    ("args", "host", "status"),
    [
        ((), "127.0.0.1:8080", 200),
        ((), "localhost", 200),
        ((), "[::1]:8080", 200),
        ((), "attacker.example", 403),  # DNS rebinding: attacker.example -> 127.0.0.1
        ((), "127.0.0.1.attacker.example:8080", 403),
        ((), "", 403),
        ((), "[", 403),
        (("--allowed-host", "sandbox.test"), "sandbox.test:8080", 200),
        (("--allowed-host", "sandbox.test"), "other.test:8080", 403),
    ],
)
async def test_serve_answers_only_to_its_own_host_names(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: tuple[str, ...], host: str,
    status: int,
) -> None:
    app = _app_of(tmp_path, monkeypatch, *args)
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as http:
        answer = await http.get("/catalog", headers={"Host": host})
    assert answer.status_code == status, answer.text
    if status == 403:
        assert answer.json()["error"]["code"] == "forbidden_host"


@pytest.mark.slow
def test_provider_requests_are_limited_per_client_and_rebinding_is_refused(
    tmp_path: Path,
) -> None:
    started = time.monotonic()
    db = tmp_path / "sandbox.sqlite3"
    with served(tmp_path, "--db", str(db)) as server, \
            httpx.Client(base_url=server.base, timeout=10) as http:
        rebound = http.get("/catalog", headers={"Host": "attacker.example"})
        assert rebound.status_code == 403
        answers = [http.post("/provider-requests", json={"name": f"Flood {n}"})
                   for n in range(40)]
    statuses = [answer.status_code for answer in answers]
    assert statuses[:10] == [200] * 10  # a person asking for a few providers is fine
    assert statuses.count(429) >= 15, statuses
    limited = next(answer for answer in answers if answer.status_code == 429)
    assert limited.json()["error"]["code"] == "rate_limited"
    assert int(limited.headers["Retry-After"]) >= 1
    with closing(sqlite3.connect(db)) as stored:
        [(rows,)] = stored.execute("SELECT COUNT(*) FROM provider_requests").fetchall()
    assert rows == statuses.count(200) <= 25
    assert time.monotonic() - started < 40


@pytest.mark.slow
@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_forged_forwarded_for_does_not_escape_the_rate_limit(
    tmp_path: Path, workers: str,
) -> None:
    """A local client claiming a new address per request (uvicorn believed
    ``X-Forwarded-For`` from 127.0.0.1) is still one client."""
    started = time.monotonic()
    db = tmp_path / "sandbox.sqlite3"
    with served(tmp_path, "--db", str(db), "--workers", workers) as server, \
            httpx.Client(base_url=server.base, timeout=10) as http:
        _wait_until_answering(http)
        statuses = [http.post("/provider-requests", json={"name": f"Flood {n}"},
                              headers={"X-Forwarded-For": f"10.0.{n // 250}.{n % 250}"}
                              ).status_code for n in range(60)]
    # Each worker counts apart: at most two buckets of 20 (and a few refilled).
    assert statuses.count(200) <= 45, statuses
    assert statuses.count(429) >= 15, statuses
    assert time.monotonic() - started < 60


def _wait_until_answering(http: httpx.Client) -> None:
    deadline = time.monotonic() + 20
    while True:  # workers take a moment to start
        with suppress(httpx.TransportError):
            http.get("/catalog")
            return
        assert time.monotonic() < deadline, "the server did not start answering"
        time.sleep(0.2)


@pytest.mark.slow
def test_a_page_of_another_site_cannot_post_provider_requests(tmp_path: Path) -> None:
    """A cross-site form POST (text/plain, sent by a browser without asking first) and
    any POST from another origin are refused and stored nowhere; the server's own
    origin and a JSON POST without Origin (curl, the client) still work."""
    started = time.monotonic()
    db = tmp_path / "sandbox.sqlite3"
    body = '{"name": "Spam from a page"}'
    with served(tmp_path, "--db", str(db)) as server, \
            httpx.Client(base_url=server.base, timeout=10) as http:
        cross_site = http.post("/provider-requests", content=body, headers={
            "Content-Type": "text/plain", "Origin": "http://evil.example"})
        cross_json = http.post("/provider-requests", content=body, headers={
            "Content-Type": "application/json", "Origin": "http://evil.example"})
        plain = http.post("/provider-requests", content=body,
                          headers={"Content-Type": "text/plain"})
        own = http.post("/provider-requests", content=body, headers={
            "Content-Type": "application/json", "Origin": server.base})
        tool = http.post("/provider-requests", json={"name": "From curl"})
        spec = http.get("/openapi.json").json()
    assert (cross_site.status_code, cross_site.json()["error"]["code"]) == \
        (403, "forbidden_origin")
    assert (cross_json.status_code, cross_json.json()["error"]["code"]) == \
        (403, "forbidden_origin")
    assert (plain.status_code, plain.json()["error"]["code"]) == \
        (415, "unsupported_media_type")
    assert own.status_code == tool.status_code == 200
    with closing(sqlite3.connect(db)) as stored:
        names = [name for (name,) in stored.execute("SELECT name FROM provider_requests")]
    assert sorted(names) == ["From curl", "Spam from a page"]  # the own-origin one only
    documented = spec["paths"]["/provider-requests"]["post"]["responses"]
    assert {"403", "415"} <= set(documented)
    assert time.monotonic() - started < 40


@pytest.mark.slow
@pytest.mark.parametrize("source", ["--key-file", "environment"])
def test_workers_get_the_keys_without_them_in_any_environment(
    tmp_path: Path, source: str
) -> None:
    """Neither the workers nor multiprocessing's resource tracker hold the key in their
    environment (the supervisor is the user's own process, started with it)."""
    started = time.monotonic()
    private_tmp = tmp_path / "tmp"
    private_tmp.mkdir()
    if source == "--key-file":
        args, env = ("--key-file", str(key_file(tmp_path, SECRET))), {}
    else:
        args, env = (), {"CREDITSCOPE_SERVE_KEYS": SECRET}
    with served(tmp_path, "--db", str(tmp_path / "db"), *args, "--workers", "2",
                env={**env, "TMPDIR": str(private_tmp)}) as server:
        with httpx.Client(base_url=server.base, timeout=10) as http:
            deadline = time.monotonic() + 20
            while True:  # the workers take a moment to start
                with suppress(httpx.TransportError):
                    answer = http.get(SEARCH, headers={"X-API-Key": SECRET})
                    break
                assert time.monotonic() < deadline, "the workers did not start"
                time.sleep(0.2)
            assert answer.status_code == 200, answer.text
        environments = _environments_of_group(server.pid)
        environments.pop(server.pid)
    assert len(environments) >= 2  # the two workers (and the resource tracker)
    assert not [pid for pid, environ in environments.items() if SECRET.encode() in environ]
    assert list(private_tmp.iterdir()) == []  # the keys' file is removed with serve
    assert time.monotonic() - started < 60


def _environments_of_group(group: int) -> dict[int, bytes]:
    """The environment of every process in the process group ``group`` (Linux /proc)."""
    found = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with suppress(OSError, ValueError):
                if os.getpgid(int(entry.name)) == group:
                    found[int(entry.name)] = (entry / "environ").read_bytes()
    return found
