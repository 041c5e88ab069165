"""Before a batch spends anything: every row validated, identical rows merged, the rest priced.

``plan_batch`` reads the file once. Rows are the same request when their
identities are (the operation table's folds, as the cache keys them). The
distinct valid requests go to a ``RequestIndex`` on disk, so memory grows
neither with the file's rows nor with its distinct requests; invalid rows are
counted, and only the first few are kept to show.
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
from creditscope.support.batch_index import RequestIndex
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
class BatchPlan:
    """What a batch will do: its distinct requests (on disk), the invalid rows, the price."""

    operation: str
    index: RequestIndex
    rows: int = 0  # every line after the header, blank ones included
    blank: int = 0
    skipped: int = 0  # totals and notes rows: never sent, never priced
    invalid: int = 0
    invalid_shown: list[tuple[InputRow, str]] = field(default_factory=list)
    allow_unknown_place: bool = False  # send rows for places the gazetteer does not know
    distinct: int = 0
    to_send: int = 0  # distinct requests the cache cannot answer
    price: int = 0  # credits the whole batch would spend now

    @property
    def valid(self) -> int:
        return self.rows - self.blank - self.skipped - self.invalid

    @property
    def duplicates(self) -> int:
        """Valid rows answered by another row's request (sent once, free)."""
        return self.valid - self.distinct

    @property
    def cached(self) -> int:
        """Distinct requests the cache answers for free."""
        return self.distinct - self.to_send


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
    """Validate every row, merge identical ones, and price what is not cached; sends nothing.

    The caller closes ``plan.index`` (a temporary file) when the batch is over."""
    plan = BatchPlan(operation, RequestIndex(), allow_unknown_place=allow_unknown_place)
    try:
        plan.index.begin()
        for row in rows:
            plan.rows += 1
            if row.blank:
                plan.blank += 1
                continue
            if row.skipped:
                plan.skipped += 1
                continue
            clean, problem = row_request(client, operation, row,
                                         allow_unknown_place=allow_unknown_place)
            if clean is None:
                plan.invalid += 1
                if len(plan.invalid_shown) < SHOWN_INVALID:
                    plan.invalid_shown.append((row, problem))
                continue
            plan.index.add(request_key(operation, clean), clean, row.line)
        for request in plan.index.requests():
            plan.index.set_cost(request.id, client.plan(operation, request.params).cost)
        plan.index.commit()
    except BaseException:  # Ctrl+C included: the temporary file goes with the plan
        plan.index.close()
        raise
    plan.distinct = len(plan.index)
    plan.to_send, plan.price = plan.index.totals()
    return plan
