"""The key bar: one widget that draws the keys as text and knows where each one is.

What it offers (priced keys first, none a focused text box would type) is
:mod:`creditscope.tui.footer_keys`; where each goes (whole keys only) is
:mod:`creditscope.tui.footer_layout`. This widget only draws them and answers the mouse.

Why one widget: Textual's footer builds a widget per key and rebuilt them all whenever
the screen's bindings changed (each focus move, each new price), and each rebuild laid
out and redrew the whole screen. Here a change of keys is a repaint of one row, and keys
that say what they said are not even repainted: a focus move's CPU time went from ~30 ms
(median) and ~150 ms (95th percentile) to ~17 and ~23 ms (``benchmarks/footer_focus.py``).

- A click anywhere on a key (its letter, its words, its padding) runs what the key is
  bound to, as the key would; a disabled key rings the bell. Clicks between keys do
  nothing.
- The key under the mouse is highlighted, shows its tooltip and turns the pointer into a
  hand (where the terminal can).
- A bindings change that arrives after the footer's screen has gone does nothing.
"""

from __future__ import annotations

from typing import Any, ClassVar

from rich.style import Style
from rich.text import Text
from textual import events
from textual.dom import NoScreen
from textual.screen import Screen
from textual.widget import Widget

from creditscope.tui.footer_keys import OfferedKey, offered_keys
from creditscope.tui.footer_layout import Part, Placed, place_keys

NARROW_WIDTH = 100  # the app's "-narrow" breakpoint


class Footer(Widget, can_focus=False):
    """The key bar: priced keys, no keys the focused field would type, clickable."""

    ALLOW_SELECT = False
    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "footer--key", "footer--description", "footer--item", "footer--hover", "footer--rule",
    }
    # The colours of Textual's footer (its FooterKey styles), so the bar looks as it did.
    DEFAULT_CSS = """
    Footer {
        dock: bottom;
        height: 1;
        width: 1fr;
        color: $footer-foreground;
        background: $footer-background;
        text-wrap: nowrap;
        text-overflow: clip;
        & > .footer--key {
            color: $footer-key-foreground;
            background: $footer-key-background;
            text-style: bold;
        }
        & > .footer--description {
            color: $footer-description-foreground;
            background: $footer-description-background;
        }
        & > .footer--item {
            background: $footer-item-background;
        }
        & > .footer--hover {
            color: $footer-key-foreground;
            background: $block-hover-background;
        }
        & > .footer--rule {
            color: $foreground 20%;
        }
    }
    """

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self._keys: list[OfferedKey] | None = None  # None: not read from the screen yet
        self._placed: list[Placed] | None = None  # the keys laid out at the present width
        self._hovered: OfferedKey | None = None
        self._update_queued = False

    # --- what it shows -------------------------------------------------------------------

    def _own_screen(self) -> Screen[object] | None:
        """The screen this footer is on, or None once it has been removed from it."""
        if not self.is_attached:
            return None
        try:
            return self.screen
        except NoScreen:
            return None

    @property
    def compact(self) -> bool:
        """Tighter keys on a narrow terminal, so the priced ones still fit."""
        return self.app.size.width < NARROW_WIDTH

    def placed_keys(self) -> list[Placed]:
        """The keys on screen, left to right, each with its cells."""
        if self._keys is None:
            self._keys = self._read_keys()
        if self._placed is None:
            self._placed = place_keys(self._keys, self.app.size.width, compact=self.compact)
        return self._placed

    def _read_keys(self) -> list[OfferedKey]:
        screen = self._own_screen()
        return [] if screen is None else offered_keys(screen, tight=self.compact)

    def _update(self) -> None:
        """Read the keys again; repaint only if what they say changed."""
        self._update_queued = False
        if self._own_screen() is None:
            return  # the screen closed between the change and now: nothing to show
        keys = self._read_keys()
        if keys != self._keys:
            self._keys, self._placed = keys, None
            self.refresh()

    def on_mount(self) -> None:
        self.screen.bindings_updated_signal.subscribe(self, self.bindings_changed)

    def on_unmount(self) -> None:
        self.screen.bindings_updated_signal.unsubscribe(self)

    def bindings_changed(self, screen: Screen[Any]) -> None:
        """The screen's keys may have changed (focus moved, a price changed): read them
        after the screen's next refresh, once the changes of this moment are in (a focus
        move announces two; a screen may announce before it sets what a price depends on)."""
        if screen is self._own_screen() and not self._update_queued:
            self._update_queued = self.call_after_refresh(self._update)

    def on_resize(self, event: events.Resize) -> None:
        """The wording (``Re-check·N cr`` under 100 columns) and what fits follow the width."""
        self._keys = self._placed = None
        self.refresh()

    def render(self) -> Text:
        text = Text(no_wrap=True, end="")
        for placed in sorted(self.placed_keys(), key=lambda placed: placed.x):
            text.append(" " * (placed.x - text.cell_len))
            for run, part in placed.runs:
                text.append(run, self._style(placed.key, part))
        return text

    def _style(self, key: OfferedKey, part: Part) -> Style:
        """The colours of one run of ``key``: its part's over the key's own background (the
        highlight's while the mouse is on it)."""
        under = self.get_component_rich_style(
            "footer--hover" if key == self._hovered else "footer--item")
        if not key.enabled:
            under += Style(dim=True)
        if part is Part.PAD:
            return Style(bgcolor=under.bgcolor)
        if part is Part.RULE:  # a faint line, blended over the bar (as Textual draws borders)
            return under + Style(color=self.get_component_rich_style("footer--rule").color)
        # Only what the part sets: a transparent background lets the highlight through.
        return under + self.get_component_rich_style(f"footer--{part.value}", partial=True)

    # --- the mouse ---------------------------------------------------------------------

    def key_at(self, x: int) -> OfferedKey | None:
        """The key drawn at cell ``x`` of the bar, if any."""
        return next((placed.key for placed in self.placed_keys() if placed.holds(x)), None)

    def on_mouse_move(self, event: events.MouseMove) -> None:
        self._hover(self.key_at(event.x))

    def on_leave(self, event: events.Leave) -> None:
        self._hover(None)

    def _hover(self, key: OfferedKey | None) -> None:
        if key != self._hovered:
            self._hovered = key
            self.tooltip = key.tooltip if key is not None and key.tooltip else None
            self.styles.pointer = "default" if key is None else "pointer"  # a hand over a key
            self.refresh()

    def on_click(self, event: events.Click) -> None:
        """Run what the clicked key is bound to now, in the app's loop, as its press does."""
        clicked = self.key_at(event.x)
        screen = self._own_screen()
        if clicked is None or screen is None:
            return
        event.stop()
        bound = screen.active_bindings.get(clicked.key)
        if bound is None or bound.binding.action != clicked.action:
            self._update()  # the key went (or changed) since the bar was drawn
            return
        if not bound.enabled:
            self.app.bell()
            return
        self.app.call_later(self.app.run_action, bound.binding.action, bound.node)
