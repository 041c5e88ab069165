"""The first frame parses only the stylesheets it shows (the shared one and its area's);
the others are read once it is drawn, before any other screen is shown, and style
nothing on it, so reading them late changes nothing a user sees."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from textual.css.match import match
from textual.css.stylesheet import Stylesheet

from creditscope.tui.app import CreditscopeApp
from creditscope.tui.stylesheets import ALL_SHEETS, AREA_SHEETS, SHARED, first_frame_sheets
from pilot_support import settle

MakeApp = Callable[..., CreditscopeApp]


def sheet_names(paths: list[Path]) -> list[str]:
    """Each path as the name ``ALL_SHEETS`` gives it."""
    return [next(sheet for sheet in ALL_SHEETS if path.as_posix().endswith("/" + sheet))
            for path in paths]


@pytest.mark.parametrize(("mode", "expected"), [
    (None, [SHARED, AREA_SHEETS["events"]]),
    ("restaurants", [SHARED, AREA_SHEETS["restaurants"]]),
    ("catalog", [SHARED]),  # no sheet of its own
])
def test_the_first_frame_reads_only_its_own_stylesheets(
        make_app: MakeApp, mode: str | None, expected: list[str]) -> None:
    app = make_app(initial_mode=mode)
    assert sheet_names(app.css_path) == expected
    assert list(first_frame_sheets(mode or "events")) == expected


@pytest.mark.parametrize("size", [(120, 36), (80, 24), (160, 50)])
async def test_the_later_stylesheets_arrive_and_style_nothing_on_the_first_screen(
        make_app: MakeApp, size: tuple[int, int]) -> None:
    app = make_app()
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        assert sheet_names(app.css_path) == list(ALL_SHEETS)  # in reading order
        later = Stylesheet(variables=app.get_css_variables())
        later.read_all(app.css_path[2:])
        assert later.rules  # the company, restaurants, ... sheets
        styled = [(rule.selector_names, widget) for widget in app.screen.walk_children()
                  for rule in later.rules if match(rule.selector_set, widget)]
        assert styled == []


async def test_a_screen_opened_before_the_first_frame_is_drawn_is_styled(
        make_app: MakeApp) -> None:
    """Keys typed while the explorer starts may open another area before the work queued
    for after the first frame runs: that area is shown with its own sheet."""
    app = make_app()
    app.read_later_stylesheets = lambda: None  # type: ignore[method-assign]
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        assert AREA_SHEETS["company"] not in sheet_names(app.css_path)
        del app.read_later_stylesheets  # the app's own again
        app.action_go("company")  # the "2" key
        await settle(pilot)
        assert AREA_SHEETS["company"] in sheet_names(app.css_path)
        # company.tcss lays the form out as a grid of four columns.
        assert app.screen.query_one("#company-form").styles.grid_size_columns == 4
