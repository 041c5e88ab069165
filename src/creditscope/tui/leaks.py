"""Textual keeps some removed widgets alive; this module lets go of them.

Found by counting live objects after opening restaurants (benchmarks/memory.py):

- ``node.watch(app, "client_generation", ...)`` stores ``(node, callback)`` on
  the app, and Textual drops the pairs of closed nodes only when that attribute
  next changes. ``client_generation`` changes once per client build, so every
  popped restaurant screen stayed alive with all its widgets and rendered lines.
  Use :func:`watch_app` instead of ``self.watch(self.app, ...)`` and call
  :func:`drop_closed_watchers` when a pushed screen unmounts.
- Textual's ``Footer`` rebuilds its keys whenever the bindings change (every
  focus move); each ``FooterKey`` binds the footer's ``compact`` reactive, which
  never changes, so every key ever built stayed alive. Use
  :class:`creditscope.tui.widgets.footer.Footer`.
- ``StylesCache.get_inner_outer`` is an ``lru_cache(1024)`` on an instance
  method, so it keys on (and keeps) up to 1024 widgets' style caches, each with
  its rendered lines. :func:`_cache_inner_outer_by_colour` (applied on import)
  caches by the two colours alone, which is all the answer depends on.

Besides the memory, every live object is walked by each full garbage
collection: with the leaks, collections paused the UI for 200-300 ms.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from textual._styles_cache import StylesCache
from textual.color import Color
from textual.dom import DOMNode
from textual.style import Style


def drop_closed_watchers(watched: Any) -> None:
    """Forget every watcher on ``watched`` whose node is closing (Textual's rule, applied now)."""
    watchers: dict[str, list[tuple[Any, Any]]] = getattr(watched, "__watchers", {})
    for pairs in watchers.values():
        pairs[:] = [(node, callback) for node, callback in pairs if not node._closing]


def watch_app(node: DOMNode, attribute: str, callback: Any, *, init: bool = True) -> None:
    """``node.watch(node.app, attribute, callback)``, first dropping watchers of closed nodes."""
    app = node.app
    drop_closed_watchers(app)
    node.watch(app, attribute, callback, init=init)


@lru_cache(1024)
def _inner_outer(base_background: Color, background: Color) -> tuple[Style, Style]:
    return Style(background=base_background + background), Style(background=base_background)


def _cache_inner_outer_by_colour() -> None:
    """Make ``StylesCache.get_inner_outer`` cache by colours only (same answers, no widgets)."""
    current = StylesCache.__dict__.get("get_inner_outer")
    if not hasattr(current, "cache_clear"):  # a Textual that no longer caches per instance
        return

    def get_inner_outer(
        self: StylesCache, base_background: Color, background: Color
    ) -> tuple[Style, Style]:
        return _inner_outer(base_background, background)

    current.cache_clear()
    StylesCache.get_inner_outer = get_inner_outer  # type: ignore[method-assign]


_cache_inner_outer_by_colour()
