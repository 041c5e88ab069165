"""A fresh ``creditscope`` in a pseudo-terminal for each test (see harness.py)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from terminal_harness import Terminal, installed_command, isolated_env

FIRST_FRAME = r"Select an event in the feed"  # the Events area, drawn


@pytest.fixture
def terminal(tmp_path: Path) -> Iterator[Terminal]:
    """The explorer, started, its first area drawn and the client ready; quit afterwards."""
    yield from _started(Terminal([installed_command()], isolated_env(tmp_path)))


@pytest.fixture
def small_terminal(tmp_path: Path) -> Iterator[Terminal]:
    """The same in an 80x24 terminal, the smallest the explorer is made for."""
    yield from _started(Terminal([installed_command()], isolated_env(tmp_path),
                                 columns=80, lines=24))


def _started(term: Terminal) -> Iterator[Terminal]:
    try:
        term.wait_for(FIRST_FRAME, timeout=30)
        # The sandbox is up once the first-visit offer shows a price (it waits for the client).
        term.wait_for(r"Enter to search Lisbon \(\d+ cr", timeout=30)
        yield term
    finally:
        term.quit()
