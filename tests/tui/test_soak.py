"""Memory stays flat over a working day: a short loop through the explorer (a search, a
restaurant's menu and reviews, back, a company lookup, an events page, switching areas)
repeated in one app leaves no more alive after each round than after the warm-up.

``benchmarks/soak.py`` measures the same on the whole benchmark journey (RSS); this is
the fast, deterministic check in ``make test``.
"""

from __future__ import annotations

import gc
from collections import Counter
from collections.abc import Callable

from textual.pilot import Pilot
from textual.widget import Widget

from creditscope.tui.app import CreditscopeApp
from creditscope.tui.screens.restaurants import RestaurantScreen
from creditscope.tui.screens.restaurants.results_table import RestaurantResults
from pilot_support import settle

from .areas import type_and_enter
from .conftest import SIZE

MakeApp = Callable[..., CreditscopeApp]
WARM_UP = 2  # rounds that fill caches (styles, rendered lines, answers)
MEASURED = 2  # rounds after it that must add nothing lasting (a leak adds in each)
PER_ROUND_LIMIT = 1000  # tracked objects a round may add (see the test)


async def _to(pilot: Pilot[None], mode: str) -> None:
    await pilot.app.switch_mode(mode)
    await settle(pilot)


async def one_round(pilot: Pilot[None]) -> None:
    """Search, open a restaurant, its menu and reviews, back, a company, an events page."""
    app = pilot.app
    await _to(pilot, "restaurants")
    await type_and_enter(pilot, "#location", "Lisbon")
    table = app.screen.query_one(RestaurantResults)
    table.focus()
    table.move_cursor(row=1)
    await pilot.press("enter")
    await settle(pilot)
    assert isinstance(app.screen, RestaurantScreen)
    for tab in ("m", "r"):
        await pilot.press(tab)
        await settle(pilot)
    await pilot.press("escape")
    await settle(pilot)
    await _to(pilot, "company")
    await type_and_enter(pilot, "#name", "Acme Ltd")
    await _to(pilot, "events")
    await type_and_enter(pilot, "#events-location", "38.72, -9.14")


async def alive_when_quiet(pilot: Pilot[None]) -> tuple[int, Counter[str]]:
    """``alive()`` once the app has finished what the round started: on a loaded machine
    animations, timers and queued messages outlive ``settle`` for a while, and would be
    counted as growth. Counted until two counts a moment apart agree (at most ~3 s).
    Counted with CPython's own collection: the idle collector's set-aside objects
    (gc.freeze) are not in ``gc.get_objects()``."""
    pilot.app.idle_collector.stop()  # type: ignore[attr-defined]
    count, widgets = alive()
    for _ in range(15):
        await pilot.wait_for_scheduled_animations()
        await settle(pilot)
        await pilot.pause(0.2)
        again, widgets = alive()
        if abs(again - count) < 50:
            return again, widgets
        count = again
    return count, widgets


def alive() -> tuple[int, Counter[str]]:
    """Objects the collector tracks (after a full collection): how many, and how many
    widgets (screens included) by type."""
    gc.collect()
    objects = gc.get_objects()
    widgets = Counter(type(item).__qualname__ for item in objects if isinstance(item, Widget))
    count = len(objects)
    del objects
    return count, widgets


def distinct_bodies(app: CreditscopeApp) -> int:
    """Answer texts the session's records hold (one per answer, however often shown)."""
    assert app.client is not None
    return len({id(record.raw_body) for record in app.client.ledger.session_records
                if record.raw_body is not None})


async def test_a_repeated_round_leaves_nothing_alive(make_app: MakeApp) -> None:
    app = make_app(initial_mode="restaurants")
    async with app.run_test(size=SIZE) as pilot:
        await app.wait_for_client()
        await settle(pilot)
        for _ in range(WARM_UP):
            await one_round(pilot)
        objects, widgets = await alive_when_quiet(pilot)
        bodies = distinct_bodies(app)
        added: list[int] = []  # tracked objects each measured round left behind
        for _ in range(MEASURED):
            await one_round(pilot)
            objects_after, widgets_after = await alive_when_quiet(pilot)
            added.append(objects_after - objects)
            objects = objects_after
        # No screen or widget of a closed screen stays alive: the same widgets as after
        # the warm-up (a popped restaurant screen alone is ~90 widgets).
        grown = widgets_after - widgets
        assert not grown, f"widgets alive grew: {dict(grown)}"
        # Cached revisits are recorded, but they share the answer's text.
        assert distinct_bodies(app) == bodies
        # What else is tracked grows by less than 1,000 objects in a round: the records
        # of the round's calls and Textual's per-widget caches (each bounded) filling up.
        # A leak leaves thousands in every round (a restaurant screen); a cache filling
        # up, or what a loaded machine has not finished yet, in one round but not the
        # next: the smaller of two rounds is the verdict.
        assert min(added) < PER_ROUND_LIMIT, f"{added} more objects in each round"
