"""Running a planned batch: each distinct request once, a few at a time, inside the budget.

``BatchRun`` sends the plan's requests through the client's ordinary ``call``
(validation, cache, retries and rate-limit handling of single calls) with at
most ``concurrency`` in flight. Outcomes land in ``outcomes`` as they finish, so
whatever stops the run (Ctrl+C, the budget, a revoked key) leaves everything
finished so far in place, and in the cache, for the next run.

The budget: a request is started only when the session's spend so far, plus the
price of every request in flight, plus its own, fits the budget; otherwise the
run stops and the rest are reported as not run. Concurrency never overspends.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from creditscope.client.errors import (
    BudgetExceeded,
    CreditscopeError,
    InsufficientCredits,
    InvalidApiKey,
)
from creditscope.support.batch_plan import BatchPlan

if TYPE_CHECKING:
    from creditscope.client.client import DataClient

# Errors after which every further request would fail the same way: the run stops.
_STOPPING = (InsufficientCredits, InvalidApiKey)

DEFAULT_CONCURRENCY = 4
MAX_CONCURRENCY = 16


@dataclass
class Outcome:
    """What one distinct request came to."""

    status: str  # "ok" or "error"
    credits: int = 0
    cache: str = ""  # the CallRecord's cache state: hit, stale, miss, ...
    error: str = ""
    data: Any = None  # the parsed response, when ok (only its key fields are written out)


@dataclass
class BatchRun:
    """One run of a plan; ``outcomes`` maps request keys to what they came to."""

    client: DataClient
    plan: BatchPlan
    concurrency: int = DEFAULT_CONCURRENCY
    on_progress: Callable[[int, int], None] | None = None  # (rows done, credits spent)
    outcomes: dict[str, Outcome] = field(default_factory=dict)
    spent: int = 0
    rows_done: int = 0
    stopped: str = ""  # why the run stopped early ("" when it did not)
    stopped_by: CreditscopeError | None = None  # the error that stopped it, if one did

    async def run(self) -> None:
        """Send every request not done yet; returns when all are done or the run stops."""
        pending = iter([key for key in self.plan.requests if key not in self.outcomes])
        budget: int | None = self.client.budget
        spent_before = self.client.ledger.session_spent()
        reserved = 0
        room = asyncio.Condition()

        async def fits(cost: int) -> bool:
            # Wait while requests in flight might still free their reservation.
            nonlocal reserved
            async with room:
                while True:
                    if budget is None or cost == 0 or \
                            spent_before + self.spent + reserved + cost <= budget:
                        reserved += cost
                        return True
                    if reserved == 0:
                        return False
                    await room.wait()

        async def worker() -> None:
            nonlocal reserved
            for key in pending:
                if self.stopped:
                    return
                request = self.plan.requests[key]
                if not await fits(request.cost):
                    self.stop(f"the session budget of {budget} credits is reached")
                    return
                outcome: Outcome | None = None
                try:
                    outcome = await self._send(request.params)
                finally:
                    async with room:
                        # Spend is counted before the reservation is released: no gap.
                        if outcome is not None:
                            self._finished(key, outcome, request.rows)
                        reserved -= request.cost
                        room.notify_all()

        size = max(1, min(self.concurrency, MAX_CONCURRENCY))
        async with asyncio.TaskGroup() as group:
            for _ in range(size):
                group.create_task(worker())

    def stop(self, reason: str) -> None:
        """Start no further request; those in flight finish and are kept (and cached)."""
        self.stopped = self.stopped or reason

    async def _send(self, params: dict[str, Any]) -> Outcome | None:
        """What the request came to; None when the client refused it for the budget
        (then it is reported as not run, not as failed)."""
        try:
            result = await self.client.call(self.plan.operation, params)
        except BudgetExceeded:
            self.stop(f"the session budget of {self.client.budget} credits is reached")
            return None
        except _STOPPING as exc:
            if not self.stopped:
                self.stopped_by = exc
            self.stop(exc.message)
            return _failed(exc)
        except CreditscopeError as exc:
            return _failed(exc)
        record = result.record
        # The CLI has no call inspector: drop the raw body so a long run stays small.
        record.raw_body = None
        record.response_headers = {}
        return Outcome("ok", record.credits_charged, str(record.cache), "", result.data)

    def _finished(self, key: str, outcome: Outcome, rows: int) -> None:
        self.outcomes[key] = outcome
        self.spent += outcome.credits
        self.rows_done += rows
        if self.on_progress is not None:
            self.on_progress(self.rows_done, self.spent)


def _failed(exc: CreditscopeError) -> Outcome:
    record = exc.record
    credits = record.credits_charged if record is not None else 0
    cache = str(record.cache) if record is not None else ""
    code = f"[{exc.code}] " if exc.code else ""
    return Outcome("error", credits, cache, f"{code}{exc.message}")
