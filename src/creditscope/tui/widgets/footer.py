"""Textual's footer, with prices and without keys that would type, minus its leak.

- A key that spends says so: ``^r Re-check · N cr`` (see :mod:`creditscope.tui.key_costs`).
- While a text box has focus, a key it would type (``/``, ``c``) is not offered.
- Keys it rebuilt are let go of. Each ``FooterKey`` is data-bound to the footer's
  ``compact``, and Textual forgets the bindings of removed keys only when that
  reactive next changes (only when the terminal crosses the narrow width): every
  key built on every focus move stayed alive (tests/tui/test_leaks.py).
- A rebuild that arrives after its screen has gone does nothing. Textual schedules
  it "after the next refresh"; closing the screen in between (Escape, then a number
  key within half a second) left it composing against no screen: ``NoScreen``, and
  the app exited with the session.
- Only the keys that fit are shown, whole. Textual lays the rest out under the palette key
  (docked right), which showed the start of one ("/ L") beside it.
- Keys are rebuilt only when what they say changed. Textual rebuilds them on every
  bindings update (several per key press: focus moves, price labels), and each
  rebuild lays out and redraws the whole screen: ten per restaurant tab switch.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from rich.cells import cell_len
from textual import events
from textual.dom import NoScreen
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Footer as TextualFooter

from creditscope.tui.key_costs import (
    Priced,
    cost_of_binding,
    is_text_box,
    types_a_character,
    with_cost,
)
from creditscope.tui.textual_patch import (
    footer_key_fields,
    footer_keys_from_the_start,
    price_footer_key,
)

NARROW_WIDTH = 100  # the app's "-narrow" breakpoint


KeySignature = tuple[Any, ...]


def key_signature(widget: Widget) -> KeySignature:
    """What a footer child shows and does."""
    return (type(widget).__name__, tuple(sorted(widget.classes)), footer_key_fields(widget),
            widget.tooltip)


def key_width(widget: Widget, *, compact: bool) -> int:
    """The cells a footer key takes in the bar, by Textual's footer styles (key, description,
    their padding; a compact footer's keys have a margin, the palette key a left border)."""
    fields = footer_key_fields(widget)
    if fields is None or not fields.key_display:
        return 0  # a group or label: not measured here
    key, description = cell_len(fields.key_display), cell_len(fields.description)
    if "-command-palette" in widget.classes:
        # The palette key is not bound to the footer's compact: its key is unpadded.
        return 1 + key + 1 + description + (0 if compact else 1)
    if compact:
        return key + 1 + description + 1
    return 1 + key + 1 + description + 1


class Footer(TextualFooter):
    """The key bar: priced keys, no keys the focused field would type."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._shown: list[KeySignature] | None = None  # what the keys on screen say

    def _own_screen(self) -> Screen[object] | None:
        """The screen this footer is on, or None once it has been removed from it."""
        if not self.is_attached:
            return None
        try:
            return self.screen
        except NoScreen:
            return None

    def compose(self) -> Iterator[Widget]:
        """Textual's keys, filtered and priced (none once the screen has gone)."""
        screen = self._own_screen()
        if screen is None:
            return
        # Textual's footer shows no keys until the screen first announces its bindings
        # (a second frame); ours shows the screen's keys from its first frame.
        footer_keys_from_the_start(self)
        tight = self.app.size.width < NARROW_WIDTH
        typing = is_text_box(screen.focused)
        costs: dict[str, Priced] = {}
        for active in screen.active_bindings.values():
            cost = cost_of_binding(active.node, active.binding.id)
            if cost:
                costs[active.binding.action] = cost
        priced: list[Widget] = []
        others: list[Widget] = []
        for widget in super().compose():
            fields = footer_key_fields(widget)
            if fields is not None:
                if typing and types_a_character(fields.key):
                    continue
                if fields.action in costs and fields.description:
                    price_footer_key(widget, with_cost(fields.description, costs[fields.action],
                                                       tight=tight))
                    priced.append(widget)
                    continue
            others.append(widget)
        # Keys that spend first: a narrow terminal drops the footer's last keys, never a price.
        keys = [*priced, *others]
        palette = [key for key in keys if "-command-palette" in key.classes]
        room = self.app.size.width - sum(key_width(key, compact=tight) for key in palette)
        shown: list[Widget] = []
        for key in keys:
            if key not in palette:
                width = key_width(key, compact=tight)
                if width > room:
                    continue  # it would be drawn half under the palette key
                room -= width
            shown.append(key)
        if not self.is_mounted:  # the first keys: what recompose compares with
            self._shown = [key_signature(key) for key in shown]
        yield from shown

    def on_resize(self, event: events.Resize) -> None:
        """Tighter keys on a narrow terminal, so the priced ones still fit."""
        narrow = event.size.width < NARROW_WIDTH
        if narrow != self.compact:
            self.compact = narrow
            self.refresh(recompose=True)  # the priced keys' wording depends on the width

    async def recompose(self) -> None:
        """Rebuild the keys when what they say changed, then forget the removed keys'
        watchers."""
        if self._own_screen() is None:
            return  # the screen closed between the request and now: nothing to show
        wanted = [key_signature(widget) for widget in self.compose()]
        if wanted == self._shown:
            return
        self._shown = wanted
        await super().recompose()
        # Textual drops the watchers of removed nodes when a reactive's watchers run, so
        # run them now (same value: nothing changes on screen) and the old keys can go.
        self.mutate_reactive(TextualFooter.compact)
