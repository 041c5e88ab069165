"""The header every area shows: app name, mode badge (SANDBOX or live host), credit meter."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.widgets import Label

from creditscope.tui.host import Connection, host_of
from creditscope.tui.widgets.credit_meter import CreditMeter


class AppHeader(Horizontal):
    """One line: ``creditscope  SANDBOX ............ N cr spent · N cr saved · 9 988 left``."""

    def compose(self) -> ComposeResult:
        """The name, the badge, a spacer and the meter."""
        connection = host_of(self).connection
        yield Label("creditscope", id="app-name")
        badge = Label(connection.badge, id="mode-badge")
        badge.set_class(connection.live, "-live")
        yield badge
        yield Label("", id="header-spacer")
        yield CreditMeter(id="credit-meter")

    def on_mount(self) -> None:
        """Follow where requests go, on this screen whether or not it is on top."""
        host = host_of(self)
        self.show_connection(host.connection)
        host.signals.connection_changed.subscribe(self, self.show_connection)

    def on_unmount(self) -> None:
        """Stop following (a popped screen's header must not be kept alive)."""
        host_of(self).signals.unsubscribe(self)

    def show_connection(self, connection: Connection) -> None:
        """Show ``connection`` in the badge (``SANDBOX · OFFLINE``, a live host)."""
        badge = self.query_one("#mode-badge", Label)
        badge.update(connection.badge)
        badge.set_class(connection.live, "-live")
