"""Words typed where no box has the cursor, at a terminal's speed: the first letter does
what the key grammar says, and no dialog it opens takes the rest of the word."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from terminal_harness import ENTER, Terminal, installed_command, isolated_env

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("terminal")]

BOX = "▊"


def box_below(term: Terminal, caption: str) -> str:
    """The text in the first box drawn under the row that reads ``caption``."""
    rows = term.text().splitlines()
    start = next(i for i, row in enumerate(rows) if caption in row)
    for row in rows[start + 1:]:
        if BOX in row and "▔" not in row and "▁" not in row:
            return row.split(BOX)[1].split("▎")[0].strip()
    raise AssertionError(f"no box under {caption!r}:\n{term.text()}")


def open_activity_with_a_call(terminal: Terminal) -> None:
    """Lisbon's events (the first-visit offer), then Activity, its call listed."""
    terminal.send(ENTER)
    terminal.wait_for(r"3 cr spent")
    terminal.settle()
    terminal.press_escape()
    terminal.send(b"5")
    terminal.wait_for(r"ticketing/discovery")
    terminal.settle()


def test_socks_typed_at_activity_is_a_search_not_a_saved_file(terminal: Terminal) -> None:
    open_activity_with_a_call(terminal)
    terminal.burst(["socks"])  # s saved the response JSON, and "ocks" became its name
    terminal.settle(0.8)
    screen = terminal.text()
    assert "Path (relative" not in screen, screen
    assert box_below(terminal, "5 Activity") == "socks", screen


def test_a_word_typed_at_activity_leaves_the_dialog_its_first_letter_opened_empty(
    terminal: Terminal,
) -> None:
    open_activity_with_a_call(terminal)
    terminal.burst(["labels"])  # l: label the call; "abels" came with it, unread
    terminal.wait_for(r"Ticket label")
    terminal.settle()
    assert box_below(terminal, "Label (e.g.") == "", terminal.text()
    terminal.burst(["#4821"])  # typed once the dialog is on screen: kept
    terminal.settle()
    assert box_below(terminal, "Label (e.g.") == "#4821", terminal.text()


def test_words_typed_after_a_company_lookup_open_at_most_one_dialog_and_leave_it_as_offered(
    tmp_path: Path,
) -> None:
    # A terminal known to drop OSC 52 copies: the report's copy falls back to a save dialog.
    env = isolated_env(tmp_path) | {"TERM_PROGRAM": "Apple_Terminal"}
    terminal = Terminal([installed_command()], env)
    try:
        terminal.wait_for(r"Enter to search Lisbon \(\d+ cr live", timeout=30)
        terminal.press_escape()
        terminal.send(b"2")
        terminal.wait_for(r"Look up · 10 cr")
        terminal.settle()
        terminal.burst(["/", "Northwind Labs", ENTER])
        terminal.wait_for(r"10 cr spent")
        terminal.settle()
        terminal.press_escape()  # out of the box: the matches have the cursor
        terminal.settle()
        terminal.burst(["thanks"])  # no key of the grammar: a search, as typed
        terminal.settle(0.8)
        screen = terminal.text()
        assert "Path (relative" not in screen and not re.search(r"\bhanks\b", screen), screen
        terminal.press_escape()
        terminal.settle()
        # y: copy the report; here it offers a file instead. One write, as a terminal
        # passes on a word typed fast: sent key by key, a loaded machine delayed this
        # test's own writes past the burst gap, which no typist's terminal does.
        terminal.send(b"yes")
        terminal.wait_for(r"Path \(relative")
        terminal.settle()
        assert box_below(terminal, "Path (relative") == "lookup-report.md", terminal.text()
    finally:
        terminal.quit()


def test_escape_from_activitys_filter_then_a_number_key_switches_area(
    terminal: Terminal,
) -> None:
    open_activity_with_a_call(terminal)
    terminal.burst(["/", "tick"])
    terminal.wait_for(r"▊\s+tick\s")
    terminal.settle()
    # Escape and 3 within Textual's escape delay (tmux sends them so): Escape, then 3. The
    # list took the focus after the 3 had reached the box, which typed it ("tick3").
    terminal.send(b"\x1b3")
    terminal.wait_for(r"City, e\.g\. Lisbon")  # Restaurants' location box
    terminal.settle()
    terminal.send(b"5")
    terminal.wait_for(r"ticketing/discovery")
    assert box_below(terminal, "5 Activity") == "tick", terminal.text()
