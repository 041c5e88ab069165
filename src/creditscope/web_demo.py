"""Whether this process is an explorer behind a ``creditscope web`` browser tab.

``creditscope web`` sets ``CREDITSCOPE_WEB_DEMO=1`` for every tab it starts.
A web visitor is not the person who runs the server, so such a process must
not change the server's configuration nor write files on it: settings are
read-only, and exports go to the visitor's browser as downloads.
"""

from __future__ import annotations

import os

WEB_DEMO_ENV = "CREDITSCOPE_WEB_DEMO"
# The run a tab belongs to (one per ``creditscope web`` server): its tabs share the budget.
WEB_RUN_ENV = "CREDITSCOPE_WEB_RUN"


class WebDemoReadOnly(PermissionError):
    """Raised when something tries to save settings from a web tab."""


def web_demo_active() -> bool:
    """True in an explorer started by ``creditscope web`` for a browser tab."""
    return os.environ.get(WEB_DEMO_ENV, "") == "1"


def web_run() -> str | None:
    """The ``creditscope web`` run this tab belongs to, or None outside a web tab."""
    run = os.environ.get(WEB_RUN_ENV, "")
    return run if web_demo_active() and run else None


def refuse_in_web_demo(what: str) -> None:
    """Raise :class:`WebDemoReadOnly` naming ``what`` when running for a browser tab."""
    if web_demo_active():
        raise WebDemoReadOnly(f"{what} is read-only in the web demo")
