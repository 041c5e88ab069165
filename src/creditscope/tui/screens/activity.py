"""Activity: every call of the session, newest first, and an inspector for the selected one."""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from rich.markup import escape
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widget import Widget
from textual.widgets import DataTable, Input, Label, Static

from creditscope.tui import prices
from creditscope.tui.clipboard import copy_text
from creditscope.tui.host import host_of
from creditscope.tui.palette import PaletteCommand
from creditscope.tui.screens.base import AreaScreen
from creditscope.tui.widgets.json_view import JsonView, pretty_json
from creditscope.tui.widgets.text_input import TextInput, focus_now
from creditscope.wording import counted

if TYPE_CHECKING:
    from creditscope.client.records import CallRecord

# `creditscope serve`'s defaults: where a sandbox call can be repeated with curl.
SERVE_ADDRESS = "http://127.0.0.1:8080"
SERVE_COMMAND = "creditscope serve --port 8080"
_CREDIT_HEADERS = ("x-credits-charged", "x-credits-remaining", "x-credits-cost", "x-request-id",
                   "retry-after")


def key_params(params: dict[str, Any], width: int = 34) -> str:
    """``location=Paris cuisine=thai``, shortened to ``width``."""
    text = " ".join(f"{name}={value}" for name, value in params.items() if value not in (None, ""))
    return text if len(text) <= width else text[: width - 1] + "…"


def format_latency(ms: float) -> str:
    """Latency as the table shows it."""
    return f"{ms:,.0f} ms" if ms >= 1 else "<1 ms"


def status_text(record: CallRecord) -> str:
    """HTTP status, or the error code when nothing came back."""
    if record.status is not None and record.error_code:
        return f"{record.status} {record.error_code}"
    if record.status is not None:
        return str(record.status)
    return record.error_code or "—"




class ActivityScreen(AreaScreen):
    """The call log and inspector support staff debug with."""

    AUTO_FOCUS = "#activity-table"

    MAIN_FIELD = "#activity-filter"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+f", "filter", "Filter", id="activity.filter"),
        Binding("c", "copy_curl", "Copy curl", id="activity.copy_curl"),
        Binding("p", "copy_code('python')", "Copy Python", show=False, id="activity.copy_python"),
        Binding("j", "copy_code('javascript')", "Copy JS", show=False, id="activity.copy_js"),
        Binding("y", "copy_json", "Copy JSON", id="activity.copy_json"),
        Binding("s", "save_json", "Save JSON", id="activity.save_json"),
        Binding("ctrl+r", "replay", "Replay", id="activity.replay"),
        Binding("z", "zoom_pane", "Zoom pane", id="activity.zoom"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.selected: CallRecord | None = None
        self._shown: list[CallRecord] = []

    def compose_body(self) -> ComposeResult:
        """Filter, call table, then request and response side by side."""
        with Horizontal(classes="toolbar compact-form"):
            yield TextInput(placeholder="Filter calls (operation, params, status, cache)…",
                        id="activity-filter")
        yield DataTable(id="activity-table", cursor_type="row", zebra_stripes=True)
        yield Static("No calls yet this session. Calls from any screen appear here.",
                     id="activity-empty", classes="empty")
        with Horizontal(id="inspector"):
            with VerticalScroll(id="request-pane", classes="pane"):
                yield Label("Request", classes="pane-title")
                yield Static("", id="request-detail")
                yield Label("Response", classes="pane-title")
                yield Static("", id="response-detail")
            with Vertical(id="response-pane", classes="pane"):
                yield Label("Body  [$text-muted]/ search · n next · N previous[/$text-muted]",
                            classes="pane-title")
                yield JsonView(id="response-json")

    def on_mount(self) -> None:
        """Columns, then follow the ledger through the app's credit snapshot."""
        table = self.query_one("#activity-table", DataTable)
        # What a reader scans for first comes first; the long params last, where a
        # narrow terminal cuts them.
        for label, key in (("Time", "time"), ("Operation", "operation"), ("Status", "status"),
                           ("Credits", "credits"), ("Cache", "cache"), ("Latency", "latency"),
                           ("Params", "params")):
            table.add_column(label, key=key)
        self.refresh_calls()
        host_of(self).signals.credits_changed.subscribe(self, lambda _: self.refresh_calls())

    def on_unmount(self) -> None:
        """Stop following the ledger."""
        host_of(self).signals.unsubscribe(self)

    def binding_cost(self, binding_id: str) -> prices.PriceWords | None:
        """Replay sends the selected call past the cache: it costs that call's price."""
        if binding_id != "activity.replay" or self.selected is None or not self.selected.method:
            return None  # an unexplained entry is no call: nothing to replay
        return prices.always_charged(host_of(self), self.selected.operation)

    def records(self) -> list[CallRecord]:
        """This session's calls, newest first."""
        client = host_of(self).client
        if client is None:
            return []
        return list(reversed(client.ledger.session_records))

    def refresh_calls(self) -> None:
        """Rebuild the table from the ledger, keeping the selection."""
        needle = self.query_one("#activity-filter", Input).value.strip().lower()
        table = self.query_one("#activity-table", DataTable)
        table.clear()
        self._shown = []
        all_records = self.records()
        for record in all_records:
            row = self._row(record)
            if needle and needle not in " ".join(row).lower():
                continue
            self._shown.append(record)
            table.add_row(*row)
        empty = self.query_one("#activity-empty", Static)
        empty.display = not self._shown
        table.display = bool(self._shown)
        if all_records and not self._shown:
            empty.update("No call matches the filter.")
        if self.selected in self._shown:
            table.move_cursor(row=self._shown.index(self.selected), animate=False)
        elif self._shown:
            self.inspect(self._shown[0])

    def _row(self, record: CallRecord) -> tuple[str, ...]:
        return (
            record.started_at.astimezone().strftime("%H:%M:%S"),
            record.operation,
            status_text(record),
            prices.charged_text(record),
            str(record.cache),
            format_latency(record.latency_ms),
            key_params(record.params),
        )

    @on(Input.Changed, "#activity-filter")
    def _filter_changed(self) -> None:
        self.refresh_calls()

    @on(DataTable.RowHighlighted, "#activity-table")
    def _highlighted(self, event: DataTable.RowHighlighted) -> None:
        if 0 <= event.cursor_row < len(self._shown):
            self.inspect(self._shown[event.cursor_row])

    def inspect(self, record: CallRecord) -> None:
        """Show ``record``'s request and response in the inspector."""
        if record is not self.selected:
            self.refresh_bindings()  # Replay's price follows the selection
        self.selected = record
        request = [f"[b]{record.method}[/b] {escape(record.url)}"]
        if record.method.upper() == "POST":
            body = json.dumps(record.params, ensure_ascii=False)
            request.append("[$text-muted]body[/$text-muted] " + escape(body))
        elif record.params:
            request += [f"[$text-muted]{escape(k)}[/$text-muted] = {escape(str(v))}"
                        for k, v in record.params.items()]
        request.append("")
        request += [f"[$text-muted]{escape(k)}:[/$text-muted] {escape(v)}"
                    for k, v in record.request_headers.items()]
        self.query_one("#request-detail", Static).update("\n".join(request))
        response = [
            f"[b]{status_text(record)}[/b] · {prices.charged_text(record)} · cache {record.cache}"
            f" · {format_latency(record.latency_ms)}",
        ]
        if record.error_message:
            response.append(f"[red]{escape(record.error_message)}[/red]")
        if record.note:  # an unexplained difference: what it is and which answer showed it
            response.append(f"[yellow]{escape(record.note)}[/yellow]")
        if record.revealed_by:
            response.append(f"[$text-muted]revealed by the answer to:[/$text-muted] "
                            f"{escape(record.revealed_by)}")
        headers = {k.lower(): v for k, v in record.response_headers.items()}
        response += [f"[$text-muted]{name}:[/$text-muted] {escape(headers[name])}"
                     for name in _CREDIT_HEADERS if name in headers]
        if record.remaining is not None and "x-credits-remaining" not in headers:
            response.append(f"[$text-muted]remaining:[/$text-muted] {record.remaining}")
        self.query_one("#response-detail", Static).update("\n".join(response))
        self.query_one("#response-json", JsonView).show(record.raw_body)

    # --- actions ------------------------------------------------------------------

    def _need_selection(self) -> CallRecord | None:
        if self.selected is None:
            self.notify("Select a call first.", severity="warning")
        return self.selected

    def action_zoom_pane(self) -> None:
        """Fill the area with the focused pane (the body, from the table); again to restore."""
        if self.maximized is not None:
            self.minimize()
            return
        focused = self.focused
        pane = self.query_one("#request-pane")
        target: Widget
        if focused is None or not (focused is pane or pane in focused.ancestors):
            target = self.query_one("#response-json", JsonView)
        else:
            target = pane
        target.focus()
        self.maximize(target, container=False)

    def action_filter(self) -> None:
        """Focus the filter box."""
        focus_now(self.query_one("#activity-filter", Input))

    def action_copy_curl(self) -> None:
        """Copy the selected call as curl; the key is read from ``$CREDITSCOPE_API_KEY``."""
        from creditscope.client.curl import LocalService, curl_command
        from creditscope.sandbox import SANDBOX_BASE_URL

        if (record := self._need_selection()) is None or not record.method:
            return  # an unexplained entry is no request
        # The in-process sandbox has no address: the command targets `creditscope serve`.
        local = LocalService(SANDBOX_BASE_URL, SERVE_ADDRESS, SERVE_COMMAND)
        command = curl_command(record, local=local)
        note = "curl command" if command == curl_command(record) else (
            f"curl command for the sandbox served at {SERVE_ADDRESS} (start it with "
            f"`{SERVE_COMMAND}`)")
        copy_text(self.app, command, note, save_as="curl-command.sh")

    def action_copy_code(self, language: str) -> None:
        """Copy the selected call as a Python (httpx) or JavaScript (fetch) program."""
        from creditscope.client.code_snippets import javascript_snippet, python_snippet
        from creditscope.client.curl import LocalService
        from creditscope.sandbox import SANDBOX_BASE_URL

        if (record := self._need_selection()) is None or not record.method:
            return  # an unexplained entry is no request
        local = LocalService(SANDBOX_BASE_URL, SERVE_ADDRESS, SERVE_COMMAND)
        if language == "python":
            copy_text(self.app, python_snippet(record, local=local), "Python (httpx) program",
                      save_as="creditscope_call.py")
        else:
            copy_text(self.app, javascript_snippet(record, local=local),
                      "JavaScript (fetch) program", save_as="creditscope-call.js")

    def action_copy_json(self) -> None:
        """Copy the selected call's response body, pretty-printed."""
        if (record := self._need_selection()) is not None:
            copy_text(self.app, pretty_json(record.raw_body), "response JSON",
                      save_as=f"{record.operation.replace('/', '-')}.json")

    def action_save_json(self) -> None:
        """Ask for a path, then write the selected response body there."""
        from creditscope.tui.screens.save_file import SaveFileDialog
        from creditscope.tui.web_tab import save_text

        record = self._need_selection()
        if record is None:
            return
        stamp = host_of(self).clock().strftime("%Y%m%d-%H%M%S")
        default = Path(f"{record.operation.replace('/', '-')}-{stamp}.json")
        body = pretty_json(record.raw_body) + "\n"

        def chosen(path: Path | None) -> None:
            if path is None:
                return
            try:
                where = save_text(self.app, path, body)
            except OSError as error:
                self.notify(str(error), title="Could not save", severity="error")
                return
            self.notify(f"{where} ({counted(len(body), 'byte')})", title="Saved response JSON")

        self.app.push_screen(SaveFileDialog("Save response JSON", default), chosen)

    def action_replay(self) -> None:
        """Send the selected call again past the cache, after confirming its price."""
        from creditscope.tui.screens.confirm import ConfirmSpend

        record = self._need_selection()
        client = host_of(self).client
        if record is None or client is None:
            return
        if not record.method:  # an unexplained difference: nothing to send again
            self.notify("This entry is a balance difference, not a call.", severity="warning")
            return
        price = client.price_of(record.operation)
        text = (f"Send {record.method} {record.operation} again, bypassing the cache. "
                + prices.costs_sentence(price))

        def decided(confirmed: bool | None) -> None:
            if confirmed:
                self._replay(record)

        self.app.push_screen(ConfirmSpend("Replay this call?", text, price=price), decided)

    @work(exclusive=True, group="activity-replay", description="Replay a call",
          exit_on_error=False)
    async def _replay(self, record: CallRecord) -> None:
        client = await host_of(self).wait_for_client()
        try:
            await client.call(record.operation, dict(record.params), refresh=True,
                              confirm_over_budget=True)
        except Exception as error:  # recorded by the client; shown here
            from creditscope.tui.remedies import describe

            title, code, message, step = describe(error)
            self.notify(f"{code}\n{message}\n{step}", title=title, severity="error")
            return
        self.selected = None  # follow the new call at the top
        self.notify(f"{record.operation} replayed.", title="Replayed")

    def palette_commands(self) -> Iterable[PaletteCommand]:
        """Inspector actions for the command palette."""
        yield PaletteCommand("Copy as curl", "Copy the selected call as a curl command",
                             self.action_copy_curl)
        yield PaletteCommand("Copy as Python", "Copy the selected call as a Python (httpx) program",
                             lambda: self.action_copy_code("python"))
        yield PaletteCommand("Copy as JavaScript",
                             "Copy the selected call as a JavaScript (fetch) program",
                             lambda: self.action_copy_code("javascript"))
        yield PaletteCommand("Copy response JSON", "Copy the selected body", self.action_copy_json)
        yield PaletteCommand("Save response JSON", "Write the selected body to a file",
                             self.action_save_json)
        yield PaletteCommand("Replay call", "Send the selected call again (asks first)",
                             self.action_replay)
