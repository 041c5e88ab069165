"""Reading the ledger's rows for Usage: from its SQLite file, or from a session in memory.

Kept apart from :mod:`creditscope.client.usage` so the figures stay a pure function
of the rows.
"""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime

from creditscope.client.usage import UsageRow

_SELECT = ("SELECT at, operation, status, cache, credits_charged, credits_saved, error_code,"
           " attempts, match_grade FROM calls WHERE at >= ? AND session LIKE ?"
           " AND (? IS NULL OR account = ?) ORDER BY id")


def _utc(text: str) -> datetime:
    moment = datetime.fromisoformat(text)
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def rows_in_file(db: sqlite3.Connection, since: datetime | None = None,
                 session: str | None = None, account: str | None = None) -> list[UsageRow]:
    """Every row of the ledger file from ``since`` on (all when None), oldest first; of
    one ``session`` and one ``account`` only, when given.

    ``at`` is written in UTC ISO form (``CallRecord.started_at``), so comparing the text
    selects by time, and 100,000 rows from years past are never read for two weeks."""
    start = "" if since is None else since.astimezone(UTC).isoformat()
    return [
        UsageRow(_utc(at), operation, status, cache, int(charged), int(saved), error_code,
                 attempts, grade)
        for at, operation, status, cache, charged, saved, error_code, attempts, grade
        in db.execute(_SELECT, (start, "%" if session is None else session, account, account))
    ]
