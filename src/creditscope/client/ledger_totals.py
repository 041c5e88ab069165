"""What the credit ledger counts: totals per session or lifetime and per operation,
the attempts that may have been charged, and the balance points reconciliation
starts from."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from creditscope.client.records import OVERSTATED, UNEXPLAINED

# A balance the service reported at a quiet moment, the ledger position it covers, when.
Point = tuple[int, int, datetime]


@dataclass
class OperationTotals:
    """Spend, savings and outcomes for one operation."""

    spent: int = 0
    saved: int = 0
    calls: int = 0
    errors: int = 0


@dataclass(frozen=True)
class PossibleCharge:
    """An attempt whose answer was lost after the request left: maybe charged."""

    id: int
    account: str
    session: str
    at: datetime
    operation: str
    credits: int


@dataclass
class Totals(OperationTotals):
    """Totals over a session or a lifetime, with a per-operation breakdown."""

    by_operation: dict[str, OperationTotals] = field(default_factory=dict)
    remaining: int | None = None  # latest balance the service reported
    unexplained: int = 0  # part of ``spent``: balance falls no recorded call explains
    # Taken off ``spent``: credits the charge headers reported and the balance never lost.
    overstated: int = 0
    possibly_charged: int = 0  # not in ``spent``: lost answers a later balance will settle

    def add(self, operation: str, spent: int, saved: int, failed: int, *, calls: int = 1) -> None:
        """Count ``calls`` calls of ``operation`` (one by default), ``failed`` of them failed."""
        row = self.by_operation.setdefault(operation, OperationTotals())
        for target in (self, row):
            target.spent += spent
            target.saved += saved
            target.calls += calls
            target.errors += int(failed)
        if operation == UNEXPLAINED:
            self.unexplained += spent
        elif operation == OVERSTATED:  # recorded as a negative charge
            self.overstated -= spent
