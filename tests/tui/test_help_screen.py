"""Help is one list in words: one scrollbar, every section drawn whole, every key of the
area first (also those the focused box hides), binding ids only where remapping needs them."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from textual.geometry import Region
from textual.widget import Widget

from creditscope.tui.app import CreditscopeApp
from creditscope.tui.screens.help import HelpScreen
from pilot_support import settle

from .areas import SIZES

MakeApp = Callable[..., CreditscopeApp]
BINDING_ID = re.compile(r"\b[a-z_]+\.[a-z_]+\b")  # events.sort, app.quit
REMAP_HEADING = "To remap a key"


async def open_help(pilot: Any) -> HelpScreen:
    await settle(pilot)
    await pilot.press("f1")
    await settle(pilot)
    screen = pilot.app.screen
    assert isinstance(screen, HelpScreen)
    return screen


def drawn_lines(widget: Widget) -> list[str]:
    """Every line the help list's parts draw, scrolled into view or not."""
    lines: list[str] = []
    for part in widget.query("*"):
        width, height = part.size
        lines += [strip.text.strip() for strip in part.render_lines(Region(0, 0, width, height))]
    return lines


def scrollbars(screen: HelpScreen) -> list[str]:
    return [str(widget.id) for widget in screen.query("*")
            if widget.show_vertical_scrollbar or widget.show_horizontal_scrollbar]


async def test_help_at_80x24_scrolls_as_one_list(make_app: MakeApp) -> None:
    app = make_app()
    async with app.run_test(size=SIZES["80x24"]) as pilot:
        help_screen = await open_help(pilot)
        assert scrollbars(help_screen) == ["help-list"]  # not one per table inside it
        await pilot.press("end")
        await settle(pilot)
        assert help_screen.query_one("#help-list").scroll_y > 0  # End reaches the last row


async def test_help_at_200x55_draws_every_key_that_works_everywhere(make_app: MakeApp) -> None:
    app = make_app(initial_mode="activity")
    async with app.run_test(size=SIZES["200x55"]) as pilot:
        help_screen = await open_help(pilot)
        drawn = "\n".join(drawn_lines(help_screen.query_one("#help-list")))
        for words in ("Quit", "Guided tour", "Open the command palette"):
            assert re.search(rf"\s{words}$", drawn, re.MULTILINE), f"{words} not drawn"
        assert "Other place" not in drawn  # Activity has no place box: Ctrl+O is not its key


async def test_help_lists_the_areas_keys_first_in_words_even_those_the_box_hides(
    make_app: MakeApp,
) -> None:
    app = make_app()  # a cold start: the cursor in Events' location box
    async with app.run_test(size=SIZES["120x36"]) as pilot:
        help_screen = await open_help(pilot)
        lines = drawn_lines(help_screen.query_one("#help-list"))
        assert lines[0] == "In Events"
        first_section = lines[1:lines.index("Everywhere")]
        for words in ("Map (when no box has the cursor", "Export (when no box",
                      "Zoom in (on the map)", "Sort (next column) (on the feed)"):
            assert any(words in line for line in first_section), words
        readable = lines[:next(i for i, line in enumerate(lines) if REMAP_HEADING in line)]
        assert not [line for line in readable if BINDING_ID.search(line)]
        remap = lines[len(readable):]
        assert any(line.startswith("events.export") for line in remap)  # still remappable
