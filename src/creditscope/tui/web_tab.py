"""The explorer behind a ``creditscope web`` tab: nothing saved on the server for a visitor.

In a web tab, exports reach the visitor as browser downloads (Textual's
``deliver_text``, relayed by textual-serve) instead of files written on the
machine that runs the server, Settings is read-only, offline mode stays as the
presenter set it, a copy goes to the browser only (no clipboard tool runs on the
server), and the tab sees and labels only its own calls (see
``CreditLedger.own_session_only``).
"""

from __future__ import annotations

import io
from pathlib import Path

from textual.app import App, ReturnType

from creditscope.private_files import replace_file
from creditscope.web_demo import web_demo_active

READ_ONLY_NOTE = (
    "Web demo: settings are read-only in a browser tab and nothing is saved; "
    "the theme changes for this tab only."
)
STAYS_OFFLINE_NOTE = (
    "Web demo: the presenter set offline mode; a browser tab cannot go online."
)
NO_LABELS_NOTE = "Web demo: ticket labels are not kept in a browser tab."


def in_web_tab(app: App[ReturnType]) -> bool:
    """True when the explorer runs for a browser tab (textual-serve or ``creditscope web``)."""
    return app.is_web or web_demo_active()


def save_text(app: App[object], path: Path, text: str) -> str:
    """Write ``text`` to ``path``, or, in a web tab, send it to the browser as ``path.name``.

    Returns where it went, for the notification.
    """
    if in_web_tab(app):
        app.deliver_text(io.StringIO(text), save_filename=path.name, open_method="download")
        return f"{path.name}, downloaded by your browser"
    path = path.expanduser()
    path.parent.mkdir(parents=True, exist_ok=True)
    # A new export is the owner's only (0600), as the CLI writes them: it holds a
    # customer's lookups. An existing file keeps the mode its owner gave it; a link
    # planted under the name is refused or replaced, never written through.
    replace_file(path, text, private=False)
    return str(path)
