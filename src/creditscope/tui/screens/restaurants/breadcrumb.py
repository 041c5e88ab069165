"""Where the user is: "Restaurants › Lisbon › Casa Nova › Menu"."""

from __future__ import annotations

from textual.reactive import reactive
from textual.widgets import Static

from creditscope.outside_text import markup_escaped

SEPARATOR = " › "


class Breadcrumb(Static):
    """A one-line trail of places; the last part (where the user is) in bold."""

    parts: reactive[list[str]] = reactive(list, always_update=True)

    def __init__(self, parts: list[str], **kwargs: object) -> None:
        super().__init__("", **kwargs)  # type: ignore[arg-type]
        self.set_reactive(Breadcrumb.parts, list(parts))

    def on_mount(self) -> None:
        """Draw the initial trail."""
        self.watch_parts(self.parts)

    def watch_parts(self, parts: list[str]) -> None:
        """Redraw when the trail changes."""
        shown = [part for part in parts if part]
        head = SEPARATOR.join(shown[:-1])
        tail = shown[-1] if shown else ""
        separator = SEPARATOR if head else ""
        # Restaurant names may contain "[": kept out of markup.
        self.update(f"[$text-muted]{markup_escaped(head)}{separator}[/$text-muted]"
                    f"[b]{markup_escaped(tail)}[/b]")

    @property
    def text(self) -> str:
        """The trail as plain text (for tests and screen readers)."""
        return SEPARATOR.join(part for part in self.parts if part)
