"""What one call did: the ``CallRecord`` every call yields with its result (``Result``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any, Generic, TypeVar

T = TypeVar("T")

# The ledger "operation" of a balance fall no recorded call explains (issue 13).
UNEXPLAINED = "unexplained"
# The ledger "operation" of a balance that fell less than the charge headers said: a
# negative charge, so spent is what the balance shows (reconcile.py).
OVERSTATED = "overstated"


class CacheStatus(StrEnum):
    HIT = "hit"  # served from the cache: free
    STALE = "stale"  # past its TTL: served free only offline; online it is re-fetched (paid)
    MISS = "miss"  # not cached: sent to the service
    REFRESH = "refresh"  # cache bypassed on purpose: sent and charged
    NONE = "none"  # never cached (provider requests) or refused before sending


@dataclass
class CallRecord:
    """One request as the user experienced it. Never holds the API key."""

    operation: str  # e.g. "restaurants/search"
    method: str
    url: str  # full URL including the query string; no key
    params: dict[str, Any]  # canonical params (GET) or body (POST), defaults applied
    status: int | None = None  # HTTP status; None when nothing came back
    credits_charged: int = 0
    cache: CacheStatus = CacheStatus.MISS
    credits_saved: int = 0  # the price a cache hit avoided
    latency_ms: float = 0.0
    remaining: int | None = None  # X-Credits-Remaining when the service reported it
    request_id: str | None = None
    raw_body: str | None = None  # the response body as received (or as cached)
    request_headers: dict[str, str] = field(default_factory=dict)  # key masked
    response_headers: dict[str, str] = field(default_factory=dict)
    error_code: str | None = None
    error_message: str | None = None
    attempts: int = 0  # network attempts made (0 for a cache hit)
    possibly_charged: int = 0  # the answer was lost after sending: maybe charged this much
    note: str | None = None  # e.g. why an unexplained difference was recorded
    revealed_by: str | None = None  # the call whose answer revealed this difference
    account: str | None = None  # service and key, hashed (``account_id``); never the key
    label: str | None = None  # a ticket label ("#4821"), kept in the history
    history_id: int | None = None  # its row in the ledger file, once recorded there
    match_grade: str | None = None  # a company lookup's best match confidence ("none": no match)
    started_at: datetime = field(default_factory=lambda: datetime.now(UTC))
    # When the service produced the answer: a cached one's stored time (it may be days
    # old), a shared one's first call; None when nothing came back.
    fetched_at: datetime | None = None

    @property
    def ok(self) -> bool:
        return self.error_code is None and (self.status is None or self.status < 400)


@dataclass
class Result(Generic[T]):
    """A parsed response and the record of the call that produced it."""

    data: T
    record: CallRecord
