"""Memory: peak RSS of the explorer after the credit-efficiency journey, vs a minimal Textual app.

Run: ``.venv/bin/python benchmarks/memory.py``

Each app runs in its own subprocess (so the peak is the app's own, not this
script's), under Pilot at 120x36 with its files in a temp dir:

- creditscope: the explorer on the in-process sandbox, driven through every
  step of ``credit_efficiency.JOURNEY`` (restaurant searches, the three parts of
  five restaurants, back and forth, company lookups, three pages of events,
  then all of it again) the way a user would: form fields, Enter, tabs, Escape;
- baseline: a minimal Textual app (Header, Footer, one Static), started the
  same way and given a few key presses.

The peak is ``VmHWM`` from /proc (``getrusage`` where /proc is missing). The
figure, printed last, is the explorer's peak in MB, target <= 100 MB.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from _common import PYTHON, REPO, isolated_env, peak_rss_mb, print_figure

SIZE = (120, 36)
HERE = Path(__file__).resolve().parent


async def settle(pilot: Any) -> None:
    """Wait until every worker is done and the screen has caught up."""
    for _ in range(3):
        await pilot.pause()
        await pilot.app.workers.wait_for_complete()
    await pilot.pause()


async def minimal_child() -> dict[str, Any]:
    """A minimal Textual app under Pilot: the floor for a Textual process."""
    from textual.app import App, ComposeResult
    from textual.widgets import Footer, Header, Static

    class MinimalApp(App[None]):
        def compose(self) -> ComposeResult:
            yield Header()
            yield Static("Hello from a minimal Textual app")
            yield Footer()

    app = MinimalApp()
    async with app.run_test(size=SIZE) as pilot:
        for key in ("tab", "tab", "down", "up"):
            await pilot.press(key)
        await pilot.pause()
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


async def explorer_child(tmp: Path) -> dict[str, Any]:
    """The explorer on the in-process sandbox, driven through the whole journey."""
    sys.path.insert(0, str(HERE))
    from credit_efficiency import (
        JOURNEY,
        EventsPage,
        LookupCompany,
        OpenRestaurant,
        SearchRestaurants,
    )
    from revisit_latency import make_app
    from textual.widgets import Input

    app = make_app(tmp)
    shown: dict[str, Any] = {}
    async with app.run_test(size=SIZE) as pilot:
        await app.wait_for_client()
        await settle(pilot)
        for step in JOURNEY:
            if isinstance(step, SearchRestaurants):
                if app.current_mode != "restaurants":
                    await app.switch_mode("restaurants")
                    await settle(pilot)
                await _search(pilot, step.city)
                shown = {"city": step.city}
            elif isinstance(step, OpenRestaurant):
                if app.current_mode != "restaurants":
                    await app.switch_mode("restaurants")
                    await settle(pilot)
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
                screen: Any = app.screen
                if step.page == 0:
                    screen.location_input.value = f"{step.lat}, {step.lng}"
                    screen.action_search()
                else:
                    screen.action_load_more()
                await settle(pilot)
        totals = app.client.ledger.session_totals()
    return {"steps": len(JOURNEY), "calls": totals.calls, "spent": totals.spent}


def child(kind: str) -> None:
    """Run one app in this (fresh) process; print its peak RSS as JSON."""
    with tempfile.TemporaryDirectory(prefix=f"cs-mem-{kind}-") as tmp:
        runner = explorer_child(Path(tmp)) if kind == "explorer" else minimal_child()
        info = asyncio.run(runner)
    info["peak_mb"] = peak_rss_mb()
    print(json.dumps(info), flush=True)


def measure(kind: str) -> dict[str, Any]:
    """Start ``kind`` in a fresh interpreter (own HOME) and read back its JSON line."""
    with tempfile.TemporaryDirectory(prefix="cs-mem-home-") as home:
        done = subprocess.run(
            [PYTHON, str(Path(__file__).resolve()), "--child", kind],
            capture_output=True, text=True, cwd=REPO, env=isolated_env(Path(home)), check=False,
        )
    if done.returncode != 0:
        raise RuntimeError(f"{kind} run failed:\n{done.stderr[-3000:]}")
    info: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return info


def main() -> None:
    """Both apps in their own processes; print both peaks, the ratio, then the figure."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--child", choices=("explorer", "minimal"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child)
        return
    base = measure("minimal")
    explorer = measure("explorer")
    print(f"peak RSS under Pilot at {SIZE[0]}x{SIZE[1]} (VmHWM)")
    print(f"  minimal Textual app            {base['peak_mb']:7.1f} MB")
    print(f"  creditscope after the journey  {explorer['peak_mb']:7.1f} MB"
          f"   ({explorer['steps']} views, {explorer['calls']} calls, "
          f"{explorer['spent']} cr spent)")
    print(f"  ratio {explorer['peak_mb'] / base['peak_mb']:.2f}x the minimal app")
    print_figure("explorer_peak_rss_mb", explorer["peak_mb"], "<=", 100.0, digits=1)


if __name__ == "__main__":
    main()
