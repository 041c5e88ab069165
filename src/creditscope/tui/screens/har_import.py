"""Open a customer's HAR file: its requests to this service, each with its price and
what it would return now (cached: free). Nothing is sent from here.

Enter (or Open) on a request opens it where a user would send it: the area whose
form holds it, filled in (Company, Restaurants, Events), or Import request with
its priced Send. Other hosts' entries and CORS preflights are counted and
skipped (``support/har_import.py``). The file is read in a thread: a large one
does not freeze the screen. In a web tab, files on the server are not opened.
"""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Button, DataTable, Label, Static

from creditscope.support.curl_parse import ImportProblem
from creditscope.support.har_import import (
    HarReading,
    PricedRequest,
    cost_to_fetch,
    priced,
    read_har,
    request_text,
)
from creditscope.tui.host import host_of
from creditscope.tui.screens.import_request import (
    ImportRequestScreen,
    form_area,
    open_in_area,
    shown_value,
)
from creditscope.tui.web_tab import in_web_tab
from creditscope.wording import counted

HINT = "Enter opens the request in its area; nothing is sent until you press its priced button."


def summary(reading: HarReading, count: int, base_url: str) -> str:
    """``3 requests to https://…; 12 entries for 3 other hosts skipped (…).``"""
    parts = [f"{counted(count, 'request')} to {base_url}"]
    if skipped := reading.skipped_text():
        parts.append(skipped)
    if reading.preflights:
        parts.append(f"{counted(reading.preflights, 'CORS preflight')} skipped")
    if reading.unreadable:
        parts.append(f"{counted(reading.unreadable, 'unreadable entry', 'unreadable entries')}"
                     " skipped")
    return "; ".join(parts) + "."


def cells(item: PricedRequest) -> tuple[str, ...]:
    """The row of one request: entry number, what the browser got, operation, what it
    would cost now, params (last: a narrow dialog cuts them, never the price)."""
    request, imported = item.request, item.request.imported
    params = " ".join(f"{k}={shown_value(v)}" for k, v in imported.params.items()) if (
        imported) else ""
    return (str(request.number), "—" if request.status_seen is None else str(request.status_seen),
            imported.operation if imported else f"{request.method} {request.path}",
            # Why one cannot be sent is a sentence: the cell says which kind, the line
            # under the table the whole reason.
            item.now if item.sendable else item.now.partition(":")[0], params)


class HarImportScreen(ModalScreen[None]):
    """A HAR file's requests to this service, priced; Enter opens one in its area."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Close", id="har_import.close"),
    ]

    def __init__(self, path: Path) -> None:
        super().__init__()
        self.path = path
        self.items: list[PricedRequest] = []

    def compose(self) -> ComposeResult:
        """Title, summary, the requests, the selected one's notes, total and buttons."""
        with Vertical(classes="dialog har-dialog"):
            # Content: a file's name is outside text ("[/]" is no markup to close).
            yield Label(Content(f"HAR file · {self.path.name}"), classes="dialog-title")
            yield Static(Content(f"Reading {self.path}…"), id="har-summary",
                         classes="dialog-text")
            yield DataTable(id="har-table", cursor_type="row", zebra_stripes=True)
            yield Static("", id="har-detail")
            with Horizontal(classes="dialog-buttons"):
                yield Static("", id="har-total", classes="dialog-price")
                yield Button("Open", id="har-open", variant="primary")
                yield Button("Close", id="har-close")

    def on_mount(self) -> None:
        """Columns, then read the file (in a thread), unless this is a web tab."""
        table = self.query_one("#har-table", DataTable)
        for label in ("#", "Seen", "Operation", "Now", "Params"):
            table.add_column(label, key=label)
        table.display = False
        self.query_one("#har-open").display = False
        if in_web_tab(self.app):
            self._problem("Files on the server are not opened in the web demo.")
            return
        self._read()

    @work(thread=True, exclusive=True, group="har-read", description="Read a HAR file",
          exit_on_error=False)
    def _read(self) -> None:
        client = host_of(self).client
        if client is None:
            self.app.call_from_thread(self._problem, "The data client is starting; try again.")
            return
        try:
            reading = read_har(self.path, client.base_url)
            items = priced(client, reading.requests)
        except ImportProblem as problem:
            self.app.call_from_thread(self._problem, str(problem))
            return
        self.app.call_from_thread(self._show, reading, items, client.base_url)

    def _problem(self, text: str) -> None:
        self.query_one("#har-summary", Static).update(Text(f"✖ {text}", style="bold red"))

    def _show(self, reading: HarReading, items: list[PricedRequest], base_url: str) -> None:
        self.items = items
        self.query_one("#har-summary", Static).update(summary(reading, len(items), base_url))
        table = self.query_one("#har-table", DataTable)
        for item in items:
            table.add_row(*cells(item))
        table.display = self.query_one("#har-open").display = bool(items)
        total = cost_to_fetch(items)
        self.query_one("#har-total", Static).update(
            f"Fetching every request not cached: {total} cr" if items else "")
        if items:
            table.focus()
            self._detail(0)

    @on(DataTable.RowHighlighted, "#har-table")
    def _highlighted(self, event: DataTable.RowHighlighted) -> None:
        self._detail(event.cursor_row)

    def _detail(self, row: int) -> None:
        if not 0 <= row < len(self.items):
            return
        item = self.items[row]
        imported = item.request.imported
        text = Text()
        if imported is not None:
            for note in imported.notes:
                text.append(f"ⓘ {note}\n", style="italic")
        if not item.sendable:
            text.append(f"✖ {item.now}\n", style="bold red")
        text.append(HINT, style="dim")
        self.query_one("#har-detail", Static).update(text)

    @on(DataTable.RowSelected, "#har-table")
    @on(Button.Pressed, "#har-open")
    def action_open(self) -> None:
        """Open the selected request in its area (or Import request); sends nothing."""
        row = self.query_one("#har-table", DataTable).cursor_row
        client = host_of(self).client
        if not 0 <= row < len(self.items) or client is None:
            return
        item = self.items[row]
        imported = item.request.imported
        if imported is None or not item.sendable:
            self.notify(item.now, title="Cannot open this entry", severity="warning")
            return
        mode = form_area(imported)
        self.dismiss(None)
        if mode is not None:
            self.app.call_later(open_in_area, self.app, mode, imported)
        else:
            self.app.push_screen(ImportRequestScreen(request_text(client, imported)))

    @on(Button.Pressed, "#har-close")
    def action_close(self) -> None:
        """Close; nothing is sent."""
        self.dismiss(None)
