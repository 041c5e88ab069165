"""Label/value rows of a Rich grid (an event's, a restaurant's, a company's facts) whose
values are the service's words.

Rich reads a string cell as markup: an address holding ``[/]`` broke the whole panel
(MarkupError), and ``[b]`` or ``[@click=…]`` would style it or name an action. A value
given as a string is added as plain text, so it shows exactly as sent.
"""

from __future__ import annotations

from rich.console import RenderableType
from rich.table import Table
from rich.text import Text


def add_fact(grid: Table, label: str, value: RenderableType) -> None:
    """Add ``label`` (ours) and ``value``: a string as plain text, never markup."""
    grid.add_row(label, Text(value) if isinstance(value, str) else value)
