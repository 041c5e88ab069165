"""Issue 23, B: "Copied" only when the copy should have arrived. In tmux with its
default ``set-clipboard external`` (OSC 52 dropped, as ``doctor`` reports) and no
clipboard tool, the explorer says the copy may not have arrived and offers to save
the text to a file instead."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Input, Static

from creditscope import clipboard_check
from creditscope.doctor.terminal_check import osc52_support
from creditscope.tui import clipboard
from creditscope.tui.app import CreditscopeApp
from creditscope.tui.screens.copy_fallback import CopyMayBeLost
from creditscope.tui.screens.save_file import SaveFileDialog
from pilot_support import settle

from .conftest import SIZE

MakeApp = Callable[..., CreditscopeApp]


@pytest.fixture
def in_tmux(monkeypatch: pytest.MonkeyPatch) -> Callable[[str], None]:
    """Run inside tmux whose ``set-clipboard`` is the given value (the real check)."""
    monkeypatch.setattr(clipboard, "copy_may_be_lost", clipboard_check.copy_may_be_lost)

    def setting(value: str) -> None:
        monkeypatch.setenv("TMUX", "/tmp/tmux-1000/default,4242,0")
        monkeypatch.setattr(clipboard_check, "tmux_set_clipboard", lambda: value)

    return setting


def _notices(app: CreditscopeApp, monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str]]:
    """(title, message) of every notification the app shows from now on."""
    shown: list[tuple[str, str]] = []

    def notify(message: str, *, title: str = "", **_: Any) -> None:
        shown.append((title, message))

    monkeypatch.setattr(app, "notify", notify)
    return shown


async def _copy_curl(app: CreditscopeApp, pilot: Any) -> None:
    client = await app.wait_for_client()
    await client.call("restaurants/search", {"location": "Paris"})
    await settle(pilot)
    await pilot.press("c")
    await settle(pilot)


async def test_tmux_dropping_osc52_is_said_and_the_text_can_be_saved_instead(
    make_app: MakeApp, copied: list[str], in_tmux: Callable[[str], None],
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
) -> None:
    in_tmux("external")
    app = make_app(initial_mode="activity")
    async with app.run_test(size=SIZE) as pilot:
        shown = _notices(app, monkeypatch)
        await _copy_curl(app, pilot)
        assert len(copied) == 1  # still sent: it may arrive after all
        assert not [title for title, _ in shown if title == "Copied"]
        assert isinstance(app.screen, CopyMayBeLost)
        said = str(app.screen.query_one("#copy-lost-text", Static).render())
        assert "may not have arrived" in said and "set-clipboard is external" in said
        assert "tmux set -g set-clipboard on" in said
        await pilot.press("enter")  # "Save to a file…" has the focus
        await settle(pilot)
        assert isinstance(app.screen, SaveFileDialog)
        target = tmp_path / "request.sh"
        app.screen.query_one("#save-path", Input).value = str(target)
        await pilot.press("enter")
        await settle(pilot)
        assert target.read_text(encoding="utf-8").strip() == copied[0].strip()
        assert shown[-1][0].startswith("Saved")


async def test_closing_the_offer_saves_nothing(
    make_app: MakeApp, copied: list[str], in_tmux: Callable[[str], None], tmp_path: Path,
) -> None:
    in_tmux("external")
    app = make_app(initial_mode="activity")
    async with app.run_test(size=SIZE) as pilot:
        await _copy_curl(app, pilot)
        assert isinstance(app.screen, CopyMayBeLost)
        await pilot.press("escape")
        await settle(pilot)
        assert not isinstance(app.screen, CopyMayBeLost | SaveFileDialog)
        assert not list(tmp_path.glob("*.sh"))


async def test_tmux_passing_osc52_on_says_copied(
    make_app: MakeApp, copied: list[str], in_tmux: Callable[[str], None],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    in_tmux("on")
    app = make_app(initial_mode="activity")
    async with app.run_test(size=SIZE) as pilot:
        shown = _notices(app, monkeypatch)
        await _copy_curl(app, pilot)
        assert len(copied) == 1
        assert [title for title, _ in shown] == ["Copied"]
        assert not isinstance(app.screen, CopyMayBeLost)


def test_the_explorer_and_doctor_make_the_same_guess(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    env = {"TMUX": "/tmp/tmux-1000/default,1,0"}
    monkeypatch.setattr(clipboard_check, "tmux_set_clipboard", lambda: "external")
    from creditscope.doctor import terminal_check

    monkeypatch.setattr(terminal_check, "_tmux_set_clipboard", lambda: "external")
    verdict, reason, fix = osc52_support(env)
    assert verdict == "unlikely"
    assert clipboard_check.copy_may_be_lost(env, None) == (reason, fix)
    # A clipboard tool copies anyway; a terminal that is merely unknown is not called lost.
    assert clipboard_check.copy_may_be_lost(env, ("xclip",)) is None
    assert clipboard_check.copy_may_be_lost({"TERM": "xterm-256color"}, None) is None
