"""The Events area: the discovery feed on a world map, with event details."""

from __future__ import annotations

from creditscope.tui.screens.events.screen import EventsScreen

__all__ = ["EventsScreen"]
