"""What the user sees, and the log keeps, when background work fails.

The app's one worker-failure handler (``CreditscopeApp.on_worker_state_changed``)
calls :func:`report_failure`; a call's error is shown in place by
:class:`creditscope.tui.calls.ResultArea` instead.
"""

from __future__ import annotations

import logging

from textual.app import App

from creditscope.settings_preview import SettingsError

logger = logging.getLogger("creditscope.tui")
logger.addHandler(logging.NullHandler())  # a library's logger: the host app picks the output


def failure_notice(what: str, error: BaseException) -> tuple[str, str]:
    """(title, text) for a failed piece of work: what went wrong and the next step."""
    if isinstance(error, OSError):
        where = f"{error.filename}: " if error.filename else ""
        reason = error.strerror or str(error) or type(error).__name__
        step = ("Check that the file or folder can be written (permissions, free space), "
                "then try again.")
        return f"{what} failed", f"{where}{reason}\n{step}"
    if isinstance(error, SettingsError):  # the config file: unreadable, or not valid settings
        step = ("Check that the file can be read and written and holds valid settings "
                "(or move it aside), then try again.")
        return f"{what} failed", f"{error}\n{step}"
    from creditscope.tui.widgets.error_panel import describe

    title, code, message, step = describe(error)
    if title == "Unexpected error":
        title = f"{what} failed"
    return title, "\n".join(part for part in (code, message, step) if part)


def report_failure(app: App[None], what: str, error: BaseException) -> None:
    """Log the failure (with its traceback; also to ``textual console``) and show it as an
    error notification."""
    logger.error("%s failed: %r", what, error, exc_info=error)
    app.log.error(f"{what} failed", error)
    title, text = failure_notice(what, error)
    app.notify(text, title=title, severity="error", timeout=15)
