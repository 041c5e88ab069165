"""What the client remembers of answers: the response cache read and written by a
request's identity (so ``Lisbon`` and ``lisbon`` share an entry and a flight), each
operation's TTL (the table's, overridden by settings), and the catalog's prices.

The pipeline decides *when* to read or write; this module decides *where* and for
*how long*.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from creditscope import operations
from creditscope.client.cache import CachedEntry, ResponseCache, cache_key


def answer_key(base_url: str, op: operations.Operation[Any], clean: dict[str, Any]) -> str:
    """The one key of a request for the cache and single-flight: its identity (see
    ``Operation.identity``)."""
    return cache_key(base_url, op.method, op.path, op.identity(clean))


def configured_ttls(overrides: dict[str, int] | None) -> dict[str, int]:
    """Each cached operation's lifetime in seconds: the table's, then the settings'.
    Provider requests are never cached, whatever the configuration says."""
    ttls = {op.name: op.ttl for op in operations.OPERATIONS if op.ttl is not None}
    for name, seconds in (overrides or {}).items():
        op = operations.get(name)
        if op.ttl is not None:
            ttls[op.name] = int(seconds)
    return ttls


def stored_entry(
    cache: ResponseCache | None, base_url: str, op: operations.Operation[Any],
    clean: dict[str, Any],
) -> CachedEntry | None:
    """The cache's entry for this request, stale or not: by its identity, else one an
    earlier version stored under the parameters as sent (so an upgrade re-buys nothing
    already paid for; those expire with their TTL)."""
    if cache is None:
        return None
    entry = cache.get(answer_key(base_url, op, clean))
    if entry is None:
        entry = cache.get(cache_key(base_url, op.method, op.path, clean))
    return entry


def lifetime(ttls: dict[str, int], op: operations.Operation[Any], data: BaseModel) -> int:
    """How long this answer stays fresh: the configured TTL, as the operation's row
    adjusts it for this answer."""
    return op.lifetime_of(data, ttls[op.name])
