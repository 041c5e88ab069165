"""Reconciling with the service: is its balance what the recorded calls say?

Every answer carrying ``X-Credits-Remaining`` is checked, but only at a quiet
moment: no exchange in flight on the ledger file, neither this process's nor
another's (another explorer, a ``creditscope call`` on the same key and file).
A charge the service already made for a call still on the wire is not recorded
yet and would look like a gap, so while anything is in flight the check waits:
the lowest balance seen so far and the call that reported it are kept for the
next check, and the starting point does not move. Other processes' exchanges
are visible through the ledger's ``in_flight`` rows; a row older than its
exchange could possibly take (a crashed process) no longer holds checks back.
At a quiet moment every charge made through the ledger is recorded, and the
lowest balance any of them reported is the balance after all of them. So
concurrency alone never produces a difference.

Then: expected = the last settled balance - every credit recorded in the ledger
since (this session's and other sessions': spend from elsewhere, named as such,
not an error). The check and the entry it may record are one step under the
file's write lock, so two processes never record the same difference twice. A
shortfall becomes an ``unexplained`` ledger entry of its own, counted in
``spent``, naming the call whose answer revealed it and the calls around it. A
balance that fell, but less than the recorded charges (the service charged less than
its ``X-Credits-Charged`` headers said) becomes an ``overstated`` entry, a negative
charge, so ``spent`` is what the balance shows and the difference is in sight. A
balance that did not fall at all, or rose (a top-up, a refund, a reset), is taken as
the new starting point.

Everything is per account (the service and the key, as ``account_id`` names
them): rows of another key or another base URL never enter the sums. Each check
leaves its result in the file as the account's *settled* balance, and the first
check of a session starts from there, so a fall between two CLI calls or two
explorer runs is found too (a session with no settled balance before it only
sets the starting point).

An attempt whose answer was lost after the request left is *possibly charged*
(kept in the file) until a check of the same account settles it: while the
shortfall covers its price it becomes a charge of its operation, recorded and
explained; otherwise it is released (not charged, or refunded). Only what is left
of the shortfall is unexplained. An in-flight row whose process died (or that
outlived any exchange) stops holding its account's checks back and becomes a
possible charge of its own. An attempt made before the account's first known
balance cannot be told from the balance: it stays possibly charged, in sight. A
check waits, as for a call in flight, while the newest balance came from a request
sent before an attempt possibly charged: that balance cannot tell it either way.

One reconciler per ledger file, account and session (``for_ledger``), so a
rebuilt client carries on from where the previous one was.
"""

from __future__ import annotations

import threading
from collections import Counter
from datetime import UTC, datetime

from creditscope.client.ledger import CreditLedger
from creditscope.client.ledger_totals import Point, PossibleCharge
from creditscope.client.records import OVERSTATED, UNEXPLAINED, CacheStatus, CallRecord


class Reconciler:
    """Checks the recorded spend against the service's balance, when no call is in flight
    on the ledger file for the same account (this process's or another's)."""

    def __init__(self, ledger: CreditLedger, account: str) -> None:
        self.ledger = ledger
        self.account = account
        self._lock = threading.Lock()
        self._in_flight = 0
        self._burst_row = 0  # ledger position when the unchecked calls began
        self._lowest: int | None = None  # lowest balance reported in the current burst
        self._revealer: CallRecord | None = None
        self._anchor: Point | None = None  # balance, ledger position, when
        self._between: Counter[str] = Counter()  # operations recorded since the anchor
        self._released = False  # the last check settled possible charges

    @classmethod
    def for_ledger(cls, ledger: CreditLedger, account: str) -> Reconciler:
        """The session's reconciler for this ledger file and account (made on first use)."""
        key = str(ledger.path) if ledger.path is not None else f"memory:{id(ledger)}"
        return ledger.session.shared(("reconciler", key, account), lambda: cls(ledger, account))

    def started(self, abandon_after: float, operation: str, credits: int) -> int | None:
        """An exchange of ``operation`` (its price ``credits``) is about to leave the
        client; other processes on the ledger see it for at most ``abandon_after``
        seconds. Returns the token for ``finished``."""
        with self._lock:
            if self._in_flight == 0 and self._lowest is None:
                self._burst_row = self.ledger.last_row()
            self._in_flight += 1
        return self.ledger.flight_started(abandon_after, self.account, operation, credits)

    def finished(self, rec: CallRecord | None, token: int | None = None) -> CallRecord | None:
        """An exchange ended (``rec`` already in the ledger); returns an unexplained
        entry when the check that this allowed found one (already recorded)."""
        self.ledger.flight_ended(token)
        with self._lock:
            self._in_flight -= 1
            if rec is not None:
                self._between[rec.operation] += 1
                if rec.remaining is not None and (self._lowest is None
                                                  or rec.remaining <= self._lowest):
                    self._lowest, self._revealer = rec.remaining, rec
            if self._in_flight > 0 or self._lowest is None:
                return None
            with self.ledger.exclusive():
                if self.ledger.others_in_flight(self.account):
                    return None  # their charges may be made but not recorded: wait
                if self._balance_older_than_a_possible_charge():
                    self._start_before_possible_charges()
                    return None  # that charge cannot be told from this balance: wait
                found = self._check(self._lowest, self._revealer)
            self._lowest = self._revealer = None
        self.ledger.session.settle_uncertain()
        if self._released:  # outside the locks: subscribers may read the ledger
            self._released = False
            self.ledger.session.notify(None)
        return found

    def _balance_older_than_a_possible_charge(self) -> bool:
        """Whether an attempt possibly charged since the starting point is newer than the
        newest balance: only an answer to a request sent after it shows it (an earlier
        one's balance may or may not include it)."""
        anchor = self._anchor or self.ledger.settled_point(self.account)
        pending = [p.at for p in self.ledger.possible_charges(self.account)
                   if anchor is None or p.at >= anchor[2]]
        if not pending:
            return False
        newest = self.ledger.latest_balance_at(anchor[1] if anchor else self._burst_row,
                                               self.account)
        return newest is None or newest <= max(pending)

    def _start_before_possible_charges(self) -> None:
        """With no starting point yet, make this quiet moment's balance the account's,
        dated by when its request was sent: the attempts lost after that are then in the
        next check's gap and settled by the next newer balance, in whichever session,
        instead of being older than every starting point and possibly charged forever."""
        if self._lowest is None or self._anchor is not None or \
                self.ledger.settled_point(self.account) is not None:
            return
        sent = self.ledger.latest_balance_at(self._burst_row, self.account)
        if sent is None:
            return
        seen = self.ledger.lowest_remaining_since(self._burst_row, self.account)
        observed = self._lowest if seen is None else min(self._lowest, seen)
        self._anchor = (observed, self.ledger.last_row(), sent)
        self.ledger.settle_point(self.account, self._anchor)
        self._lowest = self._revealer = None
        self._between.clear()

    def _check(self, lowest: int, revealer: CallRecord | None) -> CallRecord | None:
        """Compare, settle possible charges, record a shortfall, move the starting point
        (under the write lock)."""
        now = datetime.now(UTC)
        # A session's first check starts where the last one on this account settled.
        earlier = self._anchor is None
        anchor = self._anchor or self.ledger.settled_point(self.account)
        # Other sessions' answers recorded since count too: their charges are in the sum.
        seen = self.ledger.lowest_remaining_since(anchor[1] if anchor else self._burst_row,
                                                  self.account)
        observed = lowest if seen is None else min(lowest, seen)
        found: CallRecord | None = None
        settled: list[PossibleCharge] = []
        if anchor is not None:
            balance, row, since = anchor
            # Only attempts after the starting balance are in this gap; one from before
            # the account's first balance stays possibly charged (never dropped unseen).
            settled = [p for p in self.ledger.possible_charges(self.account) if p.at >= since]
            gap = balance - self.ledger.charged_since(row, self.account) - observed
            for charge in settled:  # the shortfall they explain becomes their charge
                if 0 < charge.credits <= gap:
                    self.ledger.record(self._lost_answer_charged(charge, revealer))
                    gap -= charge.credits
            if gap > 0:
                elsewhere = self.ledger.spent_elsewhere_since(row, self.account)
                found = self._unexplained(gap, since, revealer, elsewhere,
                                          between_sessions=earlier)
                self.ledger.record(found)
            # It fell, but less than the headers said. One that did not fall at all is
            # taken, as a rise is, for a refund, a top-up or a reset.
            elif gap < 0 and observed < balance:
                found = self._overstated(-gap, since, revealer, between_sessions=earlier)
                self.ledger.record(found)
        # The rest of those were not charged (or were refunded): released.
        self.ledger.drop_possible(settled)
        self._released = bool(settled)
        self._anchor = (observed, self.ledger.last_row(), now)
        self.ledger.settle_point(self.account, self._anchor)
        self._between.clear()
        return found

    def _lost_answer_charged(
        self, charge: PossibleCharge, revealer: CallRecord | None
    ) -> CallRecord:
        """The ledger entry of a possibly charged attempt the balance showed was charged."""
        note = (f"Charged for an attempt at {charge.at:%H:%M:%S} UTC whose answer was lost"
                " after the request left (a timeout or a dropped connection): the service's"
                " balance shows it was charged.")
        return CallRecord(
            operation=charge.operation, method="", url="", params={}, cache=CacheStatus.NONE,
            credits_charged=charge.credits, remaining=None, note=note,
            revealed_by=_revealed(revealer), account=self.account,
        )

    def _unexplained(
        self, gap: int, since: datetime, revealer: CallRecord | None, elsewhere: int,
        *, between_sessions: bool = False,
    ) -> CallRecord:
        calls = self._calls_between()
        earlier = " (the balance an earlier session settled)" if between_sessions else ""
        note = (
            f"The service's balance fell {gap} cr more than the calls recorded since"
            f" {since:%H:%M:%S} UTC{earlier} explain. Calls in between: {calls}."
        )
        if elsewhere:
            note += (f" {elsewhere} cr spent from elsewhere (other creditscope sessions on"
                     " this ledger) were accounted for.")
        note += (" Likely a charge whose answer was lost (a timeout), or the same key used"
                 " by another machine.")
        return CallRecord(
            operation=UNEXPLAINED, method="", url="", params={}, cache=CacheStatus.NONE,
            credits_charged=gap, remaining=None, note=note, revealed_by=_revealed(revealer),
            account=self.account,
        )

    def _overstated(
        self, excess: int, since: datetime, revealer: CallRecord | None, *,
        between_sessions: bool,
    ) -> CallRecord:
        """The entry of a balance that fell ``excess`` cr less than the charges the
        answers reported: recorded as a negative charge, so spent is what the balance
        shows, and named so nobody takes the headers' figure on trust."""
        earlier = " (the balance an earlier session settled)" if between_sessions else ""
        note = (
            f"The service charged {excess} cr less than its charge headers said: its balance"
            f" fell {excess} cr less than the X-Credits-Charged of the calls recorded since"
            f" {since:%H:%M:%S} UTC{earlier}. Calls in between: {self._calls_between()}."
            " Spent counts what the balance shows. Either the service reports charges it"
            " does not take, or credits were refunded or added in between: ask its support"
            " which is right."
        )
        return CallRecord(
            operation=OVERSTATED, method="", url="", params={}, cache=CacheStatus.NONE,
            credits_charged=-excess, note=note, revealed_by=_revealed(revealer),
            account=self.account,
        )

    def _calls_between(self) -> str:
        """The operations recorded since the starting point, as a note names them."""
        return ", ".join(f"{name} ×{count}" if count > 1 else name
                         for name, count in sorted(self._between.items())) or "none"


def _revealed(revealer: CallRecord | None) -> str | None:
    """How an entry names the call whose answer revealed it."""
    if revealer is None:
        return None
    return f"{revealer.operation} ({revealer.request_id or 'no request id'})"
