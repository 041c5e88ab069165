"""Durable sandbox state in SQLite: key balances, charges, provider requests and
idempotent replies.

Keys are stored only as SHA-256 digests, so the database never holds an API
key. Charging is one ``UPDATE ... WHERE balance >= price`` inside ``BEGIN
IMMEDIATE``: concurrent requests can neither overdraw nor double-charge.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from creditscope.private_files import private_database
from creditscope.sandbox import REVOKED_KEY

IDEMPOTENCY_TTL_S = 24 * 3600

SCHEMA = """
CREATE TABLE IF NOT EXISTS accounts (
    key_hash TEXT PRIMARY KEY,
    balance INTEGER NOT NULL CHECK (balance >= 0),
    revoked INTEGER NOT NULL DEFAULT 0,
    created_at REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS charges (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    key_hash TEXT NOT NULL,
    operation TEXT NOT NULL,
    credits INTEGER NOT NULL,
    request_id TEXT NOT NULL,
    at REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS provider_requests (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    url TEXT,
    email TEXT,
    created_at REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS idempotent_replies (
    scope TEXT NOT NULL,
    idempotency_key TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    body TEXT NOT NULL,
    created_at REAL NOT NULL,
    PRIMARY KEY (scope, idempotency_key)
);
"""


def key_digest(key: str) -> str:
    """The SHA-256 hex digest under which a key's account is stored."""
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class Account:
    """An authenticated caller: the digest of its key and whether it is revoked."""

    key_hash: str
    revoked: bool


@dataclass(frozen=True)
class StoredReply:
    """A reply remembered under an ``Idempotency-Key``."""

    fingerprint: str
    body: dict[str, Any]


@dataclass(frozen=True)
class Charge:
    """The outcome of a charge attempt."""

    ok: bool
    remaining: int
    replay: StoredReply | None = None  # the first answer to this Idempotency-Key: not charged


class AccountStore:
    """All durable sandbox state, in one SQLite database (``None`` = in memory)."""

    def __init__(self, db_path: str | Path | None, keys: dict[str, int]) -> None:
        self._target = ":memory:" if db_path is None else str(db_path)
        if db_path is not None:
            private_database(Path(db_path))  # 0700 directory, 0600 file
        self._lock = threading.Lock()
        self._db = self._connect()
        self._open = True
        self._db.executescript(SCHEMA)
        with self._transaction():
            for key, credits in keys.items():
                # First start creates the account; later starts leave its balance alone.
                self._db.execute(
                    "INSERT OR IGNORE INTO accounts VALUES (?, ?, 0, ?)",
                    (key_digest(key), max(0, int(credits)), time.time()),
                )
            self._db.execute(
                "INSERT INTO accounts VALUES (?, 0, 1, ?) "
                "ON CONFLICT(key_hash) DO UPDATE SET revoked = 1",
                (key_digest(REVOKED_KEY), time.time()),
            )
        # Only this run's keys (and the revoked demo key) authenticate: keys an
        # earlier run left in the database are not accepted any more.
        active = {key_digest(key) for key in keys} | {key_digest(REVOKED_KEY)}
        self._known = [account for account in self._load_known() if account.key_hash in active]

    @property
    def persistent(self) -> bool:
        """True when the state lives in a file (it survives a close and reopen)."""
        return self._target != ":memory:"

    def _connect(self) -> sqlite3.Connection:
        db = sqlite3.connect(
            self._target, timeout=30, isolation_level=None, check_same_thread=False
        )
        if self.persistent:
            db.execute("PRAGMA journal_mode=WAL")
            # WAL + NORMAL keeps every charge atomic and skips the fsync per
            # request (a power cut may lose the last few charges, not corrupt).
            db.execute("PRAGMA synchronous=NORMAL")
        db.execute("PRAGMA busy_timeout=30000")
        return db

    def reopen(self) -> None:
        """Open the database again after ``close`` (an app whose lifespan runs twice)."""
        with self._lock:
            if not self._open and self.persistent:
                self._db = self._connect()
                self._open = True

    def _load_known(self) -> list[Account]:
        rows = self._db.execute("SELECT key_hash, revoked FROM accounts").fetchall()
        return [Account(digest, bool(revoked)) for digest, revoked in rows]

    def _transaction(self) -> _Transaction:
        return _Transaction(self._db, self._lock)

    def close(self) -> None:
        """Close the database connection (an in-memory one stays open: closing it would
        lose every balance, and a second lifespan would answer 500s)."""
        with self._lock:
            if self._open and self.persistent:
                self._db.close()
                self._open = False

    # --- keys and credits ---------------------------------------------------

    def authenticate(self, presented: str) -> Account | None:
        """The account of ``presented``, or None; compares every known digest in constant time."""
        digest = key_digest(presented).encode()
        found: Account | None = None
        for account in self._known:  # no early exit: timing does not reveal which key matched
            if hmac.compare_digest(digest, account.key_hash.encode()):
                found = account
        return found

    def balance(self, key_hash: str) -> int:
        """The account's current balance (0 when unknown)."""
        with self._lock:
            row = self._db.execute(
                "SELECT balance FROM accounts WHERE key_hash = ?", (key_hash,)
            ).fetchone()
        return int(row[0]) if row else 0

    def charge(
        self,
        key_hash: str,
        credits: int,
        operation: str,
        request_id: str,
        remember: tuple[str, str, str, dict[str, Any]] | None = None,
    ) -> Charge:
        """Take ``credits`` from the account atomically, or nothing when the balance is short.

        ``remember`` = (scope, idempotency key, fingerprint, body) stores the reply
        in the same transaction as the charge, after looking for an earlier reply to
        that key in it too: a duplicate (even one from another process that arrived
        while the first was being answered) gets ``replay`` and is never charged.
        """
        with self._transaction():
            if remember is not None:
                earlier = self._recall_in_transaction(remember[0], remember[1])
                if earlier is not None:
                    return Charge(ok=True, remaining=self._balance_in_transaction(key_hash),
                                  replay=earlier)
            changed = self._db.execute(
                "UPDATE accounts SET balance = balance - ? "
                "WHERE key_hash = ? AND revoked = 0 AND balance >= ?",
                (credits, key_hash, credits),
            ).rowcount
            remaining = self._db.execute(
                "SELECT balance FROM accounts WHERE key_hash = ?", (key_hash,)
            ).fetchone()
            if changed == 1:
                self._db.execute(
                    "INSERT INTO charges (key_hash, operation, credits, request_id, at) "
                    "VALUES (?, ?, ?, ?, ?)",
                    (key_hash, operation, credits, request_id, time.time()),
                )
                if remember is not None:
                    self._remember(*remember)
        return Charge(ok=changed == 1, remaining=int(remaining[0]) if remaining else 0)

    def charges_for(self, key_hash: str) -> list[tuple[str, int]]:
        """(operation, credits) of every charge of this account, oldest first."""
        with self._lock:
            rows = self._db.execute(
                "SELECT operation, credits FROM charges WHERE key_hash = ? ORDER BY id",
                (key_hash,),
            ).fetchall()
        return [(op, int(credits)) for op, credits in rows]

    # --- provider requests ----------------------------------------------------

    def add_provider_request(
        self, name: str, url: str | None, email: str | None, remember: tuple[str, str, str] | None
    ) -> str | StoredReply:
        """Store a coverage request; returns its ``preq_`` id, or the earlier reply to the
        same Idempotency-Key (looked up in the same transaction: never stored twice)."""
        request_id = "preq_" + secrets.token_hex(8)
        with self._transaction():
            if remember is not None:
                earlier = self._recall_in_transaction(remember[0], remember[1])
                if earlier is not None:
                    return earlier
            self._db.execute(
                "INSERT INTO provider_requests VALUES (?, ?, ?, ?, ?)",
                (request_id, name, url, email, time.time()),
            )
            if remember is not None:
                self._remember(*remember, {"ok": True, "id": request_id})
        return request_id

    def provider_request(self, request_id: str) -> dict[str, Any] | None:
        """A stored coverage request by id."""
        with self._lock:
            row = self._db.execute(
                "SELECT id, name, url, email FROM provider_requests WHERE id = ?", (request_id,)
            ).fetchone()
        if row is None:
            return None
        return {"id": row[0], "name": row[1], "url": row[2], "email": row[3]}

    # --- idempotency ----------------------------------------------------------

    def recall(self, scope: str, idempotency_key: str) -> StoredReply | None:
        """The reply stored under this key in the last 24 hours, if any."""
        with self._lock:
            return self._recall_in_transaction(scope, idempotency_key)

    def _recall_in_transaction(self, scope: str, idempotency_key: str) -> StoredReply | None:
        row = self._db.execute(
            "SELECT fingerprint, body FROM idempotent_replies "
            "WHERE scope = ? AND idempotency_key = ? AND created_at > ?",
            (scope, idempotency_key, time.time() - IDEMPOTENCY_TTL_S),
        ).fetchone()
        return StoredReply(row[0], json.loads(row[1])) if row else None

    def _balance_in_transaction(self, key_hash: str) -> int:
        row = self._db.execute(
            "SELECT balance FROM accounts WHERE key_hash = ?", (key_hash,)
        ).fetchone()
        return int(row[0]) if row else 0

    def _remember(self, scope: str, key: str, fingerprint: str, body: dict[str, Any]) -> None:
        self._db.execute(
            "INSERT OR REPLACE INTO idempotent_replies VALUES (?, ?, ?, ?, ?)",
            (scope, key, fingerprint, json.dumps(body), time.time()),
        )


class _Transaction:
    """``BEGIN IMMEDIATE`` ... ``COMMIT`` (or ``ROLLBACK``) under the store's lock."""

    def __init__(self, db: sqlite3.Connection, lock: threading.Lock) -> None:
        self._db = db
        self._lock = lock

    def __enter__(self) -> None:
        self._lock.acquire()
        try:
            self._db.execute("BEGIN IMMEDIATE")
        except BaseException:
            self._lock.release()
            raise

    def __exit__(self, exc_type: object, exc: object, tb: object) -> None:
        try:
            self._db.execute("ROLLBACK" if exc_type else "COMMIT")
        finally:
            self._lock.release()
