"""Every area is readable in the default dark theme and in textual-light: text at least
4.5:1 against its background, bold text and symbols at least 3:1, measured on the
rendered screen (see :mod:`tests.tui.contrast`)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from rich.color import Color
from textual.widgets import Static

from creditscope.tui.app import CreditscopeApp

from .areas import AREAS, DARK_THEME, LIGHT_THEME, SIZES
from .contrast import contrast_ratio, low_contrast_runs

MakeApp = Callable[..., CreditscopeApp]


def test_the_ratio_is_wcag_s() -> None:
    # The reference values of WCAG 2: black on white is 21:1, #777 on white about 4.48:1.
    white, black = Color.parse("#ffffff"), Color.parse("#000000")
    assert contrast_ratio(black, white) == pytest.approx(21.0)
    assert contrast_ratio(Color.parse("#777777"), white) == pytest.approx(4.48, abs=0.01)


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("theme", [DARK_THEME, LIGHT_THEME])
@pytest.mark.parametrize("area", list(AREAS))
async def test_every_area_is_readable(make_app: MakeApp, area: str, theme: str, size: str) -> None:
    app = make_app(theme=theme)
    async with app.run_test(size=SIZES[size]) as pilot:
        await AREAS[area](pilot)
        assert app.theme == theme
        failures = low_contrast_runs(app)
    assert not failures, f"{len(failures)} runs under the minimum:\n" + "\n".join(
        str(run) for run in failures[:40]
    )


async def test_the_check_sees_unreadable_text(make_app: MakeApp) -> None:
    # The measure itself: grey on grey is caught, so a pass above means something.
    app = make_app(theme=DARK_THEME)
    async with app.run_test(size=SIZES["120x36"]) as pilot:
        await AREAS["catalog"](pilot)
        summary = app.screen.query_one("#catalog-summary", Static)
        summary.update("[#505050 on #2a2a2a]grey on grey[/] [bold #808080]bold grey[/]")
        await pilot.pause()
        failures = low_contrast_runs(app)
    assert [run.text for run in failures] == ["grey on grey"]  # bold #808080 passes 3:1
