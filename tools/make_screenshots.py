"""Regenerate screenshots/: one SVG and one PNG per explorer screen, on the sandbox.

Run with ``make screenshots``. The explorer runs on the in-process sandbox at a
frozen time (a Friday evening in Lisbon, when restaurants are open and the
week's events are still ahead), with fixed latencies, so the images only change
when the screens do. Form fields are filled by value, never by typing after a
focus key, so no stray character lands in them. PNGs are rendered from the
SVGs by headless Chromium (Playwright drives Debian's ``/usr/bin/chromium``, or
``$CHROMIUM``), which lays text out as a terminal does; the page may not reach
the network, so the fonts are the machine's monospace ones.
"""

from __future__ import annotations

import asyncio
import os
import re
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
from textual.pilot import Pilot
from textual.widgets import Input

from creditscope.client.client import DataClient
from creditscope.client.records import CallRecord
from creditscope.sandbox.app import create_app
from creditscope.sandbox.config import SandboxConfig
from creditscope.settings import Settings
from creditscope.tui.app import CreditscopeApp
from creditscope.tui.navigation import ordered_entries
from creditscope.wiring import build_client

OUT = Path(__file__).resolve().parent.parent / "screenshots"
SIZE = (120, 36)
# Friday 14 November 2025, 20:15 in Lisbon (UTC+0 in winter): dinner time.
FROZEN_NOW = datetime(2025, 11, 14, 20, 15, tzinfo=UTC)
FIXED_LATENCY_MS = 38.0
CHROMIUM = Path(os.environ.get("CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic",
]  # fmt: skip
Step = Callable[[Pilot[Any]], Awaitable[None]]


def _freeze(record: CallRecord) -> None:
    # Latency and request ids vary run to run; the screenshots should not.
    record.latency_ms = FIXED_LATENCY_MS
    record.started_at = FROZEN_NOW
    if record.request_id:
        record.request_id = "req_0123456789abcdef"
    for name in list(record.response_headers):
        if name.lower() == "x-request-id":
            record.response_headers[name] = "req_0123456789abcdef"


def frozen_client(settings: Settings) -> DataClient:
    """The sandbox client, with "now" frozen and fixed latencies."""
    sandbox = create_app(SandboxConfig(db_path=None, frozen_time=FROZEN_NOW))
    client = build_client(settings, transport=httpx.ASGITransport(app=sandbox))
    client.ledger.subscribe(_freeze)
    return client


async def settle(pilot: Pilot[Any]) -> None:
    """Let workers finish and the screen repaint."""
    for _ in range(3):
        await pilot.pause()
        await pilot.app.workers.wait_for_complete()
    await pilot.pause(0.2)


async def fill_and_submit(pilot: Pilot[Any], values: dict[str, str]) -> None:
    """Set each field (by id) to its value, then press Enter in the first one."""
    app: Any = pilot.app
    await app.wait_for_client()
    await settle(pilot)
    fields = [app.screen.query_one(f"#{name}", Input) for name in values]
    for field, value in zip(fields, values.values(), strict=True):
        field.value = value
    fields[0].focus()
    await pilot.press("enter")
    await settle(pilot)


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


async def events_near_lisbon(pilot: Pilot[Any]) -> None:
    """Events near Lisbon on the city map, the third event selected."""
    await fill_and_submit(pilot, {"events-location": "Lisbon"})
    await pilot.press("f", "down", "down")
    await settle(pilot)


async def company_lookup(pilot: Pilot[Any]) -> None:
    """A similar-name family where the website decides the high match."""
    await fill_and_submit(pilot, {"name": "Northwind Labs Ltd", "website": "northwind-labs.co.uk"})


async def restaurants_in_lisbon(pilot: Pilot[Any]) -> None:
    """Restaurant search results."""
    await fill_and_submit(pilot, {"location": "Lisbon"})


async def restaurant_menu(pilot: Pilot[Any]) -> None:
    """Open the first Lisbon restaurant on its Menu tab, and buy the menu (Enter on its
    priced button: a tab's letter never spends)."""
    await restaurants_in_lisbon(pilot)
    pilot.app.screen.query_one("#results-table").focus()
    await pilot.press("enter")
    await settle(pilot)
    await pilot.press("m")
    await settle(pilot)
    await pilot.press("enter")
    await settle(pilot)


# Two weeks of a support desk before the frozen day, for Usage: (days before, hour,
# operation, answers from the service, answers from the cache, the lookups' grades).
PAST_WEEKS: list[tuple[int, int, str, int, int, str]] = [
    (13, 9, "restaurants/search", 3, 1, ""), (12, 10, "professional_network/find_company", 2, 1,
                                              "high medium"),
    (11, 14, "ticketing/discovery", 2, 0, ""), (10, 11, "restaurants/menu", 1, 2, ""),
    (9, 16, "professional_network/find_company", 3, 0, "high low none"),
    (8, 10, "restaurants/reviews", 2, 1, ""), (6, 9, "restaurants/search", 4, 2, ""),
    (5, 15, "professional_network/find_company", 1, 2, "high"),
    (4, 11, "restaurants/details", 2, 1, ""), (3, 17, "ticketing/discovery", 3, 1, ""),
    (2, 10, "professional_network/find_company", 2, 0, "medium high"),
    (1, 12, "restaurants/menu", 2, 3, ""), (0, 9, "restaurants/search", 2, 1, ""),
]


async def usage_over_two_weeks(pilot: Pilot[Any]) -> None:
    """Usage over two weeks of calls, written to the ledger file as earlier sessions did
    (this session's meter stays at zero), with one refused call and one failure."""
    from datetime import timedelta

    from creditscope.client.ledger import CreditLedger
    from creditscope.client.records import CacheStatus

    client: Any = await pilot.app.wait_for_client()  # type: ignore[attr-defined]
    earlier = CreditLedger(client.ledger.path)
    midnight = FROZEN_NOW.replace(hour=0, minute=0)
    for days, hour, operation, sent, cached, grades in PAST_WEEKS:
        price = client.price_of(operation)
        at = midnight - timedelta(days=days) + timedelta(hours=hour)
        graded = grades.split()  # one grade per lookup the service answered
        for index in range(sent + cached):
            from_cache = index >= sent
            grade = graded[index] if index < len(graded) else ""
            earlier.record(CallRecord(
                operation=operation, method="GET", url="", params={}, status=200,
                credits_charged=0 if from_cache else price, attempts=0 if from_cache else 1,
                credits_saved=price if from_cache else 0, match_grade=grade or None,
                cache=CacheStatus.HIT if from_cache else CacheStatus.MISS,
                started_at=at + timedelta(minutes=7 * index),
            ))
    for days, status, code, attempts in ((7, None, "invalid_parameter", 0),
                                         (3, 503, "service_unavailable", 3)):
        earlier.record(CallRecord(
            operation="restaurants/search", method="GET", url="", params={}, status=status,
            error_code=code, attempts=attempts, started_at=midnight - timedelta(days=days),
        ))
    earlier.close()
    pilot.app.screen.reload()  # type: ignore[attr-defined]
    await settle(pilot)


EXTRA: dict[str, tuple[str, Step]] = {
    "events": ("events", events_near_lisbon),
    "company": ("company", company_lookup),
    "restaurants": ("restaurants", restaurants_in_lisbon),
    "restaurant-menu": ("restaurants", restaurant_menu),
    "activity": ("activity", with_a_call),
    "provider-form": ("catalog", provider_form),
    "help": ("catalog", help_screen),
    "usage": ("usage", usage_over_two_weeks),
}


async def shoot(name: str, mode: str, step: Step, home: Path) -> Path:
    """Open ``mode``, run ``step``, save ``screenshots/<name>.svg``."""
    settings = Settings(cache_dir=home / name / "cache", data_dir=home / name / "data",
                        config_file=home / "config.toml")
    app = CreditscopeApp(
        settings, client_factory=frozen_client, clock=lambda: FROZEN_NOW, initial_mode=mode
    )
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await step(pilot)
        path = Path(app.save_screenshot(filename=f"{name}.svg", path=str(OUT)))
    return path


def svg_size(svg: str) -> tuple[int, int]:
    """The pixel size of a Rich SVG, from its viewBox."""
    found = re.search(r'viewBox="0 0 ([\d.]+) ([\d.]+)"', svg)
    if found is None:
        raise ValueError("no viewBox in the SVG")
    return round(float(found[1])), round(float(found[2]) + 0.5)


def render_pngs(svgs: list[Path]) -> None:
    """Render each SVG to a PNG beside it in headless Chromium, offline."""
    from playwright.sync_api import Route, sync_playwright

    def offline(route: Route) -> None:
        route.abort()  # the SVG's web fonts: use the local monospace font instead

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True, timeout=30_000
        )
        try:
            page = browser.new_page()
            page.route("http*://**", offline)
            for svg in svgs:
                text = svg.read_text(encoding="utf-8")
                width, height = svg_size(text)
                page.set_viewport_size({"width": width, "height": height})
                page.set_content(
                    "<!doctype html><html><head><style>html,body{margin:0;background:#000}"
                    f"svg{{display:block;width:{width}px}}</style></head><body>{text}</body></html>"
                )
                page.evaluate("document.fonts.ready")
                png = svg.with_suffix(".png")
                page.locator("svg").first.screenshot(path=str(png))
                print(f"wrote {png.relative_to(OUT.parent)}")
        finally:
            browser.close()


async def take_all(home: Path, only: set[str]) -> list[Path]:
    """Shoot every area plus the extra views, in order (or just those named in ``only``)."""
    shots: list[tuple[str, str, Step]] = [(e.mode, e.mode, nothing) for e in ordered_entries()]
    for name, (mode, step) in EXTRA.items():
        shots = [shot for shot in shots if shot[0] != name] + [(name, mode, step)]
    shots = [shot for shot in shots if not only or shot[0] in only]
    svgs = []
    for name, mode, step in shots:
        svg = await shoot(name, mode, step, home)
        print(f"wrote {svg.relative_to(OUT.parent)}")
        svgs.append(svg)
    return svgs


def main() -> int:
    """Write every SVG (or those named as arguments), then render their PNGs in Chromium."""
    os.environ["TZ"] = "UTC"  # "your time" columns show the frozen UTC time
    time.tzset()
    OUT.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory() as home:
        svgs = asyncio.run(take_all(Path(home), set(sys.argv[1:])))
    if not CHROMIUM.exists():
        print(f"{CHROMIUM} not found, so no PNGs were made. Install chromium "
              "(`sudo apt-get install -y chromium`) or set $CHROMIUM, then run "
              "`make screenshots` again.", file=sys.stderr)
        return 1
    render_pngs(svgs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
