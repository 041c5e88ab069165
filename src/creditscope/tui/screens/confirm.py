"""A yes/no modal that states what an action costs before anything is spent."""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Label, Static

from creditscope.tui.prices import spend_button_text


class ConfirmSpend(ModalScreen[bool]):
    """Asks before spending: dismisses with True (go ahead) or False (cancel)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", id="confirm.cancel"),
    ]

    def __init__(self, title: str, text: str, *, price: int, can_spend: bool = True) -> None:
        super().__init__()
        self.title_text = title
        self.text = text
        self.price = price
        self.can_spend = can_spend  # False: only Cancel (someone else's limit is reached)

    def compose(self) -> ComposeResult:
        """Title, explanation, and Spend / Cancel."""
        with Vertical(classes="dialog"):
            yield Label(self.title_text, classes="dialog-title")
            yield Static(self.text, classes="dialog-text")
            with Horizontal(classes="dialog-buttons"):
                if self.can_spend:
                    yield Button(spend_button_text(self.price), variant="warning",
                                 id="confirm-yes")
                yield Button("Cancel", id="confirm-no")

    def on_mount(self) -> None:
        """Focus Cancel, so Enter never spends by accident."""
        self.query_one("#confirm-no", Button).focus()

    @on(Button.Pressed, "#confirm-yes")
    def _yes(self) -> None:
        self.dismiss(True)

    @on(Button.Pressed, "#confirm-no")
    def _no(self) -> None:
        self.dismiss(False)

    def action_cancel(self) -> None:
        """Close without spending."""
        self.dismiss(False)
