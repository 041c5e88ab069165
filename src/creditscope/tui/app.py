"""The explorer application: modes, navigation, the client's lifecycle, themes and keys.

The first frame (header, nav bar, footer) is drawn before the data client
exists: the client, httpx and the sandbox are imported and built in a worker,
which posts :class:`ClientReady`. Screens never build the client; they run
calls through :class:`creditscope.tui.widgets.result_area.ResultArea`, which
waits for it (see :mod:`creditscope.tui.calls`).
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar
from urllib.parse import urlsplit

from textual import on, work
from textual.app import App
from textual.binding import Binding, BindingType
from textual.reactive import reactive

from creditscope.sandbox import SANDBOX_BASE_URL
from creditscope.tui.messages import ClientFailed, ClientReady, CreditSnapshot, LedgerChanged
from creditscope.tui.navigation import NavEntry, ordered_entries
from creditscope.tui.palette import ScreenCommands

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


def _screen_factory(entry: NavEntry) -> Callable[[], Screen]:
    # Imported on first visit of the area, not at start-up; a broken area
    # shows its error instead of taking the whole explorer down.
    def build() -> Screen:
        try:
            return entry.load()()
        except Exception as error:
            from creditscope.tui.screens.base import UnavailableAreaScreen

            return UnavailableAreaScreen(entry.title, error)

    return build


class CreditscopeApp(App[None]):
    """The creditscope explorer: one mode per main area, a live credit meter, a call inspector."""

    CSS_PATH = "app.tcss"
    TITLE = "creditscope"
    COMMANDS = App.COMMANDS | {ScreenCommands}
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("question_mark,f1", "help", "Help", id="app.help"),
        Binding("ctrl+q", "quit", "Quit", id="app.quit", priority=True),
        *_nav_bindings(),
    ]

    credits: reactive[CreditSnapshot] = reactive(CreditSnapshot, init=False)
    """What the header meter shows; replaced after every recorded call."""
    client_generation: reactive[int] = reactive(0, init=False)
    """Incremented each time a (re)built client becomes ready."""

    def __init__(
        self,
        settings: Settings,
        *,
        client_factory: ClientFactory | None = None,
        clock: Clock | None = None,
        initial_mode: str | None = None,
    ) -> None:
        """``initial_mode`` opens another area than the first (e.g. ``"catalog"``)."""
        super().__init__()
        self.initial_mode = initial_mode
        self.settings = settings
        self.client_factory = client_factory
        self.clock: Clock = clock or (lambda: datetime.now(UTC))
        self.client: DataClient | None = None
        self.client_error: BaseException | None = None
        self._client_event = asyncio.Event()
        self._unsubscribe_ledger: Callable[[], None] | None = None
        for entry in ordered_entries():
            self.add_mode(entry.mode, _screen_factory(entry))

    # --- start-up -------------------------------------------------------------

    def on_mount(self) -> None:
        """Apply theme and keymap, show the first area, and start building the client."""
        theme = getattr(self.settings, "theme", None)
        if theme and theme in self.available_themes:
            self.theme = theme
        keys = getattr(self.settings, "keys", None) or {}
        if keys:
            self.set_keymap(dict(keys))
        self.theme_changed_signal.subscribe(self, self._remember_theme)
        self.switch_mode(self.initial_mode or ordered_entries()[0].mode)
        # Build the client only after the first full frame is painted: its imports
        # (httpx, FastAPI for the sandbox) hold the GIL in a thread and would
        # otherwise delay it. Two refreshes: the Footer fills its keys in a
        # recompose scheduled after the first refresh.
        self.call_after_refresh(self.call_after_refresh, self.start_client)

    @property
    def is_sandbox(self) -> bool:
        """True when the configured base URL is the built-in sandbox (or none is set)."""
        base_url = getattr(self.settings, "base_url", None)
        return not base_url or str(base_url).rstrip("/") == SANDBOX_BASE_URL

    @property
    def mode_badge(self) -> str:
        """``SANDBOX`` or the live host, plus ``OFFLINE`` when offline."""
        if self.is_sandbox:
            badge = "SANDBOX"
        else:
            badge = urlsplit(str(self.settings.base_url)).netloc or str(self.settings.base_url)
        if getattr(self.settings, "offline", False):
            badge += " · OFFLINE"
        return badge

    @work(exclusive=True, group="client", description="Start the data client", exit_on_error=False,
          thread=True)
    def start_client(self) -> None:
        """Import and build the client off the event loop (FastAPI/httpx imports are slow)."""
        try:
            factory = self.client_factory
            if factory is None:
                from creditscope.client.factory import build_client

                factory = build_client
            client = factory(self.settings)
        except Exception as error:  # shown to the user, never a crash
            self.post_message(ClientFailed(error))
            return
        self.post_message(ClientReady(client))

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
        if ledger is None:
            return
        totals = ledger.session_totals()
        self.credits = CreditSnapshot(
            spent=int(_field(totals, "spent")),
            saved=int(_field(totals, "saved")),
            calls=int(_field(totals, "calls")),
            errors=int(_field(totals, "errors")),
            remaining=getattr(ledger, "remaining", None),
        )

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
        self._save_settings(self.settings)

    @work(thread=True, group="settings", description="Save settings", exit_on_error=False)
    def _save_settings(self, settings: Settings) -> None:
        from creditscope.settings import save_settings

        save_settings(settings)

    def config_path(self) -> Path | None:
        """Where settings are saved, when known."""
        path = getattr(self.settings, "config_file", None)
        return Path(path) if path else None


def _field(totals: Any, name: str) -> Any:
    if isinstance(totals, dict):
        return totals.get(name, 0) or 0
    return getattr(totals, name, 0) or 0
