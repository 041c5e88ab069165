"""A newcomer's first keys, at a terminal's speed: a cold start puts the cursor in the
Events location box for them, but a number key typed before anything else still
switches area, as it does everywhere the user has not chosen a box; once the box is the
user's (``/``, or text typed in it), a number is text."""

from __future__ import annotations

import re

import pytest

from terminal_harness import Terminal

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("terminal")]

BOX = "▊"
RESTAURANTS = r"City, e\.g\. Lisbon"  # its location box's placeholder
EVENTS = r"Select an event"  # its detail panel, drawn


def location(term: Terminal) -> str:
    """What the Events location box holds (its placeholder when empty)."""
    row = term.row(r"Search ·")  # the row of the boxes' text, beside the button
    assert BOX in row, f"no Events form:\n{term.text()}"
    return row.split(BOX)[1].split("▎")[0].strip()


def test_a_number_key_first_switches_area_and_types_nothing(terminal: Terminal) -> None:
    terminal.burst(["3"])  # "go to area 3", as the nav bar says
    terminal.wait_for(RESTAURANTS)
    terminal.settle()
    terminal.burst(["1"])
    terminal.wait_for(EVENTS)
    terminal.settle()
    assert location(terminal).startswith("City"), terminal.text()  # its placeholder


def test_coordinates_after_slash_are_typed_whole(terminal: Terminal) -> None:
    terminal.burst(["/38.72, -9.14"])  # "/" chooses the box: the digits are text
    terminal.wait_for(re.escape(BOX) + r"\s+38\.72, -9\.14")
    terminal.settle()
    assert location(terminal) == "38.72, -9.14", terminal.text()


def test_a_number_after_a_letter_is_text(terminal: Terminal) -> None:
    terminal.burst(["Lisbon 2"])  # typed in: the box is the user's, "2" is not Company
    terminal.wait_for(re.escape(BOX) + r"\s+Lisbon 2")
    terminal.settle()
    assert "Company name" not in terminal.text()
    assert location(terminal) == "Lisbon 2", terminal.text()
