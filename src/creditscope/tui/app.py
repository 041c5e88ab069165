"""The explorer application: one mode per main area, start-up, keys, and failed workers.

What the app owns is split by job: :mod:`creditscope.tui.app_settings` (the
settings, the header badge, theme and keymap) and
:mod:`creditscope.tui.app_client` (the data client and the credit figures).
Screens and widgets reach all of it through :func:`creditscope.tui.host.host_of`
and follow app-wide state through its signals, never through app reactives.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import PurePath
from typing import TYPE_CHECKING, ClassVar

from textual import events, on
from textual.app import App
from textual.binding import Binding, BindingType
from textual.worker import Worker, WorkerState

from creditscope.link_safety import link_refusal
from creditscope.outside_text import shown
from creditscope.settings_preview import SettingsPreview
from creditscope.tui.app_client import ClientApp, ClientFactory
from creditscope.tui.host import Clock, ExplorerHost
from creditscope.tui.key_order import KeyQueue
from creditscope.tui.navigation import NavEntry, ordered_entries
from creditscope.tui.palette import ScreenCommands
from creditscope.tui.stylesheets import ALL_SHEETS, split_for_first_frame
from creditscope.tui.textual_patch import (
    after_first_frame,
    cache_inner_outer_by_colour,
    guard_outside_text,
    mark_styles_current,
    patch_app,
    read_escape_then_key,
    strip_caches_on_first_use,
)

if TYPE_CHECKING:
    from textual.screen import Screen

    from creditscope.settings import Settings
    from creditscope.tui.screens.base import AreaScreen
    from creditscope.tui.tour.driver import TourDriver, TourOptions


def _nav_bindings() -> list[BindingType]:
    return [
        Binding(entry.key, f"app.go('{entry.mode}')", entry.title, show=False, id=entry.binding_id)
        for entry in ordered_entries()
    ]


def _screen_factory(app: CreditscopeApp, entry: NavEntry) -> Callable[[], Screen[None]]:
    # Imported on first visit of the area, not at start-up; a broken area
    # shows its error instead of taking the whole explorer down.
    def build() -> Screen[None]:
        screen: Screen[None]
        try:
            screen = entry.load()()
        except Exception as error:
            from creditscope.tui.screens.base import UnavailableAreaScreen

            screen = UnavailableAreaScreen(entry.title, error)
        mark_styles_current(app, screen)
        app.fit_new_screen(screen)
        return screen

    return build


class CreditscopeApp(ClientApp):
    """The creditscope explorer: one mode per main area, a live credit meter, a call inspector."""

    # Every stylesheet, loaded by the app (no screen has its own); the first frame reads
    # only its own area's and the shared one (stylesheets.py).
    CSS_PATH: ClassVar[list[str | PurePath]] = list(ALL_SHEETS)
    TITLE = "creditscope"
    COMMANDS = App.COMMANDS | {ScreenCommands}
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f1,question_mark", "help", "Help", id="app.help"),
        Binding("f2", "tour", "Guided tour", show=False, id="app.tour"),
        Binding("ctrl+q", "quit", "Quit", id="app.quit", priority=True),
        *_nav_bindings(),
    ]

    def __init__(
        self,
        settings: Settings | SettingsPreview,
        *,
        client_factory: ClientFactory | None = None,
        clock: Clock | None = None,
        initial_mode: str | None = None,
        tour: TourOptions | None = None,
    ) -> None:
        """``initial_mode`` opens another area than the first (e.g. ``"catalog"``);
        ``tour`` plays the guided tour once the client is ready (``creditscope demo``).

        ``settings`` may be a preview (what the first frame needs): the settings are
        loaded after the first frame; an unusable value ends the app with
        ``settings_error`` set.
        """
        super().__init__(settings, client_factory=client_factory)
        # Textual patches (textual_patch): a widget's error reported, the first frame
        # noticed, closing while an area opens; rendered lines that outlive widgets; a
        # quick Escape, 3 is not "£".
        patch_app(self, self.report_widget_error)
        cache_inner_outer_by_colour()
        read_escape_then_key()
        strip_caches_on_first_use()
        self.initial_mode = initial_mode
        self.css_path, self._later_sheets = split_for_first_frame(
            self.css_path, initial_mode or ordered_entries()[0].mode)
        self._first_area_shown = False
        self.clock: Clock = clock or (lambda: datetime.now(UTC))
        self.tour: TourDriver | None = None
        """The guided tour while it plays (F2, ``creditscope demo``); None otherwise."""
        self._tour_at_start = tour
        self._showing_first_area = False
        self._typed = KeyQueue(self, self._deliver_typed)
        for entry in ordered_entries():
            self.add_mode(entry.mode, _screen_factory(self, entry))

    # --- start-up -------------------------------------------------------------

    def on_mount(self) -> None:
        """Apply theme and keymap, show the first area, and start building the client."""
        self._apply_settings()
        self.theme_changed_signal.subscribe(self, self._remember_theme)
        self._showing_first_area = True
        try:
            self.switch_mode(self.initial_mode or ordered_entries()[0].mode)
        finally:
            self._showing_first_area = False
            self._first_area_shown = True
        # Build the client only once the first frame is on the terminal: its imports
        # (pydantic, httpx, FastAPI for the sandbox) hold the GIL in a thread and would
        # otherwise delay it.
        after_first_frame(self, self._after_first_frame)
        # A cold start puts the cursor in the area's search box: a city typed at once
        # lands there instead of firing single-letter keys (Escape, then 1-7, to switch).
        first = self.screen
        after_first_frame(self, lambda: self._focus_search_box(first))

    def open_url(self, url: str, *, new_tab: bool = True) -> None:
        """Open ``url`` in the browser only if it is a web link (``link_safety``): every
        path to the browser (a terminal's, or a web tab's ``window.open``) passes here.
        Anything else is named, as text, with why it was not opened."""
        refusal = link_refusal(url)
        if refusal is not None:
            named = url if len(url) <= 200 else f"{url[:199]}…"  # a data: URL runs long
            self.notify(f"{shown(named)}\nNot opened: {refusal}.", title="Link not opened",
                        severity="warning", markup=False)
            return
        super().open_url(url, new_tab=new_tab)

    def read_later_stylesheets(self) -> None:
        """Read the stylesheets the first frame left out (once; see stylesheets.py)."""
        if self._later_sheets:
            self.stylesheet.read_all(self._later_sheets)
            self.css_path += self._later_sheets
            self._later_sheets = []

    def _load_screen_css(self, screen: Screen[object]) -> None:
        """Textual's step before it shows any screen: every screen after the first area's
        (an area, help, a dialog) sees every stylesheet, even before the first frame is
        drawn. (A Textual without this step still reads them after the first frame.)"""
        if self._first_area_shown:
            self.read_later_stylesheets()
        super()._load_screen_css(screen)

    def delay_update(self, delay: float = 0.05) -> None:
        """Textual's, except while ``switch_mode`` shows the first area: it holds every
        update for 50 ms to mask a switch, but at start-up there is nothing to mask and
        the first frame would wait for it."""
        if not self._showing_first_area:
            super().delay_update(delay)

    def _focus_search_box(self, screen: Screen[object]) -> None:
        """The cursor into ``screen``'s search box, unless the user has moved on."""
        from creditscope.tui.screens.base import AreaScreen

        if screen is self.screen and isinstance(screen, AreaScreen) and screen.focused is None:
            screen.offer_main_field()

    def _after_first_frame(self) -> None:
        # CREDITSCOPE_EXIT_AFTER_FIRST_FRAME=1: quit here, to profile start-up end to end
        # (python -X importtime, cProfile); see benchmarks/first_frame.py.
        if os.environ.get("CREDITSCOPE_EXIT_AFTER_FIRST_FRAME"):
            self.exit()
            return
        self.read_later_stylesheets()
        # Before any outside text can be drawn (it all comes through the client): see
        # textual_patch, 12 and 14.
        guard_outside_text()
        self.start_client()
        if self._tour_at_start is not None:
            self.start_tour(self._tour_at_start)

    async def on_event(self, event: events.Event) -> None:
        """Keys and pastes go out one at a time, each where the one before left the focus
        (key_order); ``/`` in an empty search box is the habit of pressing ``/`` first,
        not a character. While the tour plays, it sees the visitor's keys first (they
        pause, step or stop it)."""
        if isinstance(event, events.InputEvent | events.Paste):
            self.idle_collector.noticed_input()
        scripted = self.tour is not None and self.tour.posted(event)
        if (self.tour is not None and isinstance(event, events.InputEvent | events.Paste)
                and not event.is_forwarded and self.tour.intercept(event)):
            return
        if isinstance(event, events.Key | events.Paste) and not event.is_forwarded:
            await self._typed.take(event, scripted=scripted)
            return
        await super().on_event(event)

    async def _deliver_typed(self, event: events.Event) -> None:
        if isinstance(event, events.Key) and event.key == "slash":
            screen = self._in_empty_search_box()
            if screen is not None:
                screen.action_focus_main()  # chosen now: what follows is for it, digits too
                return
        await super().on_event(event)

    def _in_empty_search_box(self) -> AreaScreen | None:
        """The area whose empty search box has the cursor (None when there is none)."""
        from creditscope.tui.screens.base import AreaScreen

        screen = self.screen
        if not isinstance(screen, AreaScreen):
            return None
        field = screen.main_field()
        return screen if field is not None and field.has_focus and not field.value else None

    # --- failed workers ---------------------------------------------------------------

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """Every failed worker reaches the user: a notification with the next step, and the log.

        The app's own workers report here; screens forward theirs (worker messages do
        not bubble); a call's worker shows its error in place (ResultArea) instead.
        """
        if event.state == WorkerState.ERROR and event.worker.error is not None:
            from creditscope.tui.failures import report_failure

            report_failure(self, event.worker.description or event.worker.name,
                           event.worker.error)

    def report_widget_error(self, where: str, error: Exception) -> None:
        """A bug in one widget: say so, keep a report to attach, and keep the session."""
        from creditscope.tui.failures import report_unexpected

        report_unexpected(self, where, error)

    # --- the guided tour ----------------------------------------------------------------

    def action_tour(self) -> None:
        """F2: play the guided tour (on the sandbox only; any key but Space and the
        arrows hands the explorer back)."""
        if self.tour is None:
            self.start_tour()

    def start_tour(self, options: TourOptions | None = None) -> TourDriver:
        """Start the tour (imported now: the first frame never loads it)."""
        from creditscope.tui.tour.driver import TourDriver, TourOptions

        if self.tour is not None:
            self.tour.stop()
        self.tour = TourDriver(self, options or TourOptions())
        self.tour.start()
        return self.tour

    @on(events.Unmount)
    def _end_tour(self) -> None:
        """A tour still playing ends with the explorer."""
        if self.tour is not None:
            self.tour.stop()

    # --- navigation, help -------------------------------------------------------------

    def action_go(self, mode: str) -> None:
        """Switch to a main area (each keeps its own screen stack)."""
        self.switch_mode(mode)

    def action_help(self) -> None:
        """Show every key of the current screen and the global ones."""
        from creditscope.tui.screens.help import HelpScreen

        if isinstance(self.screen, HelpScreen):
            return
        self.push_screen(HelpScreen(self.screen))

    def action_open_har(self, path: str) -> None:
        """List a customer's HAR file's requests (Import request hands a pasted path here)."""
        from pathlib import Path

        from creditscope.tui.screens.har_import import HarImportScreen

        self.push_screen(HarImportScreen(Path(path)))


if TYPE_CHECKING:

    def _implements_the_host(app: CreditscopeApp) -> ExplorerHost:
        return app  # mypy checks here that the app offers everything ExplorerHost promises
