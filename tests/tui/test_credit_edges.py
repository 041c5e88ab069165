"""Issue 13 in the explorer: the session survives a rebuilt client, Retry re-sends the
same submission, prices come from the catalog, an expired copy is priced, and keys
typed right after `/` land in the field."""

from __future__ import annotations

import ast
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
from pydantic import SecretStr
from textual import events
from textual.widgets import Button, Input

import creditscope.tui
from creditscope import models
from creditscope.sandbox import DEMO_KEY
from creditscope.sandbox.accounts import key_digest
from creditscope.sandbox.app import create_app
from creditscope.sandbox.config import SandboxConfig
from creditscope.settings import Settings
from creditscope.tui.app import CreditscopeApp
from creditscope.tui.screens.confirm import ConfirmSpend
from creditscope.tui.widgets.error_panel import ErrorPanel
from creditscope.tui.widgets.price_button import PriceButton
from explorer_factory import explorer_factory
from pilot_support import settle

from .conftest import FROZEN_NOW, SIZE

MakeApp = Callable[..., CreditscopeApp]


def type_at_once(app: CreditscopeApp, text: str) -> None:
    """Queue every key before the app handles the first: typing faster than a frame."""
    names = {"/": "slash", " ": "space", ",": "comma"}
    for char in text:
        app.post_message(events.Key(names.get(char, char), char))


async def test_keys_typed_right_after_slash_land_in_the_field(make_app: MakeApp) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        type_at_once(app, "/Paris")  # "s" is Search and "r" Refresh on this screen
        await settle(pilot)
        assert app.screen.query_one("#events-location", Input).value == "Paris"
        assert app.client is not None and app.client.ledger.session_records == []


async def test_the_session_and_its_budget_survive_saving_settings(make_app: MakeApp) -> None:
    app = make_app(budget=4, initial_mode="restaurants")
    async with app.run_test(size=SIZE) as pilot:
        await app.wait_for_client()
        await settle(pilot)
        app.screen.query_one("#location", Input).value = "Lisbon"
        app.screen.query_one("#location", Input).focus()
        await pilot.press("enter")
        await settle(pilot)
        assert app.credits.spent == 2
        app.rebuild_client(app.settings)  # what Save in Settings does
        await app.wait_for_client()
        await settle(pilot)
        assert app.credits.spent == 2 and len(app.client.ledger.session_records) == 1
        for city in ("Porto", "Madrid"):
            app.screen.query_one("#location", Input).value = city
            app.screen.query_one("#location", Input).focus()
            await pilot.press("enter")
            await settle(pilot)
        assert isinstance(app.screen, ConfirmSpend)  # the third search passes the budget
        assert app.credits.spent == 4


class LoseFirstLookup(httpx.AsyncBaseTransport):
    """The sandbox, except that the first lookup's answer is lost after it was charged."""

    def __init__(self, app: Any) -> None:
        self.inner = httpx.ASGITransport(app=app)
        self.lookups: list[httpx.Request] = []

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        response = await self.inner.handle_async_request(request)
        if request.url.path.endswith("find_company"):
            self.lookups.append(request)
            if len(self.lookups) == 1:
                await response.aread()
                raise httpx.ReadTimeout("lost", request=request)
        return response


async def test_retry_after_a_timed_out_lookup_resends_the_same_submission(
    tmp_path: Path, settings: Settings
) -> None:
    sandbox = create_app(SandboxConfig(db_path=None, frozen_time=FROZEN_NOW))
    transport = LoseFirstLookup(sandbox)

    app = CreditscopeApp(settings, client_factory=explorer_factory(transport),
                         clock=lambda: FROZEN_NOW,
                         initial_mode="company")
    async with app.run_test(size=SIZE) as pilot:
        await app.wait_for_client()
        await settle(pilot)
        name = app.screen.query_one("#name", Input)
        name.value = "Northwind Labs"
        name.focus()
        await pilot.press("enter")
        await settle(pilot)
        panel = app.screen.query_one(ErrorPanel)
        assert panel.display
        retry = next(b for b in panel.query(Button) if b.name == "retry")
        await pilot.click(retry)
        await settle(pilot)
    keys = [request.headers["Idempotency-Key"] for request in transport.lookups]
    assert len(keys) == 2 and keys[0] == keys[1]
    charges = sandbox.state.store.charges_for(key_digest(DEMO_KEY))
    assert [credits for _, credits in charges] == [10]  # charged once


async def test_labels_follow_the_catalog_and_price_an_expired_copy(make_app: MakeApp) -> None:
    app = make_app(initial_mode="restaurants")
    async with app.run_test(size=SIZE) as pilot:
        client: Any = await app.wait_for_client()
        await settle(pilot)
        catalog = {"providers": [{"id": "r", "name": "R", "endpoints": [
            {"name": "s", "method": "GET", "path": "/restaurants/search", "credits": 4}]}]}
        client.prices.update_from_catalog(models.Catalog.model_validate(catalog))
        client.ttls["restaurants/search"] = 0  # every answer expires at once
        box = app.screen.query_one("#location", Input)
        box.value = "Lisbon"
        await settle(pilot)
        button = app.screen.query_one("#search", PriceButton)
        assert str(button.label) == "Search · 4 cr"
        helps = [command.help for command in app.screen.palette_commands()]
        assert any("(4 cr)" in text for text in helps)
        box.focus()
        await pilot.press("enter")
        await settle(pilot)
        assert str(button.label) == "Search · 4 cr · expired"


def test_no_screen_writes_a_price_literal() -> None:
    price = re.compile(r"\b\d+ cr\b|\b\d+ credits?\b")
    found = []
    for path in Path(creditscope.tui.__file__).parent.rglob("*.py"):
        tree = ast.parse(path.read_text())
        docstrings = {
            id(node.body[0].value) for node in ast.walk(tree)
            if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef
                          | ast.AsyncFunctionDef)
            and node.body and isinstance(node.body[0], ast.Expr)
            and isinstance(node.body[0].value, ast.Constant)
        }
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) \
                    and id(node) not in docstrings and price.search(node.value):
                found.append(f"{path.name}: {node.value!r}")
    assert found == []


async def test_a_demo_key_app_still_starts(make_app: MakeApp) -> None:
    # Guard for the session hand-over: a client built with a key of its own keeps working.
    app = make_app(api_key=DEMO_KEY)
    async with app.run_test(size=SIZE) as pilot:
        await app.wait_for_client()
        await settle(pilot)
        assert app.settings.api_key == SecretStr(DEMO_KEY)
        assert app.client is not None and app.client.ledger.session is app._spend_session


async def test_activity_names_the_call_that_revealed_an_unexplained_difference(
    make_app: MakeApp,
) -> None:
    from creditscope.client.records import UNEXPLAINED, CallRecord

    app = make_app(initial_mode="activity")
    async with app.run_test(size=SIZE) as pilot:
        client: Any = await app.wait_for_client()
        client.ledger.record(CallRecord(
            UNEXPLAINED, "", "", {}, credits_charged=3, note="The balance fell 3 cr more.",
            revealed_by="restaurants/search (req_1)", account=client.account))
        await settle(pilot)
        detail = str(app.screen.query_one("#response-detail").render())
        assert "revealed by the answer to: restaurants/search (req_1)" in detail
        assert "The balance fell 3 cr more." in detail
        assert app.credits.spent == 3 and app.credits.unexplained == 3


async def test_the_meter_says_when_the_service_charged_less_than_it_said(
    make_app: MakeApp,
) -> None:
    from creditscope.client.records import OVERSTATED, CallRecord
    from creditscope.tui.widgets.credit_meter import CreditMeter

    app = make_app(initial_mode="activity")
    async with app.run_test(size=SIZE) as pilot:
        client: Any = await app.wait_for_client()
        client.ledger.record(CallRecord("restaurants/menu", "GET", "u", {},
                                        credits_charged=15, remaining=991,
                                        account=client.account))
        client.ledger.record(CallRecord(
            OVERSTATED, "", "", {}, credits_charged=-6, account=client.account,
            note="The service charged 6 cr less than its charge headers said."))
        await settle(pilot)
        assert app.credits.spent == 9 and app.credits.overstated == 6
        meter = " ".join(str(app.screen.query_one(CreditMeter).render()).split())
        assert "9 cr spent (6 less than the service said)" in meter
        detail = str(app.screen.query_one("#response-detail").render())
        assert "charged 6 cr less than its charge headers said" in detail
