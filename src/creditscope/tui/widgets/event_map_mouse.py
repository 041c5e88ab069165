"""Mouse input for a map widget: the wheel zooms around the pointer, drag pans, click picks.

:class:`MapMouse` is a base widget that only turns mouse events into view
changes and clicks; the map that subclasses it says what its view is
(:attr:`viewport`), how to show another (:meth:`show_view`) and what a click
on a cell means (:meth:`cell_clicked`).
"""

from __future__ import annotations

from textual import events
from textual.widget import Widget

from creditscope.worldmap.projection import Viewport

WHEEL_STEP = 1.5


class MapMouse(Widget):
    """Wheel zoom, drag pan and click handling shared by map widgets."""

    def __init__(
        self,
        *,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
        disabled: bool = False,
    ) -> None:
        super().__init__(name=name, id=id, classes=classes, disabled=disabled)
        self._drag_from: tuple[float, float] | None = None
        self._dragged = False

    @property
    def viewport(self) -> Viewport:
        """The current view (subclasses provide it)."""
        raise NotImplementedError

    def show_view(self, view: Viewport) -> None:
        """Move to ``view`` (subclasses provide it)."""
        raise NotImplementedError

    def cell_clicked(self, x: int, y: int) -> None:
        """A click that was not the end of a drag landed on cell (x, y)."""
        raise NotImplementedError

    def on_mouse_scroll_up(self, event: events.MouseScrollUp) -> None:
        """Wheel up: zoom in around the pointer."""
        event.stop()
        event.prevent_default()
        self.show_view(self.viewport.zoomed(WHEEL_STEP, (event.x, event.y)))

    def on_mouse_scroll_down(self, event: events.MouseScrollDown) -> None:
        """Wheel down: zoom out around the pointer."""
        event.stop()
        event.prevent_default()
        self.show_view(self.viewport.zoomed(1 / WHEEL_STEP, (event.x, event.y)))

    def on_mouse_down(self, event: events.MouseDown) -> None:
        """Start a possible drag."""
        if event.button == 1:
            self._drag_from = (event.screen_x, event.screen_y)
            self._dragged = False
            self.capture_mouse()

    def on_mouse_move(self, event: events.MouseMove) -> None:
        """Drag pans: the land under the pointer follows it."""
        if self._drag_from is None:
            return
        fx, fy = self._drag_from
        dx, dy = event.screen_x - fx, event.screen_y - fy
        if dx or dy:
            self._dragged = True
            self._drag_from = (event.screen_x, event.screen_y)
            self.show_view(self.viewport.panned(-dx, -dy))

    def on_mouse_up(self, event: events.MouseUp) -> None:
        """End a drag."""
        if self._drag_from is not None:
            self._drag_from = None
            self.release_mouse()

    def on_click(self, event: events.Click) -> None:
        """A click that ends a drag does nothing; any other goes to :meth:`cell_clicked`."""
        if self._dragged:
            self._dragged = False
            return
        self.cell_clicked(event.x, event.y)
