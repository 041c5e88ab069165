"""A paid press made while the client starts sends nothing: no button could show its price
yet (a newcomer's trial: Enter on the first screen searched Lisbon for 3 cr while the
button still read "Search · type a place" and the offer named no price)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from textual.widgets import Input

from creditscope.settings import Settings
from creditscope.tui.app import CreditscopeApp
from pilot_support import settle
from textual_internals import shown_notifications

from .conftest import FROZEN_NOW, SIZE, sandbox_client_factory


def slow_start(tmp_path: Path, go: threading.Event) -> Callable[[Settings], Any]:
    """The explorer's client factory, held until ``go`` is set (a slow machine's start)."""
    build = sandbox_client_factory(tmp_path)

    def factory(settings: Settings) -> Any:
        go.wait(30)
        return build(settings)

    return factory


async def test_enter_while_the_sandbox_starts_spends_nothing_then_is_priced(
    tmp_path: Path, settings: Settings
) -> None:
    go = threading.Event()
    app = CreditscopeApp(settings, client_factory=slow_start(tmp_path, go),
                         clock=lambda: FROZEN_NOW)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause(0.3)
        box = app.screen.query_one("#events-location", Input)
        box.focus()
        await pilot.press("enter")  # the first visit's sample search, price not shown yet
        await pilot.pause(0.2)
        assert app.client is None
        assert any("Not sent" in note.message for note in shown_notifications(app))
        go.set()
        client = await app.wait_for_client()
        await settle(pilot)
        assert client.ledger.session_totals().spent == 0  # nothing was sent meanwhile
        assert box.value.startswith("Lisbon")  # the offer's place, kept for the next press
        search = app.screen.query_one("#events-search")
        assert "3 cr" in str(search.label)
        box.focus()
        await pilot.press("enter")  # now priced on screen: sent
        await settle(pilot)
        assert client.ledger.session_totals().spent == 3
