"""Doctor's patches check: which of the explorer's reaches into Textual are off here, and
why (another Textual version, or a private module it moved). Each one off leaves the
explorer working, only slower or plainer, so this is a note, never a problem."""

from __future__ import annotations

from creditscope.doctor.report import Finding


def check_patches() -> Finding:
    """One finding: every patch on (``ok``), or the ones off with their reasons (``note``)."""
    # The explorer's patch module, read only: importing it applies nothing.
    from creditscope.tui.textual_patch import patch_states

    states = patch_states()
    off = [state for state in states if not state.on]
    details = {state.patch.name: ("on" if state.on else f"off: {state.why_off}")
               for state in states}
    if not off:
        return Finding("textual patches", "ok", f"all {len(states)} patches apply", details=details)
    names = ", ".join(f"{state.patch.name} ({state.patch.does}: {state.why_off})"
                      for state in off)
    return Finding(
        "textual patches", "note", f"{len(off)} of {len(states)} patches are off: {names}",
        fix="The explorer still works without them. Install the Textual version creditscope "
            "pins (pip install the creditscope release again) to turn them back on.",
        details=details,
    )
