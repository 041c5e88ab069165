"""Issue 36: Ctrl+R on Company re-checks the lookup whose answer is on screen, at the
price the footer shows first; not the form's new text, and not a lookup hidden behind
another lookup's error."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import httpx
import pytest
from textual.pilot import Pilot
from textual.widgets import Input

from creditscope.settings import Settings
from creditscope.tui.app import CreditscopeApp
from pilot_support import settle

from .conftest import FROZEN_NOW, SIZE, frozen_sandbox, sandbox_client_factory
from .test_company import look_up, open_company
from .test_fit_and_keys import footer_keys
from .test_restaurants_screens import spent

LOOKUP = "professional_network/find_company"
BROKEN = "Broken Holdings"


class FailsOneName(httpx.AsyncBaseTransport):
    """The sandbox, except that a lookup of ``BROKEN`` fails on the service's side."""

    def __init__(self) -> None:
        self.inner = frozen_sandbox()
        self.looked_up: list[str] = []

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if request.url.path.endswith("/find_company"):
            name = json.loads(request.content)["name"]
            self.looked_up.append(name)
            if name == BROKEN:
                return httpx.Response(500, json={"error": {
                    "code": "internal_error", "message": "the lookup failed"}})
        return await self.inner.handle_async_request(request)


@pytest.fixture
def service() -> FailsOneName:
    return FailsOneName()


@pytest.fixture
def app(tmp_path: Path, settings: Settings, service: FailsOneName) -> CreditscopeApp:
    """The explorer on that service."""
    return CreditscopeApp(settings, client_factory=sandbox_client_factory(tmp_path, service),
                          clock=lambda: FROZEN_NOW)


async def recheck(pilot: Pilot[Any]) -> None:
    """Ctrl+R, the lookup on screen fetched long ago as far as the spend guard knows (one
    press of a paid re-check sends: no "press again")."""
    pilot.app.spend_guard.clock = lambda: 10_000.0 + asyncio.get_running_loop().time()
    await pilot.press("ctrl+r")
    await settle(pilot)


async def test_recheck_sends_the_lookup_on_screen_not_the_forms_new_text(
    app: CreditscopeApp, service: FailsOneName,
) -> None:
    async with app.run_test(size=SIZE) as pilot:
        await open_company(pilot)
        await look_up(pilot, "Northwind Labs")
        name = app.screen.query_one("#name", Input)
        name.focus()
        name.value = "Contoso"  # typed, not sent
        await settle(pilot)
        assert footer_keys(app)["^r"] == "Re-check · 10 cr"  # priced before the press
        await recheck(pilot)
        assert service.looked_up == ["Northwind Labs", "Northwind Labs"]
        assert spent(app, LOOKUP) == 20


async def test_no_recheck_of_a_lookup_hidden_behind_anothers_error(
    app: CreditscopeApp, service: FailsOneName,
) -> None:
    async with app.run_test(size=SIZE) as pilot:
        await open_company(pilot)
        await look_up(pilot, "Northwind Labs")
        assert "^r" in footer_keys(app)
        await look_up(pilot, BROKEN)  # its error now fills the area
        assert "^r" not in footer_keys(app)  # nothing on screen to re-check
        await recheck(pilot)
        assert service.looked_up == ["Northwind Labs", BROKEN]
        assert spent(app, LOOKUP) == 10
