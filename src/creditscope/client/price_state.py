"""What a request would cost now, named once for every place that says it.

Buttons, footer keys, help, tabs and ``call --dry-run`` all describe a request
by one :class:`PriceState`, and word it with :class:`PriceWords`, so no two
places can disagree ("Search · 3 cr · cached" on a button while the footer
says "cached copy expired" was two wordings of one state).

The states, and what pressing costs:

=====================  =========================  ========  =========================
state                  long (buttons, help)       short     cost
=====================  =========================  ========  =========================
``NOT_CACHED``         ``3 cr``                   ``3 cr``  the price
``CACHED``             ``cached · free``          ``free``  0
``EXPIRED``            ``3 cr · expired``         ``3 cr``  the price (fetched again)
``STALE_OFFLINE``      ``stale · free``           ``free``  0 (the old copy is shown)
``OFFLINE``            ``offline · 3 cr online``  ``offline``  0: nothing can be sent
``REFRESH``            ``3 cr``                   ``3 cr``  the price, past the cache
``FREE``               ``free``                   ``free``  0 (a free operation)
=====================  =========================  ========  =========================

A state about the request rather than the cache (no more pages, a place the
gazetteer does not know) is a :class:`Blocked` reason, worded the same way.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from creditscope.client.records import CacheStatus


class PriceState(StrEnum):
    """Where a request stands between the cache, the network and the price."""

    NOT_CACHED = "not cached"
    CACHED = "cached"
    EXPIRED = "expired"
    STALE_OFFLINE = "stale"
    OFFLINE = "offline"
    REFRESH = "refresh"
    FREE = "free"


def price_state(cache: str | None, *, price: int, offline: bool,
                refresh: bool = False) -> PriceState:
    """The state of a request whose cache status is ``cache`` (None: unknown yet)."""
    if refresh:
        return PriceState.OFFLINE if offline and price else PriceState.REFRESH
    if cache == CacheStatus.HIT:
        return PriceState.CACHED
    if cache == CacheStatus.STALE:
        return PriceState.STALE_OFFLINE if offline else PriceState.EXPIRED
    if price == 0:
        return PriceState.FREE
    return PriceState.OFFLINE if offline else PriceState.NOT_CACHED


def credits_text(price: int) -> str:
    """``"3 cr"``, or ``"free"`` for a price of 0."""
    return f"{price} cr" if price else "free"


@dataclass(frozen=True)
class PriceWords:
    """A state and a price, in the words every label uses."""

    state: PriceState
    price: int

    @property
    def cost(self) -> int:
        """Credits pressing it spends now (0 when the cache answers or nothing can be sent)."""
        if self.state in (PriceState.NOT_CACHED, PriceState.EXPIRED, PriceState.REFRESH):
            return self.price
        return 0

    @property
    def sends(self) -> bool:
        """True when pressing it may reach the service."""
        return self.state is not PriceState.OFFLINE and self.state not in (
            PriceState.CACHED, PriceState.STALE_OFFLINE)

    @property
    def long(self) -> str:
        """For buttons, tabs and help: ``3 cr · expired``, ``cached · free``."""
        money = credits_text(self.price)
        match self.state:
            case PriceState.CACHED:
                return "cached · free"
            case PriceState.EXPIRED:
                return f"{money} · expired"
            case PriceState.STALE_OFFLINE:
                return "stale · free"
            case PriceState.OFFLINE:
                return f"offline · {money} online"
            case _:
                return money

    @property
    def short(self) -> str:
        """For an 80-column footer: ``3 cr``, ``free``, ``offline``."""
        if self.state is PriceState.OFFLINE:
            return "offline"
        return credits_text(self.cost)

    def label(self, action: str) -> str:
        """``Search · 3 cr``, ``Search · cached · free``, ``Search · offline · 3 cr online``."""
        return f"{action} · {self.long}"

    def sentence(self) -> str:
        """For ``call --dry-run``: what sending it now would do, in a sentence."""
        money = f"{self.price} credit{'s' if self.price != 1 else ''}"
        match self.state:
            case PriceState.CACHED:
                return f"price: {money}; cached, so this call is free"
            case PriceState.STALE_OFFLINE:
                return f"price: {money}; a stale copy is cached and shown offline, so free"
            case PriceState.EXPIRED:
                return f"price: {money} (the cached copy expired, so this call is charged)"
            case PriceState.OFFLINE:
                return f"price: {money} once online (offline: nothing can be sent)"
            case PriceState.FREE:
                return "price: free"
            case _:
                return f"price: {money} (not cached)"


@dataclass(frozen=True)
class Blocked:
    """Why a request cannot be sent as it stands: ``no more pages``, ``unknown place``."""

    reason: str

    def label(self, action: str) -> str:
        """``Load more · no more pages``."""
        return f"{action} · {self.reason}"

    @property
    def long(self) -> str:
        """The reason, as a footer or help shows it."""
        return self.reason

    short = long
