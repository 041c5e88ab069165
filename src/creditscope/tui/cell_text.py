"""Text cut to a table cell's width, so the columns after it stay whole."""

from __future__ import annotations


def clip(text: str | None, width: int | None) -> str:
    """``text`` cut to ``width`` cells with an ellipsis when it is longer ("—" for none;
    a ``width`` of None keeps it whole)."""
    value = text or "—"
    if width is None or len(value) <= width:
        return value
    return value[: width - 1] + "…"
