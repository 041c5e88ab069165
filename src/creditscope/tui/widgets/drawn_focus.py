"""Take the focus once drawn: a result is on screen one restyle sooner."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.geometry import Region
from textual.strip import Strip

if TYPE_CHECKING:
    from textual.widget import Widget

    _Base = Widget
else:
    # A plain mixin at run time: Textual takes a widget's CSS, bindings and component
    # classes from its first DOMNode base only, which must stay the widget class.
    _Base = object


class FocusWhenDrawn(_Base):
    """A widget that can take the focus right after the frame that first draws it.

    Moving the focus restyles both widgets (a DataTable with each of its component
    classes: ~10 ms, more on a busy machine) before the frame that shows a new result.
    A result table that takes the focus this way is drawn first and the cursor moves
    one frame later, so a cached answer reaches the screen in one compositor pass.
    Put it before the widget class: ``class Results(FocusWhenDrawn, DataTable)``.
    """

    _focus_when_drawn = False

    def focus_when_drawn(self) -> None:
        """Focus this widget once its next drawing is on screen (at once if it has focus
        already or is not displayed, where no frame would draw it)."""
        if self.has_focus or not self.display or not self.is_mounted:
            self.focus()
            return
        self._focus_when_drawn = True

    def render_lines(self, crop: Region) -> list[Strip]:
        """Draw as usual; then ask for the focus, which comes after this frame is written."""
        lines = super().render_lines(crop)
        if self._focus_when_drawn:
            self._focus_when_drawn = False
            self.call_next(self._take_focus)
        return lines

    def _take_focus(self) -> None:
        # Not from a screen in the background (drawn under another) or once focused.
        if not self.has_focus and self.screen.is_current:
            self.focus()
