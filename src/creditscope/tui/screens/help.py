"""The help screen: every key of the current screen and the global ones.

Generated from the active bindings (after the user's keymap), never written by hand,
then the key grammar (the same keys in every area, :mod:`creditscope.tui.key_grammar`);
a key that spends shows its price as the footer does ("Re-check · N cr"). The
window fits the terminal and its tables scroll inside its border.
"""

from __future__ import annotations

from typing import ClassVar

from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import DataTable, Label, Static

from creditscope.tui.key_costs import cost_of_binding, with_cost
from creditscope.tui.key_grammar import GRAMMAR
from creditscope.tui.screens.base import KEY_RULE

# Textual's own plumbing keys that a user does not need listed.
_HIDDEN_ACTIONS = frozenset(
    {"app.focus_next", "app.focus_previous", "focus_next", "focus_previous"}
)


def _key_display(app: App[object], key: str) -> str:
    return app.get_key_display(Binding(key, ""))


Row = tuple[str, str, str]


def binding_rows(screen: Screen[object]) -> tuple[list[Row], list[Row]]:
    """(screen rows, global rows), each ``(keys, description, binding id)``."""
    app = screen.app
    grouped: dict[tuple[bool, str, str], list[str]] = {}
    for key, active in screen.active_bindings.items():
        binding = active.binding
        if binding.action in _HIDDEN_ACTIONS or binding.system:
            continue
        description = with_cost(
            binding.description or binding.action.replace("_", " "),
            cost_of_binding(active.node, binding.id),
        )
        is_global = active.node is app
        group = (is_global, description, binding.id or "")
        grouped.setdefault(group, []).append(_key_display(app, key))
    local: list[Row] = []
    global_: list[Row] = []
    for (is_global, description, binding_id), keys in grouped.items():
        (global_ if is_global else local).append((" / ".join(keys), description, binding_id))
    # The app's and screen's own keys (they have ids) before a focused widget's plumbing.
    local.sort(key=lambda row: row[2] == "")
    return local, global_


class HelpScreen(ModalScreen[None]):
    """Lists the keys of the screen it was opened from, then the global keys."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,question_mark,f1", "close", "Close", id="help.close"),
    ]

    def __init__(self, screen: Screen[object]) -> None:
        super().__init__()
        self.for_screen = screen
        self.local_rows, self.global_rows = binding_rows(screen)

    def compose(self) -> ComposeResult:
        """Two tables: this screen's keys, then keys that work everywhere."""
        with Vertical(classes="dialog help-dialog"):
            yield Label("Keys", classes="dialog-title")
            with VerticalScroll():
                yield Static("On this screen", classes="help-section")
                yield self._table(self.local_rows, "help-local")
                yield Static("Everywhere", classes="help-section")
                yield self._table(self.global_rows, "help-global")
                yield Static("What spends, and what never does", classes="help-section")
                yield Static(KEY_RULE, classes="help-rule")
                yield Static("The same keys in every area", classes="help-section")
                yield self._table([(rule.shown, rule.meaning, "") for rule in GRAMMAR],
                                  "help-grammar")
            yield Static(
                "Remap any key in the config file under [b]keys[/b], by binding id.  "
                "[$text-muted]escape[/$text-muted] closes.",
                classes="dialog-text",
            )

    def _table(self, rows: list[Row], table_id: str) -> DataTable[str]:
        table: DataTable[str] = DataTable(id=table_id, cursor_type="none", show_header=False)
        table.add_columns("Key", "Action", "Binding id")
        for keys, description, binding_id in rows:
            table.add_row(keys, description, binding_id)
        return table

    def action_close(self) -> None:
        """Back to the screen."""
        self.dismiss(None)
