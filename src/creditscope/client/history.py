"""The history: every session's calls, searchable, from the ledger's own file.

Each ledger row (``ledger_file.py``) also keeps, for the history, the call's
method and parameters (the operation's own fields only: the key travels in a
header, and a name the operation does not accept is dropped, so a key typed as
a parameter never lands here), a ticket label, and ``search``: one lower-case,
accent-free line of words (operation, parameters, outcome, status, cache, label,
date) that a search matches word-prefix by word-prefix with ``LIKE``. Headers and
bodies are never stored; an answer is reopened from the cache.

Pages come newest first (``ORDER BY id DESC LIMIT``) with the indexes on ``at``
and ``label``. Retention (``prune``) empties the history columns of rows older
than the setting: the row itself stays, so lifetime totals never change.
"""

from __future__ import annotations

import json
import re
import sqlite3
import threading
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from creditscope.client.records import OVERSTATED, UNEXPLAINED, CallRecord
from creditscope.text_folding import fold_case

DEFAULT_PAGE = 200
MAX_LABEL = 80
# Errors raised before anything was sent (free): a call the client refused.
REFUSED_CODES = frozenset({"invalid_parameter", "unknown_operation", "offline_miss",
                           "missing_api_key", "budget_exceeded"})
_NOT_WORD = re.compile(r"[\W_]+")
_SELECT = ("SELECT id, session, at, operation, method, params, status, cache, credits_charged,"
           " credits_saved, error_code, remaining, label FROM calls")


def words(text: str) -> str:
    """``"Zürich-West #4821"`` -> ``"zurich west 4821"``: how the history compares text."""
    return " ".join(_NOT_WORD.sub(" ", fold_case(text)).split())


def params_text(params: dict[str, Any]) -> str:
    """``location=Paris cuisine=thai``: the parameters on one line."""
    return " ".join(f"{name}={value}" for name, value in params.items()
                    if value not in (None, ""))


def clean_label(text: str | None) -> str | None:
    """A ticket label as kept (trimmed; blank: none); ValueError for one that cannot be."""
    label = (text or "").strip()
    if len(label) > MAX_LABEL:
        raise ValueError(f"a label is at most {MAX_LABEL} characters (a ticket number or name)")
    if any(not ch.isprintable() for ch in label):
        raise ValueError("a label is one line of text, without control characters")
    return label or None


def outcome(operation: str, status: int | None, error_code: str | None) -> str:
    """``ok``, ``error``, ``refused`` (never sent, free) or ``unexplained``."""
    if operation in (UNEXPLAINED, OVERSTATED):  # balance differences, not calls
        return "unexplained"
    if error_code is None and (status is None or status < 400):
        return "ok"
    return "refused" if status is None and error_code in REFUSED_CODES else "error"


def kept_params(operation: str, params: dict[str, Any]) -> dict[str, Any]:
    """The parameters the history keeps: the operation's own fields that have a value."""
    from creditscope.client.errors import InvalidRequest
    from creditscope.client.validation import accepted_fields  # pydantic: not at import

    try:
        accepted = set(accepted_fields(operation))
    except InvalidRequest:  # not an operation of the table (an unexplained difference)
        return {}
    return {name: value for name, value in params.items()
            if name in accepted and value not in (None, "")}


@dataclass(frozen=True)
class HistoryEntry:
    """One past call as the history keeps it (no headers, no body, never the key)."""

    id: int
    session: str
    at: datetime
    operation: str
    method: str
    params: dict[str, Any]
    status: int | None
    cache: str
    credits_charged: int
    credits_saved: int
    error_code: str | None
    remaining: int | None
    label: str | None

    @property
    def outcome(self) -> str:
        """``ok``, ``error``, ``refused`` or ``unexplained``."""
        return outcome(self.operation, self.status, self.error_code)

    @property
    def can_reopen(self) -> bool:
        """A call of the operation table (not a balance difference)."""
        from creditscope import operations  # pydantic: not at import

        return self.operation in operations.BY_NAME

    def as_json(self) -> dict[str, Any]:
        """The entry as ``history --json`` prints it."""
        return {"id": self.id, "session": self.session, "at": self.at.isoformat(),
                "operation": self.operation, "method": self.method, "params": self.params,
                "status": self.status, "outcome": self.outcome, "cache": self.cache,
                "credits_charged": self.credits_charged, "credits_saved": self.credits_saved,
                "error_code": self.error_code, "remaining": self.remaining,
                "label": self.label}


def search_text(entry: HistoryEntry) -> str:
    """The ``search`` column: every word a search may name, with a space before each."""
    date = entry.at.astimezone().strftime("%Y-%m-%d")
    parts = [entry.operation, entry.method, entry.outcome, str(entry.status or ""),
             entry.error_code or "", entry.cache, entry.label or "", date]
    parts += [f"{name} {value}" for name, value in entry.params.items()]
    return f" {words(' '.join(parts))} "


def entry_of(rec: CallRecord, session: str, history_id: int = 0) -> HistoryEntry:
    """``rec`` as the history keeps it."""
    return HistoryEntry(
        history_id, session, rec.started_at, rec.operation, rec.method,
        kept_params(rec.operation, rec.params), rec.status, str(rec.cache),
        rec.credits_charged, rec.credits_saved, rec.error_code, rec.remaining, rec.label)


def ledger_row(rec: CallRecord, session: str) -> tuple[object, ...]:
    """The values of ``ledger_file.INSERT`` for ``rec``."""
    entry = entry_of(rec, session)
    return (session, rec.started_at.isoformat(), rec.operation, rec.status, str(rec.cache),
            rec.credits_charged, rec.credits_saved, rec.error_code, rec.remaining, rec.account,
            rec.method, json.dumps(entry.params, ensure_ascii=False, default=str),
            search_text(entry), rec.label, rec.attempts, rec.match_grade)


@dataclass(frozen=True)
class HistoryQuery:
    """Which past calls to list: all of ``search``'s words, a label, a date range."""

    search: str = ""
    label: str | None = None
    since: datetime | None = None
    before_id: int | None = None  # the next page: rows older than this one
    exclude_session: str | None = None  # e.g. this session, listed from memory
    limit: int = DEFAULT_PAGE

    def terms(self) -> list[str]:
        """Each whitespace-separated part of the search, as words (``2026-11-25`` stays one)."""
        return [found for part in self.search.split() if (found := words(part))]

    def matches(self, entry: HistoryEntry) -> bool:
        """The same test as :meth:`CallHistory.find`, for calls held in memory."""
        text = search_text(entry)
        return (all(f" {term}" in text for term in self.terms())
                and (self.label is None or (entry.label or "").lower() == self.label.lower())
                and (self.since is None or entry.at >= self.since))

    def where(self) -> tuple[str, list[object]]:
        """The SQL condition and its arguments."""
        clauses, args = ["params IS NOT NULL"], list[object]()
        for term in self.terms():
            clauses.append(r"search LIKE ? ESCAPE '\'")
            args.append("% " + term.replace("\\", "\\\\").replace("%", r"\%")
                        .replace("_", r"\_") + "%")
        if self.label is not None:
            clauses.append("label = ? COLLATE NOCASE")
            args.append(self.label)
        if self.since is not None:
            clauses.append("at >= ?")
            args.append(self.since.astimezone(UTC).isoformat())
        if self.before_id is not None:
            clauses.append("id < ?")
            args.append(self.before_id)
        if self.exclude_session is not None:
            clauses.append("session != ?")
            args.append(self.exclude_session)
        return " AND ".join(clauses), args


class CallHistory:
    """Past calls in the ledger's database.

    ``only_session``: the calls of that session alone are seen, and labels are not
    written (a ``creditscope web`` tab: a visitor sees and changes nothing of the
    presenter's history)."""

    def __init__(self, db: sqlite3.Connection, lock: threading.RLock,
                 only_session: str | None = None) -> None:
        self._db = db
        self._lock = lock
        self._only_session = only_session

    def _where(self, where: str, args: list[object]) -> tuple[str, list[object]]:
        if self._only_session is None:
            return where, args
        return f"{where} AND session = ?", [*args, self._only_session]

    def find(self, query: HistoryQuery) -> list[HistoryEntry]:
        """Matching calls, newest first, at most ``query.limit``."""
        where, args = self._where(*query.where())
        with self._lock:
            rows = self._db.execute(f"{_SELECT} WHERE {where} ORDER BY id DESC LIMIT ?",
                                    (*args, query.limit)).fetchall()
        return [_entry(row) for row in rows]

    def get(self, history_id: int) -> HistoryEntry | None:
        """One call by its id, if the history still holds it."""
        where, args = self._where("id = ? AND params IS NOT NULL", [history_id])
        with self._lock:
            row = self._db.execute(f"{_SELECT} WHERE {where}", args).fetchone()
        return _entry(row) if row else None

    def set_label(self, history_id: int, label: str | None) -> HistoryEntry | None:
        """Give call ``history_id`` the ticket ``label`` (None or blank removes it); returns
        the call as now kept, or None when it is not in the history or the file refused."""
        entry = self.get(history_id)
        if entry is None or self._only_session is not None:
            return None
        label = clean_label(label)
        labelled = HistoryEntry(**{**entry.__dict__, "label": label})
        with self._lock:
            try:
                self._db.execute("UPDATE calls SET label = ?, search = ? WHERE id = ?",
                                 (label, search_text(labelled), history_id))
                self._db.commit()
            except sqlite3.Error:  # locked or read-only: the label is not kept
                self._db.rollback()
                return None
        return labelled

    def prune(self, days: int, now: datetime | None = None) -> int:
        """Forget the parameters and labels of calls older than ``days`` (their costs stay
        in the totals); returns how many calls left the history."""
        if self._only_session is not None:
            return 0
        cutoff = (now or datetime.now(UTC)) - timedelta(days=days)
        with self._lock:
            try:
                cursor = self._db.execute(
                    "UPDATE calls SET method = NULL, params = NULL, search = NULL, label = NULL"
                    " WHERE at < ? AND params IS NOT NULL",
                    (cutoff.astimezone(UTC).isoformat(),))
                self._db.commit()
            except sqlite3.Error:  # locked by another process or read-only: next start
                self._db.rollback()
                return 0
        return cursor.rowcount


def _entry(row: tuple[Any, ...]) -> HistoryEntry:
    (ident, session, at, operation, method, params, status, cache, charged, saved, code,
     remaining, label) = row
    try:
        kept = json.loads(params)
    except (TypeError, ValueError):
        kept = {}
    return HistoryEntry(int(ident), session, datetime.fromisoformat(at), operation, method or "",
                        kept if isinstance(kept, dict) else {}, status, cache, int(charged),
                        int(saved), code, remaining, label)
