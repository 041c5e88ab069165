"""Activity's copy of a call as code: curl, Python (httpx) or JavaScript (fetch), key
masked (each reads it from ``$CREDITSCOPE_API_KEY``), runnable as is.

The in-process sandbox has no address: a sandbox call targets `creditscope serve`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from creditscope.tui.clipboard import copy_text

if TYPE_CHECKING:
    from textual.app import App

    from creditscope.client.records import CallRecord

# `creditscope serve`'s defaults: where a sandbox call can be repeated.
SERVE_ADDRESS = "http://127.0.0.1:8080"
SERVE_COMMAND = "creditscope serve --port 8080"

Language = Literal["curl", "python", "javascript"]


def copy_as(app: App[object], record: CallRecord, language: Language) -> None:
    """Copy ``record`` as a ``language`` command or program, saying what was copied."""
    from creditscope.client.code_snippets import javascript_snippet, python_snippet
    from creditscope.client.curl import LocalService, curl_command
    from creditscope.sandbox import SANDBOX_BASE_URL

    local = LocalService(SANDBOX_BASE_URL, SERVE_ADDRESS, SERVE_COMMAND)
    if language == "python":
        copy_text(app, python_snippet(record, local=local), "Python (httpx) program",
                  save_as="creditscope_call.py")
    elif language == "javascript":
        copy_text(app, javascript_snippet(record, local=local), "JavaScript (fetch) program",
                  save_as="creditscope-call.js")
    else:
        command = curl_command(record, local=local)
        note = "curl command" if command == curl_command(record) else (
            f"curl command for the sandbox served at {SERVE_ADDRESS} (start it with "
            f"`{SERVE_COMMAND}`)")
        copy_text(app, command, note, save_as="curl-command.sh")
