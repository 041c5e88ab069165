"""``DataClient``: ``call`` (in ``pipeline.py``: ``client.call(operations.RESTAURANT_SEARCH,
params)`` is a ``Result[RestaurantSearch]``), and the questions a screen asks before
spending (price, cache state, the planned request).

Every call runs the pipeline in ``client/pipeline.py`` (validation -> cache ->
single-flight -> budget -> network with retries -> typed model) and yields a
``CallRecord`` that the ledger keeps. The same code talks to the live service
over HTTPS and to the sandbox in-process (an ASGI transport). It never prints
and never stores the key.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from creditscope import operations
from creditscope.client.answer_store import answer_key
from creditscope.client.cache import CachedEntry, cache_key
from creditscope.client.curl import mask_headers, mask_key
from creditscope.client.errors import InvalidRequest
from creditscope.client.pipeline import DEFAULT_TIMEOUT, CallPipeline
from creditscope.client.price_state import PriceWords, price_state
from creditscope.client.records import CacheStatus

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

    async def aclose(self, *, close_files: bool = False) -> None:
        """Let exchanges still on the wire finish and be recorded, then close the pool and
        the store's thread (after its queued writes); ``close_files`` closes the ledger
        and cache too (a command that is done with them)."""
        await self.drain()
        await self._http.aclose()
        await self.store.aclose(close_files=close_files)

    def close_files(self) -> None:
        """Close the ledger and the cache (on the store's thread) and end the store: what a
        command does once its loop has ended."""
        self.store.close()

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
        """HIT, STALE or MISS for this call right now (NONE if never cached); sends nothing
        and reads no file: the store's freshness index answers (a price on every key)."""
        op = operations.get(operation)
        if op.ttl is None or self.cache is None:
            return CacheStatus.NONE
        try:
            clean = self.validate(op.name, params)
        except InvalidRequest:
            return CacheStatus.MISS
        # By its identity, else as an earlier version stored it (see answer_store).
        return self.store.freshness(answer_key(self.base_url, op, clean),
                                    cache_key(self.base_url, op.method, op.path, clean))

    async def stored_answer(self, operation: str,
                            params: dict[str, Any]) -> CachedEntry | None:
        """The cached answer to this call (by its identity), fresh or expired, read on the
        store's thread without recording a call (reopening a past call is free); None when
        absent or never cached."""
        op = operations.get(operation)
        if op.ttl is None or self.cache is None:
            return None
        try:
            clean = self.validate(op.name, params)
        except InvalidRequest:
            return None
        return await self.store.answer(self.base_url, op, clean)

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

    async def recent(self, operation: str, limit: int = 20) -> list[dict[str, Any]]:
        """Params of recent cached calls to ``operation`` on this service, newest first.

        A ``creditscope web`` tab (``own_session_only``) lists only what it asked itself:
        the cache is shared with the presenter, whose lookups are not the visitor's to see.
        """
        if self.cache is None:
            return []
        op = operations.get(operation)
        if self.ledger.own_session_only:
            return await self._own_recent(op, limit)
        return await self.store.recent(op.name, limit, f"{self.base_url} {op.method} {op.path} ")

    async def _own_recent(self, op: operations.Operation[Any],
                          limit: int) -> list[dict[str, Any]]:
        """This session's calls to ``op`` whose answer is in the cache, newest first."""
        found: dict[str, dict[str, Any]] = {}
        for rec in reversed(self.ledger.session_records):
            if len(found) >= limit:
                break
            if rec.operation != op.name:
                continue
            entry = await self.stored_answer(op.name, rec.params)
            if entry is not None:
                found.setdefault(entry.key, entry.params)
        return list(found.values())
