"""When to retry, and how long to wait: one policy, overridable by subclassing.

A request is re-sent only when it certainly was not charged: the connection was
never made (GET or POST), or the service refused it with 429 (any method) or 503
before charging (a GET). An answer lost after the request left (a read timeout, a
connection reset after sending) may have been charged, GET or POST: it is never
re-sent on the client's own; the user decides, at its price (issue 35).
"""

from __future__ import annotations

import asyncio
import math
import random
from dataclasses import dataclass
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime

import httpx

# 502 and 504 are a gateway's word that the service may have had the request: not here.
RETRYABLE_GET_STATUSES = frozenset({429, 503})
# A Retry-After past this is nonsense (or hostile): use the normal backoff instead.
SANE_RETRY_AFTER_MAX = 24 * 3600.0


def never_left(exc: httpx.TransportError) -> bool:
    """Whether the request provably never left this machine (the connection was never
    made, or no pooled connection was free): then it cannot have been charged, and is
    safe to repeat."""
    return isinstance(exc, httpx.ConnectError | httpx.ConnectTimeout | httpx.PoolTimeout)


@dataclass
class RetryPolicy:
    """Retry rules and backoff. Tests replace ``sleep`` to run without waiting."""

    max_retries: int = 2
    max_retry_after: float = 30.0  # a longer Retry-After is raised as RateLimited
    backoff_base: float = 0.5
    backoff_cap: float = 8.0
    jitter: float = 0.25  # fraction of the delay added at random, to spread retries

    def retries_status(self, method: str, status: int) -> bool:
        """Whether an answer with ``status`` may be retried for ``method``."""
        if method.upper() == "GET":
            return status in RETRYABLE_GET_STATUSES
        return status == 429

    def retries_exception(self, method: str, exc: httpx.TransportError) -> bool:
        """Whether a transport failure may be retried (for any ``method``): only when the
        request never left, so it cannot have been charged."""
        del method  # one rule for GET and POST: a lost answer may have been charged
        return never_left(exc)

    def longest_exchange(self, per_attempt: float) -> float:
        """Seconds one exchange can last at most: every attempt timing out, and the
        longest wait before each retry."""
        longest_wait = max(self.max_retry_after, self.backoff_cap * (1 + self.jitter))
        return (self.max_retries + 1) * per_attempt + self.max_retries * longest_wait

    def backoff(self, retry_number: int) -> float:
        """Seconds to wait before retry ``retry_number`` (0-based): min(0.5*2^n, 8) + jitter."""
        delay = min(self.backoff_base * 2.0**retry_number, self.backoff_cap)
        return delay + random.uniform(0, delay * self.jitter)

    def parse_retry_after(self, value: str | None) -> float | None:
        """Seconds from a Retry-After header (delta seconds or an HTTP date).

        None when absent or not sane (infinite, NaN, negative, over a day): the
        caller then uses the normal backoff.
        """
        if not value:
            return None
        value = value.strip()
        try:
            seconds = float(value)
        except ValueError:
            try:
                when = parsedate_to_datetime(value)
            except (TypeError, ValueError, IndexError, OverflowError):
                return None
            if when.tzinfo is None:
                when = when.replace(tzinfo=UTC)
            # A date already past means "now".
            seconds = max(0.0, (when - datetime.now(UTC)).total_seconds())
        if not math.isfinite(seconds) or seconds < 0 or seconds > SANE_RETRY_AFTER_MAX:
            return None
        return seconds

    async def sleep(self, seconds: float) -> None:
        """Wait between attempts (replaced in tests)."""
        await asyncio.sleep(seconds)
