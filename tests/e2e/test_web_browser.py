"""`creditscope web` in a real browser: headless Debian chromium driven by Playwright.

Starts the server on a free loopback port, opens the page, waits for the
explorer to paint, switches screens with number keys, sees the catalog load
from the built-in sandbox, and saves ``screenshots/web.png``. Every request
the page makes must stay on the loopback server (no CDN: demos work offline).
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from browser_harness import (
    TerminalStream,
    chromium,
    free_port,
    open_explorer,
    printed_url,
    require_browser,
    wait_for_port,
    web_server,
)

from creditscope.sandbox import DEMO_KEY

SCREENSHOT = Path(__file__).resolve().parents[2] / "screenshots" / "web.png"


@pytest.mark.slow
@pytest.mark.browser
# It rewrites screenshots/web.png, which the artifact-secrets test reads: not at once.
@pytest.mark.xdist_group("screenshots")
def test_explorer_in_a_browser(tmp_path: Path, isolated_dirs: dict[str, Path]) -> None:
    executable = require_browser()
    from playwright.sync_api import Route, sync_playwright

    started = time.monotonic()
    port = free_port()
    # os.environ already points HOME and XDG_* at the isolated dirs (conftest).
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    off_host: list[str] = []

    def only_loopback(route: Route) -> None:
        # The page must not need the internet: refuse and remember anything else.
        if urlsplit(route.request.url).hostname == "127.0.0.1":
            route.continue_()
        else:
            off_host.append(route.request.url)
            route.abort()

    log_path = tmp_path / "web.log"
    with web_server(port, env, log_path) as server, sync_playwright() as playwright:
        wait_for_port(port, server, timeout=20)
        url = printed_url(log_path, server)
        with chromium(playwright, executable) as browser:
            context = browser.new_context(viewport={"width": 1280, "height": 800})
            context.set_default_timeout(15_000)
            context.route("**/*", only_loopback)
            page = context.new_page()
            stream = TerminalStream(page)
            try:
                open_explorer(page, url, stream)

                # Escape leaves the first screen's search box, so digits navigate;
                # the pause keeps the terminal from reading Escape+5 as Alt+5.
                page.keyboard.press("Escape")
                page.wait_for_timeout(400)
                mark = stream.mark()
                page.keyboard.press("5")
                stream.wait_for("Search every session", since=mark)  # the Activity screen

                page.keyboard.press("Escape")
                page.wait_for_timeout(400)
                mark = stream.mark()
                page.keyboard.press("4")
                # The Catalog screen, with the catalog loaded from the sandbox.
                stream.wait_for("/restaurants/search", since=mark)
                stream.wait_for("Filter providers", since=mark)
                page.wait_for_timeout(500)  # let the last frame reach the canvas

                SCREENSHOT.parent.mkdir(exist_ok=True)
                page.screenshot(path=str(SCREENSHOT))
            except BaseException:
                print(log_path.read_text(encoding="utf-8", errors="replace")[-3000:])
                raise
            finally:
                context.close()

    assert off_host == [], f"the page tried to reach other hosts: {off_host}"
    assert DEMO_KEY not in stream.text(), "the API key was painted on the page"
    assert SCREENSHOT.stat().st_size > 10_000, "the screenshot looks empty"
    assert SCREENSHOT.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert time.monotonic() - started < 60
