"""Before a batch spends anything: every row validated, identical rows merged, the rest priced.

``plan_batch`` reads the file once. Rows are the same request when their
identities are (the operation table's folds, as the cache keys them). Memory
grows with the number of *distinct* valid requests (their canonical parameters),
never with the file's size in bytes; invalid rows are counted, and only the
first few are kept to show.
Prices and cache states come from the client (``DataClient.plan``), so a batch
costs exactly what the same single calls would.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from creditscope import operations
from creditscope.client.errors import InvalidRequest
from creditscope.place_check import place_refusal
from creditscope.support.batch_input import InputRow

if TYPE_CHECKING:
    from creditscope.client.client import DataClient

# How many invalid rows are listed; the rest are counted (all are in --out).
SHOWN_INVALID = 20


def request_key(operation: str, clean: dict[str, Any]) -> str:
    """One string per distinct request: rows the service would answer alike share it
    (``Northwind Labs Ltd `` and ``northwind labs ltd``; a website with or without
    ``https://www.``), as the cache and single-flight key them."""
    return operations.identity_key(operation, clean)


@dataclass
class UniqueRequest:
    """One distinct request of the batch and the rows that asked for it."""

    params: dict[str, Any]  # canonical, as validated
    first_row: int
    rows: int = 1
    cost: int = 0  # credits it would spend now: 0 when a fresh cached answer exists


@dataclass
class BatchPlan:
    """What a batch will do: its distinct requests, the invalid rows, and the price."""

    operation: str
    rows: int = 0
    invalid: int = 0
    invalid_shown: list[tuple[InputRow, str]] = field(default_factory=list)
    requests: dict[str, UniqueRequest] = field(default_factory=dict)
    allow_unknown_place: bool = False  # send rows for places the gazetteer does not know

    @property
    def duplicates(self) -> int:
        """Valid rows answered by another row's request (sent once, free)."""
        return self.rows - self.invalid - len(self.requests)

    @property
    def to_send(self) -> int:
        """Distinct requests not answered by the cache."""
        return sum(1 for request in self.requests.values() if request.cost)

    @property
    def cached(self) -> int:
        """Distinct requests the cache answers for free."""
        return len(self.requests) - self.to_send

    @property
    def price(self) -> int:
        """Credits the whole batch would spend now."""
        return sum(request.cost for request in self.requests.values())


def row_request(
    client: DataClient, operation: str, row: InputRow, *, allow_unknown_place: bool = False,
) -> tuple[dict[str, Any] | None, str]:
    """``(canonical params, "")`` for a valid row, ``(None, why)`` for an invalid one
    (a place the gazetteer does not know is invalid unless ``allow_unknown_place``)."""
    if row.problem is not None:
        return None, row.problem
    try:
        clean = client.validate(operation, row.params)
    except InvalidRequest as exc:
        return None, exc.message
    refusal = None if allow_unknown_place else place_refusal(operation, clean)
    return (None, refusal) if refusal else (clean, "")


def plan_batch(
    client: DataClient, operation: str, rows: Iterable[InputRow], *,
    allow_unknown_place: bool = False,
) -> BatchPlan:
    """Validate every row, merge identical ones, and price what is not cached; sends nothing."""
    plan = BatchPlan(operation, allow_unknown_place=allow_unknown_place)
    for row in rows:
        plan.rows += 1
        clean, problem = row_request(client, operation, row,
                                     allow_unknown_place=allow_unknown_place)
        if clean is None:
            plan.invalid += 1
            if len(plan.invalid_shown) < SHOWN_INVALID:
                plan.invalid_shown.append((row, problem))
            continue
        key = request_key(operation, clean)
        known = plan.requests.get(key)
        if known is not None:
            known.rows += 1
        else:
            plan.requests[key] = UniqueRequest(clean, row.number)
    for request in plan.requests.values():
        request.cost = client.plan(operation, request.params).cost
    return plan
