"""Doctor's terminal check: size, colours, TERM, and whether OSC 52 copy is likely to work.

The explorer copies (curl commands, JSON, exports) with OSC 52, an escape
sequence asking the terminal to set the clipboard, plus the platform tool when
one is there (:mod:`creditscope.tui.clipboard`). Whether a terminal honours
OSC 52 cannot be asked, so this is a guess from the environment, and only ever
a note: the terminal never makes doctor fail.
"""

from __future__ import annotations

import io
import os
import shutil
import subprocess
from collections.abc import Mapping
from typing import Any, Literal

from creditscope.doctor.report import Finding
from creditscope.tui.clipboard import platform_tool

FIX_TERMINAL = ("Use a terminal that supports OSC 52 (kitty, WezTerm, Windows Terminal…), or"
                " install a clipboard tool (wl-copy, xclip) for the explorer to use.")

# The explorer is laid out for 120x36 and usable down to this.
SMALLEST_COMFORTABLE = (80, 24)

# (environment variable, value it starts with or "" for any, terminal, honours OSC 52 writes)
_TERMINALS: tuple[tuple[str, str, str, bool], ...] = (
    ("KITTY_WINDOW_ID", "", "kitty", True),
    ("WEZTERM_EXECUTABLE", "", "WezTerm", True),
    ("TERM_PROGRAM", "WezTerm", "WezTerm", True),
    ("TERM_PROGRAM", "ghostty", "Ghostty", True),
    ("ALACRITTY_WINDOW_ID", "", "Alacritty", True),
    ("WT_SESSION", "", "Windows Terminal", True),
    ("TERM_PROGRAM", "vscode", "VS Code's terminal", True),
    ("TERM", "foot", "foot", True),
    ("TERM", "xterm-kitty", "kitty", True),
    ("TERM_PROGRAM", "Apple_Terminal", "macOS Terminal", False),
    ("VTE_VERSION", "", "a VTE terminal (GNOME Terminal, Tilix, …)", False),
    ("TERM", "linux", "the Linux console", False),
)


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
    """``("likely" | "unlikely" | "unknown", why, fix or None)`` for OSC 52 clipboard writes."""
    if env.get("TMUX"):
        setting = _tmux_set_clipboard()
        if setting != "on":
            return ("unlikely", f"tmux drops it (set-clipboard is {setting or 'unknown'})",
                    "tmux set -g set-clipboard on (in ~/.tmux.conf to keep it)")
        inner = _known_terminal(env)
        if inner is not None and not inner[1]:
            return "unlikely", f"tmux passes it on, but {inner[0]} ignores it", FIX_TERMINAL
        return ("likely", "tmux passes it on (set-clipboard on)"
                + (f" to {inner[0]}" if inner else ""), None)
    if env.get("STY") or env.get("TERM", "").startswith("screen"):
        return ("unlikely", "GNU screen does not pass it on",
                "Use tmux with set-clipboard on, or a terminal without screen.")
    known = _known_terminal(env)
    if known is not None:
        name, honours = known
        if honours:
            return "likely", f"{name} supports it", None
        return "unlikely", f"{name} ignores it", FIX_TERMINAL
    if env.get("TERM_PROGRAM") == "iTerm.app":
        return ("unknown", "iTerm2 needs “Applications in terminal may access clipboard”",
                "iTerm2 → Settings → General → Selection: allow clipboard access.")
    return ("unknown", f"{env.get('TERM_PROGRAM') or env.get('TERM') or 'this terminal'}"
            " is not known to support it", None)


def _known_terminal(env: Mapping[str, str]) -> tuple[str, bool] | None:
    for variable, prefix, name, honours in _TERMINALS:
        value = env.get(variable)
        if value and value.startswith(prefix):
            return name, honours
    return None


def _tmux_set_clipboard() -> str | None:
    if shutil.which("tmux") is None:
        return None
    try:
        done = subprocess.run(["tmux", "show-options", "-gv", "set-clipboard"], capture_output=True,
                              text=True, timeout=2, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout.strip() or None


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
