"""Outlining the form field a refusal names (``-invalid``), for :class:`ResultArea`.

This runs on every key typed in a form (the outline goes once the fix is under way),
so fields named by id are found through ``query_one``, which keeps what it found.
"""

from __future__ import annotations

from collections.abc import Mapping

from textual.css.query import NoMatches
from textual.widget import Widget


def mark_field(screen: Widget, fields: Mapping[str, str], field: str | None, *,
               focus: bool = False) -> Widget | None:
    """Outline the widget holding ``field`` (``fields`` maps a request field to a selector
    on ``screen``) and only it; None clears every outline. Returns that widget (focused
    if asked), or None when no widget holds it."""
    bad = fields.get(field or "")
    marked: Widget | None = None
    for selector in dict.fromkeys(fields.values()):
        for widget in _matching(screen, selector):
            widget.set_class(selector == bad, "-invalid")
            if selector == bad and marked is None:
                marked = widget
    if marked is not None and focus:
        marked.focus()
    return marked


def _matching(screen: Widget, selector: str) -> list[Widget]:
    """The widgets ``selector`` names on ``screen``; an id through ``query_one``."""
    if selector.startswith("#") and selector[1:].replace("-", "").replace("_", "").isalnum():
        try:
            return [screen.query_one(selector)]
        except NoMatches:
            return []
    return list(screen.query(selector))
