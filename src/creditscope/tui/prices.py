"""Every price a screen shows comes from here, never from a literal.

The price is the client's (the catalog's once it has been fetched, the spec's
table until then); before the client exists it is the operation table's. The
cache state is said the same way everywhere: fresh cached copies are free, an
expired one costs its price online ("cached copy expired") and is shown free,
marked "stale", offline.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from creditscope import operations
from creditscope.client.records import CacheStatus, cache_note


def credits_text(price: int) -> str:
    """``"3 cr"``, or ``"free"`` for a price of 0."""
    return f"{price} cr" if price else "free"


def price_of(app: Any, operation: str) -> int:
    """What ``operation`` costs: the client's price, else the operation table's."""
    client: Any = getattr(app, "client", None)
    if client is not None:
        return int(client.price_of(operation))
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


def quote(app: Any, operation: str, params: dict[str, Any] | None) -> Quote | None:
    """The quote for ``operation`` with ``params`` (None: client not ready). Sends nothing."""
    client: Any = getattr(app, "client", None)
    if client is None:
        return None
    state: str | None = None
    if params is not None:
        try:
            state = str(client.cache_state(operation, params))
        except Exception:  # params not valid yet: the price alone is still right
            state = None
    return Quote(int(client.price_of(operation)), state, bool(getattr(client, "offline", False)))
