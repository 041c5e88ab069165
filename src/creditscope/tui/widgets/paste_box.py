"""The Import dialog's paste box: Textual's ``TextArea``, redrawn when its text re-wraps."""

from __future__ import annotations

from textual import events
from textual.widgets import TextArea


class PasteBox(TextArea):
    """A soft-wrapped ``TextArea`` that repaints when a new width re-wraps its text.

    Textual's re-wraps on a resize (and drops its own line cache) but asks for no
    repaint, so lines drawn at the width it had a moment before stay on screen: at
    80 columns the Import dialog showed ``…menu?id=rst_lisbon_pt_01`` over ``011`` for
    the id ``rst_lisbon_pt_011``, a wrong id to copy into a ticket."""

    def on_resize(self, _event: events.Resize) -> None:
        # Textual's own handler (``_on_resize``) re-wraps first: it runs before this one.
        self.refresh()
