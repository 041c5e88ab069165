"""What Activity does for a ticket: a call's label, the listed calls as a HAR file, a file
saved where the user says."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from textual.app import App

from creditscope.client.history import CallHistory, HistoryEntry, entry_of
from creditscope.client.records import CallRecord
from creditscope.wording import counted

if TYPE_CHECKING:
    from creditscope.client.client import DataClient


def relabel(history: CallHistory, item: CallRecord | HistoryEntry,
            label: str | None) -> CallRecord | HistoryEntry:
    """Give ``item`` the ticket ``label`` (None removes it), in the history too;
    returns the item as it now is."""
    if isinstance(item, CallRecord):
        item.label = label
        if item.history_id is not None:
            history.set_label(item.history_id, label)
        return item
    return history.set_label(item.id, label) or item


async def save_har(app: App[object], client: DataClient, shown: list[object],
                   now: datetime) -> None:
    """Ask for a path, then write the calls among ``shown`` as a HAR file (key masked)."""
    from creditscope.support.har_export import har_export

    session = client.ledger.session_id
    calls = [(entry_of(item, session, item.history_id or 0), item)
             if isinstance(item, CallRecord) else (item, None)
             for item in shown if isinstance(item, CallRecord | HistoryEntry)]
    export = await har_export(client, calls)
    if not export.written:
        app.notify("No listed call reached the service: nothing to export.", severity="warning")
        return
    left = f"; {export.not_sent} not sent, left out" if export.not_sent else ""
    ask_and_save(app, "Export listed calls as HAR", Path(f"creditscope-{now:%Y%m%d-%H%M%S}.har"),
                 export.text(), f"{counted(export.written, 'call')}{left}; key masked",
                 "Exported HAR")


def ask_and_save(app: App[object], title: str, default: Path, text: str, what: str,
                 done_title: str) -> None:
    """Ask for a path (``default`` proposed), write ``text`` there and say where, with
    ``what`` it holds; a write that fails says why."""
    from creditscope.tui.screens.save_file import SaveFileDialog
    from creditscope.tui.web_tab import save_text

    def chosen(path: Path | None) -> None:
        if path is None:
            return
        try:
            where = save_text(app, path, text)
        except OSError as error:
            app.notify(str(error), title="Could not save", severity="error")
            return
        app.notify(f"{where} ({what})", title=done_title)

    app.push_screen(SaveFileDialog(title, default), chosen)
