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
rise (a top-up, a refund) is taken as the new starting point. The first check
of a session only sets the starting point.

One reconciler per ledger file and session (``for_ledger``), so a rebuilt
client carries on from where the previous one was.
"""

from __future__ import annotations

import threading
from collections import Counter
from datetime import UTC, datetime

from creditscope.client.ledger import CreditLedger
from creditscope.client.records import UNEXPLAINED, CacheStatus, CallRecord


class Reconciler:
    """Checks the recorded spend against the service's balance, when no call is in flight
    on the ledger file (this process's or another's)."""

    def __init__(self, ledger: CreditLedger) -> None:
        self.ledger = ledger
        self._lock = threading.Lock()
        self._in_flight = 0
        self._burst_row = 0  # ledger position when the unchecked calls began
        self._lowest: int | None = None  # lowest balance reported in the current burst
        self._revealer: CallRecord | None = None
        self._anchor: tuple[int, int, datetime] | None = None  # balance, ledger position, when
        self._between: Counter[str] = Counter()  # operations recorded since the anchor

    @classmethod
    def for_ledger(cls, ledger: CreditLedger) -> Reconciler:
        """The session's reconciler for this ledger file (made on first use)."""
        key = str(ledger.path) if ledger.path is not None else f"memory:{id(ledger)}"
        return ledger.session.shared(("reconciler", key), lambda: cls(ledger))

    def started(self, abandon_after: float) -> int | None:
        """An exchange is about to leave the client; other processes on the ledger see
        it for at most ``abandon_after`` seconds. Returns the token for ``finished``."""
        with self._lock:
            if self._in_flight == 0 and self._lowest is None:
                self._burst_row = self.ledger.last_row()
            self._in_flight += 1
        return self.ledger.flight_started(abandon_after)

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
                if self.ledger.others_in_flight():
                    return None  # their charges may be made but not recorded: wait
                found = self._check(self._lowest, self._revealer)
            self._lowest = self._revealer = None
        self.ledger.session.settle_uncertain()
        return found

    def _check(self, lowest: int, revealer: CallRecord | None) -> CallRecord | None:
        """Compare, record a shortfall, move the starting point (under the write lock)."""
        now = datetime.now(UTC)
        anchor = self._anchor
        # Other sessions' answers recorded since count too: their charges are in the sum.
        seen = self.ledger.lowest_remaining_since(anchor[1] if anchor else self._burst_row)
        observed = lowest if seen is None else min(lowest, seen)
        found: CallRecord | None = None
        if anchor is not None:
            balance, row, since = anchor
            gap = balance - self.ledger.charged_since(row) - observed
            if gap > 0:
                elsewhere = self.ledger.spent_elsewhere_since(row)
                found = self._unexplained(gap, since, revealer, elsewhere)
                self.ledger.record(found)
        self._anchor = (observed, self.ledger.last_row(), now)
        self._between.clear()
        return found

    def _unexplained(
        self, gap: int, since: datetime, revealer: CallRecord | None, elsewhere: int
    ) -> CallRecord:
        calls = ", ".join(f"{name} ×{count}" if count > 1 else name
                          for name, count in sorted(self._between.items())) or "none"
        revealed = (f"{revealer.operation} ({revealer.request_id or 'no request id'})"
                    if revealer is not None else None)
        note = (
            f"The service's balance fell {gap} cr more than the calls recorded since"
            f" {since:%H:%M:%S} UTC explain. Calls in between: {calls}."
        )
        if elsewhere:
            note += (f" {elsewhere} cr spent from elsewhere (other creditscope sessions on"
                     " this ledger) were accounted for.")
        note += (" Likely a charge whose answer was lost (a timeout), or the same key used"
                 " by another machine.")
        return CallRecord(
            operation=UNEXPLAINED, method="", url="", params={}, cache=CacheStatus.NONE,
            credits_charged=gap, remaining=None, note=note, revealed_by=revealed,
        )
