"""The catalog filtered at a terminal's typing speed: its columns stay where they were."""

from __future__ import annotations

import pytest

from terminal_harness import Terminal

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("terminal")]


def test_filtering_the_catalog_keeps_its_columns_in_place_and_whole(
    small_terminal: Terminal,
) -> None:
    terminal = small_terminal
    terminal.press_escape()
    terminal.send(b"4")
    terminal.wait_for(r"8 endpoints from 4 providers")
    terminal.settle()
    header = terminal.row(r"Provider +Method")
    terminal.burst(["/", "restaurants/search"])
    terminal.wait_for(r"1 endpoint from 1 provider")
    terminal.settle()
    # The columns were measured anew on every key: they jumped left as rows went, and
    # once, in a burst, were cut to their titles ("Restaura", "/res").
    assert terminal.row(r"Provider +Method") == header, terminal.text()
    row = terminal.row(r"GET ")
    assert "Restaurants" in row and "/restaurants/search" in row, terminal.text()
