"""The Events screen on the in-process sandbox: search, map <-> feed, paging, errors, cache."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from rich.console import Console
from textual.pilot import Pilot
from textual.widgets import Input, Static

from creditscope.settings import Settings
from creditscope.tui.app import CreditscopeApp
from creditscope.tui.calls import ResultArea
from creditscope.tui.screens.events import EventsScreen, event_detail
from creditscope.tui.screens.events.event_detail import EventDetail
from creditscope.tui.screens.events.feed_table import EventFeedTable
from creditscope.tui.widgets.error_panel import ErrorPanel
from creditscope.tui.widgets.event_map import EventMap
from creditscope.tui.widgets.price_button import PriceButton
from explorer_factory import explorer_factory, in_process
from pilot_support import later, settle

from .conftest import FROZEN_NOW, SIZE
from .screen_text import screen_rows

MakeApp = Callable[..., CreditscopeApp]


def screen_of(app: CreditscopeApp) -> EventsScreen:
    assert isinstance(app.screen, EventsScreen)
    return app.screen


async def search(pilot: Pilot[Any], location: str, limit: str | None = None) -> EventsScreen:
    """Type ``location`` (and a limit) into the form and press Enter."""
    await settle(pilot)
    screen = screen_of(pilot.app)  # type: ignore[arg-type]
    box = screen.query_one("#events-location", Input)
    box.value = location
    if limit is not None:
        screen.query_one("#events-limit", Input).value = limit
    box.focus()
    await pilot.press("enter")
    await settle(pilot)
    return screen


def summary(screen: EventsScreen) -> str:
    return str(screen.query_one("#events-summary", Static).render())


def rendered(widget: Static) -> str:
    """The text a Static shows, whatever renderable it holds."""
    console = Console(width=200, record=True)
    console.print(widget.content)
    return console.export_text()


def hint(screen: EventsScreen) -> str:
    return str(screen.query_one("#events-hint", Static).render())


def spent(app: CreditscopeApp) -> int:
    assert app.client is not None
    return int(app.client.ledger.session_spent())


def stub_app(
    tmp_path: Path, settings: Settings, handler: Callable[[httpx.Request], httpx.Response]
) -> CreditscopeApp:
    """An app whose client talks to ``handler`` instead of the sandbox."""

    return CreditscopeApp(settings, client_factory=explorer_factory(httpx.MockTransport(handler)),
                         clock=lambda: FROZEN_NOW)


# --- searching -----------------------------------------------------------------------


async def test_search_by_city_name_fills_feed_and_map(make_app: MakeApp) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await search(pilot, "Lisbon")
        table = screen.feed_table
        assert len(table.events) == table.row_count == 20
        assert "nearest city Lisbon" in summary(screen)
        assert "3 cr" in summary(screen)
        event_map = screen.event_map
        assert event_map.search_point == pytest.approx((38.7251, -9.1498))
        assert [m.number for m in event_map.markers] == list(range(1, 21))
        assert event_map.zoom > 8  # fitted to the city, not the world
        for marker in event_map.markers:  # every venue is on screen
            assert event_map.latlng_to_cell(marker.lat, marker.lng) is not None
        assert spent(app) == 3


async def test_search_by_coordinates(make_app: MakeApp) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await search(pilot, "40.4168, -3.7038", limit="5")
        assert screen.feed_table.row_count == 5
        assert "nearest city Madrid" in summary(screen)
        assert screen.event_map.search_point == (40.4168, -3.7038)


async def test_typing_previews_the_place_and_completes_city_names(make_app: MakeApp) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = screen_of(app)
        assert screen.location_input.has_focus  # a cold start: a city typed at once lands here
        await pilot.press("slash", *"Lisb")  # "/" first, from habit: not typed
        await pilot.pause()
        await pilot.press("right")  # accept the completion
        await pilot.pause()
        assert screen.location_input.value == "Lisbon, PT"
        assert "→ Lisbon, PT · 38.7251, -9.1498 · Europe/Lisbon" in hint(screen)
        assert str(screen.query_one("#events-search", PriceButton).label) == "Search · 3 cr"


# --- map <-> feed <-> detail --------------------------------------------------------------


async def test_selecting_a_row_highlights_its_marker_and_shows_details(make_app: MakeApp) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await search(pilot, "Lisbon")
        assert screen.event_map.selected == 1
        await pilot.press("down", "down")
        await pilot.pause()
        assert screen.feed_table.highlighted_number == 3
        assert screen.event_map.selected == 3
        detail = screen.query_one(EventDetail)
        assert detail.event is screen.feed_table.events[2]
        assert screen.feed_table.events[2].name in rendered(
            detail.query_one(".detail-text", Static)
        )


async def test_clicking_a_marker_selects_its_row(make_app: MakeApp) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await search(pilot, "Lisbon")
        event_map = screen.event_map
        # A marker that is not the selected one and is visible where it is drawn.
        target = None
        for marker in event_map.markers:
            cell = event_map.latlng_to_cell(marker.lat, marker.lng)
            if cell is None or marker.number == event_map.selected:
                continue
            drawn = event_map.marker_at(*cell)
            if drawn is not None and drawn.number == marker.number:
                target = (marker.number, cell)
                break
        assert target is not None
        number, (x, y) = target
        await pilot.click(event_map, offset=(x, y))
        await settle(pilot)
        assert screen.feed_table.highlighted_number == number
        assert event_map.selected == number
        assert spent(app) == 3  # selecting is free: no new search


async def test_a_click_on_the_map_picks_a_point_and_search_is_its_own_priced_step(
    make_app: MakeApp,
) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = screen_of(app)
        event_map = screen.event_map
        # World view: click somewhere in Europe that has no marker.
        x, y = event_map.latlng_to_cell(48.85, 2.35) or (0, 0)
        lat, lng = event_map.cell_to_latlng(x, y)
        await pilot.click(event_map, offset=(x, y))
        await settle(pilot)
        assert screen.location_input.value == f"{lat:.4f}, {lng:.4f}"
        assert event_map.search_point == pytest.approx((lat, lng), abs=1e-4)
        assert spent(app) == 0  # picking a point never spends
        search_button = screen.query_one("#events-search", PriceButton)
        assert app.focused is search_button and "3 cr" in str(search_button.label)
        await pilot.press("enter")  # searching there is its own action
        await settle(pilot)
        assert screen.feed_table.row_count == 20
        assert "nearest city" in summary(screen)
        assert spent(app) == 3


async def test_zoom_and_pan_keys_on_the_map(make_app: MakeApp) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = screen_of(app)
        screen.query_one(EventFeedTable).focus()
        await pilot.press("m")  # focus the map
        event_map = screen.event_map
        assert event_map.has_focus
        zoom = event_map.zoom
        await pilot.press("plus")
        assert event_map.zoom == pytest.approx(zoom * 2)
        lat, lng = event_map.center
        await pilot.press("right")
        assert event_map.center[1] > lng
        await pilot.press("up")
        assert event_map.center[0] > lat
        await pilot.press("minus")
        assert event_map.zoom == pytest.approx(zoom)
        assert spent(app) == 0


async def test_sort_by_price_keeps_numbers_and_markers(make_app: MakeApp) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await search(pilot, "Lisbon")
        table = screen.feed_table
        table.focus()
        await pilot.press("s", "s")  # by date, then by price
        await pilot.pause()
        shown = [int(str(table.get_row_at(row)[0])) for row in range(table.row_count)]
        prices = [table.events[n - 1].price.amount for n in shown]  # type: ignore[union-attr]
        assert prices == sorted(prices)
        assert sorted(shown) == list(range(1, 21))
        assert "Price ▲" in str(table.columns["price"].label)  # type: ignore[index]
        await pilot.press("s")  # by date again
        await pilot.pause()
        assert [int(str(table.get_row_at(row)[0])) for row in range(table.row_count)] == list(
            range(1, 21)
        )


# --- paging, cache, refresh ---------------------------------------------------------------


async def test_load_more_to_the_last_page(make_app: MakeApp) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await search(pilot, "Lisbon", limit="50")
        more = screen.query_one("#events-more", PriceButton)
        assert not more.disabled and str(more.label) == "Load more · 3 cr"
        pages = 1
        while not more.disabled:
            later(app, 1.0)  # a person reads the page before asking for the next
            await pilot.click(more)
            await settle(pilot)
            pages += 1
            assert pages < 10
        table = screen.feed_table
        assert pages >= 2 and table.row_count == len(table.events) > 50
        assert (
            len({event.id for event in table.events}) == table.row_count
        )  # appended, not repeated
        assert [m.number for m in screen.event_map.markers] == list(range(1, table.row_count + 1))
        assert "last page" in summary(screen)
        assert spent(app) == 3 * pages
        await pilot.press("l")  # nothing more to fetch: nothing spent
        await settle(pilot)
        assert spent(app) == 3 * pages


async def test_refresh_is_offered_only_once_there_is_a_feed(make_app: MakeApp) -> None:
    # Before any search a disabled "Refresh · 3 cr" sat beside Search: a price for nothing.
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await app.wait_for_client()
        await settle(pilot)
        for focus in (None, "#events-map"):  # the cursor in the box, then on the map
            if focus is not None:
                app.screen.query_one(focus).focus()
                await settle(pilot)
            assert not any("Refresh" in row for row in screen_rows(app)), screen_rows(app)
        await search(pilot, "Lisbon")
        assert any("Refresh · 3 cr" in row for row in screen_rows(app)), screen_rows(app)


async def test_a_repeated_search_is_cached_and_refresh_pays(make_app: MakeApp) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await search(pilot, "Lisbon")
        assert (
            str(screen.query_one("#events-search", PriceButton).label) == "Search · cached · free"
        )
        refresh = screen.query_one("#events-refresh", PriceButton)
        assert str(refresh.label) == "Refresh · 3 cr"
        await search(pilot, "Lisbon")
        assert "cached" in summary(screen) and "free" in summary(screen)
        assert spent(app) == 3
        later(app)  # the feed is no longer "moments" old: the refresh pays on one press
        await pilot.click(refresh)
        await settle(pilot)
        assert spent(app) == 6
        assert "3 cr" in summary(screen)


# --- errors keep the typed location ---------------------------------------------------------


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ("95, 10", "Latitude 95 is outside -90 to 90"),
        ("Atlantisxyz", "No place called 'Atlantisxyz'"),
    ],
)
async def test_local_errors_cost_nothing_and_keep_the_text(
    make_app: MakeApp, typed: str, message: str
) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await search(pilot, typed)
        assert screen.location_input.value == typed
        assert message in hint(screen)
        assert screen.location_input.has_class("-invalid")
        assert spent(app) == 0
        assert app.client is not None and app.client.ledger.session_totals().calls == 0
        # Fixing the text clears the mark; the search then goes through.
        screen.location_input.value = "Lisbon"
        await pilot.pause()
        assert not screen.location_input.has_class("-invalid")


async def test_a_bad_limit_is_refused_locally(make_app: MakeApp) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await search(pilot, "Lisbon", limit="0")
        assert "Limit 0 is outside 1 to 50" in hint(screen)
        assert screen.query_one("#events-limit", Input).has_class("-invalid")
        assert spent(app) == 0


async def test_a_service_error_is_shown_in_place_and_keeps_the_location(
    tmp_path: Path, settings: Settings
) -> None:
    def broken(request: httpx.Request) -> httpx.Response:
        body = {"error": {"code": "internal_error", "message": "The feed is down"}}
        return httpx.Response(500, json=body)

    app = stub_app(tmp_path, settings, broken)
    async with app.run_test(size=SIZE) as pilot:
        screen = await search(pilot, "Lisbon")
        panel = screen.query_one(ErrorPanel)
        assert panel.display
        assert "The feed is down" in str(panel.query_one(".error-message", Static).render())
        # Enter took the completion on show; the text stays there to retry.
        assert screen.location_input.value == "Lisbon, PT"
        assert screen.feed_table.row_count == 0


async def test_the_sandbox_failing_shows_retry(tmp_path: Path, settings: Settings) -> None:
    from creditscope.sandbox.app import create_app
    from creditscope.sandbox.config import SandboxConfig

    sandbox = create_app(SandboxConfig(db_path=None, frozen_time=FROZEN_NOW, fail_rate=1.0))

    app = CreditscopeApp(settings, client_factory=explorer_factory(in_process(sandbox)),
                         clock=lambda: FROZEN_NOW)
    async with app.run_test(size=SIZE) as pilot:
        screen = await search(pilot, "Paris")
        panel = screen.query_one(ErrorPanel)
        assert panel.display
        assert any(str(button.label) == "Retry · 3 cr" for button in panel.query("Button"))
        assert screen.location_input.value == "Paris, FR"  # the completion Enter took


async def test_an_empty_feed_says_so(tmp_path: Path, settings: Settings) -> None:
    def nothing(request: httpx.Request) -> httpx.Response:
        location = {"lat": 0.0, "lng": -30.0, "nearest_city": "Nowhere"}
        return httpx.Response(
            200, text=json.dumps({"location": location, "count": 0, "cursor": None, "events": []})
        )

    app = stub_app(tmp_path, settings, nothing)
    async with app.run_test(size=SIZE) as pilot:
        screen = await search(pilot, "0, -30")
        empty = screen.results.query_one(".call-empty", Static)
        assert empty.display
        assert "No events here: try a city" in str(empty.render())
        assert screen.event_map.markers == []
        assert screen.query_one("#events-more", PriceButton).disabled
        assert screen.location_input.value == "0, -30"


async def test_copy_url_from_the_detail(make_app: MakeApp, copied: list[str]) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await search(pilot, "Lisbon")
        await pilot.press("c")
        first = screen.feed_table.events[0]
        assert copied == [first.url]
        await pilot.click("#detail-copy-images")
        assert copied[-1].splitlines() == [first.images.square, first.images.landscape]  # type: ignore[union-attr]
        assert isinstance(screen.results, ResultArea)
        assert isinstance(screen.event_map, EventMap)


async def test_open_page_uses_the_browser_or_copies_without_one(
    make_app: MakeApp, copied: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    opened: list[str] = []
    monkeypatch.setattr(CreditscopeApp, "open_url", lambda self, url, **_: opened.append(url))
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await search(pilot, "Lisbon")
        url = screen.feed_table.events[0].url
        monkeypatch.setattr(event_detail, "browser_available", lambda: True)
        await pilot.press("o")
        assert opened == [url] and copied == []
        monkeypatch.setattr(event_detail, "browser_available", lambda: False)
        await pilot.press("o")
        assert opened == [url] and copied == [url]
