"""A form field's label: its border title, as every area's forms show it."""

from __future__ import annotations

from typing import TypeVar

from textual.widget import Widget

FieldT = TypeVar("FieldT", bound=Widget)


def labelled(field: FieldT, label: str) -> FieldT:
    """``field`` with ``label`` as its border title (shown where the box has a border)."""
    field.border_title = label
    return field
