"""A button that says what pressing it costs: "Look up · N cr", "Look up · cached · free",
"Look up · N cr · expired", "Refresh · N cr" (see :mod:`creditscope.tui.prices`).

Give it the operation, and keep its params current as the user types::

    button = PriceButton("Look up", operation="professional_network/find_company")
    button.params = {"name": "Acme", "website": "acme.com"}   # label re-checks the cache

Set ``refresh=True`` for a button that bypasses the cache on purpose.
"""

from __future__ import annotations

from typing import Any, ClassVar

from textual.binding import Binding, BindingType
from textual.reactive import reactive
from textual.widgets import Button

from creditscope.client.price_state import Blocked, PriceWords
from creditscope.tui.host import host_of
from creditscope.tui.prices import quote


class PriceButton(Button):
    """A button labelled with the price of its request, kept current as params change."""

    # Shown in the footer with the button's price while it has the cursor: "⏎ Press · N cr".
    BINDING_GROUP_TITLE = "a priced button"  # help says where its keys work
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "press", "Press", id="price_button.press"),
    ]

    params: reactive[dict[str, Any]] = reactive(dict, always_update=True, init=False)
    blocked: reactive[str | None] = reactive(None, init=False)
    """Why the request cannot be sent as it stands ("no more pages", "unknown place"):
    the label says so instead of a price (the button's own ``disabled`` is separate)."""

    def __init__(
        self, action: str, *, operation: str, refresh: bool = False, **kwargs: Any
    ) -> None:
        super().__init__(action, **kwargs)
        self.action_text = action
        self.operation = operation
        self.refresh_cache = refresh
        self.words: PriceWords | Blocked | None = None  # what the label says, for keys

    def on_mount(self) -> None:
        """Label now, when a client is ready, and after every call (the cache may now hold it)."""
        self.update_price()
        signals = host_of(self).signals
        signals.client_ready.subscribe(self, lambda _client: self.update_price())
        signals.credits_changed.subscribe(self, lambda _credits: self.update_price())

    def on_unmount(self) -> None:
        """Stop following (a popped screen's button must not be kept alive)."""
        host_of(self).signals.unsubscribe(self)

    def watch_params(self, _params: dict[str, Any]) -> None:
        """The request changed: its cache state may differ."""
        self.update_price()

    def binding_cost(self, binding_id: str) -> PriceWords | Blocked | None:
        """Enter presses this button: the footer says what the label says."""
        return self.words if binding_id == "price_button.press" else None

    def watch_blocked(self, _blocked: str | None) -> None:
        """Blocked or free again: the label changes."""
        self.update_price()

    def update_price(self) -> None:
        """Ask the client for the price and cache state and update the label."""
        if self.blocked:
            self.words = Blocked(self.blocked)
        else:
            now = quote(host_of(self), self.operation, self.params)
            self.words = None if now is None else now.words(refresh=self.refresh_cache)
        label = self.action_text if self.words is None else self.words.label(self.action_text)
        if str(self.label) != label:
            self.label = label
            # Setting a label does not relayout: an auto-width button would clip it.
            self.refresh(layout=True)
            self.refresh_bindings()  # a key that presses this button shows the same price
