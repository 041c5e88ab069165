"""The credit ledger: every call's cost, for this session and for all time.

Session records stay in memory (the activity view reads them). Lifetime totals
are one row per call in a SQLite file (WAL mode, so the explorer and a
``creditscope call`` in another terminal can both write). Rows hold the
operation, cost and outcome only: never the key, never params or bodies.
"""

from __future__ import annotations

import sqlite3
import threading
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from creditscope.client.records import CallRecord

_SCHEMA = """
CREATE TABLE IF NOT EXISTS calls (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    session TEXT NOT NULL,
    at TEXT NOT NULL,
    operation TEXT NOT NULL,
    status INTEGER,
    cache TEXT NOT NULL,
    credits_charged INTEGER NOT NULL,
    credits_saved INTEGER NOT NULL,
    error_code TEXT,
    remaining INTEGER
);
CREATE INDEX IF NOT EXISTS calls_session ON calls (session);
"""


@dataclass
class OperationTotals:
    """Spend, savings and outcomes for one operation."""

    spent: int = 0
    saved: int = 0
    calls: int = 0
    errors: int = 0


@dataclass
class Totals(OperationTotals):
    """Totals over a session or a lifetime, with a per-operation breakdown."""

    by_operation: dict[str, OperationTotals] = field(default_factory=dict)
    remaining: int | None = None  # latest balance the service reported

    def add(self, operation: str, spent: int, saved: int, failed: bool) -> None:
        """Count one call."""
        row = self.by_operation.setdefault(operation, OperationTotals())
        for target in (self, row):
            target.spent += spent
            target.saved += saved
            target.calls += 1
            target.errors += int(failed)


class CreditLedger:
    """Records every ``CallRecord`` and tells subscribers; ``path=None`` keeps it in memory."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path
        self.session_id = uuid.uuid4().hex
        self.session_records: list[CallRecord] = []
        self.remaining: int | None = None
        self._subscribers: list[Callable[[CallRecord], None]] = []
        self._lock = threading.Lock()
        self._db: sqlite3.Connection | None = None
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(str(path), check_same_thread=False, timeout=10)
            self._db.execute("PRAGMA journal_mode=WAL")
            # WAL + NORMAL: no fsync per call; a crash loses at most the last few rows.
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.executescript(_SCHEMA)
            self._db.commit()

    def record(self, rec: CallRecord) -> None:
        """Add one call to the session and the lifetime file, then notify subscribers."""
        with self._lock:
            self.session_records.append(rec)
            if rec.remaining is not None:
                self.remaining = rec.remaining
            if self._db is not None:
                self._db.execute(
                    "INSERT INTO calls (session, at, operation, status, cache, credits_charged,"
                    " credits_saved, error_code, remaining) VALUES (?,?,?,?,?,?,?,?,?)",
                    (
                        self.session_id,
                        rec.started_at.isoformat(),
                        rec.operation,
                        rec.status,
                        str(rec.cache),
                        rec.credits_charged,
                        rec.credits_saved,
                        rec.error_code,
                        rec.remaining,
                    ),
                )
                self._db.commit()
            subscribers = list(self._subscribers)
        for callback in subscribers:
            callback(rec)

    def subscribe(self, callback: Callable[[CallRecord], None]) -> Callable[[], None]:
        """Call ``callback`` after each recorded call; returns a function that unsubscribes."""
        with self._lock:
            self._subscribers.append(callback)

        def unsubscribe() -> None:
            with self._lock:
                if callback in self._subscribers:
                    self._subscribers.remove(callback)

        return unsubscribe

    def session_spent(self) -> int:
        """Credits charged so far in this session."""
        return sum(rec.credits_charged for rec in self.session_records)

    def session_totals(self) -> Totals:
        """Totals of this process's calls."""
        totals = Totals(remaining=self.remaining)
        for rec in list(self.session_records):
            totals.add(rec.operation, rec.credits_charged, rec.credits_saved, not rec.ok)
        return totals

    def lifetime_totals(self) -> Totals:
        """Totals of every call ever recorded in the ledger file (this session if in memory)."""
        if self._db is None:
            return self.session_totals()
        return self._totals_where("", ())

    def latest_session(self) -> tuple[str, datetime] | None:
        """The most recent session in the file other than this one, and when it started."""
        if self._db is None:
            return None
        with self._lock:
            row = self._db.execute(
                "SELECT session, MIN(at) FROM calls WHERE session != ? GROUP BY session"
                " ORDER BY MAX(id) DESC LIMIT 1",
                (self.session_id,),
            ).fetchone()
        return (row[0], datetime.fromisoformat(row[1])) if row else None

    def session_totals_for(self, session_id: str) -> Totals:
        """Totals of one recorded session (e.g. the explorer's last run)."""
        if self._db is None:
            return self.session_totals() if session_id == self.session_id else Totals()
        return self._totals_where("WHERE session = ?", (session_id,))

    def _totals_where(self, where: str, args: tuple[str, ...]) -> Totals:
        assert self._db is not None
        with self._lock:
            rows = self._db.execute(
                "SELECT operation, SUM(credits_charged), SUM(credits_saved), COUNT(*),"
                f" SUM(error_code IS NOT NULL OR COALESCE(status, 0) >= 400) FROM calls {where}"
                " GROUP BY operation ORDER BY operation",
                args,
            ).fetchall()
            latest = self._db.execute(
                f"SELECT remaining FROM calls {where}"
                f" {'AND' if where else 'WHERE'} remaining IS NOT NULL ORDER BY id DESC LIMIT 1",
                args,
            ).fetchone()
        totals = Totals(remaining=latest[0] if latest else None)
        for operation, spent, saved, calls, errors in rows:
            row = OperationTotals(int(spent or 0), int(saved or 0), int(calls), int(errors or 0))
            totals.by_operation[operation] = row
            totals.spent += row.spent
            totals.saved += row.saved
            totals.calls += row.calls
            totals.errors += row.errors
        return totals

    def close(self) -> None:
        """Close the ledger file."""
        with self._lock:
            if self._db is not None:
                self._db.close()
                self._db = None

