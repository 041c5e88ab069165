"""A batch's distinct requests and what each came to, in a temporary SQLite file.

A batch must remember every distinct request (to send each once and to write
each input line's result), but not in memory: 100,000 rows would hold 100,000
parameter sets and answers. ``RequestIndex`` keeps them on disk (a private
temporary file, removed on ``close``) with a small page cache, so a batch's
memory does not grow with its rows. Of an answer only the key fields an output
row shows are kept (``Outcome.fields``), never the answer itself.
"""

from __future__ import annotations

import json
import os
import sqlite3
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

_PAGE = 256  # requests read at a time
_SCHEMA = """
CREATE TABLE requests (
    id INTEGER PRIMARY KEY,     -- insertion order: the order of first appearance
    key TEXT NOT NULL UNIQUE,   -- batch_plan.request_key: one per distinct request
    params TEXT NOT NULL,       -- the canonical parameters, JSON
    first_line INTEGER NOT NULL,
    rows INTEGER NOT NULL DEFAULT 1,
    cost INTEGER NOT NULL DEFAULT 0,
    status TEXT,                -- NULL until it has an outcome
    credits INTEGER NOT NULL DEFAULT 0,
    possibly_charged INTEGER NOT NULL DEFAULT 0,  -- its answer was lost after it left
    cache TEXT NOT NULL DEFAULT '',
    error TEXT NOT NULL DEFAULT '',
    fields TEXT                 -- the answer's key fields, JSON
)
"""
_COLUMNS = ("id, key, params, first_line, rows, cost, status, credits, cache, error, fields,"
            " possibly_charged")


@dataclass
class Outcome:
    """What one distinct request came to: only what an output row shows."""

    status: str  # "ok" or "error"
    credits: int = 0
    cache: str = ""  # the CallRecord's cache state: hit, stale, miss, ...
    error: str = ""
    fields: dict[str, Any] = field(default_factory=dict)  # the answer's key fields
    possibly_charged: int = 0  # the answer was lost after the request left: maybe charged


@dataclass(frozen=True)
class UniqueRequest:
    """One distinct request of the batch, the rows that asked for it, and its outcome."""

    id: int
    key: str
    params: dict[str, Any]  # canonical, as validated
    first_line: int
    rows: int = 1
    cost: int = 0  # credits it would spend now: 0 when a fresh cached answer exists
    outcome: Outcome | None = None


class RequestIndex:
    """The distinct requests of one batch, on disk; ``close`` removes the file."""

    def __init__(self) -> None:
        handle, name = tempfile.mkstemp(prefix="creditscope-batch-", suffix=".sqlite3")
        os.close(handle)  # mkstemp made it 0600: customers' names stay private
        self._path = Path(name)
        # Autocommit; ``bulk`` groups the planning pass's writes in one transaction.
        self._db = sqlite3.connect(name, isolation_level=None)
        for pragma in ("journal_mode = OFF", "synchronous = OFF", "cache_size = -2048",
                       "temp_store = FILE"):
            self._db.execute(f"PRAGMA {pragma}")
        self._db.execute(_SCHEMA)

    def close(self) -> None:
        self._db.close()
        self._path.unlink(missing_ok=True)

    def begin(self) -> None:
        """Start one transaction for many writes (``commit`` ends it)."""
        self._db.execute("BEGIN")

    def commit(self) -> None:
        self._db.execute("COMMIT")

    def add(self, key: str, params: dict[str, Any], line: int) -> None:
        """Count a valid row: a new distinct request, or one more row of a known one."""
        if self._db.execute("UPDATE requests SET rows = rows + 1 WHERE key = ?",
                            (key,)).rowcount:
            return  # a duplicate: its parameters are stored already
        self._db.execute("INSERT INTO requests (key, params, first_line) VALUES (?, ?, ?)",
                         (key, json.dumps(params, ensure_ascii=False, default=str), line))

    def set_cost(self, request_id: int, cost: int) -> None:
        self._db.execute("UPDATE requests SET cost = ? WHERE id = ?", (cost, request_id))

    def finish(self, request_id: int, outcome: Outcome) -> None:
        """Keep what a request came to (its key fields only)."""
        self._db.execute(
            "UPDATE requests SET status = ?, credits = ?, cache = ?, error = ?, fields = ?, "
            "possibly_charged = ? WHERE id = ?",
            (outcome.status, outcome.credits, outcome.cache, outcome.error,
             json.dumps(outcome.fields, ensure_ascii=False, default=str),
             outcome.possibly_charged, request_id))

    def __len__(self) -> int:
        return int(self._db.execute("SELECT count(*) FROM requests").fetchone()[0])

    def totals(self) -> tuple[int, int]:
        """``(requests to send, credits they cost)``: those the cache cannot answer."""
        count, price = self._db.execute(
            "SELECT count(*), coalesce(sum(cost), 0) FROM requests WHERE cost > 0").fetchone()
        return int(count), int(price)

    def requests(self, *, pending_only: bool = False) -> Iterator[UniqueRequest]:
        """Every distinct request in order of first appearance (``pending_only``: those
        without an outcome), read a page at a time so rows may be finished meanwhile."""
        after = 0
        pending = "AND status IS NULL " if pending_only else ""
        while True:
            page = self._db.execute(
                f"SELECT {_COLUMNS} FROM requests WHERE id > ? {pending}ORDER BY id LIMIT ?",
                (after, _PAGE)).fetchall()
            if not page:
                return
            for row in page:
                yield _request(row)
            after = page[-1][0]

    def find(self, key: str) -> UniqueRequest | None:
        row = self._db.execute(f"SELECT {_COLUMNS} FROM requests WHERE key = ?",
                               (key,)).fetchone()
        return None if row is None else _request(row)


def _request(row: tuple[Any, ...]) -> UniqueRequest:
    (request_id, key, params, first_line, rows, cost, status, credits, cache, error, fields,
     possibly) = row
    outcome = None if status is None else Outcome(status, credits, cache, error,
                                                  json.loads(fields or "{}"), possibly)
    return UniqueRequest(request_id, key, json.loads(params), first_line, rows, cost, outcome)
