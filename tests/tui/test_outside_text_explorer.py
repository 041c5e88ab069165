"""Outside text in the explorer: an event page that is not an http(s) web link is never
handed to the browser (shown as text, with why), and nothing the service sends reaches
the terminal as anything but text."""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from textual.app import App
from textual.content import Content
from textual.widgets import DataTable, Label, Static

from creditscope.outside_text import hidden
from creditscope.sandbox import SANDBOX_BASE_URL
from creditscope.settings import Settings
from creditscope.tui.app import CreditscopeApp
from creditscope.tui.failures import report_failure, report_unexpected
from creditscope.tui.screens.events import event_detail
from creditscope.tui.screens.har_import import HarImportScreen
from creditscope.tui.widgets.error_panel import ErrorPanel
from explorer_factory import explorer_factory
from pilot_support import settle
from security.hostile_corpus import (
    BRACKET_MARKUP,
    HOSTILE_TEXT,
    HOSTILE_URLS,
    MARKUP,
    OSC52_CLIPBOARD,
    WEB_URLS,
)
from textual_internals import shown_notifications

from .conftest import FROZEN_NOW, SIZE, frozen_sandbox
from .test_activity_history import CHROME_EXPORT, start
from .test_activity_history import explorer as activity_explorer
from .test_catalog_try import _open_endpoint as open_endpoint
from .test_company import card, look_up, open_company
from .test_company import spent as company_spent
from .test_events_screen import rendered, search, stub_app
from .test_restaurants_screens import open_row
from .test_restaurants_screens import search as restaurant_search
from .test_support_desk import calls, open_area, paste_into_import, static_text

WEB_URL = WEB_URLS[0]


def feed(events: list[dict[str, Any]]) -> httpx.Response:
    location = {"lat": 38.72, "lng": -9.14, "nearest_city": "Lisbon"}
    return httpx.Response(200, json={"location": location, "count": len(events),
                                     "cursor": None, "events": events},
                          headers={"X-Credits-Charged": "3", "X-Credits-Remaining": "9997"})


def event(number: int, **fields: Any) -> dict[str, Any]:
    venue = {"name": "Coliseu", "city": "Lisbon", "country_code": "PT",
             "latitude": 38.71 + number / 1000, "longitude": -9.14}
    return {"id": f"ev{number}", "name": f"Event {number}", "status": "on-sale",
            "lineup": ["Ana"], "venue": venue, **fields}


async def test_a_hostile_event_url_never_reaches_the_browser(
    tmp_path: Path, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    urls = [WEB_URL, *HOSTILE_URLS]
    opened: list[str] = []  # what Textual would hand to the browser (or a web tab's page)
    monkeypatch.setattr(App, "open_url", lambda self, url, **_: opened.append(url))
    monkeypatch.setattr(event_detail, "browser_available", lambda: True)
    # Two searches, each answering with at most the feed's default limit of 20 events.
    pages = [urls[:20], urls[20:]]
    app = stub_app(tmp_path, settings, lambda request: feed(
        [event(number, url=url) for number, url in enumerate(pages.pop(0))]))
    async with app.run_test(size=SIZE) as pilot:
        for row, url in enumerate(urls):
            if row % 20 == 0:
                screen = await search(pilot, ("Lisbon", "Porto")[row // 20])
            screen.feed_table.move_cursor(row=row % 20)
            await settle(pilot)
            detail = screen.detail
            assert detail.event is not None and detail.event.url == url
            await pilot.press("o")
            await settle(pilot)
            last = shown_notifications(app)[-1]
            if url == WEB_URL:
                assert last.title == "Opened in your browser"
                continue
            assert last.title == "Link not opened" and "Not opened: " in last.message
            assert not any(hidden(char) for char in last.message if char != "\n")
        assert opened == [WEB_URL]


async def test_the_page_row_says_why_a_link_is_not_opened(
    tmp_path: Path, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(event_detail, "browser_available", lambda: True)
    app = stub_app(tmp_path, settings, lambda request: feed(
        [event(0, url="javascript:alert(1)")]))
    async with app.run_test(size=SIZE) as pilot:
        screen = await search(pilot, "Lisbon")
        text = str(event_detail.page_text(screen.detail.event.url if screen.detail.event
                                          else None))
        assert text.startswith("javascript:alert(1) (not opened: it is a javascript: link")
        assert screen.detail.query_one("#detail-open").disabled


async def test_names_the_service_sends_reach_the_terminal_as_text_only(
    tmp_path: Path, settings: Settings
) -> None:
    events = [event(number, name=name, lineup=[name], url=f"https://e.example/{number}")
              for number, name in enumerate(HOSTILE_TEXT)]
    events[0]["venue"]["name"] = OSC52_CLIPBOARD
    events.append(event(len(events), name=MARKUP[0], lineup=list(MARKUP), tag=MARKUP[4],
                        venue={"name": MARKUP[1], "address": MARKUP[3], "city": "Lisbon"}))
    app = stub_app(tmp_path, settings, lambda request: feed(events))
    async with app.run_test(size=SIZE) as pilot:
        screen = await search(pilot, "Lisbon")
        for row in range(len(events)):  # each event in the detail panel, and the feed
            screen.feed_table.move_cursor(row=row)
            await settle(pilot)
            drawn = app.export_screenshot()
            assert not any(hidden(char) for char in drawn if char != "\n"), row
            assert "Lisboa" in drawn
        detail = rendered(screen.detail.query_one(".detail-text", Static))
        assert ", ".join(MARKUP) in detail.replace("\n", "")  # the lineup, as sent
        assert f"{MARKUP[1]}, {MARKUP[3]}" in detail  # the venue and its address


async def test_a_name_that_names_an_action_runs_nothing_when_clicked(
    tmp_path: Path, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    ran: list[str] = []
    # An action the explorer would run, were text allowed to name one.
    monkeypatch.setattr(CreditscopeApp, "action_planted", lambda self: ran.append("planted"),
                        raising=False)
    planted = "[@click=app.planted]Fado"
    answer = feed([event(0, name=planted, lineup=[planted], url="https://e.example/0")])
    body = answer.json()
    body["location"]["nearest_city"] = "[@click=app.planted]Lisbon[/]"
    app = stub_app(tmp_path, settings, lambda request: httpx.Response(
        200, json=body, headers=answer.headers))
    async with app.run_test(size=SIZE) as pilot:
        screen = await search(pilot, "Lisbon")
        assert screen.detail.event is not None and screen.detail.event.name == planted
        summary = screen.query_one("#events-summary")
        assert "[@click=app.planted]Lisbon[/]" in str(summary.render())  # shown as sent
        for x in range(0, summary.size.width):  # every cell of the summary line
            await pilot.click(summary, offset=(x, 0))
        for x in range(20, 45):  # across the Event column of the first row
            await pilot.click(screen.feed_table, offset=(x, 1))
        await settle(pilot)
        assert ran == []


async def test_a_pasted_name_with_a_bidi_override_is_refused_free_naming_it(
    make_app: Any,
) -> None:
    pasted = (f"curl -X POST {SANDBOX_BASE_URL}/professional_network/find_company "
              "-d '{\"name\": \"Contoso\u202e Ltd\"}'")
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await open_area(pilot, "company")
        await paste_into_import(pilot, pasted)
        result = static_text(app, "#import-result")
        assert "U+202E RIGHT-TO-LEFT OVERRIDE" in result
        assert "name: Contoso\\u202e Ltd" in result  # the value shown as it is, visibly
        assert "\u202e" not in result
        assert calls(app) == 0


async def test_a_name_with_a_zero_width_space_is_the_cached_lookup_with_a_note(
    make_app: Any,
) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await open_company(pilot)
        await look_up(pilot, "Contoso Ltd")
        assert company_spent(app) == 10
        await look_up(pilot, "Contoso\u200b Ltd")
        assert company_spent(app) == 10  # the same lookup: served from the cache, free
        notes = [note.message for note in shown_notifications(app)]
        assert "name: removed 1 invisible character (U+200B ZERO WIDTH SPACE)" in notes


async def test_copying_a_url_that_reads_as_markup_names_it_as_it_is(
    tmp_path: Path, settings: Settings, copied: list[str]
) -> None:
    url = "https://e.example/[/]x[b]"  # as markup: a closing tag with nothing to close
    app = stub_app(tmp_path, settings, lambda request: feed([event(0, url=url)]))
    async with app.run_test(size=SIZE) as pilot:
        await search(pilot, "Lisbon")
        await pilot.press("c")
        await settle(pilot)
        assert copied == [url]
        note = shown_notifications(app)[-1]
        assert note.title == "Copied"  # and the toast draws the URL as it is:
        assert f"Event URL {url} (" in Content.from_markup(note.message).plain


async def test_a_service_error_that_reads_as_markup_is_shown_as_sent(
    tmp_path: Path, settings: Settings
) -> None:
    message = f"The feed is [/] down [b]{OSC52_CLIPBOARD}"
    app = stub_app(tmp_path, settings, lambda request: httpx.Response(
        500, json={"error": {"code": "internal_[/]error", "message": message}}))
    async with app.run_test(size=SIZE) as pilot:
        screen = await search(pilot, "Lisbon")
        panel = screen.query_one(ErrorPanel)
        assert panel.display
        shown_message = str(panel.query_one(".error-message", Static).render())
        # As sent, but for the escape sequence's control characters, which are not drawn.
        assert shown_message == "".join(char for char in message if not hidden(char))
        assert "internal_[/]error" in str(panel.query_one(".error-code", Label).render())
        drawn = app.export_screenshot()
        assert not any(hidden(char) for char in drawn if char != "\n")


# --- markup in every text the service sends -------------------------------------------

# Each would act were it read as markup: a style, a javascript: link, and a closing tag
# with nothing to close (MarkupError: the panel stays empty, the search stuck "Fetching…").
PLANTED = ' [red]X[/red] [link="javascript:alert(1)"]L[/link] [/][b]y[/b] ' + BRACKET_MARKUP[0]
# Values the explorer sends back or parses (an id, a link, a code, an hour, a date):
# markup there is the service's error, not text the explorer draws.
NOT_PROSE = re.compile(r"(^|_)(id|url|website|currency|code|status|cursor|date|time|at|"
                       r"lat|lng|latitude|longitude|phone|email|method|path)$")


# A key is the service's text too: opening hours are keyed by whatever it sends.
PLANTED_KEY = f"x{OSC52_CLIPBOARD}\u202e{PLANTED}"


def planted(value: Any, key: str = "") -> Any:
    """``value`` with :data:`PLANTED` after every prose string in it (and in a key of
    the opening hours)."""
    if isinstance(value, dict):
        extra = {PLANTED_KEY: "10:00-11:00"} if key == "hours" else {}
        return {name: planted(inner, "hours" if key == "hours" else name)
                for name, inner in value.items()} | extra
    if isinstance(value, list):
        return [planted(inner, key) for inner in value]
    if isinstance(value, str) and key != "hours" and not NOT_PROSE.search(key):
        return value + PLANTED
    return value


class RewrittenSandbox(httpx.AsyncBaseTransport):
    """The sandbox, each JSON answer's body passed through ``rewrite``."""

    def __init__(self, rewrite: Callable[[Any], Any]) -> None:
        self.sandbox = frozen_sandbox()
        self.rewrite = rewrite

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        answer = await self.sandbox.handle_async_request(request)
        await answer.aread()
        if answer.status_code >= 400 or "json" not in answer.headers.get("content-type", ""):
            return answer
        headers = {name: value for name, value in answer.headers.items()
                   if name.lower().startswith("x-")}
        return httpx.Response(answer.status_code, headers=headers,
                              json=self.rewrite(answer.json()))


def markup_everywhere() -> RewrittenSandbox:
    """The sandbox, with :data:`PLANTED` in every prose string of every answer."""
    return RewrittenSandbox(planted)


def drawn_as_sent(app: App[Any]) -> None:
    """The planted text is on the screen as sent, and the terminal gets no link."""
    screen = html.unescape(app.export_screenshot()).replace("\xa0", " ")
    assert not any(hidden(char) for char in screen if char != "\n")
    assert "[red]X[/red]" in screen and "[/][b]y[/b]" in screen
    leftover = re.sub(r'\[link="?javascript:', "", screen)
    assert "javascript:" not in leftover, leftover[leftover.index("javascript:") - 300:][:400]


async def test_markup_in_any_text_the_service_sends_is_drawn_as_sent(
    tmp_path: Path, settings: Settings
) -> None:
    app = CreditscopeApp(settings, clock=lambda: FROZEN_NOW,
                         client_factory=explorer_factory(markup_everywhere()))
    async with app.run_test(size=SIZE) as pilot:
        await restaurant_search(pilot, "Lisbon")
        drawn_as_sent(app)
        await open_row(pilot, 0)
        drawn_as_sent(app)  # the overview
        for tab in ("m", "r"):  # the menu, the reviews: the tab's letter, then its price
            await pilot.press(tab)
            await settle(pilot)
            await pilot.press("enter")
            await settle(pilot)
            drawn_as_sent(app)
        await pilot.press("escape")
        await settle(pilot)
        await open_company(pilot)
        await look_up(pilot, "Contoso Ltd")
        assert "[red]X[/red]" in card(app).text_of("description")
        drawn_as_sent(app)
        await app.switch_mode("catalog")
        await open_endpoint(pilot, "/restaurants/search")  # the service's catalog: the
        drawn_as_sent(app)  # endpoint's card (and, behind it, the catalog's detail)


async def test_a_failure_quoting_markup_is_reported_as_sent(make_app: Any) -> None:
    """A toast reads markup; an error's text often quotes outside text (or a MarkupError's
    own "[/]"): the report of a failure must not fail in turn."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        quoted = "closing tag '[/]' has nothing to close in [b]Casa"
        report_unexpected(app, "Restaurants", ValueError(quoted))
        report_failure(app, "Export", ValueError(quoted))
        await settle(pilot)
        notes = shown_notifications(app)[-2:]
        assert all(quoted in Content.from_markup(note.message).plain for note in notes)


async def test_a_har_file_whose_name_reads_as_markup_opens(
    settings: Settings, tmp_path: Path
) -> None:
    """A downloaded file's name is outside text: shown as it is, never a style or action."""
    path = tmp_path / "ticket [red]4242[@click=app.quit].har"
    path.write_text(CHROME_EXPORT.read_text().replace("https://api.dataservice.example",
                                                      SANDBOX_BASE_URL))
    app = activity_explorer(settings)
    async with app.run_test(size=SIZE) as pilot:
        await start(pilot)
        app.push_screen(HarImportScreen(path))
        await settle(pilot)
        assert app.screen.query_one("#har-table", DataTable).row_count == 4
        title = app.screen.query_one(".dialog-title", Label).render()
        assert "HAR file · ticket [red]4242[@click=app.quit].har" in str(title)


@pytest.mark.parametrize("path", ["/x/[link=javascript:alert(2)]P[/link][b]BOLD",
                                  "/x\\[b]BOLD", "/y[/]", "/z\\\\[b]\\"])
async def test_an_endpoint_path_that_reads_as_markup_is_titled_as_sent(
    tmp_path: Path, settings: Settings, path: str
) -> None:
    endpoint = {"name": "e", "method": "GET", "path": path, "description": "d", "credits": 2}
    catalog = {"providers": [{"id": "p", "name": "Prov [b]", "category": "c",
                              "description": "d", "endpoints": [endpoint]}],
               "totalEndpoints": 1}
    app = stub_app(tmp_path, settings, lambda request: httpx.Response(200, json=catalog))
    async with app.run_test(size=SIZE) as pilot:
        await app.switch_mode("catalog")
        screen = await open_endpoint(pilot, path)
        title = screen.query_one("#endpoint-title", Static).render()
        assert str(getattr(title, "plain", title)) == f"Prov [b] · GET {path}"
