"""Catalog: every provider and endpoint with its credit price, and the provider-request form."""

from __future__ import annotations

from collections.abc import Iterable
from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.content import Content
from textual.widgets import Button, DataTable, Input, Static

from creditscope import operations
from creditscope.tui.calls import CallRequest, ResultArea
from creditscope.tui.palette import PaletteCommand
from creditscope.tui.prices import credits_text
from creditscope.tui.screens.base import AreaScreen
from creditscope.tui.widgets.text_input import TextInput, focus_now
from creditscope.wording import counted

Row = tuple[str, str, str, str, str]
SHORT_COLUMNS = (("Provider", "provider"), ("Method", "method"), ("Path", "path"),
                 ("Credits", "credits"))
MIN_DESCRIPTION_WIDTH = 16  # narrower, the column says nothing the detail line does not
CELL_PADDING = 2  # DataTable's cell_padding (1) on each side
EDGES = 2  # the table's scrollbar gutter and a cell of slack


def short_widths(rows: list[Row]) -> list[int]:
    """The short columns' widths, fitted to every row of the catalog: a filter that
    leaves one row keeps them (the table measured them anew and cut "/res")."""
    return [max([len(title), *(len(row[index]) for row in rows)])
            for index, (title, _) in enumerate(SHORT_COLUMNS)]


def description_width(table_width: int, rows: list[Row]) -> int | None:
    """The width left for the Description column after the short ones, or None when
    too little is left (the highlighted endpoint's detail line below shows it whole)."""
    used = EDGES + sum(width + CELL_PADDING for width in short_widths(rows))
    room = table_width - used - CELL_PADDING
    return room if room >= MIN_DESCRIPTION_WIDTH else None


def detail_text(row: Row) -> Text:
    """One endpoint in full: ``Provider · GET /path · N cr``, then its whole description."""
    provider, method, path, credits, description = row
    text = Text.assemble((provider, "bold"), " · ", (f"{method} {path}", "bold"), " · ", credits)
    text.append("\n")
    text.append(description or "No description.", style="" if description else "bright_black")
    # The table's own Enter hides the screen's from the footer: say it here.
    text.append("\nEnter or a click: its parameters, an example answer, Try it.",
                style="italic")
    return text


class CatalogScreen(AreaScreen):
    """Providers and endpoints (method, path, credits, description), filterable."""

    AUTO_FOCUS = "#catalog-table"  # not the filter box: number keys keep switching areas

    MAIN_FIELD = "#catalog-filter"
    FILTERED_LIST = "#catalog-table"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "open_endpoint", "Parameters · example", id="catalog.open_endpoint"),
        Binding("slash", "filter", "Filter", id="catalog.filter"),
        Binding("ctrl+n", "request_provider", "Request a provider", id="catalog.request_provider"),
        Binding("ctrl+r", "refresh", "Refresh", id="catalog.refresh"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[Row] = []
        self.shown: list[Row] = []  # the rows in the table now, in order (after the filter)

    def compose_body(self) -> ComposeResult:
        """Filter box and actions above the endpoint table; the highlighted endpoint in full below.

        The Description column takes the width the short columns leave (none on a narrow
        terminal), so the detail line under the table shows the highlighted endpoint's
        whole description, wrapped.
        """
        with Horizontal(classes="toolbar compact-form"):
            yield TextInput(placeholder="Filter providers and endpoints…", id="catalog-filter")
            yield Button("Request a provider", id="request-provider")
        with ResultArea(id="catalog-results"):
            yield DataTable(id="catalog-table", cursor_type="row", zebra_stripes=True)
            yield Static("", id="catalog-detail", classes="catalog-detail")
            yield Static("", id="catalog-summary", classes="summary")

    def on_mount(self) -> None:
        """Columns, then fetch the catalog (free; cached afterwards)."""
        self.fetch()

    def fetch(self, *, refresh: bool = False) -> None:
        """Load the catalog through the client."""
        request = CallRequest(operations.CATALOG, {}, refresh=refresh, label="the catalog")
        self.query_one("#catalog-results", ResultArea).run(request)

    @on(ResultArea.Succeeded, "#catalog-results")
    def _loaded(self, event: ResultArea.Succeeded) -> None:
        catalog = event.answer(operations.CATALOG).data
        self.rows = [
            (
                provider.name,
                endpoint.method,
                endpoint.path,
                credits_text(endpoint.credits),
                endpoint.description or "",
            )
            for provider in catalog.providers
            for endpoint in provider.endpoints
        ]
        self._show(self.query_one("#catalog-filter", Input).value)

    @on(Input.Changed, "#catalog-filter")
    def _filter_changed(self, event: Input.Changed) -> None:
        self._show(event.value)

    def _show(self, text: str) -> None:
        needle = text.strip().lower()
        rows = [row for row in self.rows if not needle or needle in " ".join(row).lower()]
        self.shown = rows
        table = self.query_one("#catalog-table", DataTable)
        width = description_width(table.size.width or self.size.width, self.rows)
        table.clear(columns=True)
        for (title, key), column_width in zip(SHORT_COLUMNS, short_widths(self.rows),
                                              strict=True):
            table.add_column(title, key=key, width=column_width)
        if width is not None:
            table.add_column("Description", key="description", width=width)
        for row in rows:
            table.add_row(*(row if width is not None else row[:-1]))
        self._detail(table.cursor_row if rows else None)
        providers = len({row[0] for row in rows})
        summary = f"{counted(len(rows), 'endpoint')} from {counted(providers, 'provider')}"
        if needle:
            summary += f" matching “{text.strip()}” (of {len(self.rows)})"
        if needle and not rows:
            summary = f"Nothing matches “{text.strip()}”."
        # Plain text: it quotes the filter as typed ("[/]" is no markup to close).
        self.query_one("#catalog-summary", Static).update(Content(summary))

    def on_resize(self) -> None:
        """Columns fitted to the new width, the highlighted endpoint kept."""
        if not self.rows:
            return
        table = self.query_one("#catalog-table", DataTable)
        highlighted = table.cursor_row
        self._show(self.query_one("#catalog-filter", Input).value)
        if self.shown:
            table.move_cursor(row=min(highlighted, len(self.shown) - 1))

    @on(DataTable.RowHighlighted, "#catalog-table")
    def _highlighted(self, event: DataTable.RowHighlighted) -> None:
        self._detail(event.cursor_row)

    def _detail(self, index: int | None) -> None:
        """Show row ``index`` of the table in full (nothing when the table is empty)."""
        detail = self.query_one("#catalog-detail", Static)
        row = self.shown[index] if index is not None and 0 <= index < len(self.shown) else None
        detail.display = row is not None
        if row is not None:
            detail.update(detail_text(row))

    @on(DataTable.RowSelected, "#catalog-table")
    def action_open_endpoint(self) -> None:
        """Enter: the highlighted endpoint's parameters, price and example, to try."""
        from creditscope.tui.screens.endpoint import EndpointScreen

        index = self.query_one("#catalog-table", DataTable).cursor_row
        if 0 <= index < len(self.shown):
            provider, method, path, _credits, description = self.shown[index]
            self.app.push_screen(EndpointScreen(provider, method, path, description))

    @on(Button.Pressed, "#request-provider")
    def action_request_provider(self) -> None:
        """Open the request-a-provider form."""
        from creditscope.tui.screens.provider_form import ProviderRequestForm

        self.app.push_screen(ProviderRequestForm())

    def action_filter(self) -> None:
        """Focus the filter box."""
        focus_now(self.query_one("#catalog-filter", Input))

    def action_refresh(self) -> None:
        """Fetch the catalog again from the service (it is free)."""
        self.fetch(refresh=True)

    def palette_commands(self) -> Iterable[PaletteCommand]:
        """Catalog actions for the command palette."""
        yield PaletteCommand("Request a provider", "Ask for a new app or site",
                             self.action_request_provider)
        yield PaletteCommand("Refresh catalog", "Fetch the catalog again (free)",
                             self.action_refresh)
