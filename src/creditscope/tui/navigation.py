"""The explorer's main areas, in the order the nav bar shows them.

Each entry becomes one Textual *mode*, so every area keeps its own screen
stack (a detail screen pushed inside Restaurants stays there while the user
looks at Activity). Screens are imported only when first shown, so the first
frame never pays for them.

Adding an area is one line in ``NAV_ENTRIES``::

    NavEntry("reviews", "Reviews", "8", "creditscope.tui.screens.reviews:ReviewsScreen"),

The screen class should subclass :class:`creditscope.tui.screens.base.AreaScreen`
so it gets the header, the credit meter, the nav bar and the footer.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from textual.screen import Screen


@dataclass(frozen=True)
class NavEntry:
    """One main area: its mode id, nav-bar title, number key and lazily imported screen."""

    mode: str  # Textual mode name, also the binding id suffix: "nav.<mode>"
    title: str
    key: str  # the number key that switches to it
    screen: str  # "package.module:ClassName"

    @property
    def binding_id(self) -> str:
        """The id users remap in ``Settings.keys``, e.g. ``nav.catalog``."""
        return f"nav.{self.mode}"

    def load(self) -> type[Screen]:
        """Import and return the screen class (on first use of the area)."""
        module_name, _, class_name = self.screen.partition(":")
        screen_class: type[Screen] = getattr(importlib.import_module(module_name), class_name)
        return screen_class


# Keys 1-3 belong to Events, Company lookup and Restaurants.
NAV_ENTRIES: tuple[NavEntry, ...] = (
    NavEntry("events", "Events", "1", "creditscope.tui.screens.events:EventsScreen"),
    NavEntry("company", "Company", "2", "creditscope.tui.screens.company:CompanyScreen"),
    NavEntry(
        "restaurants", "Restaurants", "3",
        "creditscope.tui.screens.restaurants:RestaurantsScreen",
    ),
    NavEntry("catalog", "Catalog", "4", "creditscope.tui.screens.catalog:CatalogScreen"),
    NavEntry("activity", "Activity", "5", "creditscope.tui.screens.activity:ActivityScreen"),
    NavEntry("settings", "Settings", "6", "creditscope.tui.screens.settings:SettingsScreen"),
    NavEntry("usage", "Usage", "7", "creditscope.tui.screens.usage:UsageScreen"),
)


def ordered_entries() -> tuple[NavEntry, ...]:
    """The entries sorted by their number key, whatever order they were added in."""
    return tuple(sorted(NAV_ENTRIES, key=lambda entry: entry.key))


def entry_for(mode: str) -> NavEntry:
    """The entry whose mode id is ``mode``."""
    for entry in NAV_ENTRIES:
        if entry.mode == mode:
            return entry
    raise KeyError(f"no navigation entry for mode {mode!r}")
