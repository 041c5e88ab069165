"""The explorer started the way ``creditscope`` starts it (a settings preview, then the
settings loaded from the config file and the environment): what it saves, and
"Use the built-in sandbox" after a revoked key."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Button, Input, Label

from creditscope.sandbox import REVOKED_KEY
from creditscope.settings_preview import read_settings_preview
from creditscope.tui.app import CreditscopeApp
from creditscope.tui.screens.restaurants.results_table import RestaurantResults
from creditscope.tui.widgets.error_panel import ErrorPanel
from pilot_support import settle

from .conftest import FROZEN_NOW, SIZE, sandbox_client_factory

ENV_KEY = "sk_live_from_the_environment_7777"


def config_file(isolated_dirs: dict[str, Path], text: str) -> Path:
    path = isolated_dirs["config"] / "creditscope" / "config.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    path.chmod(0o600)
    return path


def explorer(tmp_path: Path, initial_mode: str | None = None) -> CreditscopeApp:
    """The app as ``creditscope tui`` builds it, on an in-memory sandbox."""
    return CreditscopeApp(read_settings_preview(), client_factory=sandbox_client_factory(tmp_path),
                          clock=lambda: FROZEN_NOW, initial_mode=initial_mode)


async def search_restaurants(pilot: Pilot[Any]) -> None:
    app: Any = pilot.app
    await app.switch_mode("restaurants")
    await settle(pilot)
    box = app.screen.query_one("#location", Input)
    box.focus()
    box.value = "Lisbon"
    await pilot.press("enter")
    await settle(pilot)


async def test_a_theme_change_with_an_env_key_leaves_the_key_out_of_the_file(
    tmp_path: Path, isolated_dirs: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = config_file(isolated_dirs, "budget = 40\n")
    monkeypatch.setenv("CREDITSCOPE_API_KEY", ENV_KEY)
    app = explorer(tmp_path, initial_mode="settings")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.theme = "nord"
        await settle(pilot)
        assert tomllib.loads(path.read_text()) == {"budget": 40, "theme": "nord"}
        app.screen.query_one("#budget", Input).value = "45"  # and Settings > Save
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert tomllib.loads(path.read_text()) == {"budget": 45, "theme": "nord"}
        assert app.settings.api_key is not None
        assert app.settings.api_key.get_secret_value() == ENV_KEY  # still the one in use
    assert ENV_KEY not in path.read_text()


async def test_history_retention_is_set_in_settings_and_refused_out_of_range(
    tmp_path: Path, isolated_dirs: dict[str, Path],
) -> None:
    path = config_file(isolated_dirs, "# kept for the desk\nbudget = 40\n")
    app = explorer(tmp_path, initial_mode="settings")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        days = app.screen.query_one("#history-days", Input)
        assert days.value == "90"  # the default, shown
        days.value = "0"
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert "1 to 36500" in str(app.screen.query_one("#settings-message").render())
        assert "history_days" not in path.read_text()  # refused: nothing saved
        days.value = "30"
        await pilot.press("ctrl+s")
        await settle(pilot)
    saved = tomllib.loads(path.read_text())
    assert (saved["budget"], saved["history_days"]) == (40, 30)
    assert path.read_text().startswith("# kept for the desk")  # the user's comment stays
    assert app.settings.history_days == 30


@pytest.mark.parametrize("key_from", ["file", "env"])
async def test_use_the_built_in_sandbox_after_a_revoked_key_makes_the_next_search_succeed(
    tmp_path: Path, isolated_dirs: dict[str, Path], monkeypatch: pytest.MonkeyPatch,
    key_from: str,
) -> None:
    if key_from == "env":
        monkeypatch.setenv("CREDITSCOPE_API_KEY", REVOKED_KEY)
        path = config_file(isolated_dirs, 'theme = "nord"\n')
    else:
        path = config_file(isolated_dirs, f'api_key = "{REVOKED_KEY}"\ntheme = "nord"\n')
    app = explorer(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await search_restaurants(pilot)
        panel = app.screen.query_one(ErrorPanel)
        assert panel.display
        assert "Invalid API key" in str(panel.query_one(".error-title", Label).render())
        await pilot.click(panel.query_one(Button))  # Open settings
        await settle(pilot)
        assert app.current_mode == "settings"
        app.screen.query_one("#use-sandbox", Button).scroll_visible(animate=False)
        await settle(pilot)
        await pilot.click("#use-sandbox")
        await settle(pilot)
        said = str(app.screen.query_one("#settings-message").render())
        assert "Using the built-in sandbox" in said
        # The file no longer holds the key; a variable would bring it back next time.
        assert ("CREDITSCOPE_API_KEY in the environment wins again" in said) is (key_from == "env")

        await search_restaurants(pilot)
        assert not app.screen.query_one(ErrorPanel).display
        assert app.screen.query_one(RestaurantResults).row_count > 0
    assert tomllib.loads(path.read_text()) == {"theme": "nord"}  # what the next start uses


def test_the_first_frame_reads_its_settings_without_pydantic() -> None:
    code = (
        "import sys\n"
        "import creditscope.cli, creditscope.commands.tui, creditscope.tui.app\n"
        "from creditscope.settings_preview import read_settings_preview\n"
        "read_settings_preview()\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0].startswith('pydantic')))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, timeout=60)
    assert done.stdout.strip() == "[]"
