"""What a person sees on the explorer's screen, as text: for asserting prices are shown."""

from __future__ import annotations

from typing import Any

from textual.app import App
from textual.widgets import Button, Static, Tab

from textual_internals import shown_notifications


def footer_text(app: App[Any]) -> str:
    """The footer's keys as shown: ``^r Refresh · 3 cr  / Location …``."""
    from creditscope.tui.widgets.footer import Footer

    parts = [f"{placed.key.display} {placed.key.description}"
             for footer in app.screen.query(Footer) for placed in footer.placed_keys()]
    return "  ".join(parts)


def visible_text(app: App[Any]) -> str:
    """Every visible button, tab, footer key and text block of the top screen (and of a
    dialog over it), one per line."""
    lines: list[str] = []
    for screen in app.screen_stack[-2:]:
        for widget in screen.query("*"):
            if not widget.display or not widget.visible:
                continue
            if isinstance(widget, Button | Tab):
                lines.append(str(widget.label))
            elif isinstance(widget, Static):
                lines.append(str(widget.render()))
    lines.append(footer_text(app))
    for notification in shown_notifications(app):
        lines.append(f"{notification.title}: {notification.message}")
    return "\n".join(lines)


def screen_rows(app: App[Any]) -> list[str]:
    """The top screen as drawn, one string per terminal row (the topmost widget's
    character in each cell)."""
    from .contrast import screen_cells

    width, height = app.size
    rows = [[" "] * width for _ in range(height)]
    for (x, y), (char, *_) in screen_cells(app).items():
        if 0 <= y < height and 0 <= x < width:
            rows[y][x] = char
    return ["".join(row) for row in rows]

