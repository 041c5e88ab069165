"""The Import dialog's paste box: Textual's ``TextArea``, where Enter means "go on"."""

from __future__ import annotations

from textual import events
from textual.message import Message
from textual.widgets import TextArea


class PasteBox(TextArea):
    """A soft-wrapped ``TextArea`` for a pasted request.

    - Enter posts :class:`Submitted` instead of breaking the line: what a person means
      after pasting a command is "go on" (a paste brings its own line breaks; a newline
      typed into a command only breaks it). The dialog moves the cursor to its buttons,
      where the price is, so Enter alone never sends.
    - It repaints when a new width re-wraps its text: Textual's re-wraps on a resize (and
      drops its own line cache) but asks for no repaint, so lines drawn at the width it
      had a moment before stayed on screen: at 80 columns the Import dialog showed
      ``…menu?id=rst_lisbon_pt_01`` over ``011`` for the id ``rst_lisbon_pt_011``.
    """

    class Submitted(Message):
        """Enter in the box."""

    async def _on_key(self, event: events.Key) -> None:
        if event.key == "enter":
            event.prevent_default()  # TextArea's own handler would insert a line break
            event.stop()
            self.post_message(self.Submitted())

    def on_resize(self, _event: events.Resize) -> None:
        # Textual's own handler (``_on_resize``) re-wraps first: it runs before this one.
        self.refresh()
