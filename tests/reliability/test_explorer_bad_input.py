"""Bad input in every explorer form: 10 kB strings, control characters, bidi
overrides, emoji, right-to-left text and out-of-range numbers, pasted into the
Company, Restaurants (location, limit) and provider-request fields.

Each is refused with a clear message where the user typed it, nothing is sent
or spent (no request reaches the service, the ledger and meter stay at 0), and
the explorer keeps running; control characters and bidi overrides never get in
at all (every field removes them as they are pasted). One such case is
snapshotted to show the layout holds.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
from textual import events
from textual.pilot import Pilot
from textual.widgets import Input, Label, Static

from creditscope.sandbox.app import create_app
from creditscope.sandbox.config import SandboxConfig
from creditscope.settings import Settings
from creditscope.tui.app import CreditscopeApp
from creditscope.tui.calls import ResultArea
from creditscope.tui.widgets.error_panel import ErrorPanel
from explorer_factory import explorer_factory
from pilot_support import settle

FROZEN_NOW = datetime(2025, 3, 14, 12, 30, 0, tzinfo=UTC)
SIZE = (120, 36)
HUGE = "x" * 10_240
CONTROL = ["Lis\x00bon", "red\x1b[31m", "bell\x07", "tab\tbed"]
BIDI = "\u202egnp.exe"  # right-to-left override: shows text other than what is sent
EMOJI = "🍕🍕"
RTL = "خمسة"  # "five", in Arabic
TEXT_BAD = [HUGE]  # refused; CONTROL and BIDI are removed as they are pasted instead


class CountingTransport(httpx.ASGITransport):
    """The in-process sandbox, remembering every request that reached it."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.requests: list[httpx.Request] = []

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        return await super().handle_async_request(request)


def make_app(tmp_path: Path, mode: str) -> tuple[CreditscopeApp, CountingTransport]:
    """An explorer on the sandbox in ``mode``, and the transport that counts its requests."""
    transport = CountingTransport(
        app=create_app(SandboxConfig(db_path=None, frozen_time=FROZEN_NOW))
    )

    build = explorer_factory(transport)  # creditscope's own client on the counting sandbox
    settings = Settings(cache_dir=tmp_path / "cache", data_dir=tmp_path / "data",
                        config_file=tmp_path / "config" / "config.toml")
    app = CreditscopeApp(settings, client_factory=build, clock=lambda: FROZEN_NOW,
                         initial_mode=mode)
    return app, transport


async def paste(pilot: Pilot[Any], selector: str, text: str) -> Input:
    """Empty the input, focus it and paste ``text`` into it, as a user would."""
    widget = pilot.app.screen.query_one(selector, Input)
    widget.value = ""
    widget.focus()
    await pilot.pause()
    widget.post_message(events.Paste(text))
    await pilot.pause()
    return widget


def area_error(app: CreditscopeApp, area_id: str) -> str:
    """The message of the error shown in ``area_id`` ("" when none is shown)."""
    panel = app.screen.query_one(f"#{area_id}", ResultArea).query_one(ErrorPanel)
    if not panel.display:
        return ""
    return str(panel.query_one(".error-message", Static).render())


def assert_nothing_spent(app: CreditscopeApp, transport: CountingTransport) -> None:
    """No request reached the service; the meter and the ledger say 0."""
    assert transport.requests == [], [str(r.url) for r in transport.requests]
    assert app.credits.spent == 0
    assert app.client is not None and app.client.ledger.session_totals().spent == 0


async def test_company_form_refuses_bad_input(tmp_path: Path) -> None:
    app, transport = make_app(tmp_path, "company")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        cases = [("#name", value) for value in [*TEXT_BAD, "   "]]
        cases += [("#website", value) for value in [HUGE, "not a site"]]
        for selector, value in cases:
            await paste(pilot, "#name", "Acme")
            typed = await paste(pilot, selector, value)
            kept = typed.value
            if selector == "#website":  # by mouse, which moves the focus off the field
                await pilot.click("#submit")
            else:
                await pilot.press("enter")
            await settle(pilot)
            message = str(app.screen.query_one("#form-error", Static).render())
            assert message.strip(), f"{selector}={value[:20]!r}: no message"
            assert len(message) < 200, "the message repeats the 10 kB input"
            assert typed.has_class("-invalid"), selector
            assert typed.value == kept  # what the user pasted is still there to fix
        assert_nothing_spent(app, transport)


async def test_restaurant_form_refuses_bad_input(tmp_path: Path) -> None:
    app, transport = make_app(tmp_path, "restaurants")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        cases = [("#location", value) for value in [*TEXT_BAD, ""]]
        cases += [("#limit", value) for value in ["0", "31", "99", "-1"]]
        for selector, value in cases:
            await paste(pilot, "#location", "Lisbon")
            await paste(pilot, "#limit", "10")
            typed = await paste(pilot, selector, value)
            await pilot.press("enter")
            await settle(pilot)
            message = area_error(app, "restaurant-results")
            assert message.strip(), f"{selector}={value[:20]!r}: no message"
            assert len(message) < 300, "the message repeats the 10 kB input"
            assert typed.has_class("-invalid"), selector
        # Letters, emoji and right-to-left digits never get into the number box.
        for value in [EMOJI, RTL, "2.5", "1e3"]:
            typed = await paste(pilot, "#limit", value)
            assert typed.value in ("", "2", "1", "13"), typed.value
        assert_nothing_spent(app, transport)


async def test_provider_form_refuses_bad_input(tmp_path: Path) -> None:
    app, transport = make_app(tmp_path, "catalog")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        transport.requests.clear()  # the catalog itself (free) is not what is tested
        await pilot.press("ctrl+n")
        await settle(pilot)
        good = {"name": "Acme app", "url": "https://acme.example", "email": "ops@acme.example"}
        bad = {
            "name": [HUGE, " "],
            "url": ["ftp://x", EMOJI, HUGE],
            "email": ["not-an-email", RTL, HUGE],
        }
        for field, values in bad.items():
            for value in values:
                for name, text in good.items():
                    await paste(pilot, f"#provider-{name}", text)
                typed = await paste(pilot, f"#provider-{field}", value)
                await pilot.press("enter")
                await settle(pilot)
                message = str(app.screen.query_one(f"#provider-{field}-error", Label).render())
                assert message.strip(), f"{field}={value[:20]!r}: no message"
                assert typed.has_class("-invalid"), f"{field}={value[:20]!r}: field not marked"
        assert_nothing_spent(app, transport)


async def test_control_characters_never_get_into_a_field(tmp_path: Path) -> None:
    fields = {"company": ["#name", "#website"], "restaurants": ["#location"],
              "catalog": ["#catalog-filter"]}
    for mode, selectors in fields.items():
        app, transport = make_app(tmp_path / mode, mode)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            transport.requests.clear()
            for selector in selectors:
                for value in [*CONTROL, BIDI]:
                    typed = await paste(pilot, selector, value)
                    # No C0/C1 control and no bidi override (both are "not printable").
                    assert typed.value and typed.value.isprintable(), repr(typed.value)
            assert transport.requests == []  # pasting alone never sends anything


def test_a_10kb_location_keeps_the_layout(
    tmp_path: Path, snap_compare: Callable[..., bool]
) -> None:
    app, _ = make_app(tmp_path, "restaurants")

    async def run_before(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        await paste(pilot, "#location", "\u202e" + RTL + EMOJI + HUGE)
        await pilot.press("enter")
        await settle(pilot)

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)
