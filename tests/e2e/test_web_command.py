"""`creditscope web` safety rules and page checks, without a browser.

The server start is patched out for the CLI rules; the page and WebSocket
checks run against the real aiohttp app through aiohttp's test client.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer
from click.testing import CliRunner

from creditscope.cli import main
from creditscope.commands import textual_serve_patch, web
from creditscope.sandbox import DEMO_KEY

LIVE_KEY = "sk_live_do_not_print_9876"


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch) -> list[web.DemoServer]:
    """Servers `creditscope web` would have started (serve() is patched out)."""
    servers: list[web.DemoServer] = []

    def fake_serve(self: web.DemoServer, debug: bool = False) -> None:
        servers.append(self)

    monkeypatch.setattr(web.DemoServer, "serve", fake_serve)
    return servers


@pytest.fixture
def live_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CREDITSCOPE_BASE_URL", "https://api.example.com")
    monkeypatch.setenv("CREDITSCOPE_API_KEY", LIVE_KEY)


def run(*args: str) -> Any:
    return CliRunner().invoke(main, ["web", *args])


def test_default_is_loopback_running_this_pythons_explorer(started: list[Any]) -> None:
    result = run()
    assert result.exit_code == 0, result.output
    [server] = started
    assert (server.host, server.port) == ("127.0.0.1", 8000)
    assert server.command == web.explorer_command()
    assert server.command.endswith("-m creditscope tui")
    assert "built-in sandbox" in result.output
    assert "warning" not in result.output


@pytest.mark.parametrize("host", ["0.0.0.0", "192.168.1.20", "::", "demo.example.com"])
def test_non_loopback_needs_public(started: list[Any], host: str) -> None:
    result = run("--host", host)
    assert result.exit_code == 2
    assert "--public" in result.output
    assert started == []


def test_public_warns_anyone_with_the_url_can_use_it(started: list[Any]) -> None:
    result = run("--host", "0.0.0.0", "--port", "8123", "--public")
    assert result.exit_code == 0, result.output
    assert "anyone with the printed URL" in result.output
    assert "--allowed-host" in result.output
    [server] = started
    assert (server.host, server.port) == ("0.0.0.0", 8123)


def test_public_with_a_live_key_is_refused(started: list[Any], live_key: None) -> None:
    result = run("--host", "0.0.0.0", "--public")
    assert result.exit_code == 2
    assert "live API key" in result.output and "--allow-live-key" in result.output
    assert LIVE_KEY not in result.output
    assert started == []


def test_allow_live_key_serves_and_warns(started: list[Any], live_key: None) -> None:
    result = run("--host", "0.0.0.0", "--public", "--allow-live-key")
    assert result.exit_code == 0, result.output
    assert "spend the configured key's credits" in result.output
    assert "api.example.com" in result.output
    assert LIVE_KEY not in result.output
    assert len(started) == 1


def test_loopback_with_a_live_key_serves_with_a_note(started: list[Any], live_key: None) -> None:
    result = run()
    assert result.exit_code == 0, result.output
    assert "spends its credits" in result.output
    assert LIVE_KEY not in result.output


def test_allow_live_key_alone_does_not_open_the_bind(started: list[Any], live_key: None) -> None:
    result = run("--host", "10.0.0.5", "--allow-live-key")
    assert result.exit_code == 2
    assert started == []


@pytest.mark.parametrize(
    ("host", "loopback"),
    [
        ("127.0.0.1", True),
        ("127.1.2.3", True),
        ("localhost", True),
        ("::1", True),
        ("[::1]", True),
        ("0.0.0.0", False),
        ("::", False),
        ("", False),
        ("10.0.0.1", False),
        ("localhost.example.com", False),
    ],
)
def test_is_loopback(host: str, loopback: bool) -> None:
    assert web.is_loopback(host) is loopback


def test_page_template_loads_nothing_from_other_hosts() -> None:
    template = textual_serve_patch.offline_index_template()
    assert "googleapis" not in template
    assert "fonts/RobotoMono-VariableFont_wght.ttf" in template
    assert 'js/textual.js"' in template


async def _client(
    host: str = "127.0.0.1", allowed_hosts: tuple[str, ...] = ()
) -> TestClient[Any, Any]:
    server = web.build_server(host, 0, command="true", allowed_hosts=allowed_hosts)
    client: TestClient[Any, Any] = TestClient(TestServer(await server.web_app()))
    await client.start_server()
    return client


async def test_page_is_served_with_urls_from_the_request() -> None:
    client = await _client()
    try:
        response = await client.get("/", headers={"Host": "localhost:9999"})
        body = await response.text()
    finally:
        await client.close()
    assert response.status == 200
    assert 'data-session-websocket-url="ws://localhost:9999/ws"' in body
    assert "http://localhost:9999/static/js/textual.js" in body
    assert "https://" not in body
    assert response.headers["X-Frame-Options"] == "DENY"


async def test_loopback_bind_refuses_other_host_names() -> None:
    # A DNS-rebinding page reaches 127.0.0.1 under its own host name.
    client = await _client()
    try:
        page = await client.get("/", headers={"Host": "attacker.example:8000"})
        socket = await client.get("/ws", headers={"Host": "attacker.example:8000"})
    finally:
        await client.close()
    assert page.status == 403
    assert socket.status == 403


async def test_websocket_from_another_site_is_refused() -> None:
    client = await _client()
    try:
        response = await client.get(
            "/ws", headers={"Host": "127.0.0.1:8000", "Origin": "https://evil.example"}
        )
    finally:
        await client.close()
    assert response.status == 403


async def test_public_bind_accepts_only_allowed_host_names() -> None:
    client = await _client(host="0.0.0.0", allowed_hosts=("demo.example.com",))
    try:
        allowed = await client.get("/", headers={"Host": "demo.example.com:8000"})
        other = await client.get("/", headers={"Host": "rebound.example.net:8000"})
    finally:
        await client.close()
    assert allowed.status == 200
    assert other.status == 403


@pytest.mark.parametrize(
    ("ci", "outcome"), [("true", pytest.fail.Exception), ("", pytest.skip.Exception)]
)
def test_missing_chromium_fails_under_ci_and_skips_locally(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, ci: str, outcome: type[BaseException]
) -> None:
    import browser_harness

    monkeypatch.setattr(browser_harness, "CHROMIUM", tmp_path / "no-chromium")
    monkeypatch.setenv("CI", ci)
    with pytest.raises(outcome, match="chromium"):
        browser_harness.require_browser()


def test_the_demo_key_on_a_local_sandbox_is_not_live(
    started: list[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    # `creditscope serve` on another port with the demo key spends no money.
    monkeypatch.setenv("CREDITSCOPE_BASE_URL", "http://127.0.0.1:8001")
    monkeypatch.setenv("CREDITSCOPE_API_KEY", DEMO_KEY)
    result = run("--host", "0.0.0.0", "--public")
    assert result.exit_code == 0, result.output
    assert len(started) == 1
