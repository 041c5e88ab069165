"""Every price the explorer shows, and every sentence about what something costs or cost.

The price is the client's (the catalog's once it has been fetched, the spec's
table until then); before the client exists it is the operation table's. The
cache state is worded by :mod:`creditscope.client.price_state`, the one
function per state that buttons, the footer, help and ``call --dry-run`` share.
No screen writes a price (or "cr") itself.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual.content import Content

from creditscope.client.price_state import PriceWords, price_state
from creditscope.client.price_state import credits_text as credits_text  # screens' one import
from creditscope.client.records import CacheStatus, CallRecord

if TYPE_CHECKING:
    from creditscope.client.history import HistoryEntry
    from creditscope.tui.host import ExplorerHost


def price_of(host: ExplorerHost, operation: str) -> int:
    """What ``operation`` costs: the client's price, else the operation table's."""
    if host.client is not None:
        return int(host.client.price_of(operation))
    # Imported here: the operation table brings pydantic, kept off the first frame.
    from creditscope import operations

    return operations.get(operation).credits


@dataclass(frozen=True)
class Quote:
    """What a request would cost now, and why (worded by :class:`PriceWords`)."""

    price: int
    state: str | None  # "hit", "stale", "miss", "none"; None when unknown
    offline: bool

    def words(self, *, refresh: bool = False) -> PriceWords:
        """The request's state and price, in the words every label uses."""
        return PriceWords(price_state(self.state, price=self.price, offline=self.offline,
                                      refresh=refresh), self.price)

    @property
    def cost(self) -> int:
        """Credits pressing it spends."""
        return self.words().cost

    def label(self, action: str, *, refresh: bool = False) -> str:
        """``"Search · N cr"``, ``"Search · cached · free"``, ``"Search · N cr · expired"``,
        ``"Search · stale · free"``, ``"Search · offline · N cr online"``."""
        return self.words(refresh=refresh).label(action)


def always_charged(host: ExplorerHost, operation: str) -> PriceWords:
    """A request that goes past the cache (a re-check, a replay): its price, or "offline"."""
    offline = bool(host.client is not None and host.client.offline)
    price = price_of(host, operation)
    return PriceWords(price_state(None, price=price, offline=offline, refresh=True), price)


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


def plan_text(price: int, cost: int) -> Content:
    """``Price: N cr``, ``Price: free``, or ``Price: N cr · cached, so free now`` (in the
    theme's success text colour, which reads at 4.5:1 on any of its backgrounds)."""
    if cost == 0 and price:
        return Content.from_markup(f"[$text-success]Price: {price} cr · cached, so free now")
    return Content.from_markup(f"[b]{'Price: ' + str(price) + ' cr' if price else 'Price: free'}")


def spend_button_text(price: int) -> str:
    """The confirming button of a spend: ``Spend N cr`` or ``Go ahead · free``."""
    return "Go ahead · free" if price == 0 else f"Spend {price} cr"


def costs_sentence(price: int) -> str:
    """``This costs N cr.`` or ``This is free.``"""
    return f"This costs {price} cr." if price else "This is free."


def over_budget_text(what: str, price: int, spent: int, budget: int) -> str:
    """Why a request waits for a confirmation: its price against the session budget."""
    return (f"{what} costs {price} cr. This session has {spent} of its {budget} cr budget"
            " spent or in flight.")


def presenter_limit_text(what: str, price: int, spent: int, budget: int) -> str:
    """Why a web tab's request cannot be sent: the presenter's budget for every tab."""
    return (f"{what} costs {price} cr. The presenter set a {budget} cr budget for this demo,"
            f" shared by every tab, and {spent} cr of it is spent or in flight. It cannot be"
            " passed from here.")


def not_sent_text(what: str, price: int) -> str:
    """What declining an over-budget request did (nothing)."""
    return (f"Not sent: {what} ({price} cr) would pass the session budget. "
            "Nothing was spent; what is on screen is unchanged.")


# --- what a call cost, after the fact ----------------------------------------------------


def charged_text(record: CallRecord | HistoryEntry) -> str:
    """A call in the log: ``N cr``, ``saved 3`` (a cache hit), or ``0``."""
    if record.credits_charged:
        return f"{record.credits_charged} cr"
    if record.credits_saved:
        return f"saved {record.credits_saved}"
    return "0"


def spend_note(record: CallRecord) -> Text:
    """``from the cache · free``, ``stale copy (offline) · free`` or ``charged N cr``."""
    if record.cache is CacheStatus.HIT:
        return Text("from the cache · free", style="green")
    if record.cache is CacheStatus.STALE:
        return Text("stale copy (offline) · free", style="yellow")
    return Text(f"charged {record.credits_charged} cr", style="yellow")


def feed_cost_markup(record: CallRecord) -> str | None:
    """A feed page's cost (Rich markup): ``cached free``, ``refreshed · N cr``, ``N cr``."""
    if record.cache in (CacheStatus.HIT, CacheStatus.STALE):
        return "[reverse] cached [/reverse] free"
    if record.cache == CacheStatus.REFRESH:
        return f"refreshed · {record.credits_charged} cr"
    if record.credits_charged:
        return f"{record.credits_charged} cr"
    return None
