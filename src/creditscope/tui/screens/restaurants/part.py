"""What the three parts of a restaurant (overview, menu, reviews) share: load once, on demand."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any, ClassVar

from textual.containers import Vertical

from creditscope.row_export import Row
from creditscope.tui.calls import CallRequest, ResultArea
from creditscope.tui.host import host_of
from creditscope.tui.prices import Quote, quote
from creditscope.tui.widgets.price_button import PriceButton

if TYPE_CHECKING:
    from creditscope.operations import Operation


class RestaurantPart(Vertical):
    """One tab of a restaurant: fetched once, on a priced press, then kept.

    Opening a tab never spends (its key is a letter, its tab a click away from
    another): a part that the cache answers for free is filled at once; one that
    would cost says so in its empty state and waits for its priced button
    (``button_id``), which Enter presses. Subclasses name their ``operation`` (a
    typed ``operations`` constant) and ``title``, compose a :class:`ResultArea` with
    the id ``area_id`` and a :class:`PriceButton` with the id ``button_id``, and fill
    the area on success.
    ``e`` exports what the tab shows: ``shown_rows``, one ``export_word`` each.
    """

    operation: ClassVar[Operation[Any]]
    title: ClassVar[str]  # the tab's name: "Menu"
    area_id: ClassVar[str]
    button_id: ClassVar[str | None] = None  # the priced button that fetches it (None: none)
    export_word: ClassVar[tuple[str, str | None]]  # one exported row: ("dish", "dishes")

    def __init__(self, restaurant_id: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.restaurant_id = restaurant_id
        self.requested = False  # a fetch was started (successful or not)
        self.loaded = False  # data is on screen

    def params(self) -> dict[str, Any]:
        """The request this part makes now."""
        return {"id": self.restaurant_id}

    def ensure_loaded(self) -> bool:
        """Show what is here: fetched already, free from the cache, or offered at its price.
        True when it offers (its priced button takes the cursor)."""
        if self.requested:
            return False
        now = quote(host_of(self), self.operation.name, self.params())
        if now is not None and now.cost == 0:
            self.load()  # the cache answers (or, offline, says it cannot): nothing is spent
            return False
        return self.offer(now)

    def offer(self, now: Quote | None) -> bool:
        """Say what fetching this part costs, and put the cursor on its priced button."""
        if self.button_id is None:
            self.load()  # a part without a button is fetched by the press that opened it
            return False
        price = "its price" if now is None else now.words().long
        button = self.query_one(f"#{self.button_id}", PriceButton)
        self.query_one(f"#{self.area_id}", ResultArea).show_empty(
            f"{self.title}: not fetched yet ({price}). Press Enter on "
            f"“{button.action_text}” or click it; reopening it later is free.")
        # Now, not after a frame: the key that opened the tab is done only once this
        # focus is set, so an Enter typed right behind it presses this button.
        button.focus()
        return True

    def load(self, *, refresh: bool = False) -> None:
        """Fetch this part through its results area (validated first, nothing spent on a bad id)."""
        self.requested = True
        label = f"the {self.title.lower()}"
        request = CallRequest(self.operation, self.params(), refresh=refresh, label=label)
        self.query_one(f"#{self.area_id}", ResultArea).run(request)

    def export_rows(self) -> list[Row]:
        """The rows the tab shows, for an export; none until fetched or while it shows an
        error (the rows under it are no longer what the user sees)."""
        if not self.loaded or not self.query_one(f"#{self.area_id}", ResultArea).shows_content:
            return []
        return self.shown_rows()

    def shown_rows(self) -> list[Row]:
        """The rows on screen once fetched. Override this."""
        return []

    def export_scope(self) -> str:
        """Words after the count in the export dialog's title (" of the whole menu")."""
        return ""

    def export_empty(self) -> str:
        """Why there is nothing to export."""
        if not self.loaded:
            return f"the {self.title} tab is not fetched yet."
        return f"the {self.title} tab shows nothing."

    def now(self) -> datetime:
        """The app's clock (injected, so tests are deterministic), in UTC."""
        return host_of(self).clock()
