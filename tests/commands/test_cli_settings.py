"""Every command loads the settings one way: an invalid ``CREDITSCOPE_*`` variable is a
usage error (exit 2) worded the same everywhere, and a broken config file a warning."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from textual.app import App
from textual.pilot import Pilot

from creditscope.cli import main
from creditscope.tui.app import CreditscopeApp

ERROR = "Error: Invalid CREDITSCOPE_* environment variable: budget: Input should be a valid integer"


def commands(tmp_path: Path) -> list[list[str]]:
    """One invocation of every command that loads the settings, each valid otherwise."""
    rows = tmp_path / "places.csv"
    rows.write_text("location\nLisbon\n")
    return [
        ["call", "restaurants/search", "--location", "Lisbon"],
        ["batch", "restaurants/search", str(rows)],
        ["credits"],
        ["cache", "stats"],
        ["cache", "clear"],
        ["web"],  # stops before it binds a port
        ["tui"],
    ]


@pytest.fixture(autouse=True)
def headless_explorer(monkeypatch: pytest.MonkeyPatch) -> None:
    """``creditscope tui`` runs the real explorer without a terminal, and quits once it
    has loaded its settings and built its client (unless a bad setting ended it first)."""

    async def load_then_quit(pilot: Pilot[Any]) -> None:
        for _ in range(3):
            await pilot.pause()
            await pilot.app.workers.wait_for_complete()
        pilot.app.exit()

    monkeypatch.setattr(CreditscopeApp, "run",
                        lambda self: App.run(self, headless=True, auto_pilot=load_then_quit))


def test_an_invalid_variable_is_the_same_usage_error_for_every_command(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CREDITSCOPE_BUDGET", "plenty")
    for args in commands(tmp_path):
        result = CliRunner().invoke(main, args)
        assert result.exit_code == 2, (args, result.output)
        assert ERROR in result.stderr, args
        assert "Correct or unset it" in result.stderr, args


def test_a_broken_config_file_is_the_same_warning_for_every_command(
    tmp_path: Path, isolated_dirs: dict[str, Path]
) -> None:
    path = isolated_dirs["config"] / "creditscope" / "config.toml"
    path.parent.mkdir(parents=True)
    path.write_text("budget = [unclosed")
    warning = f"warning: Ignoring the config file {path}: "
    for args in (["call", "catalog", "--dry-run"], ["credits"], ["cache", "stats"], ["tui"]):
        result = CliRunner().invoke(main, args)
        assert result.exit_code == 0, (args, result.output)
        assert result.stderr.count(warning) == 1, (args, result.stderr)
