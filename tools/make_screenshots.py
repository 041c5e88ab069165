"""Regenerate screenshots/: one SVG and one PNG per explorer screen, on the sandbox.

Run with ``make screenshots``. PNGs need ``rsvg-convert`` (Debian/Ubuntu:
``sudo apt-get install -y librsvg2-bin``; macOS: ``brew install librsvg``).
"""

from __future__ import annotations

import asyncio
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from textual.pilot import Pilot

from creditscope.settings import Settings
from creditscope.tui.app import CreditscopeApp
from creditscope.tui.navigation import ordered_entries

OUT = Path(__file__).resolve().parent.parent / "screenshots"
SIZE = (120, 36)
Step = Callable[[Pilot[Any]], Awaitable[None]]


async def settle(pilot: Pilot[Any]) -> None:
    """Let workers finish and the screen repaint."""
    for _ in range(3):
        await pilot.pause()
        await pilot.app.workers.wait_for_complete()
    await pilot.pause(0.2)


async def with_a_call(pilot: Pilot[Any]) -> None:
    """Make one paid call so Activity has something to inspect."""
    client = await pilot.app.wait_for_client()  # type: ignore[attr-defined]
    await client.call("restaurants/search", {"location": "Lisbon", "cuisine": "thai"})
    await settle(pilot)


async def provider_form(pilot: Pilot[Any]) -> None:
    """Open the request-a-provider form with a mistake in it."""
    await pilot.press("ctrl+n")
    await settle(pilot)
    await pilot.press(*"Strava", "tab", *"strava dot com", "enter")
    await settle(pilot)


async def help_screen(pilot: Pilot[Any]) -> None:
    """Open the keys help."""
    await pilot.press("question_mark")
    await settle(pilot)


async def nothing(pilot: Pilot[Any]) -> None:
    """Take the area as it opens."""


async def type_and_submit(pilot: Pilot[Any], *fields: str) -> None:
    """Focus the area's first field with `/`, type each field (Tab between), press Enter."""
    await pilot.press("slash")
    for index, text in enumerate(fields):
        if index:
            await pilot.press("tab")
        await pilot.press(*text)
    await pilot.press("enter")
    await settle(pilot)


async def events_near_lisbon(pilot: Pilot[Any]) -> None:
    """Events near Lisbon with the third event selected."""
    await type_and_submit(pilot, "Lisbon")
    await pilot.press("f", "down", "down")
    await settle(pilot)


async def company_lookup(pilot: Pilot[Any]) -> None:
    """A similar-name family where the website decides the high match."""
    await type_and_submit(pilot, "Northwind Labs Ltd", "northwind-labs.co.uk")


async def restaurants_in_lisbon(pilot: Pilot[Any]) -> None:
    """Restaurant search results."""
    await type_and_submit(pilot, "Lisbon")


async def restaurant_menu(pilot: Pilot[Any]) -> None:
    """Open the first Lisbon restaurant on its Menu tab."""
    await restaurants_in_lisbon(pilot)
    pilot.app.screen.query_one("#results-table").focus()
    await pilot.press("enter")
    await settle(pilot)
    await pilot.press("m")
    await settle(pilot)


EXTRA: dict[str, tuple[str, Step]] = {
    "events": ("events", events_near_lisbon),
    "company": ("company", company_lookup),
    "restaurants": ("restaurants", restaurants_in_lisbon),
    "restaurant-menu": ("restaurants", restaurant_menu),
    "activity": ("activity", with_a_call),
    "provider-form": ("catalog", provider_form),
    "help": ("catalog", help_screen),
}


async def shoot(name: str, mode: str, step: Step, home: Path) -> Path:
    """Open ``mode``, run ``step``, save ``screenshots/<name>.svg``."""
    settings = Settings(cache_dir=home / name / "cache", data_dir=home / name / "data",
                        config_file=home / "config.toml")
    app = CreditscopeApp(settings, initial_mode=mode)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await step(pilot)
        path = Path(app.save_screenshot(filename=f"{name}.svg", path=str(OUT)))
    return path


async def main() -> int:
    """Shoot every area plus the modals; convert to PNG when rsvg-convert exists."""
    OUT.mkdir(exist_ok=True)
    shots: list[tuple[str, str, Step]] = [(e.mode, e.mode, nothing) for e in ordered_entries()]
    for name, (mode, step) in EXTRA.items():
        shots = [shot for shot in shots if shot[0] != name] + [(name, mode, step)]
    converter = shutil.which("rsvg-convert")
    with tempfile.TemporaryDirectory() as home:
        for name, mode, step in shots:
            svg = await shoot(name, mode, step, Path(home))
            print(f"wrote {svg.relative_to(OUT.parent)}")
            if converter:
                png = svg.with_suffix(".png")
                subprocess.run([converter, str(svg), "-o", str(png)], check=True)
                print(f"wrote {png.relative_to(OUT.parent)}")
    if not converter:
        print("rsvg-convert not found, so no PNGs were made. Install it with "
              "`sudo apt-get install -y librsvg2-bin` (Debian/Ubuntu) or "
              "`brew install librsvg` (macOS), then run `make screenshots` again.",
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
