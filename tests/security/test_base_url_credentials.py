"""A user name and password in the base URL (``http://user:pass@host/``) still reach the
service, and nothing else: not a file creditscope writes, not a command's output (plain
or ``--json``, errors included), not a HAR export, not a web visitor's screen (attack
report 4, item 2)."""

from __future__ import annotations

import base64
import os
import subprocess
import sys
from pathlib import Path

import aiohttp
import httpx
import pytest
from test_serve_attacks import served
from web_attacker import free_port, open_tab, web_server

from creditscope import operations
from creditscope.sandbox import DEMO_KEY
from creditscope.settings import Settings
from creditscope.shown_url import shown_url
from creditscope.wiring import build_client

USER = "urluser_777"
PASSWORD = "URLPASS_555"
SECRETS = (USER, PASSWORD)


@pytest.mark.parametrize(("url", "shown"), [
    ("http://a:b@127.0.0.1:8080/v1", "http://***@127.0.0.1:8080/v1"),
    ("https://only-user@api.example.test", "https://***@api.example.test"),
    ("https://api.example.test/a@b", "https://api.example.test/a@b"),
    ("http://u:p@[::1:9/x", "http://***@[::1:9/x"),  # urlsplit refuses this host
])
def test_shown_url_masks_the_user_info_only(url: str, shown: str) -> None:
    assert shown_url(url) == shown


async def test_the_credentials_still_reach_the_service_as_basic_auth() -> None:
    seen: list[httpx.Request] = []

    def answer(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(200, json={"results": [], "total": 0})

    settings = Settings(base_url=f"https://{USER}:{PASSWORD}@api.example.test/v1",  # type: ignore[call-arg]
                        api_key=DEMO_KEY)
    async with build_client(settings, transport=httpx.MockTransport(answer)) as client:
        result = await client.call(operations.RESTAURANT_SEARCH, {"location": "Lisbon"})
    expected = base64.b64encode(f"{USER}:{PASSWORD}".encode()).decode()
    assert seen[0].headers["authorization"] == f"Basic {expected}"
    assert (seen[0].url.host, seen[0].url.path) == ("api.example.test", "/v1/restaurants/search")
    assert result.record.url.startswith("https://***@api.example.test/v1/restaurants/search")


def _run(env: dict[str, str], *args: str) -> str:
    done = subprocess.run([sys.executable, "-m", "creditscope", *args], env=env,
                          capture_output=True, text=True, timeout=90, check=False)
    return f"$ {' '.join(args)} -> {done.returncode}\n{done.stdout}\n{done.stderr}"


def _files_holding_secrets(root: Path) -> list[str]:
    return [str(path) for path in root.rglob("*") if path.is_file()
            and any(secret.encode() in path.read_bytes() for secret in SECRETS)]


@pytest.mark.slow
async def test_no_file_output_or_web_screen_shows_the_base_urls_credentials(
    tmp_path: Path,
) -> None:
    base_env = {**os.environ, "CREDITSCOPE_API_KEY": DEMO_KEY}
    har = tmp_path / "out" / "history.har"
    har.parent.mkdir()
    outputs: list[str] = []
    with served(tmp_path, "--db", str(tmp_path / "served.sqlite3")) as server:
        env = {**base_env,
               "CREDITSCOPE_BASE_URL": f"http://{USER}:{PASSWORD}@127.0.0.1:{server.port}/"}
        outputs.append(_run(env, "call", "restaurants/search", "--location", "Lisbon"))
        assert "-> 0" in outputs[-1], outputs[-1]  # the service took the credentials
        outputs.append(_run(env, "call", "restaurants/search", "--location", "Porto", "--json"))
        outputs.append(_run(env, "credits"))
        outputs.append(_run(env, "credits", "--json"))
        outputs.append(_run(env, "history"))
        outputs.append(_run(env, "history", "--har", str(har)))
        assert har.is_file(), outputs[-1]
        with web_server(tmp_path, env=env) as web:
            async with aiohttp.ClientSession(cookies=web.cookie) as session:
                tab = await open_tab(session, web.base, "160x40")
                await tab.wait_for("Lisbon")  # the Events area's place, and the header
                await tab.keys("\x1b", "6")  # Settings, its Base URL field
                await tab.wait_for("Base URL")
                await tab.keys("\x1b", "5")  # Activity
                await tab.wait_for("Activity")
                outputs.append(tab.text())
                await tab.close()
    closed = {**base_env,
              "CREDITSCOPE_BASE_URL": f"http://{USER}:{PASSWORD}@127.0.0.1:{free_port()}/"}
    outputs.append(_run(closed, "call", "restaurants/search", "--location", "Faro"))
    outputs.append(_run(closed, "call", "restaurants/search", "--location", "Faro", "--json"))
    assert "connection_failed" in outputs[-1], outputs[-1]

    shown = "\n".join(outputs)
    assert not [secret for secret in SECRETS if secret in shown], shown[-3000:]
    assert "***@127.0.0.1" in shown  # the service is named, its credentials masked
    assert _files_holding_secrets(tmp_path) == []
