"""The strip of main areas under the header: number and title, clickable."""

from __future__ import annotations

from textual import events
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.widgets import Static

from creditscope.tui.host import host_of
from creditscope.tui.navigation import NavEntry, ordered_entries


class NavTab(Static):
    """One area in the nav bar; a click switches to it."""

    def __init__(self, entry: NavEntry) -> None:
        super().__init__(f"[b]{entry.key}[/b] {entry.title}", id=f"nav-{entry.mode}")
        self.entry = entry

    def on_click(self, event: events.Click) -> None:
        """Switch to this tab's area."""
        event.stop()
        host_of(self).action_go(self.entry.mode)


class NavBar(Horizontal):
    """Every navigation entry, the current one highlighted."""

    def compose(self) -> ComposeResult:
        """A tab per entry, in number-key order."""
        for entry in ordered_entries():
            yield NavTab(entry)

    def highlight(self, mode: str) -> None:
        """Mark ``mode`` as the current area."""
        for tab in self.query(NavTab):
            tab.set_class(tab.entry.mode == mode, "-current")
