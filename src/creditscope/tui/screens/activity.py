"""Activity: every call of this session and of past ones (the history), newest
first, searchable, with an inspector for the selected one.

This session's calls come from memory with everything (headers, answer, latency);
past sessions' from the ledger's history, a page at a time (``client/history.py``),
each under a divider. A past call reopens its answer from the cache, free, or says
why it cannot and offers a priced Re-fetch. ``l`` labels a call for a ticket, ``e``
exports what is listed as a HAR file; ``i`` (Import) opens a customer's HAR.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widget import Widget
from textual.widgets import Button, DataTable, Input, Label, Static

from creditscope import operations
from creditscope.client.history import HistoryEntry, HistoryQuery, entry_of, params_text
from creditscope.client.records import CallRecord
from creditscope.tui import prices
from creditscope.tui.calls import CallRequest, ResultArea
from creditscope.tui.clipboard import copy_text
from creditscope.tui.host import host_of
from creditscope.tui.palette import PaletteCommand
from creditscope.tui.screens.activity_copy import Language, copy_as
from creditscope.tui.screens.activity_inspector import Inspected, as_record, inspect_record, reopen
from creditscope.tui.screens.activity_replay import ask_to_replay, replay
from creditscope.tui.screens.activity_rows import (
    COLUMNS,
    NARROW_OPERATION,
    MorePast,
    PastPages,
    SessionDivider,
    arrange,
    row_cells,
)
from creditscope.tui.screens.activity_tickets import ask_and_save, relabel, save_har
from creditscope.tui.screens.base import AreaScreen
from creditscope.tui.web_tab import NO_LABELS_NOTE, in_web_tab
from creditscope.tui.widgets.json_view import JsonView, pretty_json
from creditscope.tui.widgets.price_button import PriceButton
from creditscope.tui.widgets.text_input import TextInput, focus_now
from creditscope.wording import counted

if TYPE_CHECKING:
    from creditscope.client.client import DataClient

EMPTY = ("No calls yet. Look up events (1), a company (2) or restaurants (3), or import a "
         "customer's request (i): every call, this session's, earlier ones' and "
         "`creditscope call`'s, is listed here with its request, price and answer.")
# Actions on the selected call: dimmed while none is (an empty list, no match).
NEED_A_CALL = {"copy_code", "copy_json", "save_json", "replay", "label", "export_har"}

# The command palette's inspector actions: title, help, the action it runs.
PALETTE = (
    ("Copy as curl", "Copy the selected call as a curl command", "copy_code('curl')"),
    ("Copy as Python", "Copy the selected call as a Python (httpx) program",
     "copy_code('python')"),
    ("Copy as JavaScript", "Copy the selected call as a JavaScript (fetch) program",
     "copy_code('javascript')"),
    ("Copy response JSON", "Copy the selected body", "copy_json"),
    ("Save response JSON", "Write the selected body to a file", "save_json"),
    ("Replay call", "Send the selected call again (asks first)", "replay"),
    ("Label call", "Give the selected call a ticket label (l)", "label"),
    ("Export HAR", "Write the listed calls as a HAR file (e)", "export_har"),
)


class ActivityScreen(AreaScreen):
    """The call log and inspector support staff debug with."""

    AUTO_FOCUS = "#activity-table"

    MAIN_FIELD = "#activity-filter"
    FILTERED_LIST = "#activity-table"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("slash", "filter", "Filter", id="activity.filter"),
        Binding("c", "copy_code('curl')", "Copy curl", id="activity.copy_curl"),
        Binding("p", "copy_code('python')", "Copy Python", show=False, id="activity.copy_python"),
        Binding("j", "copy_code('javascript')", "Copy JS", show=False, id="activity.copy_js"),
        Binding("y", "copy_json", "Copy JSON", id="activity.copy_json"),
        Binding("ctrl+s", "save_json", "Save JSON", id="activity.save_json"),
        Binding("ctrl+r", "replay", "Replay", id="activity.replay"),
        Binding("z", "zoom_pane", "Zoom pane", id="activity.zoom"),
        Binding("l", "label", "Label", show=False, id="activity.label"),
        Binding("e", "export_har", "Export HAR", show=False, id="activity.export_har"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.selected: CallRecord | HistoryEntry | None = None
        self._shown: list[object] = []
        self._past = PastPages()
        self._inspected = Inspected("", "", None)
        self._operation_width: int | None = None  # the operation cells' cut, when listed

    def compose_body(self) -> ComposeResult:
        """Search, call table, then request and response side by side."""
        with Horizontal(classes="toolbar compact-form"):
            yield TextInput(placeholder="Search every session (operation, params, outcome, "
                                        "date, label)…", id="activity-filter")
        yield DataTable(id="activity-table", cursor_type="row", zebra_stripes=True)
        yield Static(EMPTY, id="activity-empty", classes="empty")
        with Horizontal(id="inspector"):
            with VerticalScroll(id="request-pane", classes="pane"):
                yield Label("Request", classes="pane-title")
                yield Static("", id="request-detail")
                yield Label("Response", classes="pane-title")
                yield Static("", id="response-detail")
            with Vertical(id="response-pane", classes="pane"):
                yield Label("Body  [$text-muted]/ search · n next · N previous[/$text-muted]",
                            classes="pane-title")
                # A past call the cache no longer answers: its priced re-fetch, in view.
                yield PriceButton("Re-fetch", operation="catalog", id="activity-refetch")
                with ResultArea(id="activity-refetched", empty=""):
                    yield Static("", id="activity-refetched-note")
                yield JsonView(id="response-json")

    def on_mount(self) -> None:
        """Columns, then follow the ledger through the app's credit snapshot."""
        table = self.query_one("#activity-table", DataTable)
        # What a reader scans for first comes first; the long params last, where a
        # narrow terminal cuts them.
        for label, key in COLUMNS:
            table.add_column(label, key=key)
        self._show_refetch(False)
        self.refresh_calls()
        signals = host_of(self).signals
        signals.credits_changed.subscribe(self, lambda _: self.refresh_calls())
        signals.client_ready.subscribe(self, lambda _: self.reload_past())

    def on_unmount(self) -> None:
        """Stop following the ledger."""
        host_of(self).signals.unsubscribe(self)

    def binding_cost(self, binding_id: str) -> prices.PriceWords | None:
        """Replay sends the selected call past the cache: it costs that call's price."""
        if binding_id != "activity.replay" or self.selected is None or not self.selected.method:
            return None  # an unexplained entry is no call: nothing to replay
        if self._inspected.refused is not None:
            return None  # refused before sending: replaying it is free (and refused)
        return prices.always_charged(host_of(self), self.selected.operation)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Copy, save, replay, label and export work once a call is selected: until then
        dimmed (still listed in help, so they can be found)."""
        if action in NEED_A_CALL and self.selected is None:
            return None
        return super().check_action(action, parameters)

    def records(self) -> list[CallRecord]:
        """This session's calls, newest first."""
        client = host_of(self).client
        if client is None:
            return []
        return list(reversed(client.ledger.session_records))

    def reload_past(self) -> None:
        """Read past sessions' calls again (the client changed)."""
        self._past.search = None
        self.refresh_calls()

    def refresh_calls(self) -> None:
        """Rebuild the table from the session and the history, keeping the selection."""
        search = self.query_one("#activity-filter", Input).value.strip()
        client = host_of(self).client
        if client is not None and search != self._past.search:
            self._load_past(client, search)  # shown again once read
        session = client.ledger.session_id if client is not None else ""
        query, needle = HistoryQuery(search=search), search.lower()
        records = [record for record in self.records() if not search
                   or query.matches(entry_of(record, session))
                   or needle in " ".join(row_cells(record)).lower()]
        self._shown = arrange(records, self._past.entries, session, self._past.more)
        table = self.query_one("#activity-table", DataTable)
        table.clear()
        self._operation_width = self._fitting_width()
        for item in self._shown:
            table.add_row(*row_cells(item, self._operation_width))
        empty = self.query_one("#activity-empty", Static)
        empty.display = not self._shown
        # Empty panes say nothing: with no call listed, only what to do shows.
        table.display = self.query_one("#inspector").display = bool(self._shown)
        if search and not self._shown:
            empty.update("No call matches the search. Clear it (Ctrl+U in the box) to list "
                         "every call.")
        if self.selected in self._shown:
            table.move_cursor(row=self._shown.index(self.selected), animate=False)
        elif first := next((i for i in self._shown if isinstance(i, CallRecord | HistoryEntry)),
                           None):
            # On the call, not the divider above it: what the inspector shows is highlighted.
            table.move_cursor(row=self._shown.index(first), animate=False)
            self.inspect(first)
        else:
            self._inspect_nothing()

    def _fitting_width(self) -> int | None:
        return NARROW_OPERATION if self.has_class("-narrow") else None

    def on_resize(self) -> None:
        """Across the narrow breakpoint the operations are fitted again (cut, or whole)."""
        if self.is_mounted and self._operation_width != self._fitting_width():
            self.refresh_calls()

    def _inspect_nothing(self) -> None:
        """Nothing listed: the inspector is empty too (copy and replay have no call)."""
        self.selected = None
        self._show_inspected(Inspected("", "", None))
        self.refresh_bindings()

    def _show_inspected(self, inspected: Inspected) -> None:
        self._inspected = inspected
        self.query_one("#request-detail", Static).update(inspected.request)
        self.query_one("#response-detail", Static).update(inspected.response)
        self.query_one("#response-json", JsonView).show(inspected.body)
        self._show_refetch(inspected.refetch)
        self.refresh_bindings()  # Replay's price depends on it (free when it was refused)

    @on(Input.Changed, "#activity-filter")
    def _filter_changed(self) -> None:
        self.refresh_calls()

    @on(DataTable.RowHighlighted, "#activity-table")
    def _highlighted(self, event: DataTable.RowHighlighted) -> None:
        row = event.cursor_row
        if not 0 <= row < len(self._shown):
            return
        item = self._shown[row]
        if isinstance(item, CallRecord | HistoryEntry):
            self.inspect(item)
        elif isinstance(item, SessionDivider):  # a heading: on to the call it heads
            step = 1 if self.selected not in self._shown[row:] else -1
            if 0 <= row + step < len(self._shown):
                event.data_table.move_cursor(row=row + step, animate=False)

    @on(DataTable.RowSelected, "#activity-table")
    def _selected(self, event: DataTable.RowSelected) -> None:
        client = host_of(self).client
        if client is not None and isinstance(self._shown[event.cursor_row], MorePast):
            self._load_past(client, self._past.search or "", older=True)

    @work(exclusive=True, group="activity-past", description="Read past calls",
          exit_on_error=False)
    async def _load_past(self, client: DataClient, search: str, *, older: bool = False) -> None:
        """Past sessions' calls for ``search`` (the next page with ``older``), read on the
        store's thread, then the table again."""
        pages = PastPages() if not older else self._past
        history, session = client.ledger.history, client.ledger.session_id
        await client.store.run(lambda: pages.load(history, search, session, older=older))
        self._past = pages
        self.refresh_calls()

    def inspect(self, item: CallRecord | HistoryEntry) -> None:
        """Show ``item``'s request and response in the inspector (a past call's answer
        from the cache, free, or its priced Re-fetch)."""
        if item is not self.selected:
            self.refresh_bindings()  # Replay's price follows the selection
        self.selected = item
        client = host_of(self).client
        if isinstance(item, HistoryEntry) and client is not None:
            self._reopen(client, item)
        elif isinstance(item, CallRecord):
            self._show_inspected(inspect_record(item))

    @work(exclusive=True, group="activity-reopen", description="Reopen a past call",
          exit_on_error=False)
    async def _reopen(self, client: DataClient, item: HistoryEntry) -> None:
        """A past call's answer, from the cache on the store's thread; shown if it is
        still the one selected."""
        inspected = await reopen(client, item)
        if item is not self.selected:
            return
        self._show_inspected(inspected)
        if inspected.refetch:
            button = self.query_one("#activity-refetch", PriceButton)
            button.operation, button.params = item.operation, dict(item.params)

    def _show_refetch(self, shown: bool) -> None:
        self.query_one("#activity-refetch", PriceButton).display = shown
        area = self.query_one("#activity-refetched", ResultArea)
        area.display = False  # shown once pressed: its progress, or why it failed
        area.show_empty("")  # a previous re-fetch's error belongs to another call

    @on(Button.Pressed, "#activity-refetch")
    def _refetch(self) -> None:
        if isinstance(entry := self.selected, HistoryEntry):
            area = self.query_one("#activity-refetched", ResultArea)
            area.display = True
            area.run(
                CallRequest(operations.get(entry.operation), dict(entry.params),
                            label="the re-fetch"))

    @on(ResultArea.Succeeded, "#activity-refetched")
    def _refetched(self, event: ResultArea.Succeeded) -> None:
        self.selected = event.record  # this session's newest call now
        self.refresh_calls()
        self.notify(f"{event.request.operation}: {prices.charged_text(event.record)};"
                    " listed at the top as this session's call.", title="Re-fetched")

    # --- actions ------------------------------------------------------------------

    def _need_selection(self) -> CallRecord | None:
        """The selected call as a record (a past call's rebuilt from the history)."""
        if self.selected is None:
            self.notify("Select a call first.", severity="warning")
            return None
        if isinstance(self.selected, HistoryEntry):
            return as_record(host_of(self).client, self.selected, self._inspected.body)
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

    def action_copy_code(self, language: Language) -> None:
        """Copy the selected call as curl, Python (httpx) or JavaScript (fetch), key masked."""
        if (record := self._need_selection()) is not None and record.method:
            copy_as(self.app, record, language)  # an unexplained entry is no request

    def action_copy_json(self) -> None:
        """Copy the selected call's response body, pretty-printed."""
        if (record := self._need_selection()) is not None:
            copy_text(self.app, pretty_json(record.raw_body), "response JSON",
                      save_as=f"{record.operation.replace('/', '-')}.json")

    def action_save_json(self) -> None:
        """Ask for a path, then write the selected response body there."""
        if (record := self._need_selection()) is None:
            return
        stamp = host_of(self).clock().strftime("%Y%m%d-%H%M%S")
        body = pretty_json(record.raw_body) + "\n"
        ask_and_save(self.app, "Save response JSON",
                     Path(f"{record.operation.replace('/', '-')}-{stamp}.json"), body,
                     counted(len(body), "byte"), "Saved response JSON")

    def action_replay(self) -> None:
        """Send the selected call again past the cache, after confirming its price."""
        record = self._need_selection()
        client = host_of(self).client
        if record is not None and client is not None:
            ask_to_replay(self.app, client, record, self._inspected.refused,
                          lambda: self._replay(record))

    @work(exclusive=True, group="activity-replay", description="Replay a call",
          exit_on_error=False)
    async def _replay(self, record: CallRecord) -> None:
        if await replay(self.app, await host_of(self).wait_for_client(), record):
            self.selected = None  # follow the new call at the top

    def palette_commands(self) -> Iterable[PaletteCommand]:
        """Inspector actions for the command palette (once a call is selected)."""
        for title, help_text, action in PALETTE if self.selected is not None else ():
            yield PaletteCommand(title, help_text, partial(self.run_action, action))

    def action_label(self) -> None:
        """Ask for the selected call's ticket label, and keep it in the history."""
        from creditscope.tui.screens.label_dialog import LabelDialog

        item = self.selected
        if item is None:
            self.notify("Select a call first.", severity="warning")
            return
        if in_web_tab(self.app):  # the ledger is the presenter's
            self.notify(NO_LABELS_NOTE, title="Label not saved", severity="warning")
            return
        what = f"{item.operation} {params_text(item.params)}".strip()

        def chosen(label: str | None) -> None:
            if label is not None:
                self._set_label(item, label or None)

        self.app.push_screen(LabelDialog(what, item.label), chosen)

    @work(exclusive=True, group="activity-label", description="Save a label",
          exit_on_error=False)
    async def _set_label(self, item: CallRecord | HistoryEntry, label: str | None) -> None:
        client = host_of(self).client
        if client is None:
            return
        changed = await client.store.run(relabel, client.ledger.history, item, label)
        if changed.label != label:
            self.notify("The ledger file could not be written; try again.",
                        title="Label not saved", severity="error")
            return
        if isinstance(changed, HistoryEntry):
            self._past.replace(changed)
        self.selected = changed
        self.refresh_calls()
        self.inspect(changed)
        self.notify(f"Labelled {label}." if label else "Label removed.", title="Ticket label")

    @work(exclusive=True, group="activity-har", description="Export HAR", exit_on_error=False)
    async def action_export_har(self) -> None:
        """Ask for a path, then write the listed calls (this search) as a HAR file (the
        cached answers read on the store's thread)."""
        client = host_of(self).client
        if client is not None:
            await save_har(self.app, client, self._shown, host_of(self).clock())
