"""A small modal asking for a call's ticket label (``#4821``); blank removes it."""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Static

from creditscope.client.history import clean_label
from creditscope.tui.widgets.field_label import labelled
from creditscope.tui.widgets.text_input import TextInput


class LabelDialog(ModalScreen[str | None]):
    """Dismisses with the label (``""``: remove it), or None when cancelled."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", id="label.cancel"),
    ]

    def __init__(self, what: str, label: str | None) -> None:
        super().__init__()
        self.what = what
        self.label = label or ""

    def compose(self) -> ComposeResult:
        """Title, what is labelled, the label box, Save / Cancel."""
        with Vertical(classes="dialog"):
            yield Label("Ticket label", classes="dialog-title")
            yield Static(self.what, classes="dialog-text")
            yield labelled(TextInput(self.label, id="label-text"),
                           "Label (e.g. #4821; empty removes it)")
            yield Label("", id="label-error", classes="field-error")
            with Horizontal(classes="dialog-buttons"):
                yield Button("Save", variant="primary", id="label-ok")
                yield Button("Cancel", id="label-cancel")

    def on_mount(self) -> None:
        """Focus the label, ready to type."""
        self.query_one("#label-text", Input).focus()

    @on(Input.Submitted, "#label-text")
    @on(Button.Pressed, "#label-ok")
    def _save(self) -> None:
        try:
            label = clean_label(self.query_one("#label-text", Input).value)
        except ValueError as problem:
            self.query_one("#label-error", Label).update(str(problem).capitalize() + ".")
            return
        self.dismiss(label or "")

    @on(Button.Pressed, "#label-cancel")
    def action_cancel(self) -> None:
        """Close; the label is unchanged."""
        self.dismiss(None)
