"""`creditscope web` in a real browser, fed by a hostile service: an event whose page is a
``javascript:`` URL, opened with ``o``, opens nothing and runs nothing in the demo's
page (it would run in the demo's origin, with its cookie, and drive its WebSocket).

The service is a fake on loopback that answers the event feed with that URL; the
explorer is configured for it as for any service (a base URL and the demo key).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any
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
from loopback_service import Answer, loopback_service

# Would mark the demo's page (or its opener) and its title, were it ever run.
HOSTILE_URL = ("javascript:(window.opener||window).__pwned=1;"
               "(window.opener||window).document.title='PWNED'")
EVENT_NAME = "Hostile Fado Night"


def feed() -> dict[str, Any]:
    venue = {"name": "Coliseu", "city": "Lisbon", "country_code": "PT",
             "latitude": 38.7167, "longitude": -9.1390}
    event = {"id": "ev1", "name": EVENT_NAME, "status": "on-sale", "lineup": ["Ana"],
             "venue": venue, "url": HOSTILE_URL}
    return {"location": {"lat": 38.72, "lng": -9.14, "nearest_city": "Lisbon"},
            "count": 1, "cursor": None, "events": [event]}


def hostile_answer(path: str) -> Answer:
    """The event feed, with a javascript: page; anything else is not found."""
    if urlsplit(path).path != "/ticketing/discovery":
        return Answer(404, {"error": {"code": "not_found", "message": "no such endpoint"}})
    return Answer(200, feed(), {"X-Credits-Charged": "3", "X-Credits-Remaining": "9997"})


@pytest.mark.slow
@pytest.mark.browser
def test_a_javascript_event_url_opens_nothing_and_runs_nothing(
    tmp_path: Path, isolated_dirs: dict[str, Path]
) -> None:
    executable = require_browser()
    from playwright.sync_api import Dialog, Page, sync_playwright

    port = free_port()
    log_path = tmp_path / "web.log"
    with loopback_service(hostile_answer) as base_url:
        # BROWSER: the host has a browser, as a presenter's laptop does, so Open page opens.
        env = {**os.environ, "PYTHONUNBUFFERED": "1", "CREDITSCOPE_BASE_URL": base_url,
               "CREDITSCOPE_API_KEY": DEMO_KEY, "BROWSER": "true"}
        with web_server(port, env, log_path) as server, sync_playwright() as playwright:
            wait_for_port(port, server, timeout=20)
            url = printed_url(log_path, server)
            with chromium(playwright, executable) as browser:
                context = browser.new_context(viewport={"width": 1280, "height": 800})
                context.set_default_timeout(15_000)
                opened: list[Page] = []
                context.on("page", lambda new: opened.append(new))
                page = context.new_page()
                opened.clear()  # the demo's own page
                dialogs: list[str] = []


                def dismissed(dialog: Dialog) -> None:
                    dialogs.append(dialog.message)
                    dialog.dismiss()

                page.on("dialog", dismissed)
                stream = TerminalStream(page)
                try:
                    open_explorer(page, url, stream)
                    page.wait_for_timeout(500)
                    # `/` chooses the Events search box (at a cold start a number key there
                    # still switches area): search, and the feed shows the event.
                    page.keyboard.press("/")
                    page.keyboard.type("38.72, -9.14")
                    page.keyboard.press("Enter")
                    stream.wait_for(EVENT_NAME, timeout=30)
                    page.wait_for_timeout(500)
                    mark = stream.mark()
                    page.keyboard.press("o")
                    said = stream.wait_for("Link not opened", "Opened in your browser",
                                           since=mark)
                    page.wait_for_timeout(1500)  # time for a window or a script, were one asked
                    assert page.evaluate("window.__pwned") is None, "the script ran"
                    assert page.title() != "PWNED" and dialogs == []
                    assert opened == [], "the page was asked to open a window"
                    assert said == "Link not opened"
                except BaseException:
                    print(log_path.read_text(encoding="utf-8", errors="replace")[-3000:])
                    raise
                finally:
                    context.close()
