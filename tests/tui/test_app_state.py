"""App-wide state reaches every screen: the header badge and the Settings form follow
offline/online on every area, opened before or after the change, pushed or not."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.pilot import Pilot
from textual.widgets import Button, Input, Label, Switch

from creditscope.tui.app import CreditscopeApp
from creditscope.tui.navigation import ordered_entries
from creditscope.tui.screens.restaurants import RestaurantScreen
from creditscope.tui.widgets.error_panel import GO_ONLINE, ErrorPanel
from pilot_support import settle

from .conftest import SIZE

MakeApp = Callable[..., CreditscopeApp]
MODES = [entry.mode for entry in ordered_entries()]


def badge(app: CreditscopeApp) -> str:
    return str(app.screen.query_one("#mode-badge", Label).render())


async def open_every_area(pilot: Pilot[Any]) -> None:
    """Visit every area once, and leave a restaurant pushed over the Restaurants results."""
    app: Any = pilot.app
    await app.wait_for_client()
    for mode in MODES:
        await app.switch_mode(mode)
        await settle(pilot)
    await app.switch_mode("restaurants")
    await settle(pilot)
    box = app.screen.query_one("#location", Input)
    box.value = "Lisbon"
    box.focus()
    await pilot.press("enter")
    await settle(pilot)
    await pilot.press("enter")  # opens the highlighted restaurant
    await settle(pilot)
    assert isinstance(app.screen, RestaurantScreen)


async def badges_everywhere(pilot: Pilot[Any]) -> dict[str, str]:
    """The badge of every area's screen (the pushed restaurant and the results under it too)."""
    app: Any = pilot.app
    shown: dict[str, str] = {}
    for mode in MODES:
        await app.switch_mode(mode)
        await settle(pilot)
        shown[mode] = badge(app)
    await app.switch_mode("restaurants")
    app.pop_screen()  # the restaurant, back to the results it was opened from
    await settle(pilot)
    shown["restaurants (results)"] = badge(app)
    return shown


async def save_offline(pilot: Pilot[Any], offline: bool) -> None:
    """Flip Offline in the Settings form and save, as a user would."""
    app: Any = pilot.app
    await app.switch_mode("settings")
    await settle(pilot)
    app.screen.query_one("#offline", Switch).value = offline
    app.screen.query_one("#save", Button).press()  # may be scrolled out of a short terminal
    await settle(pilot)


async def test_going_offline_reaches_the_badge_of_every_area_opened_before(
    make_app: MakeApp,
) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await open_every_area(pilot)
        assert set((await badges_everywhere(pilot)).values()) == {"SANDBOX"}
        await app.switch_mode("restaurants")
        await pilot.press("enter")  # the restaurant again, opened before going offline
        await settle(pilot)
        await save_offline(pilot, True)
        shown = await badges_everywhere(pilot)
        assert shown["restaurants"] == "SANDBOX · OFFLINE"  # the restaurant screen
        assert set(shown.values()) == {"SANDBOX · OFFLINE"}, shown


async def test_go_online_reaches_every_badge_and_the_settings_switch(make_app: MakeApp) -> None:
    app = make_app(offline=True)
    async with app.run_test(size=SIZE) as pilot:
        await app.wait_for_client()
        await app.switch_mode("settings")  # opened while offline: its switch says so
        await settle(pilot)
        assert app.screen.query_one("#offline", Switch).value is True
        await app.switch_mode("restaurants")
        await settle(pilot)
        assert badge(app) == "SANDBOX · OFFLINE"
        box = app.screen.query_one("#location", Input)
        box.value = "Porto"  # not cached: offline, the error offers "Go online"
        box.focus()
        await pilot.press("enter")
        await settle(pilot)
        panel = app.screen.query_one(ErrorPanel)
        go_online = next(b for b in panel.query(Button) if b.name == GO_ONLINE)
        await pilot.click(go_online)
        await settle(pilot)
        assert badge(app) == "SANDBOX"
        await app.switch_mode("settings")
        await settle(pilot)
        assert app.screen.query_one("#offline", Switch).value is False
        assert badge(app) == "SANDBOX"
        for mode in MODES:
            await app.switch_mode(mode)
            await settle(pilot)
            assert badge(app) == "SANDBOX", mode


async def test_a_theme_picked_anywhere_shows_in_the_settings_form(make_app: MakeApp) -> None:
    app = make_app(theme="textual-dark")
    async with app.run_test(size=SIZE) as pilot:
        await app.switch_mode("settings")
        await settle(pilot)
        await app.switch_mode("events")
        app.theme = "textual-light"  # as the command palette's theme picker does
        await settle(pilot)
        await app.switch_mode("settings")
        await settle(pilot)
        assert app.screen.query_one("#theme").value == "textual-light"  # type: ignore[attr-defined]
