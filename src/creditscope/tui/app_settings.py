"""The explorer's settings: loaded after the first frame, shown as the header badge,
applied as theme and keymap, and the theme remembered in the config file.

The first frame is drawn before the settings are loaded: the app may be given a
:class:`~creditscope.settings_preview.SettingsPreview` (no pydantic), reads the
theme, keys and badge from it, and loads the ``Settings`` in the client worker
(``settings`` loads them on first use if asked earlier). Every change of where
requests go is published as a :class:`~creditscope.tui.host.Connection` on
``signals.connection_changed``, so the badge of every area (opened before or
after) and the Settings form follow it.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from textual import work
from textual.theme import Theme

from creditscope.settings_preview import SettingsError, SettingsPreview, is_sandbox
from creditscope.shown_url import shown_url
from creditscope.tui.fit import FittedApp
from creditscope.tui.host import Connection, ExplorerSignals
from creditscope.tui.key_grammar import current_keymap
from creditscope.tui.spend_guard import SpendGuard
from creditscope.tui.web_tab import in_web_tab

if TYPE_CHECKING:
    from creditscope.settings import Settings


class SettingsApp(FittedApp):
    """An App that owns the explorer's settings and says where requests go."""

    def __init__(self, settings: Settings | SettingsPreview) -> None:
        """``settings`` may be a preview: the settings are loaded after the first frame;
        an unusable value ends the app with ``settings_error`` set."""
        super().__init__()
        self._settings: Settings | None = None
        self._pending_settings: SettingsPreview | None = None
        if isinstance(settings, SettingsPreview):
            self._pending_settings = settings
        else:
            self._settings = settings
        self._settings_lock = threading.Lock()
        self.settings_error: SettingsError | None = None
        """Why the settings could not be validated (the app exits when set)."""
        self.settings_warnings: list[str] = []
        """Warnings from validating the settings (e.g. an invalid config file ignored)."""
        self._keymap_applied: dict[str, str] = {}
        self.signals = ExplorerSignals(self)
        """What widgets on any screen follow: client ready, credits, connection."""
        self.spend_guard = SpendGuard()  # one for the app: a press is one intent in any area
        self._connection_published: Connection | None = None

    @property
    def settings(self) -> Settings:
        """The validated settings (validated here, once, if the client worker has not yet)."""
        return self._validated_settings()

    @settings.setter
    def settings(self, settings: Settings) -> None:
        self._settings = settings
        self._pending_settings = None
        self._publish_connection()

    @property
    def _frame_settings(self) -> Settings | SettingsPreview:
        """What the frame shows (theme, keys, badge): the settings, or the preview
        until they are loaded (same attribute names)."""
        if self._settings is not None:
            return self._settings
        assert self._pending_settings is not None
        return self._pending_settings

    def _validated_settings(self) -> Settings:
        # Loads the settings in whichever thread asks first (usually the client
        # worker); the lock makes it happen once. Raises SettingsError.
        with self._settings_lock:
            if self._settings is None:
                from creditscope.settings import load_settings

                try:
                    settings, warnings = load_settings()
                except SettingsError as error:
                    self.call_later(self._settings_failed, error)  # thread-safe
                    raise
                self._settings, self._pending_settings = settings, None
                self.call_later(self._settings_validated, warnings)
            return self._settings

    def _settings_validated(self, warnings: list[str]) -> None:
        self.settings_warnings = warnings
        for warning in warnings:
            self.notify(warning, title="Settings", severity="warning", timeout=20)
        # The first frame showed the preview; the loaded settings may differ from it.
        self._apply_settings()

    def _settings_failed(self, error: SettingsError) -> None:
        if self.settings_error is None:
            self.settings_error = error
            self.exit(return_code=1)

    def _apply_settings(self) -> None:
        """Theme, keymap and connection from the settings (or the preview, at mount)."""
        settings = self._frame_settings
        theme = settings.theme
        if theme and theme in self.available_themes and theme != self.theme:
            self.theme = theme
        keys = current_keymap(dict(settings.keys or {}))
        if keys and keys != self._keymap_applied:
            self.set_keymap(keys)
            self._keymap_applied = keys
        self._publish_connection()

    # --- where requests go ---------------------------------------------------------

    @property
    def is_sandbox(self) -> bool:
        """True when the built-in sandbox is used (the one rule: settings_preview.is_sandbox)."""
        base_url = self._frame_settings.base_url
        return is_sandbox(str(base_url) if base_url else None)

    @property
    def connection(self) -> Connection:
        """``SANDBOX`` or the live host, plus ``OFFLINE`` when offline."""
        settings = self._frame_settings
        if self.is_sandbox:
            badge = "SANDBOX"
        else:
            shown = shown_url(str(settings.base_url))
            badge = urlsplit(shown).netloc or shown
        if settings.offline:
            badge += " · OFFLINE"
        return Connection(badge, live=not self.is_sandbox, offline=bool(settings.offline))

    def _publish_connection(self) -> None:
        # Every area's header and the Settings form follow it; only changes are news.
        connection = self.connection
        if connection != self._connection_published:
            self._connection_published = connection
            self.signals.connection_changed.publish(connection)

    # --- the theme, remembered -------------------------------------------------------

    def _remember_theme(self, theme: Theme) -> None:
        if self.settings.theme == theme.name:
            return
        self.settings = self.settings.model_copy(update={"theme": theme.name})
        if not in_web_tab(self):  # a web tab's theme is its own; the config stays as it is
            self._save_settings(self.settings)

    @work(thread=True, group="settings", description="Save settings", exit_on_error=False)
    def _save_settings(self, settings: Settings) -> None:
        # A failure (an unwritable config file) reaches the app's worker-failure handler.
        from creditscope.settings import save_settings

        save_settings(settings)

    def config_path(self) -> Path | None:
        """Where settings are saved, when known."""
        path = self._frame_settings.config_file
        return Path(path) if path else None
