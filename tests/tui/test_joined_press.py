"""Issue 35, "Joining delivers": a press that matches a request already on the wire
(Company and Compare both run the same company lookup) gets that request's answer in
its own area, and nothing more is spent."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from textual.widgets import Input, Static

from creditscope.settings import Settings
from creditscope.tui.app import CreditscopeApp
from creditscope.tui.screens.company.compare_screen import CompareScreen
from edge_support import FaultyTransport
from pilot_support import later, settle

from .conftest import FROZEN_NOW, SIZE, frozen_sandbox, sandbox_client_factory
from .screen_text import visible_text

LOOKUP = "professional_network/find_company"


async def test_compare_pressed_while_company_fetches_the_same_lookup_gets_its_answer(
    tmp_path: Path, settings: Settings,
) -> None:
    service = FaultyTransport(frozen_sandbox())  # holds requests while ``hold`` is set
    app = CreditscopeApp(settings, client_factory=sandbox_client_factory(tmp_path, service),
                         clock=lambda: FROZEN_NOW, initial_mode="company")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen: Any = app.screen
        screen.query_one("#name", Input).value = "Northwind Labs Ltd"
        screen.query_one("#website", Input).value = "northwind-labs.co.uk"
        screen.query_one("#name", Input).focus()
        await pilot.press("enter")  # the shown lookup, with its website
        await settle(pilot)
        # The same company without its website: on the wire, held there. (A deliberate
        # second press, not a held key: the guard's clock has moved on.)
        later(app)
        service.hold = True
        screen.query_one("#website", Input).value = ""
        screen.query_one("#name", Input).focus()
        await pilot.press("enter")
        await asyncio.wait_for(service.arrived.wait(), 10)
        # Compare asks for the very same lookup while it is in flight.
        screen.action_compare()
        await pilot.pause()
        assert isinstance(app.screen, CompareScreen)
        app.screen.query_one("#compare-website", Input).value = ""
        app.screen.action_compare()
        await pilot.pause()
        service.gate.set()
        await settle(pilot)
        summary = str(app.screen.query_one("#compare-summary", Static).render())
        assert summary.strip(), f"the joined press got no answer:\n{visible_text(app)}"
        assert app.client is not None
        charged = [r for r in app.client.ledger.session_records
                   if r.operation == LOOKUP and r.credits_charged]
        assert len(charged) == 2  # the shown lookup and the one both areas asked for
        lookups = [r for r in service.requests if r.url.path.endswith("find_company")]
        assert len(lookups) == 2
