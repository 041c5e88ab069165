"""Textual's footer, minus its leak: keys it rebuilt are let go of."""

from __future__ import annotations

from textual.widgets import Footer as TextualFooter

from creditscope.tui.leaks import drop_closed_watchers


class Footer(TextualFooter):
    """The key bar; drops the data-binding watchers of the keys each rebuild replaces."""

    async def recompose(self) -> None:
        """Rebuild the keys (the bindings changed), then forget the removed keys' watchers."""
        await super().recompose()
        # Each old FooterKey bound ``compact``; Textual would keep them until it changes.
        drop_closed_watchers(self)
