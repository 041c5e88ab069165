"""What the three parts of a restaurant (overview, menu, reviews) share: load once, on demand."""

from __future__ import annotations

from datetime import datetime
from typing import Any, ClassVar

from textual.containers import Vertical

from creditscope.tui.calls import CallRequest, ResultArea
from creditscope.tui.host import host_of


class RestaurantPart(Vertical):
    """One tab of a restaurant: fetched the first time it is opened, then kept.

    Subclasses name their ``operation`` and ``title``, compose a
    :class:`ResultArea` with the id ``area_id``, and fill it on success.
    """

    operation: ClassVar[str]
    title: ClassVar[str]  # the tab's name: "Menu"
    area_id: ClassVar[str]

    def __init__(self, restaurant_id: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.restaurant_id = restaurant_id
        self.requested = False  # a fetch was started (successful or not)
        self.loaded = False  # data is on screen

    def params(self) -> dict[str, Any]:
        """The request this part makes now."""
        return {"id": self.restaurant_id}

    def ensure_loaded(self) -> None:
        """Fetch on first opening only; later openings show what is already here."""
        if not self.requested:
            self.load()

    def load(self, *, refresh: bool = False) -> None:
        """Fetch this part through its results area (validated first, nothing spent on a bad id)."""
        self.requested = True
        label = f"the {self.title.lower()}"
        request = CallRequest(self.operation, self.params(), refresh=refresh, label=label)
        self.query_one(f"#{self.area_id}", ResultArea).run(request)

    def now(self) -> datetime:
        """The app's clock (injected, so tests are deterministic), in UTC."""
        return host_of(self).clock()
