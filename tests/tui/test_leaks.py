"""What the explorer lets go of: popped screens are not kept alive (by app-wide state they
follow). The footer builds no widgets to let go of (tests/tui/test_footer.py)."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Callable

from textual.screen import Screen
from textual.widgets import Input

from creditscope.tui.app import CreditscopeApp
from creditscope.tui.screens.restaurants import RestaurantScreen
from pilot_support import settle

from .conftest import SIZE

MakeApp = Callable[..., CreditscopeApp]


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
        # Counted by CPython's own collection: the idle collector sets survivors aside
        # (gc.freeze) until its deep pass; a leak is a reference, whenever collection runs.
        app.idle_collector.stop()
        for _ in range(40):
            gc.collect()
            if all(ref() is None for ref in popped):
                break
            await pilot.pause(0.05)
        assert [ref() for ref in popped] == [None, None, None]
