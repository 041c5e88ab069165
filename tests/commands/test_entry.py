"""The ``creditscope`` program (creditscope.entry): a bare ``creditscope`` opens the
explorer before click is imported, and ends exactly as through the click group."""

from __future__ import annotations

import subprocess
import sys
import types
from pathlib import Path
from typing import Any

import pytest
from textual.app import App
from textual.pilot import Pilot

from creditscope import entry
from creditscope.cli import main as command_group
from creditscope.tui.app import CreditscopeApp


@pytest.fixture
def headless_explorer(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The explorer runs without a terminal and quits once its settings are loaded and
    its client built (or a bad setting ended it); returns the argv of each run."""
    runs: list[str] = []

    async def load_then_quit(pilot: Pilot[Any]) -> None:
        for _ in range(3):
            await pilot.pause()
            await pilot.app.workers.wait_for_complete()
        pilot.app.exit()

    def run(self: CreditscopeApp) -> None:
        runs.append(" ".join(sys.argv))
        App.run(self, headless=True, auto_pilot=load_then_quit)

    monkeypatch.setattr(CreditscopeApp, "run", run)
    monkeypatch.setattr(sys, "argv", ["creditscope"])
    return runs


def ending(call: Any, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """(exit status, stdout, stderr) of ``call()``, as the shell would see them."""
    try:
        call()
        status = 0
    except SystemExit as exit_:
        status = exit_.code if isinstance(exit_.code, int) else (0 if exit_.code is None else 1)
    out, err = capsys.readouterr()
    return status, out, err


def test_a_bare_creditscope_draws_the_explorer_before_importing_click() -> None:
    probe = (
        "import sys\n"
        "from creditscope.tui.app import CreditscopeApp\n"
        "CreditscopeApp.run = lambda self: print('click' in sys.modules)\n"
        "sys.argv = ['creditscope']\n"
        "from creditscope.entry import main\n"
        "main()\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          timeout=60, check=True)
    assert done.stdout.strip() == "False"


def test_an_unusable_setting_ends_a_bare_creditscope_as_through_click(
    headless_explorer: list[str], monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("CREDITSCOPE_BUDGET", "plenty")
    through_click = ending(lambda: command_group(args=[]), capsys)
    bare = ending(entry.main, capsys)
    assert bare == through_click
    status, _, err = bare
    assert status == 2
    assert "Usage: " in err and "Error: Invalid CREDITSCOPE_* environment variable" in err
    assert len(headless_explorer) == 2  # once each: the report does not run it again


def test_settings_warnings_end_a_bare_creditscope_as_through_click(
    headless_explorer: list[str], isolated_dirs: dict[str, Path],
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = isolated_dirs["config"] / "creditscope" / "config.toml"
    path.parent.mkdir(parents=True)
    path.write_text("budget = [unclosed")
    through_click = ending(lambda: command_group(args=[]), capsys)
    bare = ending(entry.main, capsys)
    assert bare == through_click
    assert bare[0] == 0
    assert bare[2].count(f"warning: Ignoring the config file {path}: ") == 1


def test_a_clean_run_prints_nothing(
    headless_explorer: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert ending(entry.main, capsys) == (0, "", "")
    assert headless_explorer == ["creditscope"]


def test_arguments_and_completion_go_to_the_command_group(
    headless_explorer: list[str], monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setattr(sys, "argv", ["creditscope", "--version"])
    status, out, _ = ending(entry.main, capsys)
    assert status == 0 and out.startswith("creditscope ")
    monkeypatch.setattr(sys, "argv", ["creditscope"])
    # As the console script runs: under `python -m pytest`, click would name the
    # program after pytest's __main__ package and wait for _PYTEST_COMPLETE instead.
    monkeypatch.setitem(sys.modules, "__main__", types.ModuleType("__main__"))
    monkeypatch.setenv("_CREDITSCOPE_COMPLETE", "bash_source")
    status, out, _ = ending(entry.main, capsys)
    assert status == 0 and "complete" in out  # click's completion script, not the explorer
    assert headless_explorer == []
