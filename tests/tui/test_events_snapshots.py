"""What the Events screen looks like on deterministic sandbox data."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import httpx
import pytest
from textual.pilot import Pilot
from textual.widgets import Input

from creditscope.settings import Settings
from creditscope.tui.app import CreditscopeApp
from creditscope.tui.screens.events import event_detail
from creditscope.tui.widgets import credit_meter
from pilot_support import settle

from .conftest import FROZEN_NOW, SIZE
from .test_events_screen import stub_app


@pytest.fixture(autouse=True)
def steady_pictures(monkeypatch: pytest.MonkeyPatch) -> None:
    """Neither the machine's browser nor the timing of the meter's spend flash change pictures."""
    monkeypatch.setattr(event_detail, "browser_available", lambda: True)
    monkeypatch.setattr(credit_meter, "SPEND_HIGHLIGHT_SECONDS", 3600.0)  # always lit


def search_then(location: str, *keys: str, limit: str = "20") -> Callable[[Pilot[Any]], Any]:
    """A ``run_before`` that searches ``location`` and then presses ``keys``."""

    async def run_before(pilot: Pilot[Any]) -> None:
        app: Any = pilot.app
        await app.wait_for_client()
        await settle(pilot)
        app.screen.query_one("#events-limit", Input).value = limit
        box = app.screen.query_one("#events-location", Input)
        box.value = location
        box.focus()
        await pilot.press("enter")
        await settle(pilot)
        if keys:
            await pilot.press(*keys)
        await settle(pilot)

    return run_before


def test_world_view_with_markers(
    snap_compare: Any, make_app: Callable[..., CreditscopeApp]
) -> None:
    # Search Tokyo, then zoom the map back out to the whole world.
    run_before = search_then("Tokyo", "m", "0", "f")
    assert snap_compare(make_app(), terminal_size=SIZE, run_before=run_before)


def test_city_view_with_a_selection(
    snap_compare: Any, make_app: Callable[..., CreditscopeApp]
) -> None:
    run_before = search_then("Lisbon", "down", "down", "down")
    assert snap_compare(make_app(), terminal_size=SIZE, run_before=run_before)


def test_detail_panel_in_two_time_zones(
    snap_compare: Any, make_app: Callable[..., CreditscopeApp]
) -> None:
    # A viewer in New York looking at an event in Tokyo: both clocks are shown.
    app = make_app()
    app.clock = lambda: FROZEN_NOW.astimezone(ZoneInfo("America/New_York"))
    run_before = search_then("35.6895, 139.6917", "s", "s", limit="10")  # date, price
    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


def test_empty_state(snap_compare: Any, tmp_path: Path, settings: Settings) -> None:
    def nothing(request: httpx.Request) -> httpx.Response:
        location = {"lat": 0.0, "lng": -30.0, "nearest_city": "Nowhere"}
        body = {"location": location, "count": 0, "cursor": None, "events": []}
        return httpx.Response(200, text=json.dumps(body))

    app = stub_app(tmp_path, settings, nothing)
    assert snap_compare(app, terminal_size=SIZE, run_before=search_then("0, -30"))
