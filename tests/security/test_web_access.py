"""`creditscope web` against a visitor without the token, from another host or
site, or opening too many tabs. The real aiohttp app runs in-process; tabs run
a tiny stand-in process, so the limits are tested without seven explorers.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest
from aiohttp.test_utils import TestClient
from click.testing import CliRunner
from web_attacker import TOKEN, cookie, in_process

from creditscope.cli import main
from creditscope.commands import web
from creditscope.commands.web_tabs import TerminalBounds

ROUTES = ["/", "/ws", "/download/0123abcd", "/static/js/textual.js", "/static/", "/nowhere"]


@pytest.fixture
async def served(request: pytest.FixtureRequest) -> AsyncIterator[tuple[TestClient[Any, Any], Any]]:
    async with in_process(**getattr(request, "param", {})) as served:
        yield served


def authority(client: TestClient[Any, Any]) -> str:
    return f"127.0.0.1:{client.port}"


async def test_the_printed_url_sets_a_cookie_and_drops_the_token(served: Any) -> None:
    client, server = served
    response = await client.get(f"/?token={TOKEN}&fontsize=20", allow_redirects=False)
    assert response.status == 303
    assert response.headers["Location"] == "/?fontsize=20"
    set_cookie = response.headers["Set-Cookie"]
    assert TOKEN not in set_cookie  # a session id of this run, not the token itself
    assert "HttpOnly" in set_cookie and "SameSite=Strict" in set_cookie
    assert "Path=/" in set_cookie and "creditscope_web_0=" in set_cookie
    session = response.cookies["creditscope_web_0"].value
    assert len(session) >= 40 and session in server.policy.sessions
    page = await client.get("/?fontsize=20", headers={"Cookie": f"creditscope_web_0={session}"})
    assert page.status == 200
    assert TOKEN not in await page.text()


@pytest.mark.parametrize("route", ["/", "/ws", "/download/0123abcd", "/nowhere"])
# The token itself is no cookie: only a session id the server handed out is.
@pytest.mark.parametrize("presented", [None, "", "wrong", TOKEN, TOKEN[:-1], TOKEN + "x"])
async def test_without_the_token_nothing_but_static_files_answers(
    served: Any, route: str, presented: str | None
) -> None:
    client, server = served
    headers = {} if presented is None else {"Cookie": f"creditscope_web_0={presented}"}
    response = await client.get(route, headers=headers)
    assert response.status == 403
    assert server.tabs == set() and server.open_tabs == 0


@pytest.mark.parametrize("presented", ["", "wrong", TOKEN.upper()])
async def test_a_wrong_token_in_the_url_is_refused(served: Any, presented: str) -> None:
    client, _ = served
    response = await client.get(f"/?token={presented}", allow_redirects=False)
    assert response.status == 403
    assert "Set-Cookie" not in response.headers


async def test_a_websocket_without_the_cookie_starts_no_process(served: Any) -> None:
    client, server = served
    with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
        await client.ws_connect("/ws", headers={"Origin": f"http://{authority(client)}"})
    assert refused.value.status == 403
    assert server.tabs == set()


@pytest.mark.parametrize("route", ROUTES)
@pytest.mark.parametrize(
    "host",
    [
        "attacker.example",
        "attacker.example:8000",
        "127.0.0.1.attacker.example",
        "localhost.attacker.example:8000",
        "[::2]:8000",
        "127.0.0.1:8000@attacker.example",
        "",
        "10.0.0.1",
    ],
)
async def test_other_host_names_are_refused_on_every_route(
    served: Any, route: str, host: str
) -> None:
    client, server = served
    response = await client.get(route, headers={"Host": host, **cookie(server)})
    assert response.status == 403, await response.text()


@pytest.mark.parametrize("route", ROUTES)
@pytest.mark.parametrize(
    "origin",
    [
        "https://attacker.example",
        "null",
        "http://127.0.0.1:1",
        "http://localhost.attacker.example",
        "file://",
        "chrome-extension://abc",
    ],
)
async def test_requests_from_other_sites_are_refused_on_every_route(
    served: Any, route: str, origin: str
) -> None:
    client, server = served
    headers = {"Host": authority(client), "Origin": origin, **cookie(server)}
    response = await client.get(route, headers=headers)
    assert response.status == 403, await response.text()


@pytest.mark.parametrize("host", ["localhost", "127.0.0.1", "[::1]", "LOCALHOST"])
async def test_loopback_names_and_same_origin_are_served(served: Any, host: str) -> None:
    client, server = served
    own = f"{host}:{client.port}"
    headers = {"Host": own, "Origin": f"http://{own}", **cookie(server)}
    page = await client.get("/", headers=headers)
    script = await client.get("/static/js/textual.js", headers={"Host": own})
    assert (page.status, script.status) == (200, 200)


@pytest.mark.parametrize(
    "served",
    [{"allowed_hosts": ("demo.example.com",)}, {"allowed_hosts": ("Demo.Example.com:8000",)}],
    indirect=True,
)
async def test_allowed_host_adds_a_name(served: Any) -> None:
    client, server = served
    ok = await client.get("/", headers={"Host": "demo.example.com:80", **cookie(server)})
    other = await client.get("/", headers={"Host": "demo.example.org:80", **cookie(server)})
    assert (ok.status, other.status) == (200, 403)


@pytest.mark.parametrize("path", ["/static/", "/static/js/", "/static/fonts/", "/static/css"])
async def test_no_directory_listings(served: Any, path: str) -> None:
    client, server = served
    response = await client.get(path, headers=cookie(server))
    body = await response.text()
    assert response.status in (403, 404)
    assert "Index of" not in body and "textual.js" not in body


@pytest.mark.parametrize("served", [{"max_tabs": 6}], indirect=True)
async def test_a_seventh_tab_over_a_cap_of_six_is_refused(served: Any) -> None:
    client, server = served
    origin = {"Origin": f"http://{authority(client)}", **cookie(server)}
    sockets = [await client.ws_connect("/ws", headers=origin) for _ in range(6)]
    await _until(lambda: len(_live(server)) == 6)
    with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
        await client.ws_connect("/ws", headers=origin)
    assert refused.value.status == 503
    page = await client.get("/", headers=cookie(server))
    assert page.status == 503 and "Close one" in await page.text()
    assert len(_live(server)) == 6

    # Closing a tab ends its process and frees its place.
    await sockets.pop().close()
    await _until(lambda: len(_live(server)) == 5)
    sockets.append(await client.ws_connect("/ws", headers=origin))
    await _until(lambda: len(_live(server)) == 6)
    for socket in sockets:
        await socket.close()
    await _until(lambda: not _live(server) and server.open_tabs == 0)


def _live(server: Any) -> list[int]:
    return [tab.process.pid for tab in server.tabs
            if tab.process is not None and tab.process.returncode is None]


async def _until(condition: Any, timeout: float = 20) -> None:
    for _ in range(int(timeout * 10)):
        if condition():
            return
        await asyncio.sleep(0.1)
    raise AssertionError("condition not met in time")


@pytest.mark.parametrize("served", [{"check_live_key": True}], indirect=True)
async def test_a_live_key_configured_after_start_is_refused_per_tab(
    served: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    client, server = served
    origin = {"Origin": f"http://{authority(client)}", **cookie(server)}
    first = await client.ws_connect("/ws", headers=origin)  # the sandbox: fine
    await first.close()
    monkeypatch.setenv("CREDITSCOPE_BASE_URL", "https://api.example.com")
    monkeypatch.setenv("CREDITSCOPE_API_KEY", "sk_live_added_later_1234")
    with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
        await client.ws_connect("/ws", headers=origin)
    assert refused.value.status == 403
    await _until(lambda: not server.tabs)


@pytest.mark.parametrize(
    ("width", "height", "clamped"),
    [(4000, 1200, (250, 80)), (-5, 0, (20, 8)), ("x", None, (80, 24)), (120, 36, (120, 36))],
)
def test_terminal_sizes_are_clamped(
    width: object, height: object, clamped: tuple[int, int]
) -> None:
    assert TerminalBounds().clamp(width, height) == clamped


@pytest.mark.parametrize("host", ["0.0.0.0", "192.168.1.20"])
def test_no_token_is_for_loopback_only(
    monkeypatch: pytest.MonkeyPatch, host: str
) -> None:
    started: list[Any] = []
    monkeypatch.setattr(web.DemoServer, "serve", lambda self, debug=False: started.append(self))
    refused = CliRunner().invoke(main, ["web", "--host", host, "--public", "--no-token"])
    assert refused.exit_code == 2 and "loopback" in refused.output
    kiosk = CliRunner().invoke(main, ["web", "--no-token"])
    assert kiosk.exit_code == 0, kiosk.output
    [server] = started
    assert server.policy.token is None


def test_each_run_has_a_new_unguessable_token(monkeypatch: pytest.MonkeyPatch) -> None:
    started: list[Any] = []
    monkeypatch.setattr(web.DemoServer, "serve", lambda self, debug=False: started.append(self))
    for _ in range(2):
        assert CliRunner().invoke(main, ["web"]).exit_code == 0
    tokens = {server.policy.token for server in started}
    assert len(tokens) == 2 and all(len(token) >= 40 for token in tokens)

