"""What the Company screen looks like on deterministic sandbox data."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.pilot import Pilot
from textual.widgets import Input

from creditscope.tui.app import CreditscopeApp

SIZE = (120, 36)


def lookup_then(name: str, website: str = "") -> Callable[[Pilot[Any]], Any]:
    """A ``run_before`` that opens Company and runs one lookup to completion."""

    async def run_before(pilot: Pilot[Any]) -> None:
        app: Any = pilot.app
        await app.switch_mode("company")
        await app.wait_for_client()
        await pilot.pause()
        app.screen.query_one("#name", Input).value = name
        app.screen.query_one("#website", Input).value = website
        app.screen.query_one("#name", Input).focus()
        await pilot.press("enter")
        for _ in range(3):
            await pilot.pause()
            await app.workers.wait_for_complete()
        await pilot.pause()

    return run_before


def test_high_match_selected(snap_compare: Any, make_app: Callable[..., CreditscopeApp]) -> None:
    assert snap_compare(
        make_app(), terminal_size=SIZE,
        run_before=lookup_then("Northwind Labs Ltd", "northwind-labs.co.uk"),
    )


def test_null_company_match(snap_compare: Any, make_app: Callable[..., CreditscopeApp]) -> None:
    assert snap_compare(make_app(), terminal_size=SIZE, run_before=lookup_then("Meridian Media"))


def test_only_low_matches(snap_compare: Any, make_app: Callable[..., CreditscopeApp]) -> None:
    assert snap_compare(
        make_app(), terminal_size=SIZE,
        run_before=lookup_then("Northwind Bakery", "northwindbakery.com"),
    )
