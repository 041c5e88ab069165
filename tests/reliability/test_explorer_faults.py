"""The explorer against a faulty service: Company, Restaurants and the provider form
driven with Pilot over scripted transports (malformed JSON, truncated bodies, HTML
500 pages, 429 with Retry-After, connection resets, timeouts), and over the sandbox
failing every request and then recovering.

Whatever happens the user sees: no crash, the error in place with its title and
next step, what they typed still in the form, 0 credits on the meter and in the
ledger, and a lookup (POST) sent once.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import pytest
from reliability_support import LIVE_URL, InstantRetry, ScriptedTransport, TruncatedStream
from textual.pilot import Pilot
from textual.widgets import Button, Input, Label, Static

from creditscope.client.cache import ResponseCache
from creditscope.client.client import DataClient
from creditscope.client.ledger import CreditLedger
from creditscope.sandbox.app import create_app
from creditscope.sandbox.config import SandboxConfig
from creditscope.settings import Settings
from creditscope.tui.app import CreditscopeApp
from creditscope.tui.calls import ResultArea
from creditscope.tui.widgets.error_panel import ErrorPanel
from explorer_factory import explorer_factory, in_process
from pilot_support import settle

FROZEN_NOW = datetime(2025, 3, 14, 12, 30, 0, tzinfo=UTC)
SIZE = (120, 36)
HTML = b"<html><body><h1>500 Internal Server Error</h1><hr>nginx</body></html>"


def _truncated(request: httpx.Request) -> httpx.Response:
    return httpx.Response(200, headers={"Content-Type": "application/json"},
                          stream=TruncatedStream(b'{"query": "Ac'), request=request)


# (name, script, whether the panel must offer Retry)
FAULTS: list[tuple[str, list[Any], bool]] = [
    ("malformed JSON",
     [httpx.Response(200, content=b'{"matches": [', headers={"Content-Type": "application/json"})],
     True),
    ("truncated body", [_truncated], True),
    ("HTML 500 page",
     [httpx.Response(500, content=HTML, headers={"Content-Type": "text/html"})], True),
    ("429 with Retry-After",
     [httpx.Response(429, headers={"Retry-After": "2"},
                     json={"error": {"code": "rate_limited", "message": "Slow down."}})], True),
    ("connection reset", [httpx.ReadError("[Errno 104] Connection reset by peer")], True),
    ("timeout", [httpx.ReadTimeout("timed out")], True),
]
# Faults after which the POST may have reached the service: never sent again.
MAY_HAVE_ARRIVED = {"malformed JSON", "truncated body", "HTML 500 page", "connection reset",
                    "timeout"}


def live_settings(tmp_path: Path) -> Settings:
    """Settings for a live service, every file in this test's temp dir."""
    return Settings(
        base_url=LIVE_URL,
        cache_dir=tmp_path / "cache",
        data_dir=tmp_path / "data",
        config_file=tmp_path / "config" / "config.toml",
    )


def faulty_factory(tmp_path: Path, transport: httpx.AsyncBaseTransport) -> Callable[..., Any]:
    """A client factory: a live-service DataClient on ``transport``, retries without waiting."""

    def build(settings: Settings) -> DataClient:
        return DataClient(
            LIVE_URL, "sk_live_test_12345678", transport=transport,
            cache=ResponseCache(settings.cache_dir / "v1"),
            ledger=CreditLedger(settings.data_dir / "ledger.sqlite3"),
            retry_policy=InstantRetry(),
        )

    return build


def shown_error(app: CreditscopeApp, area_id: str) -> tuple[str, str, list[str]]:
    """(title, next step, button labels) of the error panel in ``area_id``; fails if hidden."""
    panel = app.screen.query_one(f"#{area_id}", ResultArea).query_one(ErrorPanel)
    assert panel.display, "the error is not shown in place"
    title = str(panel.query_one(".error-title", Label).render())
    step = str(panel.query_one(".error-next", Static).render())
    buttons = [str(button.label) for button in panel.query(Button)]
    return title, step, buttons


def assert_nothing_spent(app: CreditscopeApp) -> None:
    """The meter and the ledger both say 0 credits."""
    assert app.client is not None
    assert app.credits.spent == 0
    assert app.client.ledger.session_totals().spent == 0
    assert app.client.ledger.lifetime_totals().spent == 0


async def type_into(pilot: Pilot[Any], selector: str, text: str) -> None:
    """Focus an input and set what the user typed."""
    widget = pilot.app.screen.query_one(selector, Input)
    widget.focus()
    widget.value = text
    await pilot.pause()


@pytest.mark.parametrize(("name", "script", "retry"), FAULTS, ids=[f[0] for f in FAULTS])
async def test_company_lookup_on_a_faulty_service(
    tmp_path: Path, name: str, script: list[Any], retry: bool
) -> None:
    transport = ScriptedTransport(script)
    app = CreditscopeApp(live_settings(tmp_path),
                         client_factory=faulty_factory(tmp_path, transport),
                         clock=lambda: FROZEN_NOW, initial_mode="company")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await type_into(pilot, "#name", "Acme Robotics")
        await type_into(pilot, "#website", "acme.example")
        await pilot.press("enter")
        await settle(pilot)
        title, step, buttons = shown_error(app, "lookup")
        assert title.startswith("✖ ") and len(title) > 4
        assert step.strip()
        assert ("Retry" in buttons[0] if buttons else False) == retry, buttons
        assert app.screen.query_one("#name", Input).value == "Acme Robotics"
        assert app.screen.query_one("#website", Input).value == "acme.example"
        assert_nothing_spent(app)
        posts = transport.sent("POST")
        if name in MAY_HAVE_ARRIVED:
            assert len(posts) == 1, f"{name}: the lookup was sent {len(posts)} times"
        else:  # refused before it was handled: retried only under the same Idempotency-Key
            keys = {request.headers.get("Idempotency-Key") for request in posts}
            assert len(keys) == 1 and None not in keys
        assert transport.sent("GET") == []


@pytest.mark.parametrize(("name", "script", "retry"), FAULTS, ids=[f[0] for f in FAULTS])
async def test_restaurant_search_on_a_faulty_service(
    tmp_path: Path, name: str, script: list[Any], retry: bool
) -> None:
    transport = ScriptedTransport(script)
    app = CreditscopeApp(live_settings(tmp_path),
                         client_factory=faulty_factory(tmp_path, transport),
                         clock=lambda: FROZEN_NOW, initial_mode="restaurants")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await type_into(pilot, "#location", "Lisbon")
        await type_into(pilot, "#limit", "7")
        await pilot.press("enter")
        await settle(pilot)
        title, step, buttons = shown_error(app, "restaurant-results")
        assert title.startswith("✖ ") and step.strip()
        assert bool(buttons) and "Retry" in buttons[0]
        assert app.screen.query_one("#location", Input).value == "Lisbon"
        assert app.screen.query_one("#limit", Input).value == "7"
        assert_nothing_spent(app)
        assert len(transport.sent("GET")) >= 1 and transport.sent("POST") == []


@pytest.mark.parametrize(
    ("name", "script"),
    [(f[0], f[1]) for f in FAULTS if f[0] in ("HTML 500 page", "timeout", "malformed JSON")],
)
async def test_provider_form_on_a_faulty_service(
    tmp_path: Path, name: str, script: list[Any]
) -> None:
    answers = {"GET": ScriptedTransport([httpx.Response(200, json={"providers": []})]),
               "POST": ScriptedTransport(script)}

    class ByMethod(httpx.AsyncBaseTransport):
        async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
            return await answers[request.method].handle_async_request(request)

    app = CreditscopeApp(live_settings(tmp_path),
                         client_factory=faulty_factory(tmp_path, ByMethod()),
                         clock=lambda: FROZEN_NOW, initial_mode="catalog")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+n")
        await settle(pilot)
        await type_into(pilot, "#provider-name", "Acme app")
        await type_into(pilot, "#provider-url", "https://acme.example")
        await type_into(pilot, "#provider-email", "ops@acme.example")
        await pilot.click("#provider-send")
        await settle(pilot)
        title, step, _ = shown_error(app, "provider-result")
        assert title.startswith("✖ ") and step.strip()
        assert app.screen.query_one("#provider-name", Input).value == "Acme app"
        assert app.screen.query_one("#provider-url", Input).value == "https://acme.example"
        assert app.screen.query_one("#provider-email", Input).value == "ops@acme.example"
        assert len(answers["POST"].sent("POST")) == 1
        assert_nothing_spent(app)


async def test_sandbox_failing_then_recovering_retry_works(tmp_path: Path) -> None:
    sandbox = create_app(SandboxConfig(db_path=None, fail_rate=1.0, frozen_time=FROZEN_NOW))

    build = explorer_factory(in_process(sandbox))  # creditscope's own client and retries
    settings = Settings(cache_dir=tmp_path / "cache", data_dir=tmp_path / "data",
                        config_file=tmp_path / "config" / "config.toml")
    app = CreditscopeApp(settings, client_factory=build, clock=lambda: FROZEN_NOW,
                         initial_mode="restaurants")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await type_into(pilot, "#location", "Lisbon")
        await pilot.press("enter")
        await settle(pilot)
        _, _, buttons = shown_error(app, "restaurant-results")
        assert "Retry" in buttons[0], buttons
        assert_nothing_spent(app)
        sandbox.state.faults.fail_rate = 0.0  # the service recovers
        panel = app.screen.query_one("#restaurant-results", ResultArea).query_one(ErrorPanel)
        retry = next(b for b in panel.query(Button) if b.name == "retry")
        if retry.disabled:  # "Retry in N s" after a Retry-After: wait for it, as a user would
            panel._wait_left = 0
            panel._tick()
            await pilot.pause()
        await pilot.click(retry)
        await settle(pilot)
        assert not panel.display
        summary = str(app.screen.query_one("#results-summary", Static).render())
        assert "restaurants near" in summary and "Lisbon" in summary
        assert app.credits.spent == 2  # the one search that worked, at its price
        # What was searched stays in the box (Enter took the "Lisbon, PT" completion).
        assert app.screen.query_one("#location", Input).value == "Lisbon, PT"
