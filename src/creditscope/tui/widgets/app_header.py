"""The header every area shows: app name, mode badge (SANDBOX or live host), credit meter."""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.widgets import Label

from creditscope.tui.widgets.credit_meter import CreditMeter


class AppHeader(Horizontal):
    """One line: ``creditscope  SANDBOX ............ 12 cr spent · 4 cr saved · 9 988 left``."""

    def compose(self) -> ComposeResult:
        """The name, the badge, a spacer and the meter."""
        app: Any = self.app
        yield Label("creditscope", id="app-name")
        badge = Label(app.mode_badge, id="mode-badge")
        badge.set_class(not app.is_sandbox, "-live")
        yield badge
        yield Label("", id="header-spacer")
        yield CreditMeter(id="credit-meter")

    def show_mode(self) -> None:
        """Show the app's current badge (its settings were validated or changed)."""
        app: Any = self.app
        badge = self.query_one("#mode-badge", Label)
        badge.update(app.mode_badge)
        badge.set_class(not app.is_sandbox, "-live")
