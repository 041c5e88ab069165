"""Copy text and tell the truth about it: OSC 52 through the terminal, plus the
platform clipboard tool when present (never in a ``creditscope web`` tab, whose
terminal is the visitor's browser and whose machine is not).

When the terminal is known to drop OSC 52 (tmux with its default
``set-clipboard external``, GNU screen, a terminal that ignores it; the guess
``doctor`` reports, from :mod:`creditscope.clipboard_check`) and no platform tool
copies instead, the explorer does not say "Copied": it says the copy may not
have arrived and offers to save the text to a file.
"""

from __future__ import annotations

import contextlib
import os
import re
import subprocess
from pathlib import Path

from textual.app import App

from creditscope.clipboard_check import copy_may_be_lost, platform_tool
from creditscope.outside_text import markup_escaped, shown
from creditscope.tui.area_toasts import notify_in_area
from creditscope.tui.web_tab import in_web_tab
from creditscope.wording import counted


def _run_tool(tool: tuple[str, ...], text: str) -> None:
    # OSC 52 already did its best; a failing tool is not worth an error.
    with contextlib.suppress(OSError, subprocess.SubprocessError):
        subprocess.run(tool, input=text.encode(), timeout=3, check=False,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def copy_text(app: App[object], text: str, what: str, *, save_as: str | None = None) -> bool:
    """Copy ``text`` and tell the user ``what`` was copied (e.g. "curl command").

    Returns whether the copy should have arrived. When it may not have, a warning
    says why (and the fix), and the save-file dialog offers to save ``text`` to a
    file instead (``save_as`` is the suggested name; by default one made from ``what``).
    """
    app.copy_to_clipboard(text)
    # ``what`` may quote outside text (a URL): shown as it is, never read as markup.
    what = markup_escaped(shown(what))
    if in_web_tab(app):
        # The browser's clipboard, through the page; the server's clipboard tool is
        # the presenter's, not the visitor's.
        notify_in_area(app, f"{what} (to your browser)", title="Copied")
        return True
    tool = platform_tool()
    if tool is not None:
        app.run_worker(lambda: _run_tool(tool, text), thread=True, group="clipboard",
                       description="Copy with the platform clipboard tool", exit_on_error=False)
    lost = copy_may_be_lost(os.environ, tool)
    if lost is None:
        lines = text.count("\n") + 1
        size = f"{counted(len(text), 'character')}, {counted(lines, 'line')}"
        notify_in_area(app, f"{what} ({size})", title="Copied")  # about this area only
        return True
    reason, fix = lost
    app.notify(f"{what} was sent to the terminal, but {reason}."
               + (f" To fix: {fix}." if fix else "") + " Save it to a file instead, or Cancel.",
               title="The copy may not have arrived", severity="warning", timeout=12)
    name = save_as or f"{re.sub(r'[^a-z0-9]+', '-', what.lower()).strip('-') or 'copied'}.txt"
    _offer_save(app, text, what, Path(name))
    return False


def _offer_save(app: App[object], text: str, what: str, default: Path) -> None:
    """The save-file dialog, for what may not have reached the clipboard."""
    from creditscope.tui.screens.save_file import SaveFileDialog
    from creditscope.tui.web_tab import save_text

    def chosen(path: Path | None) -> None:
        if path is None:
            return
        try:
            where = save_text(app, path, text if text.endswith("\n") else text + "\n")
        except OSError as error:
            app.notify(str(error), title="Could not save", severity="error")
            return
        app.notify(where, title=f"Saved {what}")

    title = f"The copy may not have arrived: save {what} to a file instead?"
    app.push_screen(SaveFileDialog(title, default), chosen)
