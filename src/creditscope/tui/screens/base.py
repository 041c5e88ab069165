"""The frame of every main area: header with the credit meter, nav bar, body, footer.

A data screen subclasses :class:`AreaScreen` and implements ``compose_body``;
it can add command-palette entries with ``palette_commands``::

    class RestaurantsScreen(AreaScreen):
        BINDINGS = [Binding("ctrl+r", "refresh", "Refresh", id="restaurants.refresh")]

        def compose_body(self) -> ComposeResult:
            with ResultArea(id="results"):
                yield DataTable()

        def palette_commands(self) -> Iterable[PaletteCommand]:
            yield PaletteCommand("Refresh results", "Fetch again (2 cr)", self.action_refresh)

Detail screens pushed inside an area (``self.app.push_screen(...)``) can
subclass it too; ``escape`` pops back to the area's base screen.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Input, Static

from creditscope.tui.palette import PaletteCommand
from creditscope.tui.widgets.app_header import AppHeader
from creditscope.tui.widgets.footer import Footer  # Textual's, without its key leak
from creditscope.tui.widgets.nav_bar import NavBar


class AreaScreen(Screen[None]):
    """Header, nav bar and footer around a body the subclass composes."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", "Back", show=False, id="screen.back"),
    ]

    def compose(self) -> ComposeResult:
        """The shared frame; the subclass fills ``compose_body``."""
        yield AppHeader()
        yield NavBar()
        with Vertical(classes="area-body"):
            yield from self.compose_body()
        yield Footer()

    def compose_body(self) -> ComposeResult:
        """The area's own widgets. Override this."""
        yield from ()

    def palette_commands(self) -> Iterable[PaletteCommand]:
        """This screen's main actions for the command palette. Override to add some."""
        return ()

    def on_screen_resume(self) -> None:
        """Highlight this area in the nav bar (the mode is known by now)."""
        app: Any = self.app
        self.query_one(NavBar).highlight(app.current_mode)

    def action_back(self) -> None:
        """Leave a text field (so number keys navigate again), else pop a detail screen."""
        # Imported here: TextArea (and its document modules) are not in the first frame.
        from textual.widgets import TextArea

        if isinstance(self.focused, Input | TextArea):
            self.set_focus(None)
        elif len(self.app.screen_stack) > 1:
            self.app.pop_screen()


class UnavailableAreaScreen(AreaScreen):
    """Stands in for an area whose screen could not be loaded, saying why."""

    def __init__(self, title: str, error: BaseException) -> None:
        super().__init__()
        self.area_title = title
        self.error = error

    def compose_body(self) -> ComposeResult:
        """The error, in place of the area."""
        yield Static(
            f"[b]{self.area_title} is unavailable[/b]\n\n{type(self.error).__name__}: {self.error}",
            classes="empty",
        )
