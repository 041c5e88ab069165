"""The dialog shown instead of "Copied" when the copy may not have reached the
clipboard: why, the fix, and saving to a file instead."""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Label, Static


class CopyMayBeLost(ModalScreen[bool]):
    """Dismisses with True to save the text to a file, False to leave it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Close", id="copy_fallback.close"),
    ]

    def __init__(self, what: str, reason: str, fix: str | None) -> None:
        super().__init__()
        self.what = what
        self.reason = reason
        self.fix = fix

    def compose(self) -> ComposeResult:
        """Title, why, the fix, and Save to a file / Close."""
        text = (f"{self.what} was sent to the terminal's clipboard, but it may not have"
                f" arrived: {self.reason}.")
        if self.fix:
            text += f"\n\nTo fix: {self.fix}"
        with Vertical(classes="dialog"):
            yield Label("The copy may not have arrived", classes="dialog-title")
            yield Static(text, classes="dialog-text", id="copy-lost-text")
            with Horizontal(classes="dialog-buttons"):
                yield Button("Save to a file…", variant="primary", id="copy-save")
                yield Button("Close", id="copy-close")

    def on_mount(self) -> None:
        """Focus saving: the way to get the text out for sure."""
        self.query_one("#copy-save", Button).focus()

    @on(Button.Pressed, "#copy-save")
    def _save(self) -> None:
        self.dismiss(True)

    @on(Button.Pressed, "#copy-close")
    def action_close(self) -> None:
        """Close without saving."""
        self.dismiss(False)
