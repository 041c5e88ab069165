"""``DataClient``: one typed async method per operation, and the questions a
screen asks before spending (price, cache state, the planned request).

Every call runs the pipeline in ``client/pipeline.py`` (validation -> cache ->
budget -> single-flight -> network with retries -> typed model) and yields a
``CallRecord`` that the ledger keeps. The same code talks to the live service
over HTTPS and to the sandbox in-process (an ASGI transport). It never prints
and never stores the key.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from creditscope import models, operations
from creditscope.client.curl import mask_headers, mask_key
from creditscope.client.errors import InvalidRequest
from creditscope.client.pipeline import DEFAULT_TIMEOUT, CallPipeline
from creditscope.client.price_state import PriceWords, price_state
from creditscope.client.records import CacheStatus, Result

# DEFAULT_TIMEOUT is re-exported: it was defined here before the pipeline moved out.
__all__ = ["DEFAULT_TIMEOUT", "DataClient", "PlannedRequest"]


@dataclass
class PlannedRequest:
    """What a call would send and cost, without sending it (``--dry-run``, button labels)."""

    operation: str
    method: str
    url: str
    headers: dict[str, str]  # credentials masked
    body: dict[str, Any] | None
    price: int
    cache: CacheStatus

    offline: bool = False

    @property
    def cost(self) -> int:
        """Credits the call would spend now: 0 when a fresh cached answer exists, or
        (offline only) a stale one; online an expired copy is fetched again and paid."""
        free = self.cache is CacheStatus.HIT or (self.cache is CacheStatus.STALE and self.offline)
        return 0 if free else self.price

    @property
    def words(self) -> PriceWords:
        """The call's state and price in the words every label uses (see price_state)."""
        return PriceWords(price_state(self.cache, price=self.price, offline=self.offline),
                          self.price)


class DataClient(CallPipeline):
    """The one correct way to call the data API. Use as ``async with DataClient(...)``."""

    def __repr__(self) -> str:
        return f"DataClient({self.base_url!r}, key={self.key_hint!r})"

    # --- lifecycle --------------------------------------------------------

    async def __aenter__(self) -> DataClient:
        return self

    async def __aexit__(self, *_: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        """Let exchanges still on the wire finish and be recorded, then close the pool."""
        await self.drain()
        await self._http.aclose()

    # --- the key ------------------------------------------------------------

    @property
    def key_hint(self) -> str:
        """The key as it may be shown: ``sk_…1234`` (empty when there is none)."""
        return mask_key(self._api_key)

    @property
    def storage_warnings(self) -> list[str]:
        """Problems with the cache or ledger files (set aside and rebuilt), to show the user."""
        found = list(self.ledger.warnings)
        if self.cache is not None:
            found += self.cache.warnings
        return found

    def set_api_key(self, api_key: str | None) -> None:
        """Use another key from the next call on (e.g. after Settings)."""
        self._api_key = api_key or None

    # --- questions answered without sending ---------------------------------

    def cache_state(self, operation: str, params: dict[str, Any]) -> CacheStatus:
        """HIT, STALE or MISS for this call right now (NONE if never cached); sends nothing."""
        op = operations.get(operation)
        if op.ttl is None or self.cache is None:
            return CacheStatus.NONE
        try:
            clean = self.validate(op.name, params)
        except InvalidRequest:
            return CacheStatus.MISS
        entry = self.cached_entry(op, clean)
        if entry is None:
            return CacheStatus.MISS
        return CacheStatus.STALE if entry.is_stale else CacheStatus.HIT

    def plan(self, operation: str, params: dict[str, Any]) -> PlannedRequest:
        """The request a call would send (key masked) and its price; raises InvalidRequest."""
        op = operations.get(operation)
        clean = self.validate(op.name, params)
        return PlannedRequest(
            operation=op.name,
            method=op.method,
            url=self._url(op, clean),
            headers=mask_headers(self._headers(op)),
            body=clean if op.is_post else None,
            price=self.price_of(op.name),
            cache=self.cache_state(op.name, clean),
            offline=self.offline,
        )

    def recent(self, operation: str, limit: int = 20) -> list[dict[str, Any]]:
        """Params of recent cached calls to ``operation`` on this service, newest first."""
        if self.cache is None:
            return []
        op = operations.get(operation)
        prefix = f"{self.base_url} {op.method} {op.path} "
        return [entry.params for entry in self.cache.recent(op.name, limit=limit, prefix=prefix)]

    # --- typed operations -------------------------------------------------------

    async def _typed(
        self, operation: str, params: dict[str, Any], refresh: bool, confirm_over_budget: bool
    ) -> Result[Any]:
        # The operation table guarantees the model class; the typed methods only narrow it.
        return await self.call(operation, params, refresh=refresh,
                               confirm_over_budget=confirm_over_budget)

    async def discover_events(
        self, lat: float | None = None, lng: float | None = None, limit: int | None = None,
        cursor: str | None = None, *, refresh: bool = False, confirm_over_budget: bool = False,
    ) -> Result[models.EventFeed]:
        """Events near a point (3 credits)."""
        params = {"lat": lat, "lng": lng, "limit": limit, "cursor": cursor}
        return await self._typed("ticketing/discovery", params, refresh, confirm_over_budget)

    async def find_company(
        self, name: str, website: str | None = None, *, refresh: bool = False,
        confirm_over_budget: bool = False,
    ) -> Result[models.CompanyLookup]:
        """A company's page on the professional network, graded (10 credits)."""
        params = {"name": name, "website": website}
        return await self._typed("professional_network/find_company", params, refresh,
                                 confirm_over_budget)

    async def search_restaurants(
        self, location: str, cuisine: str | None = None, limit: int | None = None, *,
        refresh: bool = False, confirm_over_budget: bool = False,
    ) -> Result[models.RestaurantSearch]:
        """Restaurants near a location (2 credits)."""
        params = {"location": location, "cuisine": cuisine, "limit": limit}
        return await self._typed("restaurants/search", params, refresh, confirm_over_budget)

    async def restaurant_details(
        self, id: str, *, refresh: bool = False, confirm_over_budget: bool = False
    ) -> Result[models.RestaurantDetails]:
        """Full listing of one restaurant (2 credits)."""
        return await self._typed("restaurants/details", {"id": id}, refresh, confirm_over_budget)

    async def restaurant_menu(
        self, id: str, *, refresh: bool = False, confirm_over_budget: bool = False
    ) -> Result[models.Menu]:
        """Full current menu of one restaurant (5 credits)."""
        return await self._typed("restaurants/menu", {"id": id}, refresh, confirm_over_budget)

    async def restaurant_reviews(
        self, id: str, limit: int | None = None, *, refresh: bool = False,
        confirm_over_budget: bool = False,
    ) -> Result[models.Reviews]:
        """Recent reviews of one restaurant (3 credits)."""
        params = {"id": id, "limit": limit}
        return await self._typed("restaurants/reviews", params, refresh, confirm_over_budget)

    async def catalog(
        self, *, refresh: bool = False, confirm_over_budget: bool = False
    ) -> Result[models.Catalog]:
        """Every provider and endpoint with its price (public); also refreshes prices."""
        return await self._typed("catalog", {}, refresh, confirm_over_budget)

    async def request_provider(
        self, name: str, url: str | None = None, email: str | None = None, *,
        refresh: bool = False, confirm_over_budget: bool = False,
    ) -> Result[models.ProviderRequestCreated]:
        """Ask for coverage of a new app or site (public, never cached)."""
        params = {"name": name, "url": url, "email": email}
        return await self._typed("provider-requests", params, refresh, confirm_over_budget)
