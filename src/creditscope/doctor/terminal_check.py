"""Doctor's terminal check: size, colours, TERM, and whether OSC 52 copy is likely to work.

The explorer copies (curl commands, JSON, exports) with OSC 52, an escape
sequence asking the terminal to set the clipboard, plus the platform tool when
one is there. Whether a terminal honours OSC 52 cannot be asked, so this is a
guess from the environment (:mod:`creditscope.clipboard_check`, which the
explorer's copy uses too), and only ever a note: the terminal never makes doctor
fail.
"""

from __future__ import annotations

import io
import os
from collections.abc import Mapping
from typing import Any, Literal

from creditscope import clipboard_check
from creditscope.clipboard_check import platform_tool, tmux_set_clipboard
from creditscope.doctor.report import Finding

# The explorer is laid out for 120x36 and usable down to this.
SMALLEST_COMFORTABLE = (80, 24)

_tmux_set_clipboard = tmux_set_clipboard  # looked up at each check: tests replace it


def check_terminal() -> Finding:
    """Size, colours, TERM and the OSC 52 guess, as one finding (``ok`` or ``note``)."""
    env = os.environ
    size = _terminal_size()
    colours = _colour_system()
    term = env.get("TERM", "")
    osc52, osc52_reason, fix = osc52_support(env)
    tool = platform_tool()
    details: dict[str, Any] = {
        "is_terminal": size is not None,
        "columns": size[0] if size else None,
        "lines": size[1] if size else None,
        "colours": colours,
        "no_color": "NO_COLOR" in env,
        "term": term or None,
        "colorterm": env.get("COLORTERM") or None,
        "term_program": env.get("TERM_PROGRAM") or None,
        "osc52": osc52,
        "osc52_reason": osc52_reason,
        "clipboard_tool": tool[0] if tool else None,
    }
    parts = [f"{size[0]}×{size[1]}" if size else "not a terminal (output piped)",
             f"colours: {colours}", f"TERM={term or '(unset)'}",
             f"OSC 52 copy {osc52}: {osc52_reason}"]
    if tool:
        parts.append(f"copy also uses {tool[0]}")
    notes = []
    if size and (size[0] < SMALLEST_COMFORTABLE[0] or size[1] < SMALLEST_COMFORTABLE[1]):
        notes.append("smaller than 80×24: the explorer will be cramped")
        fix = fix or "Enlarge the window (the explorer is laid out for 120×36)."
    if not term or term == "dumb":
        notes.append("the explorer needs a terminal that understands escape sequences")
        fix = fix or "Run it in a terminal emulator, with TERM set (e.g. xterm-256color)."
    summary = ", ".join(parts) + (f" ({'; '.join(notes)})" if notes else "")
    noteworthy = bool(notes) or (osc52 != "likely" and tool is None)
    return Finding("terminal", "note" if noteworthy else "ok", summary,
                   fix=fix if noteworthy else None, details=details)


def osc52_support(env: Mapping[str, str]) -> tuple[str, str, str | None]:
    """``("likely" | "unlikely" | "unknown", why, fix or None)`` for OSC 52 clipboard writes
    (the explorer's copy makes the same guess: ``clipboard_check``)."""
    return clipboard_check.osc52_support(env, lambda: _tmux_set_clipboard())


def _terminal_size() -> tuple[int, int] | None:
    # stdout may be piped (doctor --json | jq) while stderr or stdin is still the terminal.
    for fd in (1, 2, 0):
        try:
            size = os.get_terminal_size(fd)
        except OSError:
            continue
        return size.columns, size.lines
    return None


# The TEXTUAL_COLOR_SYSTEM values Rich accepts.
_RICH_COLOR_SYSTEMS: dict[str, Literal["auto", "standard", "256", "truecolor", "windows"]] = {
    "auto": "auto", "standard": "standard", "256": "256", "truecolor": "truecolor",
    "windows": "windows",
}

def _colour_system() -> str:
    """What Textual will draw with here: the colour system of a console built the way
    Textual builds its own (Rich's detection from COLORTERM and TERM, unless
    TEXTUAL_COLOR_SYSTEM says otherwise), monochrome under NO_COLOR."""
    from rich.console import Console

    requested = os.environ.get("TEXTUAL_COLOR_SYSTEM") or "auto"
    if requested not in _RICH_COLOR_SYSTEMS:  # Textual itself would fail to start
        known = ", ".join(_RICH_COLOR_SYSTEMS)
        raise ValueError(f"TEXTUAL_COLOR_SYSTEM={requested!r} is not one of {known}")
    console = Console(
        color_system=_RICH_COLOR_SYSTEMS[requested],
        file=io.StringIO(), force_terminal=True, legacy_windows=False,
    )
    system = console.color_system or "none"
    return system + (", monochrome (NO_COLOR is set)" if "NO_COLOR" in os.environ else "")
