"""Issue 23, B: "Copied" only when the copy should have arrived. In tmux with its
default ``set-clipboard external`` (OSC 52 dropped, as ``doctor`` reports) and no
clipboard tool, the explorer says the copy may not have arrived and offers to save
the text to a file instead."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Input

from creditscope import clipboard_check
from creditscope.doctor.terminal_check import osc52_support
from creditscope.tui import clipboard
from creditscope.tui.app import CreditscopeApp
from creditscope.tui.screens.save_file import SaveFileDialog
from pilot_support import open_with_letter, settle
from textual_internals import shown_notifications

from .conftest import SIZE

MakeApp = Callable[..., CreditscopeApp]
TMUX = "/tmp/tmux-1000/default,4242,0"


@dataclass
class Copying:
    """The explorer after copying a call as curl: the app, its pilot, what it said."""

    app: CreditscopeApp
    pilot: Any
    shown: list[tuple[str, str]] = field(default_factory=list)  # (title, message)


@pytest.fixture
def copy_in_tmux(
    make_app: MakeApp, copied: list[str], monkeypatch: pytest.MonkeyPatch,
) -> Callable[[str], Any]:
    """Copy a call as curl inside tmux whose ``set-clipboard`` is the given value."""
    monkeypatch.setattr(clipboard, "copy_may_be_lost", clipboard_check.copy_may_be_lost)
    monkeypatch.setenv("TMUX", TMUX)

    @asynccontextmanager
    async def run(setting: str) -> AsyncIterator[Copying]:
        monkeypatch.setattr(clipboard_check, "tmux_set_clipboard", lambda: setting)
        app = make_app(initial_mode="activity")
        async with app.run_test(size=SIZE) as pilot:
            done = Copying(app, pilot)
            monkeypatch.setattr(app, "notify", lambda message, *, title="", **_: (
                done.shown.append((title, message))))
            client = await app.wait_for_client()
            await client.call("restaurants/search", {"location": "Paris"})
            await settle(pilot)
            await open_with_letter(pilot, "c")
            await settle(pilot)
            assert len(copied) == 1  # sent to the terminal whatever happens next
            yield done

    return run


async def test_tmux_dropping_osc52_is_said_and_the_text_can_be_saved_instead(
    copy_in_tmux: Callable[[str], Any], copied: list[str], tmp_path: Path,
) -> None:
    async with copy_in_tmux("external") as done:
        titles = [title for title, _ in done.shown]
        assert titles == ["The copy may not have arrived"]
        said = done.shown[0][1]
        assert "set-clipboard is external" in said and "tmux set -g set-clipboard on" in said
        assert isinstance(done.app.screen, SaveFileDialog)  # the offer
        target = tmp_path / "request.sh"
        done.app.screen.query_one("#save-path", Input).value = str(target)
        await done.pilot.press("enter")
        await settle(done.pilot)
        assert target.read_text(encoding="utf-8").strip() == copied[0].strip()
        assert done.shown[-1][0].startswith("Saved curl command")


async def test_cancelling_the_offer_saves_nothing(
    copy_in_tmux: Callable[[str], Any], tmp_path: Path,
) -> None:
    async with copy_in_tmux("external") as done:
        await done.pilot.press("escape")
        await settle(done.pilot)
        assert not isinstance(done.app.screen, SaveFileDialog)
        assert not list(tmp_path.glob("*.sh"))
        assert not [title for title, _ in done.shown if title.startswith("Saved")]


async def test_tmux_passing_osc52_on_says_copied(copy_in_tmux: Callable[[str], Any]) -> None:
    async with copy_in_tmux("on") as done:
        assert done.shown == []  # no warning; "Copied" is a toast of its area (area_toasts)
        assert [toast.title for toast in shown_notifications(done.app)] == ["Copied"]
        assert not isinstance(done.app.screen, SaveFileDialog)


def test_the_explorer_and_doctor_make_the_same_guess(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from creditscope.doctor import terminal_check

    env = {"TMUX": TMUX}
    monkeypatch.setattr(clipboard_check, "tmux_set_clipboard", lambda: "external")
    monkeypatch.setattr(terminal_check, "_tmux_set_clipboard", lambda: "external")
    verdict, reason, fix = osc52_support(env)
    assert verdict == "unlikely"
    assert clipboard_check.copy_may_be_lost(env, None) == (reason, fix)
    # A clipboard tool copies anyway; a terminal that is merely unknown is not called lost.
    assert clipboard_check.copy_may_be_lost(env, ("xclip",)) is None
    assert clipboard_check.copy_may_be_lost({"TERM": "xterm-256color"}, None) is None
