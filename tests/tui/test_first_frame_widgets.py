"""The first frame composes what it shows: a result area's error panel gets its parts
(title, code, message, next step, buttons) with its first error, not at start-up."""

from __future__ import annotations

from collections.abc import Callable

from textual.widgets import Button

from creditscope.client import errors
from creditscope.tui.app import CreditscopeApp
from creditscope.tui.widgets.error_panel import ErrorPanel
from pilot_support import settle

MakeApp = Callable[..., CreditscopeApp]


async def test_the_error_panel_is_built_with_its_first_error(make_app: MakeApp) -> None:
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        panel = app.screen.query_one(ErrorPanel)
        assert not panel.display
        assert list(panel.children) == []  # nothing composed, styled or laid out for it
        panel.show(errors.InsufficientCredits("Not enough credits", status=402), price=3)
        await settle(pilot)
        assert panel.display
        assert "Not enough credits" in str(panel.query_one(".error-message").render())
        assert [button.name for button in panel.query(Button)]  # its next steps
        panel.clear()
        panel.show(errors.InsufficientCredits("Still not enough", status=402), price=3)
        await settle(pilot)
        assert len(panel.query(".error-title")) == 1  # built once, refilled after
