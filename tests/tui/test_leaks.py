"""What the explorer lets go of: popped screens and rebuilt footer keys are not kept alive
(by app-wide state they follow, or by Textual's data binding)."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Callable

from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Input

from creditscope.tui.app import CreditscopeApp
from creditscope.tui.screens.restaurants import RestaurantScreen
from pilot_support import settle

from .conftest import SIZE

MakeApp = Callable[..., CreditscopeApp]


def live_footer_keys() -> int:
    """FooterKeys alive in this process (earlier tests' apps may hold some)."""
    # FooterKey is not exported by Textual: found by its (CSS) type name.
    gc.collect()
    return sum(1 for item in gc.get_objects()
               if isinstance(item, Widget) and type(item).__name__ == "FooterKey")


async def test_popped_restaurant_screens_are_released(make_app: MakeApp) -> None:
    app = make_app(initial_mode="restaurants")
    async with app.run_test(size=SIZE) as pilot:
        await app.wait_for_client()
        await settle(pilot)
        box = app.screen.query_one("#location", Input)
        box.value = "Lisbon"
        box.focus()
        await pilot.press("enter")
        await settle(pilot)
        popped: list[weakref.ref[Screen[None]]] = []
        for row in range(3):
            app.screen.query_one("#results-table").focus()
            await pilot.press(*["down"] * row, "enter")
            await settle(pilot)
            assert isinstance(app.screen, RestaurantScreen)
            popped.append(weakref.ref(app.screen))
            await pilot.press("escape")
            await settle(pilot)
        # No call since: nothing the screens followed (credits, client) was published again.
        assert not isinstance(app.screen, RestaurantScreen)
        # A popped screen's message loop ends a moment after it leaves (its task's context
        # holds it until then): released means released once that has happened.
        for _ in range(40):
            gc.collect()
            if all(ref() is None for ref in popped):
                break
            await pilot.pause(0.05)
        assert [ref() for ref in popped] == [None, None, None]


async def test_footer_keys_rebuilt_on_focus_moves_are_released(make_app: MakeApp) -> None:
    app = make_app(initial_mode="company")
    async with app.run_test(size=SIZE) as pilot:
        await app.wait_for_client()
        await settle(pilot)
        before = live_footer_keys() - len(app.screen.query("FooterKey"))
        for _ in range(10):  # each focus move changes the keys: the footer rebuilds them
            await pilot.press("tab")
            await settle(pilot)
        shown = len(app.screen.query("FooterKey"))
        assert shown > 0
        # Those on screen (and at most one set being replaced); not one set per rebuild.
        assert live_footer_keys() - before <= 2 * shown
