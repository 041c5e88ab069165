"""Every price the explorer shows, and every sentence about what something costs or cost.

The price is the client's (the catalog's once it has been fetched, the spec's
table until then); before the client exists it is the operation table's. The
cache state is said the same way everywhere: fresh cached copies are free, an
expired one costs its price online ("cached copy expired") and is shown free,
marked "stale", offline. No screen writes a price (or "cr") itself.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rich.text import Text

from creditscope.client.records import CacheStatus, CallRecord, cache_note

if TYPE_CHECKING:
    from creditscope.tui.host import ExplorerHost


def credits_text(price: int) -> str:
    """``"3 cr"``, or ``"free"`` for a price of 0."""
    return f"{price} cr" if price else "free"


def price_of(host: ExplorerHost, operation: str) -> int:
    """What ``operation`` costs: the client's price, else the operation table's."""
    if host.client is not None:
        return int(host.client.price_of(operation))
    # Imported here: the operation table brings pydantic, kept off the first frame.
    from creditscope import operations

    return operations.get(operation).credits


@dataclass(frozen=True)
class Quote:
    """What a request would cost now, and why."""

    price: int
    state: str | None  # "hit", "stale", "miss", "none"; None when unknown
    offline: bool

    @property
    def free_from_cache(self) -> bool:
        """True when the cache answers for nothing (fresh, or stale while offline)."""
        return self.state == CacheStatus.HIT or (self.state == CacheStatus.STALE and self.offline)

    @property
    def cost(self) -> int:
        """Credits pressing it spends."""
        return 0 if self.free_from_cache else self.price

    @property
    def note(self) -> str:
        """``"cached"``, ``"stale"``, ``"cached copy expired"`` or ``""``."""
        return cache_note(self.state, offline=self.offline)

    def label(self, action: str, *, refresh: bool = False) -> str:
        """``"Search · 2 cr"``, ``"Search · cached · free"``, ``"Search · 2 cr · cached copy
        expired"``, ``"Search · stale · free"``, ``"Refresh · 2 cr"``."""
        if refresh:
            return f"Refresh · {credits_text(self.price)}"
        parts = [action, credits_text(self.cost)]
        if self.note:
            # "cached · free" reads better with the state first; a paid expiry comes after.
            parts = [action, self.note, "free"] if self.free_from_cache else [*parts, self.note]
        return " · ".join(parts)


def quote(host: ExplorerHost, operation: str, params: dict[str, Any] | None) -> Quote | None:
    """The quote for ``operation`` with ``params`` (None: client not ready). Sends nothing."""
    client = host.client
    if client is None:
        return None
    state: str | None = None
    if params is not None:
        try:
            state = str(client.cache_state(operation, params))
        except Exception:  # params not valid yet: the price alone is still right
            state = None
    return Quote(int(client.price_of(operation)), state, bool(client.offline))


# --- what a request will cost, in sentences --------------------------------------------


def plan_text(price: int, cost: int) -> Text:
    """``Price: 10 cr``, ``Price: free``, or ``Price: 10 cr · cached, so free now``."""
    if cost == 0 and price:
        return Text(f"Price: {price} cr · cached, so free now", style="green")
    return Text(f"Price: {price} cr" if price else "Price: free", style="bold")


def spend_button_text(price: int) -> str:
    """The confirming button of a spend: ``Spend 10 cr`` or ``Go ahead · free``."""
    return "Go ahead · free" if price == 0 else f"Spend {price} cr"


def costs_sentence(price: int) -> str:
    """``This costs 10 cr.`` or ``This is free.``"""
    return f"This costs {price} cr." if price else "This is free."


def over_budget_text(what: str, price: int, spent: int, budget: int) -> str:
    """Why a request waits for a confirmation: its price against the session budget."""
    return (f"{what} costs {price} cr. This session has {spent} of its {budget} cr budget"
            " spent or in flight.")


def not_sent_text(what: str, price: int) -> str:
    """What declining an over-budget request did (nothing)."""
    return (f"Not sent: {what} ({price} cr) would pass the session budget. "
            "Nothing was spent; what is on screen is unchanged.")


# --- what a call cost, after the fact ----------------------------------------------------


def charged_text(record: CallRecord) -> str:
    """A call in the log: ``3 cr``, ``saved 3`` (a cache hit), or ``0``."""
    if record.credits_charged:
        return f"{record.credits_charged} cr"
    if record.credits_saved:
        return f"saved {record.credits_saved}"
    return "0"


def spend_note(record: CallRecord) -> Text:
    """``from the cache · free``, ``stale copy (offline) · free`` or ``charged 10 cr``."""
    if record.cache is CacheStatus.HIT:
        return Text("from the cache · free", style="green")
    if record.cache is CacheStatus.STALE:
        return Text("stale copy (offline) · free", style="yellow")
    return Text(f"charged {record.credits_charged} cr", style="yellow")


def feed_cost_markup(record: CallRecord) -> str | None:
    """A feed page's cost (Rich markup): ``cached free``, ``refreshed · 3 cr``, ``3 cr``."""
    if record.cache in (CacheStatus.HIT, CacheStatus.STALE):
        return "[reverse] cached [/reverse] free"
    if record.cache == CacheStatus.REFRESH:
        return f"refreshed · {record.credits_charged} cr"
    if record.credits_charged:
        return f"{record.credits_charged} cr"
    return None
