"""What the user sees, and the log keeps, when background work fails.

The app's one worker-failure handler (``CreditscopeApp.on_worker_state_changed``)
calls :func:`report_failure`; a call's error is shown in place by
:class:`creditscope.tui.calls.ResultArea` instead.
"""

from __future__ import annotations

import logging
import traceback
from datetime import UTC, datetime
from pathlib import Path

from textual.app import App

from creditscope.outside_text import markup_escaped
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
    from creditscope.tui.remedies import UNEXPECTED, describe, remedy_for

    title, code, message, step = describe(error)
    if remedy_for(error) is UNEXPECTED:
        title = f"{what} failed"
    return title, "\n".join(part for part in (code, message, step) if part)


def write_report(directory: Path, where: str, error: BaseException) -> Path:
    """A bug report file (0600) with the traceback: no locals, so no key can be in it."""
    from creditscope import about
    from creditscope.private_files import private_directory, write_private

    folder = private_directory(directory / "reports")
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S%fZ")
    text = "".join(traceback.format_exception(error))
    path = folder / f"error-{stamp}.txt"
    write_private(path, f"{about.version_line()}\nin: {where}\n\n{text}")
    return path


def report_unexpected(app: App[None], where: str, error: Exception) -> None:
    """An exception no handler expected: the log, a report file, and a notification that
    says the session goes on and where the report is."""
    logger.error("unexpected error in %s", where, exc_info=error)
    app.log.error(f"unexpected error in {where}", error)
    saved = ""
    directory = getattr(getattr(app, "settings", None), "data_dir", None)
    if isinstance(directory, Path):
        try:
            report = markup_escaped(str(write_report(directory, where, error)))
            saved = f"\nA report is in {report}: attach it to an issue."
        except OSError:
            saved = ""
    # A toast reads markup: an error's text (often quoting outside text, or a MarkupError
    # quoting "[/]") and a path are escaped, so the report itself cannot fail.
    app.notify(f"{type(error).__name__}: {markup_escaped(str(error))}\nYour session, Activity and "
               "credits are kept; carry on, or restart the explorer if this part stops "
               f"answering.{saved}",
               title=f"Something went wrong in {where}", severity="error", timeout=20)


def report_failure(app: App[None], what: str, error: BaseException) -> None:
    """Log the failure (with its traceback; also to ``textual console``) and show it as an
    error notification."""
    logger.error("%s failed: %r", what, error, exc_info=error)
    app.log.error(f"{what} failed", error)
    title, text = failure_notice(what, error)
    app.notify(markup_escaped(text), title=title, severity="error", timeout=15)  # text, not markup
