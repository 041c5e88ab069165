"""A small modal asking where to save a file; the path defaults to the current directory."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label

from creditscope.tui.web_tab import in_web_tab
from creditscope.tui.widgets.field_label import labelled
from creditscope.tui.widgets.text_input import TextInput


class SaveFileDialog(ModalScreen[Path | None]):
    """Dismisses with the chosen path, or None when cancelled."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", id="save_file.cancel"),
    ]

    def __init__(self, title: str, default: Path) -> None:
        super().__init__()
        self.title_text = title
        self.default = default

    def compose(self) -> ComposeResult:
        """Title, a path input, Save / Cancel."""
        with Vertical(classes="dialog"):
            yield Label(self.title_text, classes="dialog-title")
            yield labelled(TextInput(str(self.default), id="save-path"),
                           "File name (your browser downloads it)" if in_web_tab(self.app)
                           else "Path (relative to the current directory)")
            yield Label("", id="save-path-error", classes="field-error")
            with Horizontal(classes="dialog-buttons"):
                yield Button("Save", variant="primary", id="save-ok")
                yield Button("Cancel", id="save-cancel")

    def on_mount(self) -> None:
        """Focus the path, ready to edit."""
        self.query_one("#save-path", Input).focus()

    @on(Input.Submitted, "#save-path")
    @on(Button.Pressed, "#save-ok")
    def _save(self) -> None:
        text = self.query_one("#save-path", Input).value.strip()
        if not text:
            self.query_one("#save-path-error", Label).update("Enter a file name.")
            return
        path = Path(text).expanduser()
        if in_web_tab(self.app):  # a download: only the name counts, the server is not probed
            self.dismiss(Path(path.name.strip(".") or self.default.name))
            return
        if path.is_dir():
            self.query_one("#save-path-error", Label).update("That is a directory.")
            return
        self.dismiss(path)

    @on(Button.Pressed, "#save-cancel")
    def action_cancel(self) -> None:
        """Close without saving."""
        self.dismiss(None)
