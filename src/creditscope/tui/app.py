"""The explorer application: modes, navigation, the client's lifecycle, themes and keys.

The first frame (header, nav bar, footer) is drawn before the data client
exists, and before the settings are loaded: the app may be given a
:class:`~creditscope.settings_preview.SettingsPreview` (no pydantic), reads the
theme, keys and badge from it, and loads the ``Settings`` in the client worker
(``settings`` loads them on first use if asked earlier). The
client, httpx and the sandbox are imported and built in that worker, which
posts :class:`ClientReady`. Screens never build the client; they run
calls through :class:`creditscope.tui.widgets.result_area.ResultArea`, which
waits for it (see :mod:`creditscope.tui.calls`).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import threading
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar
from urllib.parse import urlsplit

from textual import events, on, work
from textual.app import App
from textual.binding import Binding, BindingType
from textual.reactive import reactive

from creditscope.settings_preview import SettingsError, SettingsPreview, is_sandbox
from creditscope.tui.fit import FittedApp
from creditscope.tui.messages import ClientFailed, ClientReady, CreditSnapshot, LedgerChanged
from creditscope.tui.navigation import NavEntry, ordered_entries
from creditscope.tui.palette import ScreenCommands
from creditscope.tui.web_tab import in_web_tab
from creditscope.tui.widgets.credit_meter import snapshot_of
from creditscope.tui.widgets.text_input import take_typed_ahead

if TYPE_CHECKING:
    from textual.screen import Screen

    from creditscope.client.client import DataClient
    from creditscope.settings import Settings

ClientFactory = Callable[["Settings"], "DataClient"]
Clock = Callable[[], datetime]


def _nav_bindings() -> list[BindingType]:
    return [
        Binding(entry.key, f"app.go('{entry.mode}')", entry.title, show=False, id=entry.binding_id)
        for entry in ordered_entries()
    ]


def _screen_factory(app: CreditscopeApp, entry: NavEntry) -> Callable[[], Screen]:
    # Imported on first visit of the area, not at start-up; a broken area
    # shows its error instead of taking the whole explorer down.
    def build() -> Screen:
        try:
            screen = entry.load()()
        except Exception as error:
            from creditscope.tui.screens.base import UnavailableAreaScreen

            screen = UnavailableAreaScreen(entry.title, error)
        app.prepare_screen_css(screen)
        return screen

    return build


class CreditscopeApp(FittedApp):
    """The creditscope explorer: one mode per main area, a live credit meter, a call inspector."""

    CSS_PATH = "app.tcss"
    TITLE = "creditscope"
    COMMANDS = App.COMMANDS | {ScreenCommands}
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f1,question_mark", "help", "Help", id="app.help"),
        Binding("ctrl+q", "quit", "Quit", id="app.quit", priority=True),
        *_nav_bindings(),
    ]

    credits: reactive[CreditSnapshot] = reactive(CreditSnapshot, init=False)
    """What the header meter shows; replaced after every recorded call."""
    client_generation: reactive[int] = reactive(0, init=False)
    """Incremented each time a (re)built client becomes ready."""

    def __init__(
        self,
        settings: Settings | SettingsPreview,
        *,
        client_factory: ClientFactory | None = None,
        clock: Clock | None = None,
        initial_mode: str | None = None,
    ) -> None:
        """``initial_mode`` opens another area than the first (e.g. ``"catalog"``).

        ``settings`` may be a preview (what the first frame needs): the settings are
        loaded after the first frame; an unusable value ends the app with
        ``settings_error`` set.
        """
        super().__init__()
        self.initial_mode = initial_mode
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
        self.client_factory = client_factory
        self.clock: Clock = clock or (lambda: datetime.now(UTC))
        self.client: DataClient | None = None
        self.client_error: BaseException | None = None
        self._client_event = asyncio.Event()
        self._unsubscribe_ledger: Callable[[], None] | None = None
        self._spend_session: Any = None  # SpendSession: outlives every rebuilt client
        for entry in ordered_entries():
            self.add_mode(entry.mode, _screen_factory(self, entry))

    # --- settings ---------------------------------------------------------------

    @property
    def settings(self) -> Settings:
        """The validated settings (validated here, once, if the client worker has not yet)."""
        return self._validated_settings()

    @settings.setter
    def settings(self, settings: Settings) -> None:
        self._settings = settings
        self._pending_settings = None

    @property
    def _frame_settings(self) -> Any:
        """What the frame shows (theme, keys, badge): the settings, or the preview
        until they are loaded (same attribute names)."""
        return self._settings if self._settings is not None else self._pending_settings

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
        """Theme, keymap and header badge from the settings (or the layers, at mount)."""
        settings = self._frame_settings
        theme = getattr(settings, "theme", None)
        if theme and theme in self.available_themes and theme != self.theme:
            self.theme = theme
        keys = dict(getattr(settings, "keys", None) or {})
        if keys and keys != self._keymap_applied:
            self.set_keymap(keys)
            self._keymap_applied = keys
        if self.screen_stack:
            from creditscope.tui.widgets.app_header import AppHeader

            for header in self.screen.query(AppHeader):
                header.show_mode()

    def prepare_screen_css(self, screen: Screen) -> None:
        """Add a new area screen's stylesheet incrementally, before Textual shows it.

        Textual (8.2) re-parses every stylesheet from scratch when a mode's screen
        is first created: once to add its ``CSS_PATH``, and twice more (new CSS
        variables, full re-parse) because a new screen looks out of date (its
        ``_css_update_count``). A screen not mounted yet is styled with the current
        stylesheet when it mounts, so none of that is needed: reading its files
        here makes Textual find them loaded, and parsing stays incremental (Textual
        caches each source's rules). ~50 ms off the first frame and each first visit.
        """
        added = False
        for path in screen.css_path:
            if not self.stylesheet.has_source(str(path)):
                self.stylesheet.read(path)
                added = True
        if added and self.is_running:
            self.stylesheet.update(self)  # what Textual does after a screen's CSS: rules are global
        screen._css_update_count = self._css_update_count

    # --- start-up -------------------------------------------------------------

    def on_mount(self) -> None:
        """Apply theme and keymap, show the first area, and start building the client."""
        self._apply_settings()
        self.theme_changed_signal.subscribe(self, self._remember_theme)
        self.switch_mode(self.initial_mode or ordered_entries()[0].mode)
        # Build the client only after the first full frame is painted: its imports
        # (pydantic, httpx, FastAPI for the sandbox) hold the GIL in a thread and would
        # otherwise delay it. Two refreshes: the Footer fills its keys in a
        # recompose scheduled after the first refresh.
        self.call_after_refresh(self.call_after_refresh, self._after_first_frame)

    def _after_first_frame(self) -> None:
        # CREDITSCOPE_EXIT_AFTER_FIRST_FRAME=1: quit here, to profile start-up end to end
        # (python -X importtime, cProfile); see benchmarks/first_frame.py.
        if os.environ.get("CREDITSCOPE_EXIT_AFTER_FIRST_FRAME"):
            self.exit()
            return
        self.start_client()

    @property
    def is_sandbox(self) -> bool:
        """True when the built-in sandbox is used (the one rule: settings_preview.is_sandbox)."""
        return is_sandbox(getattr(self._frame_settings, "base_url", None))

    @property
    def mode_badge(self) -> str:
        """``SANDBOX`` or the live host, plus ``OFFLINE`` when offline."""
        settings = self._frame_settings
        if self.is_sandbox:
            badge = "SANDBOX"
        else:
            badge = urlsplit(str(settings.base_url)).netloc or str(settings.base_url)
        if getattr(settings, "offline", False):
            badge += " · OFFLINE"
        return badge

    @work(exclusive=True, group="client", description="Start the data client", exit_on_error=False,
          thread=True)
    def start_client(self) -> None:
        """Validate the settings, import and build the client, off the event loop
        (pydantic, FastAPI and httpx imports are slow)."""
        try:
            settings = self._validated_settings()
        except SettingsError:
            return  # the app exits with the error (_settings_failed)
        try:
            factory = self.client_factory
            if factory is None:
                from creditscope.client.factory import build_client

                factory = build_client
            client = factory(settings)
        except Exception as error:  # shown to the user, never a crash
            self.post_message(ClientFailed(error))
            return
        self._keep_session(client)
        self.post_message(ClientReady(client))

    def _keep_session(self, client: Any) -> None:
        """One session (budget, meter, Activity) for every client this explorer builds."""
        ledger = getattr(client, "ledger", None)
        if ledger is not None and hasattr(ledger, "session"):
            with self._settings_lock:
                self._spend_session = self._spend_session or ledger.session
                ledger.session = self._spend_session

    @on(ClientReady)
    def _client_ready(self, message: ClientReady) -> None:
        self.client = message.client
        self.client_error = None
        ledger = getattr(message.client, "ledger", None)
        if ledger is not None:
            self._unsubscribe_ledger = ledger.subscribe(self._on_ledger_record)
        self._client_event.set()
        self.client_generation += 1
        self._refresh_credits()
        # A damaged cache or ledger was set aside and rebuilt: say so, once per client.
        for warning in getattr(message.client, "storage_warnings", None) or []:
            self.notify(warning, title="Storage problem", severity="warning", timeout=20)

    @on(ClientFailed)
    def _client_failed(self, message: ClientFailed) -> None:
        self.client_error = message.error
        self._client_event.set()
        self.notify(
            f"{message.error}. Check Settings, or use the built-in sandbox.",
            title="Could not start the data client",
            severity="error",
            timeout=10,
        )

    async def wait_for_client(self) -> DataClient:
        """The data client, once ready. Raises the start-up error if building it failed."""
        await self._client_event.wait()
        if self.client is None:
            from creditscope.client.errors import CreditscopeError

            error = CreditscopeError(str(self.client_error or "the data client is not available"))
            error.title = "Could not start the data client"
            error.next_step = "Check the base URL in Settings, or use the built-in sandbox."
            raise error from self.client_error
        return self.client

    def rebuild_client(self, settings: Settings) -> None:
        """Swap in new settings: drop the current client and build a fresh one."""
        self.settings = settings
        if self._unsubscribe_ledger is not None:
            self._unsubscribe_ledger()
            self._unsubscribe_ledger = None
        old, self.client = self.client, None
        self._client_event.clear()
        if old is not None:
            self._close_client(old)
        self.start_client()

    @work(group="client-close", description="Close the previous client", exit_on_error=False)
    async def _close_client(self, client: Any) -> None:
        closer = getattr(client, "aclose", None)
        if closer is not None:
            await closer()

    async def on_unmount(self) -> None:
        """Close the client's connections when the app exits."""
        closer = getattr(self.client, "aclose", None)
        if closer is not None:
            with contextlib.suppress(Exception):  # closing is best effort at exit
                await closer()

    async def on_event(self, event: events.Event) -> None:
        """Keys typed ahead after a key that focused a field land in the field."""
        typed_ahead = isinstance(event, events.Key) and event.is_forwarded
        if not (typed_ahead and take_typed_ahead(self.focused, event)):  # type: ignore[arg-type]
            await super().on_event(event)

    # --- ledger -> meter ---------------------------------------------------------

    def _on_ledger_record(self, *args: Any) -> None:
        # The ledger may call back from a worker thread; messages are for the loop.
        record = args[0] if args else None
        if threading.get_ident() == self._thread_id:
            self.post_message(LedgerChanged(record))
        else:
            self.call_from_thread(self.post_message, LedgerChanged(record))

    @on(LedgerChanged)
    def _ledger_changed(self, _message: LedgerChanged) -> None:
        self._refresh_credits()

    def _refresh_credits(self) -> None:
        ledger = getattr(self.client, "ledger", None)
        if ledger is not None:
            self.credits = snapshot_of(ledger)

    # --- navigation, help, themes -----------------------------------------------

    def action_go(self, mode: str) -> None:
        """Switch to a main area (each keeps its own screen stack)."""
        self.switch_mode(mode)

    def action_help(self) -> None:
        """Show every key of the current screen and the global ones."""
        from creditscope.tui.screens.help import HelpScreen

        if isinstance(self.screen, HelpScreen):
            return
        self.push_screen(HelpScreen(self.screen))

    def go_online(self) -> None:
        """Leave offline mode (the next offline miss will be fetched)."""
        self.rebuild_client(self.settings.model_copy(update={"offline": False}))
        self.notify("Online: requests go to the service again.", title="Offline mode off")

    def _remember_theme(self, theme: Any) -> None:
        name = getattr(theme, "name", str(theme))
        if getattr(self.settings, "theme", None) == name:
            return
        self.settings = self.settings.model_copy(update={"theme": name})
        if not in_web_tab(self):  # a web tab's theme is its own; the config stays as it is
            self._save_settings(self.settings)

    @work(thread=True, group="settings", description="Save settings", exit_on_error=False)
    def _save_settings(self, settings: Settings) -> None:
        from creditscope.settings import save_settings

        save_settings(settings)

    def config_path(self) -> Path | None:
        """Where settings are saved, when known."""
        path = getattr(self._frame_settings, "config_file", None)
        return Path(path) if path else None

