"""Settings says where Save writes, and never that it saved before it has (a newcomer's
trial: "Saved to …/config.toml (mode 0600)." showed while no file existed)."""

from __future__ import annotations

from collections.abc import Callable

from creditscope.settings import Settings
from creditscope.tui.app import CreditscopeApp
from pilot_support import settle

from .areas import SIZES
from .screen_text import screen_rows

MakeApp = Callable[..., CreditscopeApp]


async def test_settings_names_the_file_save_writes_without_claiming_it_saved(
    make_app: MakeApp, settings: Settings
) -> None:
    app = make_app(initial_mode="settings")
    async with app.run_test(size=SIZES["120x36"]) as pilot:
        await app.wait_for_client()
        await settle(pilot)
        where = app.screen.query_one("#settings-where")
        where.scroll_visible(animate=False)
        await settle(pilot)
        text = " ".join(screen_rows(app))
        assert not settings.config_file.exists()
        assert "Saved to" not in text
        assert "Save writes" in text and settings.config_file.name in text
