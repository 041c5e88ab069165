"""Export a list on screen to a file: ask where, write CSV or JSON, say what was written.

Every area's ``e`` key comes here (events, restaurants, a restaurant's tabs, company
matches). Exporting is free: it writes the rows the screen already holds and never
fetches. The text comes from :mod:`creditscope.row_export`; in a browser tab the
file is downloaded instead of written (:func:`creditscope.tui.web_tab.save_text`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from textual.app import App

from creditscope.row_export import Format, Row, render_rows
from creditscope.tui.screens.save_file import SaveFileDialog
from creditscope.tui.web_tab import save_text
from creditscope.wording import counted

FORMAT_NOTE = "(a .csv name writes CSV, otherwise JSON)"


def export_list(
    app: App[object],
    rows: Sequence[Row],
    *,
    word: str,
    plural: str | None = None,
    default: Path,
    scope: str = "",
    empty: str = "",
    render: Callable[[Path], tuple[Format, str]] | None = None,
) -> None:
    """Ask for a file (``default`` offered) and write ``rows`` there as CSV or JSON.

    ``word``/``plural`` count the rows in the dialog's title and the notification
    ("Export 20 events"); ``scope`` follows the count in the title (" of the menu, as
    filtered"); ``empty`` says what to do when there are no rows (nothing is written);
    ``render`` replaces the generic text for a list with a format of its own.
    """
    if not rows:
        app.notify(f"Nothing to export yet{': ' + empty if empty else '.'}",
                   title="Export", severity="warning")
        return
    what = counted(len(rows), word, plural)

    def chosen(path: Path | None) -> None:
        if path is None:
            return
        try:
            fmt, text = render(path) if render is not None else render_rows(path, rows)
            where = save_text(app, path, text)
        except OSError as error:
            app.notify(f"{path}: {error.strerror or error}", title="Export failed",
                       severity="error")
            return
        app.notify(f"{what} as {fmt.upper()} to {where}", title="Exported")

    app.push_screen(SaveFileDialog(f"Export {what}{scope} {FORMAT_NOTE}", default), chosen)
