"""Every dialog fits an 80x24 terminal: the dialog inside the screen, its price shown, and
every button reachable by Tab and wholly on screen once focused (the body scrolls, the
price and buttons stay)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.errors import NoWidget
from textual.geometry import Region
from textual.screen import ModalScreen
from textual.widget import Widget
from textual.widgets import Button, Static

from creditscope.tui.app import CreditscopeApp
from pilot_support import settle

from .areas import DIALOGS, SIZES

MakeApp = Callable[..., CreditscopeApp]
SIZE = SIZES["80x24"]

# dialog -> (the widget that shows what it costs, words it shows); None: nothing is charged
PRICES: dict[str, tuple[str, str] | None] = {
    "help": None,
    "import request (send)": ("#import-price", "Price: 5 cr"),
    "import request (open)": ("#import-price", "Price: 2 cr"),
    "import request (answered)": ("#import-price", "Price: 5 cr"),
    "provider form": ("#provider-send", "free"),
    "provider form (errors)": ("#provider-send", "free"),
    "save file": None,
    "confirm replay": ("#confirm-yes", "Spend 2 cr"),
    "over budget": ("#confirm-yes", "Spend 3 cr"),
}


def wholly_visible(widget: Widget) -> bool:
    """The widget's every cell is on the terminal and not clipped by a scrolling parent."""
    screen = widget.screen
    try:
        geometry = screen.find_widget(widget)
    except NoWidget:
        return False
    region = geometry.region
    return bool(region) and region.intersection(geometry.clip) == region and Region(
        0, 0, *SIZE).contains_region(region)


def words(widget: Widget) -> str:
    if isinstance(widget, Button):
        return str(widget.label)
    content: Any = widget.render() if isinstance(widget, Static) else ""
    return str(getattr(content, "plain", content))


async def tab_reaches(pilot: Any, targets: list[Widget]) -> dict[str, bool]:
    """Press Tab round the dialog once; for each target: was it focused, and then on screen."""
    screen = pilot.app.screen
    reached = {str(target.id): False for target in targets}
    first = screen.focused
    for _ in range(30):
        await pilot.press("tab")
        focused = screen.focused
        if focused in targets:
            # Scrolling the focused button into view is a later refresh: on a loaded
            # machine it had not happened yet when the region was read.
            await settle(pilot)
            reached[str(focused.id)] = wholly_visible(focused)
        if focused is first:
            break
    return reached


async def test_every_dialog_fits_80x24(make_app: MakeApp) -> None:
    app = make_app()
    problems: list[str] = []
    async with app.run_test(size=SIZE) as pilot:
        for name, step in DIALOGS.items():
            while isinstance(app.screen, ModalScreen):
                await pilot.press("escape")
                await settle(pilot)
            await step(pilot)
            screen = app.screen
            assert isinstance(screen, ModalScreen), name
            dialog = screen.query_one(".dialog")
            if not Region(0, 0, *SIZE).contains_region(dialog.region):
                problems.append(f"{name}: the dialog {dialog.region} is off the screen")
            priced = PRICES[name]
            if priced is not None:
                selector, expected = priced
                price = screen.query_one(selector)
                if not wholly_visible(price) or expected not in words(price):
                    problems.append(f"{name}: {selector} {words(price)!r} not wholly on screen")
            buttons = [button for button in screen.query(Button) if button.display]
            assert buttons or name == "help", name
            for button, ok in (await tab_reaches(pilot, buttons)).items():
                if not ok:
                    problems.append(f"{name}: #{button} not reached by Tab, or cut once focused")
    assert not problems, "\n".join(problems)
