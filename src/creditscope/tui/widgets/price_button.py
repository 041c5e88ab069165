"""A button that says what pressing it costs: "Look up · 10 cr", "cached · free", "refresh · 10 cr".

Give it the operation, and keep its params current as the user types::

    button = PriceButton("Look up", operation="professional_network/find_company")
    button.params = {"name": "Acme", "website": "acme.com"}   # label re-checks the cache

Set ``refresh=True`` for a button that bypasses the cache on purpose.
"""

from __future__ import annotations

from typing import Any

from textual.reactive import reactive
from textual.widgets import Button

from creditscope.tui.leaks import watch_app


def price_label(action: str, price: int | None, cache_state: str | None, *, refresh: bool) -> str:
    """The button text for an action given its price and the cache state of its request."""
    if price is None:  # client not ready yet
        return action
    if refresh:
        return f"Refresh · {price} cr" if price else "Refresh · free"
    if cache_state in ("hit", "stale"):
        return f"{action} · cached · free"
    return f"{action} · {price} cr" if price else f"{action} · free"


class PriceButton(Button):
    """A button labelled with the price of its request, kept current as params change."""

    params: reactive[dict[str, Any]] = reactive(dict, always_update=True, init=False)

    def __init__(
        self, action: str, *, operation: str, refresh: bool = False, **kwargs: Any
    ) -> None:
        super().__init__(action, **kwargs)
        self.action_text = action
        self.operation = operation
        self.refresh_cache = refresh

    def on_mount(self) -> None:
        """Re-label when the client arrives and after every call (the cache may now hold it)."""
        watch_app(self, "client_generation", lambda _: self.update_price(), init=True)
        watch_app(self, "credits", lambda _: self.update_price(), init=False)

    def watch_params(self, _params: dict[str, Any]) -> None:
        """The request changed: its cache state may differ."""
        self.update_price()

    def update_price(self) -> None:
        """Ask the client for the price and cache state and update the label."""
        client: Any = getattr(self.app, "client", None)
        price: int | None = None
        state: str | None = None
        if client is not None:
            price = client.price_of(self.operation)
            try:
                state = str(client.cache_state(self.operation, self.params))
            except Exception:  # params not valid yet: the price alone is still right
                state = None
        label = price_label(self.action_text, price, state, refresh=self.refresh_cache)
        if str(self.label) != label:
            self.label = label
            # Setting a label does not relayout: an auto-width button would clip it.
            self.refresh(layout=True)
