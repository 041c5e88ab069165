"""Import request: paste a customer's command, URL or JSON body; nothing is sent yet.

The pasted text is shown with every credential replaced by ``•••`` (the key
never stays on screen) and read as it changes. A request that a form can hold
(company lookup, restaurant search, events near a point) opens that area with
every field filled, and its priced button sends it when the user chooses. Any
other request is sent from here with a priced "Send" button, and its answer is
shown as JSON. What cannot be imported is explained in place, keeping the text.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, runtime_checkable

from rich.text import Text
from textual import on
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Button, Label, Static, TextArea

from creditscope import operations
from creditscope.outside_text import shown
from creditscope.support.curl_parse import ImportProblem, redact_credentials
from creditscope.support.har_import import pasted_file_problem, pasted_har_path
from creditscope.support.request_import import KEY_NOTES, ImportedRequest, import_request
from creditscope.support.request_target import OtherService
from creditscope.tui.calls import CallRequest, ResultArea
from creditscope.tui.host import host_of
from creditscope.tui.navigation import entry_for
from creditscope.tui.prices import plan_text
from creditscope.tui.web_tab import in_web_tab
from creditscope.tui.widgets.json_view import JsonView
from creditscope.tui.widgets.price_button import PriceButton

if TYPE_CHECKING:
    from creditscope.client.client import DataClient

# operation -> the area whose form holds it
FORM_AREAS: dict[str, str] = {
    "professional_network/find_company": "company",
    "restaurants/search": "restaurants",
    "ticketing/discovery": "events",
}
HELP_TEXT = (
    "Paste a curl, wget or HTTPie command (bash, cmd, PowerShell), a raw HTTP request, a "
    "URL, a JSON body, a lookup report (Ctrl+V or your terminal's paste), or the path of "
    "a customer's HAR file. Nothing is sent until you press a priced button."
)


@runtime_checkable
class FillsRequests(Protocol):
    """An area whose form an imported request can fill (Company, Restaurants, Events)."""

    def fill_request(self, operation: str, params: dict[str, Any]) -> bool:
        """Fill the form with ``params`` of ``operation``; False if it cannot hold them."""
        ...


def form_area(imported: ImportedRequest) -> str | None:
    """The area whose form can hold ``imported`` exactly, or None (then it is sent from here)."""
    mode = FORM_AREAS.get(imported.operation)
    if mode == "events" and ("cursor" in imported.params
                             or not {"lat", "lng"} <= set(imported.params)):
        return None  # the events form holds a point and a page size, not a cursor
    return mode


SHOWN_VALUE_CHARS = 120


def shown_value(value: object) -> str:
    """A field's value as it may be shown: hidden characters visible (``outside_text``),
    long text cut."""
    text = shown(str(value)[:SHOWN_VALUE_CHARS])
    length = len(str(value))
    return text + (f"… ({length} characters)" if length > SHOWN_VALUE_CHARS else "")


def describe(imported: ImportedRequest) -> Text:
    """What was recognised: operation, each field, notes, and what validation says."""
    text = Text()
    text.append(f"{imported.title}", style="bold")
    text.append(f"  ({imported.operation}, pasted {imported.source})\n", style="dim")
    if not imported.params:
        text.append("  no parameters\n", style="dim")
    for name, value in imported.params.items():
        text.append(f"  {name}: ", style="bold")
        text.append(f"{shown_value(value)}\n")
    for note in imported.notes:
        text.append(f"ⓘ {note}\n", style="italic")
    if imported.problem is not None:
        text.append(f"✖ {imported.problem.message}", style="bold red")
        text.append(" (nothing will be sent until it is corrected)\n", style="red")
    return text


def price_line(client: DataClient, imported: ImportedRequest) -> Content:
    """``Price: N cr`` or ``Price: N cr · cached, so free now``, from the client's plan."""
    plan = client.plan(imported.operation, dict(imported.params))
    return plan_text(plan.price, plan.cost)


class ImportRequestScreen(ModalScreen[None]):
    """Paste, read what was recognised and its price, then open the area or send."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Close", id="import_request.close"),
    ]

    def __init__(self, text: str = "") -> None:
        super().__init__()
        self.initial_text = text
        self.imported: ImportedRequest | None = None
        self.har_path: Path | None = None  # a pasted path of a HAR file

    def compose(self) -> ComposeResult:
        """Help, the paste box, what was recognised and a place for an answer, scrolling
        between the title and the price and buttons (which stay on screen)."""
        with Vertical(classes="dialog import-dialog"):
            yield Label("Import request", classes="dialog-title")
            with VerticalScroll(classes="dialog-body", can_focus=False):
                yield Static(HELP_TEXT, classes="dialog-text")
                yield TextArea(redact_credentials(self.initial_text), id="import-text",
                               soft_wrap=True, show_line_numbers=False)
                yield Static("", id="import-result")
                with ResultArea(id="import-answer"):
                    yield JsonView(id="import-json")
            with Horizontal(classes="dialog-buttons"):
                yield Static("", id="import-price", classes="dialog-price")
                yield Button("Open", id="import-open", variant="primary")
                yield PriceButton("Send", operation="catalog", id="import-send",
                                  variant="warning")
                yield Button("Close", id="import-close")

    def on_mount(self) -> None:
        """Read what was pasted (if anything) and focus the paste box."""
        self.query_one("#import-answer").display = False
        self._read(self.query_one("#import-text", TextArea).text)
        self.query_one("#import-text", TextArea).focus()

    @on(TextArea.Changed, "#import-text")
    def _changed(self, event: TextArea.Changed) -> None:
        area = event.text_area
        shown = redact_credentials(area.text)
        if shown != area.text:
            # The key never stays on screen; reading waits for the change this makes.
            area.text = shown
            area.move_cursor(area.document.end)  # typing goes on where it was, at the end
            return
        self._read(area.text)

    def _read(self, text: str) -> None:
        result = self.query_one("#import-result", Static)
        price = self.query_one("#import-price", Static)
        price.update("")
        open_button = self.query_one("#import-open", Button)
        send = self.query_one("#import-send", PriceButton)
        self.imported, self.har_path = None, None
        open_button.display = send.display = False
        if not text.strip():
            result.update("")
            return
        if not in_web_tab(self.app) and (problem := pasted_file_problem(text)) is not None:
            result.update(Text(f"✖ {problem}", style="bold red"))
            return
        self.har_path = pasted_har_path(text)
        if self.har_path is not None:
            result.update(Text(f"A HAR file: {self.har_path}. Open HAR file lists its "
                               "requests to this service with their prices; nothing is sent.",
                               style="italic"))
            open_button.label = "Open HAR file"
            open_button.display = True
            return
        client = host_of(self).client
        if client is None:
            result.update(Text("The data client is starting; try again in a moment.",
                               style="italic"))
            return
        try:
            imported = import_request(text, client.base_url)
        except ImportProblem as problem:
            step = (" Change the base URL in Settings to debug that service, or edit the "
                    "host in the command." if isinstance(problem, OtherService) else "")
            result.update(Text(f"✖ {problem}{step}", style="bold red"))
            return
        self.imported = imported
        shown = describe(imported)
        shown.rstrip()  # its last line ends with a newline; the dialog's body ends here
        result.update(shown)
        if imported.problem is None:
            price.update(price_line(client, imported))
        if imported.problem is not None:
            return
        mode = form_area(imported)
        if mode is not None:
            open_button.label = f"Open in {entry_for(mode).title}"
            open_button.display = True
        else:
            send.operation = imported.operation
            send.params = dict(imported.params)
            send.display = True

    @on(Button.Pressed, "#import-open")
    def _open(self) -> None:
        if self.har_path is not None:  # listed by the app's open_har (har_import.py)
            self.dismiss(None)
            self.app.call_later(self.app.run_action, f"app.open_har({str(self.har_path)!r})")
            return
        imported = self.imported
        if imported is None:
            return
        mode = form_area(imported)
        self.dismiss(None)
        if mode is not None:
            self.app.call_later(open_in_area, self.app, mode, imported)

    @on(Button.Pressed, "#import-send")
    def _send(self) -> None:
        imported = self.imported
        if imported is None:
            return
        answer = self.query_one("#import-answer", ResultArea)
        answer.display = True
        answer.run(CallRequest(operations.get(imported.operation), dict(imported.params),
                               label=imported.title.lower()))

    @on(ResultArea.Succeeded, "#import-answer")
    def _answered(self, event: ResultArea.Succeeded) -> None:
        self.query_one("#import-json", JsonView).show(event.record.raw_body)
        client = host_of(self).client
        if client is not None and self.imported is not None:  # now cached: free, as Send says
            self.query_one("#import-price", Static).update(price_line(client, self.imported))

    @on(Button.Pressed, "#import-close")
    def action_close(self) -> None:
        """Close; nothing is sent."""
        self.dismiss(None)


async def open_in_area(app: App[object], mode: str, imported: ImportedRequest) -> None:
    """Switch to ``mode`` and fill its form with ``imported`` (sends nothing)."""
    await app.switch_mode(mode)
    screen = app.screen
    if not (isinstance(screen, FillsRequests)
            and screen.fill_request(imported.operation, dict(imported.params))):
        app.notify(f"{entry_for(mode).title} could not take this request.", severity="warning")
        return
    note = " The customer's key was replaced by the configured one." if any(
        note in KEY_NOTES for note in imported.notes) else ""
    app.notify(f"{imported.title}: fields filled from the pasted request. "
               f"Nothing was sent; the button shows the price.{note}", title="Imported")


def open_import(app: App[object], text: str = "") -> None:
    """Open Import request (from the palette, its key, or a paste outside any text field)."""
    if isinstance(app.screen, ImportRequestScreen):
        return
    app.push_screen(ImportRequestScreen(text))
