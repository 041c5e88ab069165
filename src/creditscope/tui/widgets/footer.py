"""Textual's footer, with prices and without keys that would type, minus its leak.

- A key that spends says so: ``r Re-check · 10 cr`` (see :mod:`creditscope.tui.key_costs`).
- While a text box has focus, a key it would type (``/``, ``c``) is not offered.
- Keys it rebuilt are let go of. Each ``FooterKey`` is data-bound to the footer's
  ``compact``, and Textual forgets the bindings of removed keys only when that
  reactive next changes (only when the terminal crosses the narrow width): every
  key built on every focus move stayed alive (tests/tui/test_leaks.py).
"""

from __future__ import annotations

from collections.abc import Iterator

from textual import events
from textual.widget import Widget
from textual.widgets import Footer as TextualFooter

from creditscope.tui.key_costs import cost_of_binding, is_text_box, types_a_character, with_cost

NARROW_WIDTH = 100  # the app's "-narrow" breakpoint


class Footer(TextualFooter):
    """The key bar: priced keys, no keys the focused field would type."""

    def compose(self) -> Iterator[Widget]:
        """Textual's keys, filtered and priced."""
        screen = self.screen
        tight = self.app.size.width < NARROW_WIDTH
        typing = is_text_box(screen.focused)
        costs: dict[str, str] = {}
        for active in screen.active_bindings.values():
            cost = cost_of_binding(active.node, active.binding.id)
            if cost:
                costs[active.binding.action] = cost
        priced: list[Widget] = []
        others: list[Widget] = []
        for widget in super().compose():
            # FooterKey (not exported by Textual): key, action and description.
            key = getattr(widget, "key", None)
            action = getattr(widget, "action", None)
            if isinstance(key, str) and isinstance(action, str):
                if typing and types_a_character(key):
                    continue
                description = getattr(widget, "description", "")
                if action in costs and description:
                    widget.description = with_cost(description, costs[action], tight=tight)  # type: ignore[attr-defined]
                    priced.append(widget)
                    continue
            others.append(widget)
        # Keys that spend first: a narrow terminal cuts the footer's end, never a price.
        yield from priced
        yield from others

    def on_resize(self, event: events.Resize) -> None:
        """Tighter keys on a narrow terminal, so the priced ones still fit."""
        narrow = event.size.width < NARROW_WIDTH
        if narrow != self.compact:
            self.compact = narrow
            self.refresh(recompose=True)  # the priced keys' wording depends on the width

    async def recompose(self) -> None:
        """Rebuild the keys (the bindings changed), then forget the removed keys' watchers."""
        await super().recompose()
        # Textual drops the watchers of removed nodes when a reactive's watchers run, so
        # run them now (same value: nothing changes on screen) and the old keys can go.
        self.mutate_reactive(TextualFooter.compact)
