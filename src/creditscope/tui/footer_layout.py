"""Where the footer's keys go in its one row: whole keys only, the palette key at the edge.

Each key is drawn as Textual's footer drew it, so the bar looks as it did:

- wide (``compact`` False): `` ^r Re-check · N cr `` (the key padded on both sides, the
  description followed by one space), keys side by side;
- compact (a terminal under 100 columns): ``^r Re-check·N cr`` and one blank cell after
  each key;
- the palette key, docked right: a thin rule, ``^p palette``, and one space when wide.

Keys are placed in the order given (most important first). One that does not fit in the
room left before the palette key is left out, whole, and a later, shorter one may still
fit: never half a key, never a key drawn under the palette key.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from rich.cells import cell_len

from creditscope.tui.footer_keys import OfferedKey


class Part(Enum):
    """What a run of a key's cells is, which decides its style."""

    RULE = "rule"  # the palette key's left edge
    KEY = "key"
    DESCRIPTION = "description"
    PAD = "pad"  # the key's own background, no text


PALETTE_RULE = "▏"  # Textual's "vkey" left border


@dataclass(frozen=True)
class Placed:
    """One key laid out in the bar: its cells from ``x``, in runs of text by part."""

    key: OfferedKey
    x: int
    runs: tuple[tuple[str, Part], ...]

    @property
    def width(self) -> int:
        return sum(cell_len(text) for text, _ in self.runs)

    @property
    def end(self) -> int:
        return self.x + self.width

    def holds(self, x: int) -> bool:
        """True when cell ``x`` of the bar is one of this key's (what a click there means)."""
        return self.x <= x < self.end


def key_runs(key: OfferedKey, *, compact: bool) -> tuple[tuple[str, Part], ...]:
    """The text of ``key`` as drawn, in runs of one part each."""
    if key.palette:  # Textual draws it compact whatever the bar, padded on the right when wide
        runs = [(PALETTE_RULE, Part.RULE), (key.display, Part.KEY),
                (f" {key.description}", Part.DESCRIPTION)]
        return (*runs, (" ", Part.PAD)) if not compact else tuple(runs)
    if not key.description:
        return ((key.display, Part.KEY),)
    if compact:
        return ((key.display, Part.KEY), (f" {key.description}", Part.DESCRIPTION))
    return ((f" {key.display} ", Part.KEY), (f"{key.description} ", Part.DESCRIPTION))


def place_keys(keys: list[OfferedKey], width: int, *, compact: bool) -> list[Placed]:
    """The keys that fit in a bar ``width`` cells wide, with where each starts."""
    gap = 1 if compact else 0  # a compact key's right margin
    palette = [Placed(key, 0, key_runs(key, compact=compact)) for key in keys if key.palette]
    room = width - sum(key.width for key in palette)
    placed: list[Placed] = []
    x = 0
    for key in keys:
        if key.palette:
            continue
        here = Placed(key, x, key_runs(key, compact=compact))
        taken = here.width + gap
        if taken > room:
            continue  # it would be drawn half under the palette key, or off the edge
        placed.append(here)
        x += taken
        room -= taken
    right = width
    for edge in reversed(palette):
        right -= edge.width
        placed.append(Placed(edge.key, right, edge.runs))
    return placed
