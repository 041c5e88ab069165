"""How the explorer fits the terminal it is given: size classes and readable colours.

- Every screen (modals too) gets one width class (``-narrow`` under 100 columns,
  ``-medium``, ``-wide`` from 160) and one height class (``-short`` under 30 rows,
  ``-medium-height``, ``-tall`` from 48), by Textual's breakpoints: the stylesheets
  stack forms on narrow terminals and give the data the room on large ones.
- Terminal colour names and the theme's text colours are made readable in either
  kind of theme (see :mod:`creditscope.tui.terminal_colors`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual.app import App
from textual.reactive import reactive

from creditscope.tui.terminal_colors import READABLE_ON_DARK, READABLE_ON_LIGHT, readable_variables

if TYPE_CHECKING:
    from textual.screen import Screen


class FittedApp(App[None]):
    """An App with size classes on its screens and readable colours in every theme."""

    HORIZONTAL_BREAKPOINTS: list[tuple[int, str]] | None = [
        (0, "-narrow"), (100, "-medium"), (160, "-wide"),
    ]
    VERTICAL_BREAKPOINTS: list[tuple[int, str]] | None = [
        (0, "-short"), (30, "-medium-height"), (48, "-tall"),
    ]

    # Terminal colour names ("green", "yellow") as readable true colours in either kind of theme.
    ansi_theme_dark = reactive(READABLE_ON_DARK, init=False)
    ansi_theme_light = reactive(READABLE_ON_LIGHT, init=False)

    def fit_new_screen(self, screen: Screen[Any]) -> None:
        """Give ``screen``, not yet mounted, the size classes Textual would add on its first
        Resize: there they would restyle every widget of the screen a second time."""
        width, height = self.size
        horizontal = (self.HORIZONTAL_BREAKPOINTS if screen.HORIZONTAL_BREAKPOINTS is None
                      else screen.HORIZONTAL_BREAKPOINTS)
        vertical = (self.VERTICAL_BREAKPOINTS if screen.VERTICAL_BREAKPOINTS is None
                    else screen.VERTICAL_BREAKPOINTS)
        # update=False: not mounted yet, it is styled as it mounts.
        screen.add_class(*_size_class(width, horizontal or []),
                         *_size_class(height, vertical or []), update=False)

    def get_css_variables(self) -> dict[str, str]:
        """The theme's variables, with text colours made readable on its backgrounds."""
        variables = readable_variables(super().get_css_variables())
        self.theme_variables = variables
        return variables


def _size_class(size: int, breakpoints: list[tuple[int, str]]) -> list[str]:
    """The class of the largest breakpoint ``size`` reaches, as Textual picks it."""
    for breakpoint, name in sorted(breakpoints, reverse=True):
        if size >= breakpoint:
            return [name]
    return []
