"""Helpers for driving the explorer under Textual's Pilot, loaded as a pytest plugin
(``pytest_plugins`` in ``tests/conftest.py``) so every test directory shares them.

Import the helpers (``from pilot_support import settle``); the fixtures apply by themselves.
"""

from __future__ import annotations

import contextlib
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.worker import WorkerFailed


async def settle(pilot: Pilot[Any]) -> None:
    """Wait until every worker is done (a failed one too: the app shows its error, and
    ``error_guard`` fails the test if that error was a bug) and the screen has caught up."""
    for _ in range(3):
        await pilot.pause()
        with contextlib.suppress(WorkerFailed):
            await pilot.app.workers.wait_for_complete()
    await pilot.pause()


@pytest.fixture(autouse=True)
def steady_credit_meter(monkeypatch: pytest.MonkeyPatch) -> None:
    """The meter's spend highlight fades on a timer; snapshots must not race it."""
    from creditscope.tui.widgets import credit_meter

    monkeypatch.setattr(credit_meter, "SPEND_HIGHLIGHT_SECONDS", 0.0)


def later(app: Any, seconds: float = 60.0) -> None:
    """Let the spend guard believe ``seconds`` have passed: answers are no longer "moments"
    old and the last press is long done (a refresh pays on its first press)."""
    before = app.spend_guard.clock
    app.spend_guard.clock = lambda: before() + seconds


async def open_with_letter(pilot: Pilot[Any], key: str) -> None:
    """Press ``key``, which opens a dialog, then pause as a person reading it does: keys
    pressed faster than that belong to the burst that opened it and the dialog ignores
    them (``tui/key_bursts.py``)."""
    from creditscope.tui.key_bursts import BURST_GAP

    await pilot.press(key)
    await pilot.pause(BURST_GAP)
    await settle(pilot)
