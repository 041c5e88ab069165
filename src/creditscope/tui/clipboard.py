"""Copy text: OSC 52 through the terminal, plus the platform clipboard tool when present."""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import sys

from textual.app import App

from creditscope.wording import counted

# First tool found wins; Wayland before X11.
_TOOLS: tuple[tuple[str, ...], ...] = (
    ("wl-copy",),
    ("xclip", "-selection", "clipboard"),
    ("xsel", "--clipboard", "--input"),
    ("pbcopy",),
)


def platform_tool() -> tuple[str, ...] | None:
    """The clipboard command for this machine, or None (then OSC 52 alone is used)."""
    if sys.platform == "darwin" and shutil.which("pbcopy"):
        return ("pbcopy",)
    has_display = bool(os.environ.get("WAYLAND_DISPLAY") or os.environ.get("DISPLAY"))
    if not has_display:
        return None
    for tool in _TOOLS:
        if shutil.which(tool[0]):
            return tool
    return None


def _run_tool(tool: tuple[str, ...], text: str) -> None:
    # OSC 52 already did its best; a failing tool is not worth an error.
    with contextlib.suppress(OSError, subprocess.SubprocessError):
        subprocess.run(tool, input=text.encode(), timeout=3, check=False,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def copy_text(app: App[object], text: str, what: str) -> None:
    """Copy ``text`` and tell the user ``what`` was copied (e.g. "curl command")."""
    app.copy_to_clipboard(text)
    tool = platform_tool()
    if tool is not None:
        app.run_worker(lambda: _run_tool(tool, text), thread=True, group="clipboard",
                       description="Copy with the platform clipboard tool", exit_on_error=False)
    lines = text.count("\n") + 1
    size = f"{counted(len(text), 'character')}, {counted(lines, 'line')}"
    app.notify(f"{what} ({size})", title="Copied")
