"""Offline, a form's buttons say "offline · N cr online": longer labels that must not
squeeze the box the user types in out of sight (a newcomer's trial: the Events location
box vanished at 80x24 while the error said "your location is kept")."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from creditscope.tui.app import CreditscopeApp
from pilot_support import settle

from .areas import SIZES
from .screen_text import screen_rows

MakeApp = Callable[..., CreditscopeApp]


@pytest.mark.parametrize("size", ["80x24", "120x36"])
async def test_offline_the_events_location_box_shows_what_was_typed(
    make_app: MakeApp, size: str
) -> None:
    from textual.widgets import Input

    app = make_app(offline=True)
    async with app.run_test(size=SIZES[size]) as pilot:
        await app.wait_for_client()
        await settle(pilot)
        box = app.screen.query_one("#events-location", Input)
        box.focus()
        box.value = ""
        await pilot.press(*"Springfield")
        await pilot.press("enter")
        await settle(pilot)
        rows = screen_rows(app)
        form = next(row for row in rows if "Search ·" in row)
        assert "Springfield" in form, "\n".join(rows)
        assert box.content_region.width >= 16
        shown = [button for button in app.screen.query("#events-form Button") if button.display]
        assert [str(button.label).split(" ·")[0] for button in shown] == ["Search"]
        for button in shown:
            region = button.region
            assert region.right <= app.size.width, f"{button.label} cut at {region}"
            label = str(button.label)
            assert label in "".join(rows[region.y:region.bottom]).replace("  ", " ") or (
                label in rows[region.y + region.height // 2]), (label, "\n".join(rows))


async def test_going_offline_after_a_search_takes_refresh_away_and_keeps_the_box(
    make_app: MakeApp,
) -> None:
    from textual.widgets import Input

    app = make_app()
    async with app.run_test(size=SIZES["80x24"]) as pilot:
        await app.wait_for_client()
        await settle(pilot)
        box = app.screen.query_one("#events-location", Input)
        box.focus()
        box.value = ""
        await pilot.press(*"Lisbon", "enter")
        await settle(pilot)
        refresh = app.screen.query_one("#events-refresh")
        assert refresh.display  # a feed: Refresh offered
        app.rebuild_client(app.settings.model_copy(update={"offline": True}))
        await app.wait_for_client()
        await settle(pilot)
        assert app.client is not None and app.client.offline
        assert not refresh.display
        assert box.content_region.width >= 16
        form = next(row for row in screen_rows(app) if "Search ·" in row)
        assert "Lisbon" in form and "Search · cached · free" in form, form  # cached: free
        assert "^r" not in screen_rows(app)[-1]  # the key goes with the button
