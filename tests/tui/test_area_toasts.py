"""Issue 36: a "Copied" toast raised in one area leaves the screen when the user switches
to another area (it said what a key did there, not here); a warning or an error raised
meanwhile stays, and so does the toast while the user stays in its area."""

from __future__ import annotations

from collections.abc import Callable

from creditscope.tui.app import CreditscopeApp
from pilot_support import settle
from textual_internals import shown_notifications

from .conftest import SIZE
from .test_company import look_up, open_company

MakeApp = Callable[..., CreditscopeApp]


def toast_titles(app: CreditscopeApp) -> list[str]:
    return [toast.title for toast in shown_notifications(app)]


async def test_a_copied_toast_leaves_with_its_area_and_a_warning_stays(
    make_app: MakeApp, copied: list[str],
) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await open_company(pilot)
        await look_up(pilot, "Northwind Labs")
        app.screen.query_one("#matches").focus()
        await pilot.press("c")  # Copy URL
        await settle(pilot)
        assert copied and "Copied" in toast_titles(app)
        await pilot.press("f1")  # help over the same area, then back: still this area
        await settle(pilot)
        await pilot.press("escape")
        await settle(pilot)
        assert "Copied" in toast_titles(app)
        app.notify("The ledger could not be written.", title="Storage problem",
                   severity="warning")
        await pilot.press("5")  # Activity
        await settle(pilot)
        assert app.current_mode == "activity"
        assert toast_titles(app) == ["Storage problem"]
        await pilot.press("2")  # back to Company: the copy is not announced again
        await settle(pilot)
        assert "Copied" not in toast_titles(app)
