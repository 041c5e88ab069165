"""Will a copy reach the clipboard? The one guess ``doctor`` reports and the explorer
acts on.

The explorer copies with OSC 52 (an escape sequence asking the terminal to set
the clipboard) plus the platform clipboard tool when there is one. Whether a
terminal honours OSC 52 cannot be asked, so this guesses from the environment.
Pure detection: no Textual, so ``doctor`` does not import the explorer.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Mapping

FIX_TERMINAL = ("Use a terminal that supports OSC 52 (kitty, WezTerm, Windows Terminal…), or"
                " install a clipboard tool (wl-copy, xclip) for the explorer to use.")

# First tool found wins; Wayland before X11.
_TOOLS: tuple[tuple[str, ...], ...] = (
    ("wl-copy",),
    ("xclip", "-selection", "clipboard"),
    ("xsel", "--clipboard", "--input"),
    ("pbcopy",),
)

# (environment variable, value it starts with or "" for any, terminal): terminals
# known to honour OSC 52 writes, then those known to ignore them.
_HONOURING: tuple[tuple[str, str, str], ...] = (
    ("KITTY_WINDOW_ID", "", "kitty"),
    ("WEZTERM_EXECUTABLE", "", "WezTerm"), ("TERM_PROGRAM", "WezTerm", "WezTerm"),
    ("TERM_PROGRAM", "ghostty", "Ghostty"),
    ("ALACRITTY_WINDOW_ID", "", "Alacritty"),
    ("WT_SESSION", "", "Windows Terminal"),
    ("TERM_PROGRAM", "vscode", "VS Code's terminal"),
    ("TERM", "foot", "foot"), ("TERM", "xterm-kitty", "kitty"),
)
_IGNORING: tuple[tuple[str, str, str], ...] = (
    ("TERM_PROGRAM", "Apple_Terminal", "macOS Terminal"),
    ("VTE_VERSION", "", "a VTE terminal (GNOME Terminal, Tilix, …)"),
    ("TERM", "linux", "the Linux console"),
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


def tmux_set_clipboard() -> str | None:
    """tmux's ``set-clipboard`` option (``external`` by default drops OSC 52), or None."""
    if shutil.which("tmux") is None:
        return None
    try:
        done = subprocess.run(["tmux", "show-options", "-gv", "set-clipboard"], capture_output=True,
                              text=True, timeout=2, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout.strip() or None


def osc52_support(
    env: Mapping[str, str], tmux_setting: Callable[[], str | None] | None = None,
) -> tuple[str, str, str | None]:
    """``("likely" | "unlikely" | "unknown", why, fix or None)`` for OSC 52 clipboard writes;
    ``tmux_setting`` replaces asking tmux for ``set-clipboard``."""
    if env.get("TMUX"):
        setting = (tmux_setting or tmux_set_clipboard)()
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


def copy_may_be_lost(
    env: Mapping[str, str], tool: tuple[str, ...] | None,
) -> tuple[str, str | None] | None:
    """Why a copy may not arrive, and the fix: when the terminal is known to drop OSC 52
    and no platform tool copies instead. None when it should arrive (or cannot be told:
    an unknown terminal is not called a failure)."""
    verdict, reason, fix = osc52_support(env)
    if verdict != "unlikely" or tool is not None:
        return None
    return reason, fix


def _known_terminal(env: Mapping[str, str]) -> tuple[str, bool] | None:
    """The terminal's name, and whether it honours OSC 52, when it is a known one."""
    for table, honours in ((_HONOURING, True), (_IGNORING, False)):
        for variable, prefix, name in table:
            value = env.get(variable)
            if value and value.startswith(prefix):
                return name, honours
    return None
