"""Open the explorer and say how it ended, without click: a bare ``creditscope`` runs
this before click is imported (:mod:`creditscope.entry`), ``creditscope tui`` from its
click command (:mod:`creditscope.commands.tui`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from creditscope.settings_preview import SettingsError


@dataclass(frozen=True)
class ExplorerEnding:
    """What the shell is told once the explorer has closed."""

    warnings: tuple[str, ...]
    """About the settings: the app showed them too; they outlive its screen."""
    error: SettingsError | None
    """An unusable setting that ended the app, if one did."""

    @property
    def has_news(self) -> bool:
        """True when there is something to print."""
        return bool(self.warnings) or self.error is not None


def open_explorer() -> ExplorerEnding:
    """Run the explorer until it closes (on the built-in sandbox unless a base URL is
    configured). Only the settings preview (no pydantic) is read before the first frame;
    the app loads the settings right after it, and exits with the error if one is unusable."""
    from creditscope.malloc_arenas import use_one_malloc_arena
    from creditscope.settings_preview import read_settings_preview
    from creditscope.tui.app import CreditscopeApp

    use_one_malloc_arena()  # before the app starts its threads: it keeps open all day
    app = CreditscopeApp(read_settings_preview())  # its client: wiring.explorer_client
    app.run()
    return ExplorerEnding(tuple(app.settings_warnings), app.settings_error)
