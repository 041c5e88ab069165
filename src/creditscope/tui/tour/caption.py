"""The tour's caption bar: what the viewer is seeing and what it would cost live.

It sits in the area's own layout between the body and the footer, so the body
gives it room rather than being covered (a docked bar would hide the footer's keys).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Static


@dataclass(frozen=True)
class TourState:
    """What the caption shows: the scene, its words, where it is in the tour, paused."""

    title: str
    text: str
    number: int
    count: int
    paused: bool

    @property
    def heading(self) -> str:
        """``▶ Tour 3/10 · Company lookup``, or ``Paused 3/10 · Company lookup``."""
        mark = "Paused" if self.paused else "▶ Tour"
        return f"{mark} {self.number}/{self.count} · {self.title}"

    @property
    def keys(self) -> str:
        """What the visitor's keys do now (short: it shares a line with the heading at 80
        columns)."""
        first = "Space plays" if self.paused else "Space pauses"
        return f"{first} · ←/→ step · other keys: you drive"


class TourCaption(Vertical):
    """Heading and keys on one line, the caption's words below."""

    def __init__(self, state: TourState, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.state = state

    def on_mount(self) -> None:
        """The area knows a tour plays on it (``-touring``): on a short terminal it drops
        its own hint, which the caption says better, so the feed keeps rows to show."""
        self._area = self.screen
        self._area.add_class("-touring")

    def on_unmount(self) -> None:
        """The area is its own again."""
        self._area.remove_class("-touring")

    def compose(self) -> ComposeResult:
        """The heading line (title left, keys right) and the words."""
        with Horizontal(classes="tour-top"):
            yield Static(self.state.heading, classes="tour-heading", markup=False)
            yield Static(self.state.keys, classes="tour-keys", markup=False)
        yield Static(self.state.text, classes="tour-text", markup=False)

    def show(self, state: TourState) -> None:
        """Show a new scene, or the paused mark (composed or not yet)."""
        self.state = state
        for selector, text in ((".tour-heading", state.heading), (".tour-keys", state.keys),
                               (".tour-text", state.text)):
            for widget in self.query(selector).results(Static):
                widget.update(text)
