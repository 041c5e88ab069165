"""Every text box undoes (Ctrl+Z) and redoes (Ctrl+Y), a typed word at a time, and a
letter typed where no box has the cursor adds to the search box, one undo away."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.widgets import Input

from creditscope.tui.app import CreditscopeApp
from creditscope.tui.widgets.edit_history import BoxState, EditHistory
from pilot_support import settle

from .areas import SIZES

MakeApp = Callable[..., CreditscopeApp]


def test_a_typed_word_is_one_step_and_a_space_starts_the_next() -> None:
    history = EditHistory()
    value = ""
    for char in "New York":
        history.record(BoxState(value, len(value)), value + char)
        value += char
    assert history.undo(BoxState(value, 8)) == BoxState("New", 3)
    assert history.undo(BoxState("New", 3)) == BoxState("", 0)
    assert history.undo(BoxState("", 0)) is None
    assert history.redo(BoxState("", 0)) == BoxState("New", 3)


def test_an_edit_after_undo_drops_the_redo() -> None:
    history = EditHistory()
    history.record(BoxState("", 0), "Paris")  # a paste: one step
    assert history.undo(BoxState("Paris", 5)) == BoxState("", 0)
    history.record(BoxState("", 0), "R")
    assert history.redo(BoxState("R", 1)) is None


async def press(pilot: Any, *keys: str) -> None:
    await pilot.press(*keys)
    await settle(pilot)


async def test_ctrl_z_brings_back_a_cleared_place_and_ctrl_y_clears_it_again(
    make_app: MakeApp,
) -> None:
    app = make_app()
    async with app.run_test(size=SIZES["120x36"]) as pilot:
        await settle(pilot)
        box = app.screen.query_one("#events-location", Input)
        await press(pilot, *"Porto", "ctrl+u")  # Ctrl+U: delete all to the left
        assert box.value == ""
        await press(pilot, "ctrl+z")
        assert (box.value, box.cursor_position) == ("Porto", 5)
        await press(pilot, "ctrl+y")
        assert box.value == ""


async def test_a_letter_typed_at_the_map_adds_to_the_place_and_ctrl_z_takes_it_back(
    make_app: MakeApp,
) -> None:
    app = make_app()
    async with app.run_test(size=SIZES["120x36"]) as pilot:
        await settle(pilot)
        box = app.screen.query_one("#events-location", Input)
        await press(pilot, *"Lisb", "escape")
        assert app.focused is not box
        await press(pilot, "x")
        assert app.focused is box and box.value == "Lisbx"  # added, nothing erased
        await press(pilot, "ctrl+z")
        assert box.value == "Lisb"
