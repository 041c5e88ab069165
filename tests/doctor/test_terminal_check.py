"""Doctor's terminal line: size, colours, TERM and the OSC 52 guess; never a problem."""

from __future__ import annotations

import pytest

from creditscope.doctor import terminal_check
from creditscope.doctor.report import guarded
from creditscope.doctor.terminal_check import check_terminal, osc52_support


@pytest.mark.parametrize(
    ("env", "verdict", "says"),
    [
        ({"TERM": "xterm-kitty", "KITTY_WINDOW_ID": "1"}, "likely", "kitty"),
        ({"TERM_PROGRAM": "WezTerm"}, "likely", "WezTerm"),
        ({"WT_SESSION": "x", "TERM": "xterm-256color"}, "likely", "Windows Terminal"),
        ({"TERM_PROGRAM": "Apple_Terminal"}, "unlikely", "macOS Terminal"),
        ({"VTE_VERSION": "7200", "TERM": "xterm-256color"}, "unlikely", "VTE"),
        ({"STY": "1.pts", "TERM": "screen"}, "unlikely", "screen"),
        ({"TERM_PROGRAM": "iTerm.app"}, "unknown", "iTerm2"),
        ({"TERM": "xterm"}, "unknown", "xterm"),
    ],
)
def test_osc52_guess_from_the_environment(env: dict[str, str], verdict: str, says: str) -> None:
    found, reason, _fix = osc52_support(env)
    assert found == verdict and says in reason


def test_tmux_needs_set_clipboard_on(monkeypatch: pytest.MonkeyPatch) -> None:
    env = {"TMUX": "/tmp/tmux-0/default,1,0", "TERM": "tmux-256color", "KITTY_WINDOW_ID": "3"}
    monkeypatch.setattr(terminal_check, "_tmux_set_clipboard", lambda: "external")
    found, reason, fix = osc52_support(env)
    assert (found, fix) == ("unlikely", "tmux set -g set-clipboard on (in ~/.tmux.conf to keep it)")
    assert "external" in reason
    monkeypatch.setattr(terminal_check, "_tmux_set_clipboard", lambda: "on")
    found, reason, fix = osc52_support(env)
    assert found == "likely" and "kitty" in reason and fix is None
    found, reason, fix = osc52_support({"TMUX": "x", "VTE_VERSION": "7200"})
    assert found == "unlikely" and "VTE" in reason and fix


def test_terminal_line_reports_colours_and_term(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TERM", "xterm-256color")
    monkeypatch.setenv("COLORTERM", "truecolor")
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setattr(terminal_check, "_terminal_size", lambda: (120, 36))
    found = check_terminal()
    assert found.status in ("ok", "note")
    assert found.summary.startswith("120×36, colours: truecolor, TERM=xterm-256color")
    assert found.details["columns"] == 120 and found.details["colours"] == "truecolor"


def test_a_dumb_small_terminal_is_a_note_with_a_fix(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TERM", "dumb")
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setattr(terminal_check, "_terminal_size", lambda: (60, 20))
    found = check_terminal()
    assert found.status == "note"
    assert "cramped" in found.summary and "escape sequences" in found.summary
    assert found.details["colours"].startswith("none")
    assert found.fix


def test_textual_color_system_overrides_detection(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TERM", "xterm-256color")
    monkeypatch.setenv("COLORTERM", "truecolor")
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TEXTUAL_COLOR_SYSTEM", "standard")
    monkeypatch.setattr(terminal_check, "_terminal_size", lambda: (120, 36))
    assert check_terminal().details["colours"] == "standard"


def test_an_unknown_textual_color_system_is_a_problem_naming_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Textual would not start with it: doctor's terminal line says which variable holds what.
    monkeypatch.setenv("TEXTUAL_COLOR_SYSTEM", "rainbow")
    [found] = guarded("terminal", lambda: [check_terminal()])
    assert found.status == "problem"
    assert "TEXTUAL_COLOR_SYSTEM='rainbow' is not one of auto, standard" in found.summary
