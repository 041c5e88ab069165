"""The one place the explorer reaches into Textual's internals, for the pinned Textual only.

What it works around: since Textual 0.86 (PR Textualize/textual#5211, fixing
issue #5210, "refresh on mode switch"; its description says the refresh
"could be improved upon in future, by avoiding a CSS refresh when not strictly
required"), ``App._init_mode`` and ``App.switch_mode`` call ``refresh_css()``
whenever a screen's ``_css_update_count`` differs from the app's. A screen
made for a mode starts at -1, so the first visit of every area re-parses every
stylesheet from scratch and restyles the whole app, twice: ~25 ms of the first
frame and ~90 ms on each area's first visit here. A screen that is not mounted
yet is styled with the current stylesheet when it mounts, so marking it
current skips only that redundant work.

Only applied to the Textual version it was checked against; on any other the
explorer is just slower, and ``tests/tui/test_textual_patch.py`` fails until
the patch is checked again (or removed, once Textual stops the refresh).
"""

from __future__ import annotations

from functools import cache
from importlib.metadata import version

from textual.app import App
from textual.screen import Screen

CHECKED_TEXTUAL = "8.2.8"
"""The Textual version whose ``App._init_mode`` / ``switch_mode`` this was read against."""


@cache
def applies() -> bool:
    """True when the installed Textual is the one this patch was checked against."""
    return version("textual") == CHECKED_TEXTUAL


def mark_styles_current(app: App[None], screen: Screen[None]) -> None:
    """Tell Textual that ``screen`` (new, not mounted) needs no stylesheet refresh."""
    if applies() and not screen.is_mounted:
        screen._css_update_count = app._css_update_count
