"""Running a planned batch: each distinct request once, a few at a time, inside the budget.

``BatchRun`` sends the plan's requests through the client's ordinary ``call``
(validation, cache, retries and rate-limit handling of single calls) with at
most ``concurrency`` in flight. Outcomes land in the plan's ``RequestIndex`` as
they finish (only the answer's key fields: memory stays flat), so
whatever stops the run (Ctrl+C, the budget, a revoked key) leaves everything
finished so far in place, and in the cache, for the next run.

The budget: a request is started only when the session's spend so far, plus the
price of every request in flight, plus its own, fits the budget; otherwise the
run stops and the rest are reported as not run. Concurrency never overspends.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from creditscope import operations
from creditscope.client.errors import (
    BudgetExceeded,
    CreditscopeError,
    InsufficientCredits,
    InvalidApiKey,
)
from creditscope.support.batch_index import Outcome, UniqueRequest
from creditscope.support.batch_plan import BatchPlan

if TYPE_CHECKING:
    from pydantic import BaseModel

    from creditscope.client.client import DataClient
    from creditscope.client.records import Result

# Errors after which every further request would fail the same way: the run stops.
_STOPPING = (InsufficientCredits, InvalidApiKey)

ABANDONED = "abandoned while in flight: the request may have been charged"

DEFAULT_CONCURRENCY = 4
MAX_CONCURRENCY = 16


@dataclass
class BatchRun:
    """One run of a plan; each request's outcome goes to ``plan.index`` as it finishes."""

    client: DataClient
    plan: BatchPlan
    concurrency: int = DEFAULT_CONCURRENCY
    on_progress: Callable[[int, int], None] | None = None  # (rows done, credits spent)
    spent: int = 0
    possibly_charged: int = 0  # answers lost after their request left: maybe charged
    rows_done: int = 0
    errors: int = 0  # distinct requests that came to an error
    stopped: str = ""  # why the run stopped early ("" when it did not)
    stopped_by: CreditscopeError | None = None  # the error that stopped it, if one did
    interrupted: bool = False  # stopped by the user: nothing more is done, not even cached

    async def run(self) -> None:
        """Send every request not done yet; returns when all are done or the run stops."""
        pending = self.plan.index.requests(pending_only=True)  # shared by the workers
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
            for request in pending:
                if self.stopped:
                    if self.interrupted:
                        return
                    # Stopped for the key, the credits or the budget: rows the cache
                    # answers still cost nothing, so they are answered, not left "not run".
                    await self._answer_from_cache(request)
                    continue
                if not await fits(request.cost):
                    self.stop(f"the session budget of {budget} credits is reached")
                    return
                outcome: Outcome | None = None
                try:
                    outcome = await self._send(request)
                finally:
                    async with room:
                        # Spend is counted before the reservation is released: no gap.
                        if outcome is not None:
                            self._finished(request, outcome)
                        reserved -= request.cost
                        room.notify_all()

        size = max(1, min(self.concurrency, MAX_CONCURRENCY))
        async with asyncio.TaskGroup() as group:
            for _ in range(size):
                group.create_task(worker())

    def stop(self, reason: str) -> None:
        """Start no further request; those in flight finish and are kept (and cached).
        Requests the cache answers are still answered (free)."""
        self.stopped = self.stopped or reason

    def interrupt(self, reason: str) -> None:
        """Stop as the user asked (Ctrl+C): not even the cache is read any more."""
        self.interrupted = True
        self.stop(reason)

    async def _answer_from_cache(self, request: UniqueRequest) -> None:
        if request.cost:
            return  # the plan found no fresh cached answer: it would be sent
        result = await self.client.cached(self.plan.operation, request.params)
        if result is not None:
            self._finished(request, self._ok(result, request.params))

    async def _send(self, request: UniqueRequest) -> Outcome | None:
        """What the request came to; None when the client refused it for the budget
        (then it is reported as not run, not as failed)."""
        params = request.params
        try:
            result = await self.client.call(self.plan.operation, params)
        except asyncio.CancelledError:
            current = asyncio.current_task()
            if current is None or current.cancelling():
                raise  # this run itself is cancelled, not just the exchange
            # The client abandoned the exchange (``abandon``: a second Ctrl+C, SIGTERM).
            # Its request may have arrived: the ledger holds it as possibly charged, and
            # so does this row (the summary and --out say so, never "0 spent").
            price = self.client.price_of(self.plan.operation)
            return Outcome("error", 0, "miss", ABANDONED, possibly_charged=price)
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
        return self._ok(result, params)

    def _ok(self, result: Result[BaseModel], params: dict[str, Any]) -> Outcome:
        """The outcome of an answer (sent or from the cache), as --out shows it."""
        record = result.record
        # The CLI has no call inspector: drop what only one would show, so the session's
        # records stay small over a long run.
        record.raw_body = None
        record.response_headers = {}
        record.request_headers = {}
        fields = operations.get(self.plan.operation).keys_of(result.data, params)
        return Outcome("ok", record.credits_charged, str(record.cache), "", fields)

    def _finished(self, request: UniqueRequest, outcome: Outcome) -> None:
        self.plan.index.finish(request.id, outcome)
        self.spent += outcome.credits
        self.possibly_charged += outcome.possibly_charged
        self.rows_done += request.rows
        self.errors += outcome.status == "error"
        if self.on_progress is not None:
            self.on_progress(self.rows_done, self.spent)


def _failed(exc: CreditscopeError) -> Outcome:
    record = exc.record
    credits = record.credits_charged if record is not None else 0
    cache = str(record.cache) if record is not None else ""
    code = f"[{exc.code}] " if exc.code else ""
    return Outcome("error", credits, cache, f"{code}{exc.message}",
                   possibly_charged=exc.possibly_charged)
