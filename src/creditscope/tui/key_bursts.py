"""A word typed at a list never fills the dialog its first letter opened.

Letters typed where no box has the cursor are the area's keys (``s`` sorts, ``l`` labels
a call) or go into its search box. Typed as a word, the first letter can open a dialog
(a label, a file name, help) and the rest of the word would land in it: ``socks`` on
Activity once saved a file named ``ocks``. A person reads a dialog before typing into
it, which takes longer than :data:`BURST_GAP`; keys closer together than that are one
burst, typed before anyone saw the dialog. So once a letter typed at a non-field has
been handled, a screen opened since (on the same area) ignores the rest of the burst:
every key but Escape (which closes it, as meant). Pastes are not keys and go through:
``i`` then a paste is Import request with what was pasted.

The gap is measured between the times keys were read, which a busy machine delays: the
key after the one that opened a dialog is read late while the dialog is built (0.25 s
seen under load in tests/terminal), hence a gap wider than typing needs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual import events

from creditscope.tui.key_costs import is_text_box

if TYPE_CHECKING:
    from textual.app import App
    from textual.screen import Screen

BURST_GAP = 0.3  # seconds between keys: faster than anyone reads a dialog that just opened


class LetterDialogGuard:
    """Says which keys of ``app`` to drop: the rest of a burst that opened a dialog."""

    def __init__(self, app: App[Any]) -> None:
        self._app = app
        self._last_key = float("-inf")  # when the last key was read
        # The area and its screens when a letter was last typed at a non-field in this
        # burst; None when no letter of the burst could have opened a dialog.
        self._before: tuple[str | None, tuple[Screen[Any], ...]] | None = None

    def drops(self, event: events.Event) -> bool:
        """True for a key typed in the same burst as a letter that opened a screen."""
        if not isinstance(event, events.Key):
            return False
        app = self._app
        if event.time - self._last_key >= BURST_GAP:
            self._before = None  # a pause: the person has seen what is on screen
        self._last_key = event.time
        if self._before is not None and event.key != "escape":
            mode, stack = self._before
            if app.current_mode == mode and app.screen not in stack:
                return True
        letter_at_no_field = (event.is_printable and bool(event.character)
                              and not is_text_box(app.focused))
        self._before = (app.current_mode, tuple(app.screen_stack)) if letter_at_no_field else None
        return False
