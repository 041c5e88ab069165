"""The ledger's SQLite file: its schema, opening it soundly, telling a damaged file from
one that could not be opened, and salvaging a damaged one.

:class:`creditscope.client.ledger.CreditLedger` owns what the rows mean; this module
owns how they are stored (WAL, 0600, an index per account, and the columns added
since the first files: ``account``, the history's (see
:mod:`creditscope.client.history`), then ``attempts`` and ``match_grade`` for Usage;
the in-flight rows' account, process and price), and names the account of calls
recorded before there were accounts.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from creditscope.private_files import private_database

SCHEMA = """
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
    remaining INTEGER,
    account TEXT,
    method TEXT,
    params TEXT,
    search TEXT,
    label TEXT
);
CREATE INDEX IF NOT EXISTS calls_session ON calls (session);
CREATE TABLE IF NOT EXISTS in_flight (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    session TEXT NOT NULL,
    started TEXT NOT NULL,
    abandoned_after REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS settled (
    account TEXT PRIMARY KEY,
    balance INTEGER NOT NULL,
    position INTEGER NOT NULL,
    at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS possible_charges (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    account TEXT NOT NULL,
    session TEXT NOT NULL,
    at TEXT NOT NULL,
    operation TEXT NOT NULL,
    credits INTEGER NOT NULL
);
"""
OLDCOLUMNS = (
    "session, at, operation, status, cache, credits_charged, credits_saved, error_code, remaining"
)
# Columns added to ``calls`` after the first files, oldest first: each is added to an
# older file when it is opened (NULL in its old rows). The history's (issue 27): the
# parameters (never the key), a folded search text and the ticket label. ``attempts``:
# network attempts (0: refused before sending); ``match_grade``: a company lookup's best
# confidence (Usage).
HISTORY_COLUMNS = ("method", "params", "search", "label")
ADDED_COLUMNS: tuple[tuple[str, str], ...] = (
    ("account", "TEXT"), *((name, "TEXT") for name in HISTORY_COLUMNS),
    ("attempts", "INTEGER"), ("match_grade", "TEXT"),
)
# An exchange on the wire names its account (only that account's checks wait for it),
# its process (a dead one's row stops holding anything back) and what it may cost (its
# price becomes a possible charge when the row is abandoned, never lost).
IN_FLIGHT_COLUMNS: tuple[tuple[str, str], ...] = (
    ("account", "TEXT"), ("pid", "INTEGER"), ("host", "TEXT"), ("operation", "TEXT"),
    ("credits", "INTEGER"),
)
# Calls recorded before the ledger named accounts: attributed to the account the file's
# owner names (the sandbox's own ledger), else shown apart under this name.
UNKNOWN_ACCOUNT = "unknown account"
COLUMNS = ", ".join([OLDCOLUMNS, *(name for name, _ in ADDED_COLUMNS)])
INSERT = f"INSERT INTO calls ({COLUMNS}) VALUES ({', '.join('?' for _ in COLUMNS.split(','))})"
# Newest-first pages by date and by label stay quick at 100,000 rows.
HISTORY_INDEXES = (
    "CREATE INDEX IF NOT EXISTS calls_at ON calls (at)",
    "CREATE INDEX IF NOT EXISTS calls_label ON calls (label COLLATE NOCASE)",
)


class LedgerDamaged(sqlite3.DatabaseError):
    """The file opened but failed its integrity check."""


# What SQLite says of a file that is not (or no longer) a sound database; anything else
# (cannot open, read-only, locked, disk full) is about reaching the file, not its content.
_DAMAGE_CODES = frozenset({sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB})


def is_damage(error: sqlite3.Error) -> bool:
    """True when ``error`` says the file's content is damaged: only then is it set aside."""
    return isinstance(error, LedgerDamaged) or \
        getattr(error, "sqlite_errorcode", None) in _DAMAGE_CODES


def open_ledger_file(path: Path | None) -> sqlite3.Connection:
    """Open (or create) the ledger file and check it is sound; raises sqlite3.Error if not.
    ``None``: the same schema in memory, for a ledger that keeps nothing after the process."""
    if path is None:
        db = sqlite3.connect(":memory:", check_same_thread=False)
    else:
        private_database(path)  # 0700 directory, 0600 file
        db = sqlite3.connect(str(path), check_same_thread=False, timeout=10)
    try:
        if path is not None:
            db.execute("PRAGMA journal_mode=WAL")
            # WAL + NORMAL: no fsync per call; a crash loses at most the last few rows.
            db.execute("PRAGMA synchronous=NORMAL")
        db.executescript(SCHEMA)
        _add_missing_columns(db, "calls", ADDED_COLUMNS)
        _add_missing_columns(db, "in_flight", IN_FLIGHT_COLUMNS)
        db.execute("CREATE INDEX IF NOT EXISTS calls_account ON calls (account)")
        for index in HISTORY_INDEXES:
            db.execute(index)
        db.commit()
        check = db.execute("PRAGMA quick_check").fetchone()
        if check is None or check[0] != "ok":
            raise LedgerDamaged(f"integrity check failed: {check[0] if check else '?'}")
        db.execute("SELECT COUNT(*), SUM(credits_charged) FROM calls").fetchone()
    except BaseException:
        db.close()
        raise
    return db


def _add_missing_columns(db: sqlite3.Connection, table: str,
                         added: tuple[tuple[str, str], ...]) -> None:
    """Add to ``table`` the columns a ledger from before them lacks (NULL in old rows)."""
    columns = {row[1] for row in db.execute(f"PRAGMA table_info({table})")}
    for name, kind in added:
        if name not in columns:
            db.execute(f"ALTER TABLE {table} ADD COLUMN {name} {kind}")


def name_legacy_accounts(db: sqlite3.Connection, account: str | None) -> int:
    """Give every call recorded without an account one: ``account`` (the one this file
    belongs to, when its owner knows) or ``UNKNOWN_ACCOUNT``. No row is lost or
    changed otherwise; returns how many were named."""
    cursor = db.execute("UPDATE calls SET account = ? WHERE account IS NULL",
                        (account or UNKNOWN_ACCOUNT,))
    db.commit()
    return cursor.rowcount


def _salvage_selects() -> list[str]:
    """The columns to read from a damaged file, newest schema first: an older file
    lacks the later columns, which read as NULL."""
    names = [name for name, _ in ADDED_COLUMNS]
    return [", ".join([OLDCOLUMNS, *names[:kept], *["NULL"] * (len(names) - kept)])
            for kept in range(len(names), -1, -1)]


def readable_rows(path: Path) -> list[tuple[object, ...]]:
    """Every row of the ``calls`` table that can still be read from a damaged ledger."""
    try:
        db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, timeout=2)
    except sqlite3.Error:
        return []
    try:
        for columns in _salvage_selects():
            try:
                return db.execute(f"SELECT {columns} FROM calls ORDER BY id").fetchall()
            except sqlite3.Error:
                continue
        return []
    finally:
        db.close()
