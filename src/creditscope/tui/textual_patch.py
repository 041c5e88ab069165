"""The one place the explorer reaches into Textual's internals, for the pinned Textual only.

Two workarounds, each applied only to the Textual version it was read against.

1. Stylesheet refresh on a mode's first visit. What it works around: since Textual
0.86 (PR Textualize/textual#5211, fixing issue #5210, "refresh on mode switch"; its
description says the refresh "could be improved upon in future, by avoiding a CSS
refresh when not strictly required"), ``App._init_mode`` and ``App.switch_mode``
call ``refresh_css()`` whenever a screen's ``_css_update_count`` differs from the
app's. A screen made for a mode starts at -1, so the first visit of every area
re-parses every stylesheet from scratch and restyles the whole app, twice: ~25 ms of
the first frame and ~90 ms on each area's first visit here. A screen that is not
mounted yet is styled with the current stylesheet when it mounts, so marking it
current skips only that redundant work.

2. ``StylesCache.get_inner_outer`` is an ``lru_cache(1024)`` on an instance method
(Textual issue #6665), so it keys on, and keeps alive, up to 1024 widgets' style
caches with every line they rendered, long after the widgets are gone: ~28 MB
after ``benchmarks/memory.py``'s journey. The answer depends on the two colours
only, so :func:`cache_inner_outer_by_colour` caches by those.

On any other Textual the explorer is just slower (or larger), and
``tests/tui/test_textual_patch.py`` fails until the patches are checked again
(or removed, once Textual fixes them).
"""

from __future__ import annotations

from functools import cache, lru_cache
from importlib.metadata import version

from textual._styles_cache import StylesCache
from textual.app import App
from textual.color import Color
from textual.screen import Screen
from textual.style import Style

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


@lru_cache(1024)
def _inner_outer(base_background: Color, background: Color) -> tuple[Style, Style]:
    return Style(background=base_background + background), Style(background=base_background)


def _get_inner_outer(
    self: StylesCache, base_background: Color, background: Color
) -> tuple[Style, Style]:
    """Textual's ``StylesCache.get_inner_outer``, cached by the colours alone."""
    return _inner_outer(base_background, background)


def cache_inner_outer_by_colour() -> bool:
    """Stop ``StylesCache.get_inner_outer`` keeping style caches alive; True when applied."""
    current = StylesCache.__dict__.get("get_inner_outer")
    if current is _get_inner_outer:
        return True
    clear = getattr(current, "cache_clear", None)
    if not applies() or clear is None:
        return False
    clear()
    # Textual declares the attribute as an lru_cache wrapper: hence both codes.
    StylesCache.get_inner_outer = _get_inner_outer  # type: ignore[method-assign,assignment]
    return True
