"""Driving the credit-efficiency journey through the explorer under Pilot, for the
memory benchmarks (``memory.py``: one journey, its peak; ``soak.py``: many in one
process, the growth) and their baseline, a minimal Textual app.

The explorer runs as ``creditscope`` builds it (``make_explorer_app``): its sandbox
on a thread of its own (``creditscope.sandbox_thread``), every file in a temp dir, at
120x36; ``in_process=True`` has the sandbox answer on the explorer's own loop (as
``revisit_latency.make_app`` does), for comparison. It is
driven the way a user would: form fields, Enter, tabs, Escape, area switches.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

SIZE = (120, 36)
HERE = Path(__file__).resolve().parent
# Called after each repetition (1-based) with the app, still open.
AfterEach = Callable[[int, Any], None] | None


async def settle(pilot: Any) -> None:
    """Wait until every worker is done and the screen has caught up."""
    for _ in range(3):
        await pilot.pause()
        await pilot.app.workers.wait_for_complete()
    await pilot.pause()


async def minimal_child(repetitions: int = 1, after_each: AfterEach = None) -> dict[str, Any]:
    """A minimal Textual app under Pilot, given a few key presses per repetition: the
    floor for a Textual process (and for its growth)."""
    from textual.app import App, ComposeResult
    from textual.widgets import Footer, Header, Static

    class MinimalApp(App[None]):
        def compose(self) -> ComposeResult:
            yield Header()
            yield Static("Hello from a minimal Textual app")
            yield Footer()

    app = MinimalApp()
    async with app.run_test(size=SIZE) as pilot:
        for done in range(1, repetitions + 1):
            for key in ("tab", "tab", "down", "up"):
                await pilot.press(key)
            await pilot.pause()
            if after_each is not None:
                after_each(done, app)
    return {"steps": 0}


async def _search(pilot: Any, city: str) -> None:
    from textual.widgets import Input

    app: Any = pilot.app
    while len(app.screen_stack) > 1:  # back from a restaurant to its list
        await pilot.press("escape")
        await settle(pilot)
    box = app.screen.query_one("#location", Input)
    box.value = city
    box.focus()
    await pilot.press("enter")
    await settle(pilot)


async def _open(pilot: Any, city: str, rank: int, part: str, shown: dict[str, Any]) -> None:
    from creditscope.tui.screens.restaurants.results_table import RestaurantResults

    app: Any = pilot.app
    key = (city, rank)
    if shown.get("open") != key:  # a different restaurant: back to its city's list, open it
        if shown.get("city") != city or len(app.screen_stack) > 1:
            await _search(pilot, city)
            shown["city"] = city
        table = app.screen.query_one(RestaurantResults)
        table.focus()
        table.move_cursor(row=rank)
        await pilot.press("enter")
        await settle(pilot)
        shown["open"] = key
    tab = {"details": "v", "menu": "m", "reviews": "r"}[part]
    await pilot.press(tab)
    await settle(pilot)


async def _to_mode(pilot: Any, mode: str) -> None:
    if pilot.app.current_mode != mode:
        await pilot.app.switch_mode(mode)
        await settle(pilot)


async def drive_journey(pilot: Any, journey: list[Any]) -> None:
    """Show every step of ``journey`` (``journey`` steps) in the open explorer."""
    from journey import EventsPage, LookupCompany, OpenRestaurant, SearchRestaurants
    from textual.widgets import Input

    app: Any = pilot.app
    shown: dict[str, Any] = {}
    for step in journey:
        if isinstance(step, SearchRestaurants):
            await _to_mode(pilot, "restaurants")
            await _search(pilot, step.city)
            shown = {"city": step.city}
        elif isinstance(step, OpenRestaurant):
            await _to_mode(pilot, "restaurants")
            await _open(pilot, step.city, step.rank, step.part, shown)
        elif isinstance(step, LookupCompany):
            await app.switch_mode("company")
            await settle(pilot)
            screen = app.screen
            screen.query_one("#name", Input).value = step.name
            screen.query_one("#website", Input).value = step.website or ""
            screen.query_one("#name", Input).focus()
            await pilot.press("enter")
            await settle(pilot)
        elif isinstance(step, EventsPage):
            await app.switch_mode("events")
            await settle(pilot)
            events: Any = app.screen
            if step.page == 0:
                events.location_input.value = f"{step.lat}, {step.lng}"
                events.action_search()
            else:
                events.action_load_more()
            await settle(pilot)


def make_explorer_app(tmp: Path) -> Any:
    """The explorer as the ``creditscope`` command builds it, every file in ``tmp``."""
    from creditscope.settings import Settings
    from creditscope.tui.app import CreditscopeApp
    from creditscope.wiring import explorer_client

    settings = Settings(cache_dir=tmp / "cache", data_dir=tmp / "data",
                        config_file=tmp / "config" / "config.toml")
    return CreditscopeApp(settings, client_factory=explorer_client)


async def explorer_child(
    tmp: Path,
    at_end: Callable[[], None] | None = None,
    repetitions: int = 1,
    after_each: AfterEach = None,
    in_process: bool = False,
) -> dict[str, Any]:
    """The explorer, driven through the whole journey ``repetitions`` times in one app;
    ``at_end`` runs with the app still open after the last step."""
    sys.path.insert(0, str(HERE))
    from journey import JOURNEY
    from revisit_latency import make_app

    app = make_app(tmp) if in_process else make_explorer_app(tmp)
    async with app.run_test(size=SIZE) as pilot:
        await app.wait_for_client()
        await settle(pilot)
        for done in range(1, repetitions + 1):
            await drive_journey(pilot, JOURNEY)
            if after_each is not None:
                after_each(done, app)
        totals = app.client.ledger.session_totals()
        if at_end is not None:
            at_end()
    return {"steps": len(JOURNEY), "calls": totals.calls, "spent": totals.spent}
