"""The credit ledger: every call's cost, for this session and for all time.

Session records stay in memory (the activity view reads them). Lifetime totals
are one row per call in a SQLite file (WAL mode, so the explorer and a
``creditscope call`` in another terminal can both write); a ledger without a file
(tests, the throwaway sandbox) is the same SQL on an in-memory database. Rows hold the
operation, cost and outcome, and for the history (``history.py``) the method,
the operation's parameters and a ticket label: never the key, headers or bodies.

The file also lists the exchanges on the wire right now (``in_flight``: session,
start, and when the row counts as abandoned), so a process reconciling with the
service can see that another process's charge may not be recorded yet.

Each row names its account (``account_id.account_fingerprint``: service and key,
hashed). Per account the file keeps the last *settled* balance (``settled``: the
balance at a quiet moment and the ledger position it covers), so the next session
starts reconciling from there, and the *possibly charged* attempts
(``possible_charges``: answers lost after the request left) until a later balance
settles them.
"""

from __future__ import annotations

import os
import socket
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

from creditscope.client.cache import set_aside
from creditscope.client.history import CallHistory, ledger_row
from creditscope.client.ledger_file import (
    INSERT,
    is_damage,
    name_legacy_accounts,
    open_ledger_file,
    readable_rows,
)
from creditscope.client.ledger_totals import Point, PossibleCharge, Totals
from creditscope.client.records import CallRecord
from creditscope.client.session import Reservation, SpendSession
from creditscope.client.usage import UsageRow
from creditscope.client.usage_rows import rows_in_file
from creditscope.private_files import private_directory


class CreditLedger:
    """Records every ``CallRecord`` and tells subscribers; ``path=None`` keeps the same
    tables in an in-memory SQLite database (one implementation either way).

    The session part (records, budget reservations, subscribers) is a
    :class:`SpendSession`, shared by every ledger built with it, so it outlives
    a rebuilt client.
    """

    def __init__(self, path: Path | None = None, session: SpendSession | None = None, *,
                 own_session_only: bool = False, legacy_account: str | None = None) -> None:
        self.path = path
        self.session = session if session is not None else SpendSession()
        # A `creditscope web` tab: every call is still written to the file, but what the
        # tab reads back (history, usage, totals) is its own session's alone.
        self.own_session_only = own_session_only
        self._lock = threading.RLock()  # re-entered inside ``exclusive``
        self.warnings: list[str] = []  # shown by the explorer and printed by the CLI
        self.label: str | None = None  # the ticket every call of this process is for
        self._exclusive = False  # inside ``exclusive``: writes commit at its end
        # This process, as its in-flight rows name it (a dead one's rows hold nothing back).
        self.pid = os.getpid()
        self.host = socket.gethostname()
        self._db: sqlite3.Connection
        if path is None:
            self._db = open_ledger_file(None)
            return
        try:
            private_directory(path.parent)  # 0700 when this creates it
            self._db = open_ledger_file(path)
        except sqlite3.Error as exc:
            self._db = self._rebuild(path, exc) if is_damage(exc) else self._unreachable(path, exc)
        except OSError as exc:
            self._db = self._unreachable(path, exc)
        try:  # rows from before accounts: the file's own account, else "unknown account"
            name_legacy_accounts(self._db, legacy_account)
        except sqlite3.Error as exc:
            self.warnings.append(f"Could not name the account of older calls in {path}: {exc}")

    def _unreachable(self, path: Path, problem: Exception) -> sqlite3.Connection:
        """The file could not be opened (permissions, a missing or odd directory, a lock):
        it is left as it is, and this session's calls are kept in memory only (the same
        tables, in an in-memory database)."""
        reason = getattr(problem, "strerror", None) or str(problem)
        self.warnings.append(
            f"The credit ledger {path} could not be opened ({reason}); it was left as it is."
            " This session's calls are counted in memory only and will not be in the"
            " lifetime totals: check the file and its directory, then start again."
        )
        return open_ledger_file(None)

    def _rebuild(self, path: Path, problem: sqlite3.Error) -> sqlite3.Connection:
        """Set a damaged ledger aside, start a new one, and carry over every readable row."""
        rows = readable_rows(path)
        moved = set_aside(path)
        for suffix in ("-wal", "-shm"):  # they belong to the damaged file, not the new one
            side = path.with_name(path.name + suffix)
            if side.exists():
                side.rename(moved.with_name(moved.name + suffix))
        db = open_ledger_file(path)
        if rows:
            db.executemany(INSERT, rows)
            db.commit()
            kept = f"{len(rows)} recorded calls were readable and carried over"
        else:
            kept = "no recorded call was readable, so lifetime totals start again from zero"
        self.warnings.append(
            f"The credit ledger {path} was damaged ({problem}); it was moved to {moved}"
            f" and rebuilt: {kept}."
        )
        return db

    @property
    def session_id(self) -> str:
        """The session's id (one per process, across client rebuilds)."""
        return self.session.session_id

    @property
    def session_records(self) -> list[CallRecord]:
        """Every call of this session, oldest first (the Activity list)."""
        return self.session.records

    @property
    def remaining(self) -> int | None:
        """The latest balance the service reported in this session."""
        return self.session.remaining

    def record(self, rec: CallRecord, reservation: Reservation | None = None) -> None:
        """Add one call to the session (its reservation becomes the charge) and the
        lifetime file, then notify subscribers."""
        with self._lock:
            if rec.label is None:
                rec.label = self.label
            self.session.add(rec, reservation)
            rec.history_id = self._write(INSERT, ledger_row(rec, self.session_id))
        self.session.notify(rec)

    @property
    def history(self) -> CallHistory:
        """Every session's calls in this file, searchable (a web tab: its own only)."""
        return CallHistory(self._db, self._lock,
                           self.session_id if self.own_session_only else None)

    def _write(self, sql: str, args: tuple[object, ...]) -> int | None:
        """Run one write and commit it; returns the new row id, or None if it failed."""
        try:
            cursor = self._db.execute(sql, args)
            if not self._exclusive:
                self._db.commit()
            return cursor.lastrowid
        except sqlite3.Error as exc:
            # The call already happened; losing its lifetime row must not lose the answer.
            message = f"Could not write to the credit ledger {self.path}: {exc}"
            if message not in self.warnings:
                self.warnings.append(message)
            return None

    def flight_started(self, abandon_after: float, account: str, operation: str,
                       credits: int) -> int | None:
        """Note that an exchange of this session on ``account`` is on the wire; it counts
        as abandoned (a crashed process) ``abandon_after`` seconds from now, or as soon as
        its process is seen dead. Returns its token."""
        with self._lock:
            return self._write(
                "INSERT INTO in_flight (session, started, abandoned_after, account, pid, host,"
                " operation, credits) VALUES (?,?,?,?,?,?,?,?)",
                (self.session_id, datetime.now(UTC).isoformat(), time.time() + abandon_after,
                 account, self.pid, self.host, operation, credits),
            )

    def flight_ended(self, token: int | None) -> None:
        """The exchange ``token`` ended (and is recorded, if it was charged)."""
        if token is None:
            return
        with self._lock:
            self._write("DELETE FROM in_flight WHERE id = ?", (token,))

    def others_in_flight(self, account: str) -> int:
        """Exchanges other sessions have on the wire now on ``account`` (a row from
        before rows named accounts holds every account). An abandoned row (expired, or
        its process dead) stops counting: its price becomes a possible charge of its
        account, so a charge the dead process never recorded is still settled."""
        with self._lock:
            self._abandon_dead_flights()
            row = self._db.execute(
                "SELECT COUNT(*) FROM in_flight WHERE session != ?"
                " AND (account = ? OR account IS NULL)", (self.session_id, account),
            ).fetchone()
        return int(row[0] or 0)

    def settle_abandoned_flights(self) -> None:
        """Turn the in-flight rows of dead or expired exchanges into possible charges of
        their accounts now: a call killed mid-request shows in ``credits`` at once, not
        only after the next call on the same file."""
        with self._lock:
            self._abandon_dead_flights()

    def _abandon_dead_flights(self) -> None:
        now = time.time()
        rows = self._db.execute(
            "SELECT id, session, started, abandoned_after, account, pid, host, operation,"
            " credits FROM in_flight WHERE session != ?", (self.session_id,),
        ).fetchall()
        for ident, session, started, until, account, pid, host, operation, credits in rows:
            if until > now and not (host == self.host and _process_gone(pid)):
                continue
            if account is not None and operation is not None and credits:
                self._write(
                    "INSERT INTO possible_charges (account, session, at, operation, credits)"
                    " VALUES (?,?,?,?,?)", (account, session, started, operation, credits),
                )
            self._write("DELETE FROM in_flight WHERE id = ?", (ident,))

    @contextmanager
    def exclusive(self) -> Iterator[None]:
        """Hold the file's write lock: the reads inside see one moment and no other
        process writes until the end (a check and the entry it records are one step)."""
        with self._lock:
            try:
                self._db.execute("BEGIN IMMEDIATE")
            except sqlite3.Error:
                yield  # no lock to be had: the reads are still each consistent
                return
            self._exclusive = True
            try:
                yield
            finally:
                self._exclusive = False
                try:
                    self._db.commit()
                except sqlite3.Error:
                    self._db.rollback()

    def subscribe(self, callback: Callable[[CallRecord | None], None]) -> Callable[[], None]:
        """Call ``callback`` after each recorded call (None: only the possibly charged
        figure changed); returns a function that unsubscribes."""
        return self.session.subscribe(callback)

    def session_spent(self) -> int:
        """Credits charged so far in this session (unexplained differences included)."""
        return self.session.spent()

    def last_row(self) -> int:
        """A position after every call recorded so far: the newest row id in the file."""
        with self._lock:
            row = self._db.execute("SELECT MAX(id) FROM calls").fetchone()
        return int(row[0] or 0)

    @staticmethod
    def _of_account(account: str | None) -> tuple[str, tuple[str, ...]]:
        """An SQL condition (and its argument) for one account's rows; none for all."""
        return ("", ()) if account is None else (" AND account = ?", (account,))

    def charged_since(self, row_id: int, account: str | None = None) -> int:
        """Credits recorded after position ``row_id`` by anyone writing this ledger
        (for ``account`` only, when given)."""
        where, args = self._of_account(account)
        with self._lock:
            row = self._db.execute(
                f"SELECT SUM(credits_charged) FROM calls WHERE id > ?{where}", (row_id, *args)
            ).fetchone()
        return int(row[0] or 0)

    def lowest_remaining_since(self, row_id: int, account: str | None = None) -> int | None:
        """The lowest balance any session recorded after position ``row_id``."""
        where, args = self._of_account(account)
        with self._lock:
            row = self._db.execute(
                f"SELECT MIN(remaining) FROM calls WHERE id > ?{where}", (row_id, *args)
            ).fetchone()
        return None if row[0] is None else int(row[0])

    def latest_balance_at(self, row_id: int, account: str) -> datetime | None:
        """When the newest request after position ``row_id`` on ``account`` whose answer
        reported a balance was sent (None: no such answer)."""
        with self._lock:
            row = self._db.execute(
                "SELECT MAX(at) FROM calls WHERE id > ? AND account = ?"
                " AND remaining IS NOT NULL", (row_id, account),
            ).fetchone()
        return None if row[0] is None else datetime.fromisoformat(row[0])

    def spent_elsewhere_since(self, row_id: int, account: str | None = None) -> int:
        """Credits other sessions (another explorer, a ``creditscope call``) recorded in
        the file after row ``row_id``: spend from elsewhere, not an error."""
        where, args = self._of_account(account)
        with self._lock:
            row = self._db.execute(
                f"SELECT SUM(credits_charged) FROM calls WHERE id > ? AND session != ?{where}",
                (row_id, self.session_id, *args),
            ).fetchone()
        return int(row[0] or 0)

    # --- settled balances and possible charges, per account ------------------------------

    def settled_point(self, account: str) -> Point | None:
        """The last balance a reconciliation settled for ``account`` (any session): the
        balance, the position up to which every charge was recorded, and when."""
        with self._lock:
            row = self._db.execute(
                "SELECT balance, position, at FROM settled WHERE account = ?", (account,)
            ).fetchone()
        return (int(row[0]), int(row[1]), datetime.fromisoformat(row[2])) if row else None

    def settle_point(self, account: str, point: Point) -> None:
        """Keep ``point`` as ``account``'s settled balance, for this and later sessions."""
        balance, position, at = point
        with self._lock:
            self._write(
                "INSERT INTO settled (account, balance, position, at) VALUES (?,?,?,?)"
                " ON CONFLICT(account) DO UPDATE SET balance = excluded.balance,"
                " position = excluded.position, at = excluded.at",
                (account, balance, position, at.isoformat()),
            )

    def hold_possible(self, account: str, operation: str, credits: int) -> None:
        """An attempt of ``operation`` lost its answer after the request left: its price
        is possibly charged until a later balance settles it. Subscribers are told."""
        if credits <= 0:
            return
        now = datetime.now(UTC)
        with self._lock:
            self._write(
                "INSERT INTO possible_charges (account, session, at, operation, credits)"
                " VALUES (?,?,?,?,?)",
                (account, self.session_id, now.isoformat(), operation, credits),
            )
        self.session.notify(None)  # the meter shows it at once

    def possible_charges(
        self, account: str | None = None, session: str | None = None
    ) -> list[PossibleCharge]:
        """Attempts possibly charged and not settled yet, oldest first (for ``account``
        or ``session`` when given)."""
        def wanted(p: PossibleCharge) -> bool:
            return account in (None, p.account) and session in (None, p.session)

        with self._lock:
            rows = self._db.execute(
                "SELECT id, account, session, at, operation, credits FROM possible_charges"
                " ORDER BY id"
            ).fetchall()
        found = (PossibleCharge(int(i), a, s, datetime.fromisoformat(at), op, int(c))
                 for i, a, s, at, op, c in rows)
        return [p for p in found if wanted(p)]

    def drop_possible(self, charges: list[PossibleCharge]) -> None:
        """These possible charges are settled (recorded as charged, or released)."""
        ids = {p.id for p in charges}
        with self._lock:
            for ident in sorted(ids):
                self._write("DELETE FROM possible_charges WHERE id = ?", (ident,))

    def session_totals(self, account: str | None = None) -> Totals:
        """Totals of this process's calls, with the latest balance they reported; of
        ``account``'s calls only, when given (a key changed in Settings starts afresh)."""
        totals = self.session.totals_now(account)  # counted as records arrived
        totals.possibly_charged = sum(
            p.credits for p in self.possible_charges(account, session=self.session_id))
        return totals

    def lifetime_totals(self, account: str | None = None) -> Totals:
        """Totals of every call ever recorded in the ledger file (a web tab: its own);
        of ``account`` only, when given."""
        if self.own_session_only:
            return self.session_totals()
        where, args = self._of_account(account)
        totals = self._totals_where(f"WHERE 1{where}", args)
        totals.possibly_charged = sum(p.credits for p in self.possible_charges(account))
        return totals

    def accounts(self) -> list[str]:
        """Every account the file holds calls or possible charges of, in first-seen order
        (a web tab: its own session's only)."""
        session = self.session_id if self.own_session_only else None
        where, args = ("AND session = ?", (session,)) if session else ("", ())
        with self._lock:
            rows = self._db.execute(
                "SELECT account FROM (SELECT account, MIN(id) AS first FROM calls"
                f" WHERE account IS NOT NULL {where} GROUP BY account) ORDER BY first", args
            ).fetchall()
        found = [str(row[0]) for row in rows]
        found += [p.account for p in self.possible_charges(session=session)
                  if p.account not in found]
        return list(dict.fromkeys(found))

    def latest_session(self, account: str | None = None) -> tuple[str, datetime] | None:
        """The most recent session in the file other than this one (with calls on
        ``account``, when given), and when it started."""
        if self.own_session_only:
            return None
        where, args = self._of_account(account)
        with self._lock:
            row = self._db.execute(
                f"SELECT session, MIN(at) FROM calls WHERE session != ?{where} GROUP BY session"
                " ORDER BY MAX(id) DESC LIMIT 1",
                (self.session_id, *args),
            ).fetchone()
        return (row[0], datetime.fromisoformat(row[1])) if row else None

    def session_totals_for(self, session_id: str, account: str | None = None) -> Totals:
        """Totals of one recorded session (e.g. the explorer's last run), of ``account``
        only when given."""
        if self.own_session_only and session_id != self.session_id:
            return Totals()
        where, args = self._of_account(account)
        totals = self._totals_where(f"WHERE session = ?{where}", (session_id, *args))
        totals.possibly_charged = sum(
            p.credits for p in self.possible_charges(account, session=session_id))
        return totals

    def usage_rows(self, since: datetime | None = None,
                   account: str | None = None) -> list[UsageRow]:
        """Every recorded call (from ``since`` on; of ``account`` when given) as Usage
        reads it, oldest first."""
        with self._lock:
            if self.own_session_only:
                return rows_in_file(self._db, since, session=self.session_id)
            return rows_in_file(self._db, since, account=account)

    def _totals_where(self, where: str, args: tuple[str, ...]) -> Totals:
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
            totals.add(operation, int(spent or 0), int(saved or 0), int(errors or 0),
                       calls=int(calls))
        return totals

    def close(self) -> None:
        """Close the ledger file."""
        with self._lock:
            self._db.close()


def _process_gone(pid: int | None) -> bool:
    """Whether process ``pid`` (on this machine) no longer runs."""
    if pid is None:
        return False
    try:
        os.kill(pid, 0)  # signal 0: only asks whether it exists
    except ProcessLookupError:
        return True
    except OSError:  # another user's process, or no permission to ask: alive
        return False
    return False
