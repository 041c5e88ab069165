"""Revisit latency: key press to rendered result, uncached vs cached, through the explorer.

Run: ``.venv/bin/python benchmarks/revisit_latency.py [--repeats 5]``

The explorer runs under Pilot (``run_test(size=(120, 36))``) on the in-process
sandbox, with its cache, ledger and settings in a temp dir. Three views, each
timed from the key press to the moment the result widget shows the data:

- restaurant search: Enter in the location box -> rows in the results table;
- menu tab: ``m`` on an opened restaurant -> the menu's items are drawn;
- company lookup: Enter in the name box -> the lookup's summary line (and its
  match table, possibly empty for an unknown name) drawn.

Each view is first timed uncached (distinct params per repeat, so every
repeat is a real call to the in-process sandbox), then the same params again
(the revisit, served from creditscope's cache). Medians over the repeats; the
figure (printed last) is the worst of the three cached medians, target < 50 ms.

The clock runs from the key event entering the app (as a terminal would send
it) until the result is in its widget AND one frame has been drawn with it
(``tests/textual_internals.draw_frame_now``, what the app's refresh timer does at most
1/60 s later). It does not use ``pilot.press``, which also waits for every
animation to finish (the tab underline slides for 300 ms) and for every
widget's queue to drain: time the user never waits for.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from _common import TESTS, median, print_figure

sys.path.insert(0, str(TESTS))  # tests/textual_internals.py: reads of Textual for tests
from textual_internals import deliver_key_now, draw_frame_now

SIZE = (120, 36)
POLL_S = 0.001  # between checks of the result widget
TIMEOUT_S = 30.0
CITIES = ("Lisbon", "Paris", "Tokyo", "Berlin", "Madrid", "Rome", "London", "Sydney")
COMPANIES = ("Acme Ltd", "Globex Corporation", "Initech", "Umbrella Corporation",
             "Stark Industries", "Wayne Enterprises", "Cyberdyne Systems", "Soylent Corp")
CACHE_WORDS = {False: "uncached", True: "cached"}
PROFILERS: dict[str, Any] = {}  # --profile: view -> pyinstrument Profiler of its cached passes
profiling: list[Any] = []  # the profiler of the pass being timed, if any


async def settle(pilot: Any) -> None:
    """Wait until every worker is done and the screen has caught up (untimed set-up)."""
    for _ in range(3):
        await pilot.pause()
        await pilot.app.workers.wait_for_complete()
    await pilot.pause()


async def timed(pilot: Any, key: str, shown: Callable[[], bool]) -> float:
    """Milliseconds from sending ``key`` until ``shown()`` holds and a frame shows it."""
    app = pilot.app
    if profiling:
        profiling[0].start()
    started = time.perf_counter()
    deliver_key_now(app, key)
    while not shown():
        if time.perf_counter() - started > TIMEOUT_S:
            raise TimeoutError("the result never appeared")
        await asyncio.sleep(POLL_S)
    draw_frame_now(app.screen)  # lay out and draw the frame with the result
    took = (time.perf_counter() - started) * 1000
    if profiling:
        profiling[0].stop()
    await settle(pilot)  # let the rest (footer, animations) finish before the next sample
    return took


def make_app(tmp: Path) -> Any:
    """The explorer on an in-process sandbox, every file in ``tmp`` (nothing of the user's)."""
    from creditscope.settings import Settings
    from creditscope.tui.app import CreditscopeApp

    def build(settings: Settings) -> Any:
        import httpx

        from creditscope.client.cache import ResponseCache
        from creditscope.client.client import DataClient
        from creditscope.client.ledger import CreditLedger
        from creditscope.sandbox import DEMO_KEY, SANDBOX_BASE_URL
        from creditscope.sandbox.app import create_app
        from creditscope.sandbox.config import SandboxConfig

        sandbox = create_app(SandboxConfig(db_path=None, keys={DEMO_KEY: 10**9}))
        return DataClient(
            SANDBOX_BASE_URL, DEMO_KEY, transport=httpx.ASGITransport(app=sandbox),
            cache=ResponseCache(tmp / "cache" / "responses"), ledger=CreditLedger(None),
            is_sandbox=True,
        )

    settings = Settings(cache_dir=tmp / "cache", data_dir=tmp / "data",
                        config_file=tmp / "config" / "config.toml")
    return CreditscopeApp(settings, client_factory=build)


async def search_once(pilot: Any, city: str) -> float:
    """Restaurants: type ``city``, then time Enter -> rows in the results table."""
    from textual.widgets import Input

    from creditscope.tui.screens.restaurants.results_table import RestaurantResults

    screen = pilot.app.screen
    table = screen.query_one(RestaurantResults)
    table.clear()  # so "shown" means this search's rows
    box = screen.query_one("#location", Input)
    box.value = city
    box.focus()
    await settle(pilot)
    return await timed(pilot, "enter", lambda: table.row_count > 0)


async def menu_once(pilot: Any, city: str, row: int, cached: bool) -> float:
    """Open result ``row`` of ``city`` (untimed), then time the menu's items drawn: from
    ``m`` for a cached menu (the tab shows it at once), from Enter on the tab's priced
    button for an uncached one (a tab letter never spends: it offers the price)."""
    from textual.widgets import Static

    from creditscope.tui.screens.restaurants.results_table import RestaurantResults

    paused = profiling[:]  # the search is set-up here: not part of the menu's profile
    profiling.clear()
    await search_once(pilot, city)
    profiling.extend(paused)
    table = pilot.app.screen.query_one(RestaurantResults)
    table.focus()
    table.move_cursor(row=row)
    await pilot.press("enter")
    await settle(pilot)  # the overview loads; not timed
    items = pilot.app.screen.query_one("#menu-items", Static)
    if cached:
        took = await timed(pilot, "m", lambda: bool(str(items.content)))
    else:
        await pilot.press("m")  # the tab and its price; the cursor on "Get the menu · 5 cr"
        await settle(pilot)
        took = await timed(pilot, "enter", lambda: bool(str(items.content)))
    await pilot.press("escape")  # back to the results
    await settle(pilot)
    return took


async def company_once(pilot: Any, name: str) -> float:
    """Company: fill the name, then time Enter -> the summary (set with the table) drawn."""
    from textual.widgets import Input, Static

    screen = pilot.app.screen
    summary = screen.query_one("#summary", Static)
    summary.update("")  # so "shown" means this lookup's summary
    box = screen.query_one("#name", Input)
    box.value = name
    box.focus()
    await settle(pilot)
    return await timed(pilot, "enter", lambda: bool(str(summary.content)))


def profile_pass(view: str, cached: bool) -> None:
    """With --profile, sample the cached pass of ``view`` (only the timed spans)."""
    profiling.clear()
    if cached and view in PROFILERS:
        profiling.append(PROFILERS[view])


async def run(repeats: int) -> dict[str, dict[bool, list[float]]]:
    """Every view uncached then cached; the samples in ms per view and cache state."""
    samples: dict[str, dict[bool, list[float]]] = {
        view: {False: [], True: []} for view in ("restaurant search", "menu tab", "company lookup")
    }
    with tempfile.TemporaryDirectory(prefix="cs-revisit-") as tmp:
        app = make_app(Path(tmp))
        async with app.run_test(size=SIZE) as pilot:
            await app.wait_for_client()
            await app.switch_mode("restaurants")
            await settle(pilot)
            for cached in (False, True):  # the second pass revisits the same params
                profile_pass("restaurant search", cached)
                for city in CITIES[:repeats]:
                    took = await search_once(pilot, city)
                    samples["restaurant search"][cached].append(took)
            # Menus: one city's results, a distinct restaurant per repeat.
            for cached in (False, True):
                profile_pass("menu tab", cached)
                for row in range(repeats):
                    took = await menu_once(pilot, CITIES[0], row, cached)
                    samples["menu tab"][cached].append(took)
            await app.switch_mode("company")
            await settle(pilot)
            for cached in (False, True):
                profile_pass("company lookup", cached)
                for name in COMPANIES[:repeats]:
                    samples["company lookup"][cached].append(await company_once(pilot, name))
            profiling.clear()
            totals = app.client.ledger.session_totals()
            print(f"ledger: {totals.calls} calls, {totals.spent} cr spent, "
                  f"{totals.saved} cr saved by the cache")
    return samples


def main() -> None:
    """Print uncached and cached medians per view, then the worst cached median."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5, help=f"at most {len(CITIES)}")
    parser.add_argument("--profile", type=Path, metavar="FILE",
                        help="write a pyinstrument profile of each view's cached pass to FILE")
    args = parser.parse_args()
    repeats = max(1, min(args.repeats, len(CITIES), len(COMPANIES)))
    if args.profile:
        from pyinstrument import Profiler

        for view in ("restaurant search", "menu tab", "company lookup"):
            PROFILERS[view] = Profiler(interval=0.0005, async_mode="disabled")
    samples = asyncio.run(run(repeats))
    if args.profile:
        with args.profile.open("w") as out:
            for view, profiler in PROFILERS.items():
                out.write(f"==== {view}, cached: key press -> frame drawn, {repeats} passes\n")
                out.write(profiler.output_text(unicode=True, color=False))
                flat = profiler.output_text(flat=True, show_all=True).splitlines()
                out.write("\n  top self times:\n" + "\n".join(flat[:40]) + "\n\n")
    print(f"key press -> rendered result at {SIZE[0]}x{SIZE[1]}, medians of {repeats} (ms)")
    worst = 0.0
    for view, by_state in samples.items():
        uncached, cached = median(by_state[False]), median(by_state[True])
        worst = max(worst, cached)
        print(f"  {view:<18} uncached {uncached:7.1f}   cached {cached:6.1f}   "
              f"cached/uncached {cached / uncached:.2f}")
        for state, values in by_state.items():
            print(f"    {CACHE_WORDS[state]:<9} runs: " + " ".join(f"{v:.1f}" for v in values))
    print_figure("revisit_cached_worst_ms", worst, "<=", 50.0, digits=1)


if __name__ == "__main__":
    main()
