"""`creditscope web` against requests no browser sends: headers that do not parse, a
flood of them, a cookie holding the token itself. Each is refused with a 403, costs
the loop nothing, and leaves no traceback, local variable or token in the log.
Loopback only, bounded in count and time."""

from __future__ import annotations

import asyncio
import logging
import socket
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from aiohttp.test_utils import TestClient, TestServer
from web_attacker import STAND_IN, TOKEN, cookie, in_process, web_server

from creditscope.commands import web

MALFORMED_ORIGINS = ["http://[", "http://[::1", "http://[zz]:80", "https://]", "http://a]b["]
MALFORMED_HOSTS = ["[", "[::1", "127.0.0.1:99999999", "127.0.0.1:port", "[::1]]:80"]
FLOOD = 300


@pytest.fixture
async def served() -> AsyncIterator[tuple[TestClient[Any, Any], Any]]:
    async with in_process() as served:
        yield served


@pytest.mark.parametrize("route", ["/", "/ws", "/static/js/textual.js", "/nowhere"])
@pytest.mark.parametrize("origin", MALFORMED_ORIGINS)
async def test_an_origin_that_does_not_parse_is_refused_not_an_error(
    served: Any, route: str, origin: str
) -> None:
    client, server = served
    headers = {"Host": f"127.0.0.1:{client.port}", "Origin": origin, **cookie(server)}
    response = await client.get(route, headers=headers)
    assert response.status == 403, await response.text()


@pytest.mark.parametrize("host", MALFORMED_HOSTS)
async def test_a_host_that_does_not_parse_is_refused_not_an_error(
    served: Any, host: str
) -> None:
    client, server = served
    response = await client.get("/", headers={"Host": host, **cookie(server)})
    assert response.status == 403, await response.text()


@pytest.mark.parametrize("size", ["²", "٣", "1e3", "-4", ""])
async def test_an_odd_font_size_is_the_default_not_an_error(served: Any, size: str) -> None:
    client, server = served
    page = await client.get("/", params={"fontsize": size}, headers=cookie(server))
    assert page.status == 200
    assert 'data-font-size="16"' in await page.text()


@pytest.mark.slow
async def test_a_flood_of_bad_origins_leaves_the_loop_free_and_the_log_clean(
    tmp_path: Path,
) -> None:
    started = time.monotonic()
    with web_server(tmp_path) as server:
        session_id = server.cookie[server.cookie_name]
        headers = {"Origin": "http://[", "Cookie": f"{server.cookie_name}={session_id}"}
        connector = aiohttp.TCPConnector(limit=20)
        timeout = aiohttp.ClientTimeout(total=30)
        async with aiohttp.ClientSession(connector=connector, timeout=timeout) as attacker:

            async def bad() -> int:
                async with attacker.get(f"{server.base}/", headers=headers) as answer:
                    return answer.status

            flood = asyncio.gather(*(bad() for _ in range(FLOOD)))
            await asyncio.sleep(0.2)  # the flood is under way
            async with aiohttp.ClientSession(cookies=server.cookie, timeout=timeout) as visitor:
                asked = time.monotonic()
                async with visitor.get(f"{server.base}/static/js/textual.js") as good:
                    assert good.status == 200
                answered = time.monotonic() - asked
            statuses = await asyncio.wait_for(flood, timeout=60)
        assert set(statuses) == {403}
        assert answered < 5, f"a good request waited {answered:.1f} s behind the flood"
        log = server.log()
    assert "Traceback" not in log and "locals" not in log.lower()
    assert log.count(server.token) == 1  # the printed address, once
    assert session_id not in log
    assert time.monotonic() - started < 90


async def test_an_unexpected_error_is_logged_in_one_line_without_values(
    caplog: pytest.LogCaptureFixture,
) -> None:
    server = web.build_server("127.0.0.1", 0, STAND_IN)  # a kiosk: no cookie to fetch
    secret_here = TOKEN  # a local of the failing frame, as the token was in the report

    async def broken(request: Any) -> Any:
        raise ValueError(f"broke while holding {secret_here}")

    server.handle_index = broken  # type: ignore[method-assign]
    client: TestClient[Any, Any] = TestClient(TestServer(await server.web_app()))
    await client.start_server()
    try:
        answer = await client.get("/")
        assert answer.status == 500
        assert TOKEN not in await answer.text()
    finally:
        await client.close()
    logged = [record for record in caplog.records if record.levelno >= logging.ERROR]
    assert logged and all(record.exc_info is None for record in logged)
    text = " ".join(record.getMessage() for record in logged)
    assert TOKEN not in text and "ValueError" in text


def test_the_servers_log_shows_no_local_variables(capsys: pytest.CaptureFixture[str]) -> None:
    root = logging.getLogger()
    kept = (root.handlers[:], root.level)
    server = web.build_server("127.0.0.1", 0, STAND_IN, token=TOKEN)
    try:
        root.handlers[:] = []  # as in the `creditscope web` process, which has none yet
        server.initialize_logging()  # what `creditscope web` logs through

        def failing(token: str) -> None:
            raise ValueError("a route failed")

        try:
            failing(TOKEN)
        except ValueError:
            logging.getLogger("aiohttp.server").exception("Error handling request")
    finally:
        root.handlers[:], _ = kept
        root.setLevel(kept[1])
    printed = capsys.readouterr().out
    assert "Error handling request: ValueError" in printed  # the error is logged...
    assert TOKEN not in printed and "Traceback" not in printed  # ...in one line


MALFORMED_REQUESTS = [
    b"GET / HTTP/1.1\r\nHost: 127.0.0.1\x00x\r\n\r\n",  # NUL in Host
    "GET / HTTP/1.1\r\nHost: 127.0.0.1é\r\n\r\n".encode(),  # non-ASCII in Host
    b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " + b"a" * 9000 + b"\r\n\r\n",  # 9 KB header
]


@pytest.mark.slow
def test_a_malformed_request_is_one_line_in_the_log(tmp_path: Path) -> None:
    """Each request no client sends leaves at most one line in the presenter's terminal,
    not a traceback (17 lines each: a few hundred scrolled the URL away)."""
    started = time.monotonic()
    with web_server(tmp_path) as server:
        before = server.log().count("\n")
        for raw in MALFORMED_REQUESTS * 3:
            with socket.create_connection(("127.0.0.1", server.port), timeout=5) as raw_socket:
                raw_socket.sendall(raw)
                raw_socket.settimeout(5)
                assert raw_socket.recv(64).split(b" ")[1].startswith(b"4")  # refused
        time.sleep(0.5)  # the log is written as the errors are handled
        log = server.log()
    assert "Traceback" not in log
    assert log.count("\n") - before <= len(MALFORMED_REQUESTS) * 3, log
    assert time.monotonic() - started < 60
