"""The spending session: everything that must outlive one ``DataClient``.

The explorer rebuilds its client when Settings are saved, on "Go online" and on
a Retry after a failed start; the CLI builds one per process. The session (its
id, the calls recorded in it, the budget reservations and who listens for new
records) is made once per process and handed to every client built in it, so
the budget, the meter and the Activity list never start again from zero.

The budget is a reservation: a call reserves its price before it is sent, under
one lock, so calls in flight together can never pass the budget. A reservation
becomes the charge when the call is recorded, and is released on failure,
refusal or a cache hit. An attempt whose answer was lost (a timeout after the
request left) may have been charged: its price stays held as *uncertain* until
the service's balance (``X-Credits-Remaining``) settles it.

A session may share its budget with other processes (the tabs of one ``creditscope
web`` run, :mod:`creditscope.client.shared_budget`): then a reservation counts what the
others have committed too, and the budget is a hard limit no confirmation passes (a web
visitor is not the presenter who set it).
"""

from __future__ import annotations

import contextlib
import copy
import sqlite3
import threading
import uuid
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any, TypeVar, cast

from creditscope.client.ledger_totals import Totals
from creditscope.client.records import CallRecord
from creditscope.client.shared_budget import SharedBudget

T = TypeVar("T")


class BudgetRefused(Exception):
    """A reservation that would pass the budget; carries what the message needs."""

    def __init__(self, price: int, committed: int, budget: int, uncertain: int) -> None:
        super().__init__(f"{price} over a budget of {budget} with {committed} committed")
        self.price = price
        self.committed = committed
        self.budget = budget
        self.uncertain = uncertain  # part of ``committed``: lost answers, maybe charged


@dataclass
class Reservation:
    """Credits held for one call until it is recorded or released."""

    amount: int
    open: bool = True


class SpendSession:
    """One process's session: its records, reservations and subscribers (thread-safe).

    ``keep_records`` bounds the records held in memory (a batch of 100,000 distinct
    requests must not hold 100,000 records); the totals and the spend stay exact, as
    they are counted as records arrive. None keeps every record (the explorer's
    Activity lists them)."""

    def __init__(self, keep_records: int | None = None) -> None:
        self.session_id = uuid.uuid4().hex
        self.records: list[CallRecord] = []
        self.totals = Totals()  # every record's, kept or not
        # The same per account (service and key): the meter shows the configured one's.
        self._by_account: dict[str | None, Totals] = {}
        self._keep = keep_records
        self.remaining: int | None = None  # latest balance the service reported
        self._reserved = 0
        self._uncertain = 0
        self._subscribers: list[Callable[[CallRecord | None], None]] = []
        self._shared: dict[Hashable, Any] = {}
        # The latest answer per URL: a revisit served from the cache keeps the same text
        # (not a copy per record), so a day of cached revisits adds no bodies. Its values
        # are records' own bodies: it holds at most one extra per URL whose answer changed.
        # Not with ``keep_records``: trimmed records must not leave their bodies here.
        self._bodies: dict[str, str] = {}
        self._lock = threading.Lock()
        self._pool: SharedBudget | None = None

    def share_budget(self, pool: SharedBudget) -> None:
        """Count ``pool``'s other members against the budget from now on (once)."""
        with self._lock:
            if self._pool is None:
                self._pool = pool
                pool.publish(self._committed_locked())

    @property
    def budget_is_shared(self) -> bool:
        """Whether the budget is another's limit, shared with other processes."""
        return self._pool is not None

    def _committed_locked(self) -> int:
        return self._spent_locked() + self._reserved + self._uncertain

    def _publish_locked(self) -> None:
        if self._pool is not None:
            # A record must not fail for the shared file: the next reservation publishes.
            with contextlib.suppress(sqlite3.Error):
                self._pool.publish(self._committed_locked())

    def shared(self, key: Hashable, make: Callable[[], T]) -> T:
        """A per-session object (e.g. the reconciler of one ledger file), made once."""
        with self._lock:
            if key not in self._shared:
                self._shared[key] = make()
            # One dict holds objects of many types; ``make`` fixed this key's type.
            return cast(T, self._shared[key])

    # --- spend and reservations ----------------------------------------------------

    def spent(self) -> int:
        """Credits charged in this session (recorded calls and unexplained differences)."""
        with self._lock:
            return self._spent_locked()

    def _spent_locked(self) -> int:
        return self.totals.spent

    def totals_now(self, account: str | None = None) -> Totals:
        """A copy of the session's totals (every record's, kept in memory or not), with
        the latest balance reported; of ``account``'s records only, when given."""
        with self._lock:
            if account is None:
                totals = copy.deepcopy(self.totals)
                totals.remaining = self.remaining
                return totals
            return copy.deepcopy(self._by_account.get(account, Totals()))

    @property
    def held(self) -> int:
        """Credits reserved by calls in flight plus those held as uncertain."""
        with self._lock:
            return self._reserved + self._uncertain

    @property
    def uncertain(self) -> int:
        """Credits held for answers lost after their request left (maybe charged)."""
        with self._lock:
            return self._uncertain

    def reserve(self, price: int, budget: int | None, *, over_budget_ok: bool) -> Reservation:
        """Hold ``price`` for a call about to be sent; ``BudgetRefused`` if it would pass
        ``budget`` (unless the user confirmed spending past it)."""
        with self._lock:
            if self._pool is None:
                self._check_locked(price, budget, 0, over_budget_ok)
                self._reserved += price
                return Reservation(price)
            with self._pool.reserving() as others:  # the run's other tabs wait meanwhile
                self._check_locked(price, budget, others, over_budget_ok=False)
                self._pool.publish(self._committed_locked() + price)  # before it counts here
                self._reserved += price
            return Reservation(price)

    def _check_locked(self, price: int, budget: int | None, others: int,
                      over_budget_ok: bool) -> None:
        committed = self._committed_locked() + others
        if budget is not None and price > 0 and not over_budget_ok \
                and committed + price > budget:
            raise BudgetRefused(price, committed, budget, self._uncertain)

    def release(self, reservation: Reservation) -> None:
        """Give back what ``reservation`` held (idempotent)."""
        with self._lock:
            self._release_locked(reservation)
            self._publish_locked()

    def _release_locked(self, reservation: Reservation) -> None:
        if reservation.open:
            reservation.open = False
            self._reserved -= reservation.amount

    def hold_uncertain(self, amount: int) -> None:
        """Keep ``amount`` counted against the budget until the balance settles it."""
        with self._lock:
            self._uncertain += max(0, amount)
            self._publish_locked()

    def settle_uncertain(self) -> None:
        """The service's balance was reconciled: what was uncertain is now known."""
        with self._lock:
            self._uncertain = 0
            self._publish_locked()

    # --- records and subscribers ----------------------------------------------------

    def add(self, rec: CallRecord, reservation: Reservation | None = None) -> None:
        """Append ``rec`` (and turn its reservation into the charge, in one step)."""
        with self._lock:
            self._share_body(rec)
            self.records.append(rec)
            for totals in (self.totals, self._by_account.setdefault(rec.account, Totals())):
                totals.add(rec.operation, rec.credits_charged, rec.credits_saved, not rec.ok)
            if self._keep is not None and len(self.records) > 2 * self._keep:
                del self.records[:-self._keep]  # trimmed in batches: amortised O(1)
            if reservation is not None:
                self._release_locked(reservation)
            if rec.remaining is not None:
                self.remaining = self._by_account[rec.account].remaining = rec.remaining
            self._publish_locked()

    def _share_body(self, rec: CallRecord) -> None:
        body = rec.raw_body
        if body is None or self._keep is not None:
            return
        known = self._bodies.get(rec.url)
        if known == body:
            rec.raw_body = known
        else:
            self._bodies[rec.url] = body

    def subscribe(self, callback: Callable[[CallRecord | None], None]) -> Callable[[], None]:
        """Call ``callback`` after each recorded call (with None when only the possibly
        charged figure changed); returns a function that unsubscribes."""
        with self._lock:
            self._subscribers.append(callback)

        def unsubscribe() -> None:
            with self._lock:
                if callback in self._subscribers:
                    self._subscribers.remove(callback)

        return unsubscribe

    def notify(self, rec: CallRecord | None) -> None:
        """Tell every subscriber about ``rec`` (outside the lock: they may read the session)."""
        with self._lock:
            subscribers = list(self._subscribers)
        for callback in subscribers:
            callback(rec)
