"""A budget shared by several processes: the tabs of one ``creditscope web`` run.

Every browser tab is its own explorer process with its own :class:`SpendSession`, but
the presenter's ``budget`` is for the whole run. Each tab writes what it has committed
(spent, reserved and uncertain) as one row of a small SQLite file beside the ledger,
keyed by the run and the tab. A reservation reads the other tabs' rows and writes its
own inside one write transaction (``BEGIN IMMEDIATE`` takes the file's write lock), so
two tabs pressing at once cannot both pass the budget.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from creditscope.private_files import private_database, private_directory

SCHEMA = """
CREATE TABLE IF NOT EXISTS tab_commitments (
    run TEXT NOT NULL,
    tab TEXT NOT NULL,
    credits INTEGER NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (run, tab)
)
"""
# Rows of runs older than this are dropped when a tab opens the file.
KEEP_RUNS_S = 7 * 24 * 3600.0


class SharedBudget:
    """One tab's view of its run's commitments (not thread-safe: the session's lock
    guards every use)."""

    def __init__(self, path: Path, run: str, tab: str) -> None:
        self.run = run
        self.tab = tab
        private_directory(path.parent)
        private_database(path)
        # Autocommit mode: transactions are begun by hand, so BEGIN IMMEDIATE is ours.
        self._db = sqlite3.connect(path, timeout=30.0, isolation_level=None,
                                   check_same_thread=False)
        self._db.execute(SCHEMA)
        self._db.execute("DELETE FROM tab_commitments WHERE at < ?",
                         (time.time() - KEEP_RUNS_S,))

    @contextmanager
    def reserving(self) -> Iterator[int]:
        """Hold the file's write lock; yields what the run's other tabs have committed.
        Call :meth:`publish` inside to take a reservation; leaving commits."""
        self._db.execute("BEGIN IMMEDIATE")
        try:
            yield self.others()
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")

    def others(self) -> int:
        """What the run's other tabs have committed (spent, reserved and uncertain)."""
        (others,) = self._db.execute(
            "SELECT COALESCE(SUM(credits), 0) FROM tab_commitments"
            " WHERE run = ? AND tab != ?", (self.run, self.tab)).fetchone()
        return int(others)

    def publish(self, committed: int) -> None:
        """Record what this tab has committed now (spent, reserved and uncertain)."""
        self._db.execute(
            "INSERT INTO tab_commitments (run, tab, credits, at) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (run, tab) DO UPDATE SET credits = excluded.credits, at = excluded.at",
            (self.run, self.tab, committed, time.time()))

    def close(self) -> None:
        """Close the file (this tab's row stays: what it spent stays spent)."""
        self._db.close()
