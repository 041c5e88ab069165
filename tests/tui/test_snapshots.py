"""Snapshots of the shell's screens at 120x36 on deterministic sandbox data."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from textual.pilot import Pilot

from creditscope.tui.app import CreditscopeApp
from pilot_support import settle

from .conftest import SIZE

MakeApp = Callable[..., CreditscopeApp]
SHOWN_CONFIG = Path("/home/demo/.config/creditscope/config.toml")


def test_catalog(snap_compare: Any, make_app: MakeApp) -> None:
    assert snap_compare(make_app(initial_mode="catalog"), terminal_size=SIZE, run_before=settle)


def test_activity_with_an_inspected_call(snap_compare: Any, make_app: MakeApp) -> None:
    async def call_then_inspect(pilot: Pilot[Any]) -> None:
        client = await pilot.app.wait_for_client()  # type: ignore[attr-defined]
        await client.call("restaurants/search", {"location": "Lisbon", "cuisine": "thai"})
        await settle(pilot)

    app = make_app(initial_mode="activity")
    assert snap_compare(app, terminal_size=SIZE, run_before=call_then_inspect)


def test_provider_form_with_an_error(snap_compare: Any, make_app: MakeApp) -> None:
    async def type_a_bad_url(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        await pilot.press("ctrl+n")
        await settle(pilot)
        await pilot.press(*"Strava", "tab", *"strava dot com", "enter")
        await settle(pilot)

    app = make_app(initial_mode="catalog")
    assert snap_compare(app, terminal_size=SIZE, run_before=type_a_bad_url)


def test_settings(snap_compare: Any, make_app: MakeApp) -> None:
    app = make_app(initial_mode="settings", config_file=SHOWN_CONFIG, budget=250)
    assert snap_compare(app, terminal_size=SIZE, run_before=settle)


def test_help(snap_compare: Any, make_app: MakeApp) -> None:
    async def open_help(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        await pilot.press("question_mark")
        await settle(pilot)

    assert snap_compare(make_app(initial_mode="activity"), terminal_size=SIZE, run_before=open_help)


