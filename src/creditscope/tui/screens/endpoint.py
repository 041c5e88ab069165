"""One catalog endpoint, to try: its parameters, its price, an example answer, "Try it".

Opened by Enter on a row of the Catalog. The parameters are read from the operation's
request model (``support/endpoint_card.py``); the example answer comes from a throwaway
built-in sandbox (``wiring.sandbox_example``), free and recorded nowhere, whatever
service is configured. "Try it" fills the area that holds the endpoint (Events,
Company, Restaurants) or opens Import request (or the provider form) with the example
request, its price on the button: nothing is sent until the user presses it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar
from urllib.parse import urlencode

from rich import box
from rich.table import Table
from textual import on, work
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.content import Content
from textual.widgets import Button, Label, Static

from creditscope.outside_text import markup_escaped
from creditscope.tui.host import host_of
from creditscope.tui.navigation import entry_for
from creditscope.tui.prices import credits_text, price_of
from creditscope.tui.screens.base import AreaScreen
from creditscope.tui.screens.import_request import FORM_AREAS, FillsRequests, open_import
from creditscope.tui.widgets.json_view import JsonView

if TYPE_CHECKING:
    from creditscope.operations import Operation

PROVIDER_REQUESTS = "provider-requests"


def example_text(params: dict[str, object]) -> str:
    """``location=Lisbon limit=3``, or ``no parameters``."""
    return " ".join(f"{name}={value}" for name, value in params.items()) or "no parameters"


def parameters_table(operation: Operation) -> Table | str:
    """Name, type, required, limits: a table whose cells wrap on a narrow terminal."""
    from creditscope.support.endpoint_card import parameters_of

    rows = parameters_of(operation.request_model)
    if not rows:
        return "None: the endpoint takes no parameters."
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, expand=True,
                  header_style="bold")
    table.add_column("Name", no_wrap=True)
    table.add_column("Type", ratio=3)
    table.add_column("Required", no_wrap=True)
    table.add_column("Limits", ratio=2)
    for row in rows:
        table.add_row(row.name, row.kind, "yes" if row.required else "no", row.rule)
    return table


class EndpointScreen(AreaScreen):
    """An endpoint's parameters, price and example answer, with "Try it"."""

    AUTO_FOCUS = "#endpoint-try"  # Enter tries it; the example scrolls with the mouse or Tab
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("t", "try_it", "Try it", id="endpoint.try"),
        Binding("escape", "back", "Back to the catalog", id="endpoint.back"),
    ]

    def __init__(self, provider: str, method: str, path: str, description: str) -> None:
        super().__init__()
        from creditscope.support.endpoint_card import EXAMPLE_PARAMS, operation_for_path

        self.provider = provider
        self.method = method
        self.path = path
        self.description = description
        self.operation: Operation | None = operation_for_path(path)
        self.example = dict(EXAMPLE_PARAMS.get(self.operation.name, {})) if self.operation \
            else {}

    def compose_body(self) -> ComposeResult:
        """Title and price, description, parameters, the example answer, Try it."""
        yield Static(self._title(), id="endpoint-title")
        yield Static(markup_escaped(self.description or "No description."), classes="endpoint-text")
        if self.operation is None:
            yield Static("This version of creditscope does not know this endpoint's"
                         " parameters: update it to call the endpoint.", classes="empty")
            return
        yield Label("Parameters", classes="pane-title")
        yield Static(parameters_table(self.operation), id="endpoint-params")
        yield Label(f"Example answer · from the built-in sandbox, free · "
                    f"{markup_escaped(example_text(self.example))}", classes="pane-title",
                    id="endpoint-example-title")
        yield JsonView(id="endpoint-example")
        with Horizontal(classes="endpoint-actions compact-form"):
            yield Button(f"Try it · {self._where()}", id="endpoint-try", variant="primary")

    def _title(self) -> Content:
        # Content, not markup: a path is outside text, and escaping it as markup left a
        # stray backslash before a "[b]" that followed a backslash.
        head = Content.assemble((self.provider, "bold"), " · ",
                                (f"{self.method} {self.path}", "bold"))
        if self.operation is None:
            return head
        price = price_of(host_of(self), self.operation.name)
        if not price:  # "free a call" reads wrong
            return head + " · free"
        cached = " · free when cached" if self.operation.ttl else ""
        return head + f" · {credits_text(price)} a call{cached}"

    def _where(self) -> str:
        """Where Try it goes, in the button's words."""
        assert self.operation is not None
        mode = FORM_AREAS.get(self.operation.name)
        if mode is not None:
            return f"fill in {entry_for(mode).title}"
        if self.operation.name == PROVIDER_REQUESTS:
            return "open the form"
        return "priced request"

    def on_mount(self) -> None:
        """Fetch the example answer (free)."""
        if self.operation is not None:
            self.load_example()

    @work(exclusive=True, group="endpoint-example", description="Fetching the example answer")
    async def load_example(self) -> None:
        """Ask a throwaway sandbox (nothing is charged or recorded)."""
        from creditscope.wiring import sandbox_example

        assert self.operation is not None
        _status, body = await sandbox_example(self.operation.name, self.example)
        self.query_one("#endpoint-example", JsonView).show(body)

    @on(Button.Pressed, "#endpoint-try")
    def action_try_it(self) -> None:
        """Fill the example in where it can be sent, at its price; nothing is sent here."""
        if self.operation is None:
            return
        name = self.operation.name
        mode = FORM_AREAS.get(name)
        if mode is not None:
            self.app.call_later(try_in_area, self.app, mode, name, dict(self.example))
        elif name == PROVIDER_REQUESTS:
            from creditscope.tui.screens.provider_form import ProviderRequestForm

            self.app.push_screen(ProviderRequestForm())
        else:
            client = host_of(self).client
            base = client.base_url if client is not None else ""
            query = f"?{urlencode(self.example)}" if self.example else ""
            open_import(self.app, f"{base}{self.operation.path}{query}")


async def try_in_area(app: App[object], mode: str, operation: str,
                      params: dict[str, object]) -> None:
    """Switch to ``mode`` and fill its form with the example (sends nothing)."""
    await app.switch_mode(mode)
    screen = app.screen
    if isinstance(screen, FillsRequests) and screen.fill_request(operation, dict(params)):
        app.notify("The example is filled in. Nothing was sent: the button shows the price.",
                   title="Try it")
    else:
        app.notify(f"{entry_for(mode).title} could not take the example now.",
                   severity="warning")
