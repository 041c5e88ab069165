"""The response cache: successful answers on disk, so nothing is paid for twice.

Entries are rows of one SQLite table (``responses.sqlite3`` in a directory under
the user cache dir with a format version in its path), the same stdlib SQLite the
ledger uses: plain columns, params and headers as JSON text and the body as
zlib-compressed UTF-8, so reading the cache never unpickles anything, and "recent
lookups" and the stats are indexed queries rather than a scan of every entry
(``benchmarks/cache_storage.py`` measures this against the diskcache store it
replaced). A key is base URL + method + path + canonical
params, so it never contains the API key; the stored headers are the response's,
filtered to a harmless few. Entries are kept past their TTL (marked stale) so
offline mode can still show them: that is why expiry is a column compared here and
not a store's own eviction.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
import zlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import platformdirs

from creditscope.private_files import private_database, private_directory

# Bump when the stored shape changes: a new format lives in a new directory, so an
# older build's cache (v1 was diskcache's pickles) is never opened, let alone unpickled.
CACHE_FORMAT = "v2"
DATABASE_NAME = "responses.sqlite3"
# The database's own files: what the cache occupies on disk.
_DATABASE_FILES = (DATABASE_NAME, *(DATABASE_NAME + s for s in ("-wal", "-shm", "-journal")))

# Response headers worth keeping with a cached body; nothing that could identify the caller.
KEPT_HEADERS = frozenset(
    {"content-type", "x-request-id", "x-credits-charged", "x-credits-remaining", "date", "etag"}
)

_SCHEMA = """
CREATE TABLE IF NOT EXISTS responses (
    key TEXT PRIMARY KEY,
    operation TEXT NOT NULL,
    params TEXT NOT NULL,
    body BLOB NOT NULL,
    status INTEGER NOT NULL,
    headers TEXT NOT NULL,
    stored_at REAL NOT NULL,
    expires_at REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS responses_recent ON responses (operation, stored_at);
"""
_COLUMNS = "key, operation, params, body, status, headers, stored_at, expires_at"


def set_aside(path: Path) -> Path:
    """Rename a damaged file or directory to ``<name>.corrupt-<timestamp>``; returns where."""
    stamp = time.strftime("%Y%m%dT%H%M%S", time.gmtime())
    target = path.with_name(f"{path.name}.corrupt-{stamp}")
    counter = 1
    while target.exists():  # two corruptions in one second: keep both
        target = path.with_name(f"{path.name}.corrupt-{stamp}-{counter}")
        counter += 1
    path.rename(target)
    return target


def default_cache_directory() -> Path:
    """``<user cache dir>/creditscope/<format>``."""
    return Path(platformdirs.user_cache_dir("creditscope")) / CACHE_FORMAT


def cache_key(base_url: str, method: str, path: str, params: Mapping[str, Any]) -> str:
    """The cache key of a request: canonical, sorted, and free of any credential."""
    canonical = json.dumps(dict(params), sort_keys=True, separators=(",", ":"), default=str)
    return f"{base_url.rstrip('/')} {method.upper()} {path} {canonical}"


def cache_size_bytes(directory: Path) -> int:
    """Bytes the cache in ``directory`` occupies: its database with the WAL and side files.

    The one measure of the cache's size: ``cache stats`` and ``doctor`` both print it.
    Reads file sizes only, so it opens nothing and works on a damaged cache too.
    """
    total = 0
    for name in _DATABASE_FILES:
        try:
            total += os.stat(Path(directory) / name).st_size
        except OSError:
            continue  # absent (no WAL yet) or unreadable: nothing to count
    return total


@dataclass
class CachedEntry:
    """One cached successful response."""

    key: str
    operation: str
    params: dict[str, Any]
    body: str
    status: int
    headers: dict[str, str]
    stored_at: float  # epoch seconds
    expires_at: float

    @property
    def is_stale(self) -> bool:
        """True once the entry has outlived its TTL."""
        return time.time() >= self.expires_at


@dataclass
class CacheStats:
    """How big the cache is, overall and per operation."""

    directory: Path
    entries: int
    size_bytes: int
    by_operation: dict[str, int] = field(default_factory=dict)
    stale: int = 0


def _packed(body: str) -> bytes:
    """A body as stored: UTF-8, zlib level 1 (JSON shrinks to about a third, for ~10 µs)."""
    return zlib.compress(body.encode(), 1)


def _entry(row: tuple[Any, ...]) -> CachedEntry | None:
    """The entry of a row; None when a column does not decode (a damaged row is a miss)."""
    key, operation, params, body, status, headers, stored_at, expires_at = row
    try:
        decoded_params, decoded_headers = json.loads(params), json.loads(headers)
        entry = CachedEntry(str(key), str(operation), decoded_params,
                            zlib.decompress(body).decode(), int(status), decoded_headers,
                            float(stored_at), float(expires_at))
    except (TypeError, ValueError, zlib.error):  # UnicodeDecodeError is a ValueError
        return None
    if not isinstance(decoded_params, dict) or not isinstance(decoded_headers, dict):
        return None
    return entry


def _open_database(directory: Path) -> sqlite3.Connection:
    """Open (or create) the cache's database and check it is sound; raises if not."""
    path = private_database(directory / DATABASE_NAME)  # 0700 dir, 0600 file
    # Shared by the event loop and worker threads (``clear`` runs in one): a lock guards it.
    db = sqlite3.connect(str(path), check_same_thread=False, timeout=10)
    try:
        # WAL: the explorer and a `creditscope call` in another terminal share the cache.
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=NORMAL")  # a crash may lose the last answers, no more
        db.executescript(_SCHEMA)
        check = db.execute("PRAGMA quick_check").fetchone()
        if check is None or check[0] != "ok":
            raise sqlite3.DatabaseError(f"integrity check failed: {check[0] if check else '?'}")
    except BaseException:
        db.close()
        raise
    return db


class ResponseCache:
    """Successful responses on disk, keyed by ``cache_key``."""

    def __init__(self, directory: Path | None = None) -> None:
        self.directory = Path(directory) if directory is not None else default_cache_directory()
        self.warnings: list[str] = []  # shown by the explorer and printed by the CLI
        self._lock = threading.Lock()
        private_directory(self.directory)
        try:
            self._db = _open_database(self.directory)
        except (sqlite3.Error, OSError) as exc:
            # A damaged cache only costs re-fetching: set it aside and start empty.
            moved = set_aside(self.directory)
            private_directory(self.directory)
            self._db = _open_database(self.directory)
            self.warnings.append(
                f"The response cache was damaged ({exc}); it was moved to {moved} and a new"
                " empty cache was started. Answers will be fetched (and charged) again."
            )

    def _rows(self, sql: str, args: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        """The rows of one query; none when it fails (damaged since opening: a miss)."""
        with self._lock:
            try:
                return self._db.execute(sql, args).fetchall()
            except sqlite3.Error:
                return []

    def _found(self, sql: str, args: tuple[Any, ...] = ()) -> list[CachedEntry]:
        return [entry for entry in map(_entry, self._rows(sql, args)) if entry is not None]

    def get(self, key: str) -> CachedEntry | None:
        """The entry for ``key``, stale or not; None when absent or unreadable."""
        found = self._found(f"SELECT {_COLUMNS} FROM responses WHERE key = ?", (key,))
        return found[0] if found else None

    def set(
        self,
        key: str,
        *,
        operation: str,
        params: Mapping[str, Any],
        body: str,
        status: int,
        headers: Mapping[str, str],
        ttl: int,
    ) -> CachedEntry:
        """Store a successful response for ``ttl`` seconds (kept afterwards as stale)."""
        now = time.time()
        entry = CachedEntry(
            key=key,
            operation=operation,
            params=dict(params),
            body=body,
            status=status,
            headers={k.lower(): v for k, v in headers.items() if k.lower() in KEPT_HEADERS},
            stored_at=now,
            expires_at=now + ttl,
        )
        row = (key, operation, json.dumps(entry.params, default=str), _packed(body), status,
               json.dumps(entry.headers), entry.stored_at, entry.expires_at)
        try:
            with self._lock, self._db:
                self._db.execute(
                    f"INSERT OR REPLACE INTO responses ({_COLUMNS}) VALUES (?,?,?,?,?,?,?,?)", row
                )
        except sqlite3.Error as exc:
            # The answer was paid for and is shown; only re-use is lost.
            message = f"Could not write to the response cache: {exc}"
            if message not in self.warnings:
                self.warnings.append(message)
        return entry

    def freshness(self) -> dict[str, tuple[float, float]]:
        """Every entry's key with its ``(stored_at, expires_at)``: what a price needs to know,
        read without a body (the store's in-memory index is loaded from this)."""
        return {str(key): (float(stored), float(expires)) for key, stored, expires in
                self._rows("SELECT key, stored_at, expires_at FROM responses")}

    def data_version(self) -> int | None:
        """SQLite's ``PRAGMA data_version``: it changes when another connection (another
        process) commits to the file. None when the file cannot be read."""
        rows = self._rows("PRAGMA data_version")
        return int(rows[0][0]) if rows else None

    def _change(self, sql: str, args: tuple[Any, ...] = ()) -> int:
        """Run one DELETE; how many rows it removed."""
        with self._lock, self._db:
            return self._db.execute(sql, args).rowcount

    def delete(self, key: str) -> bool:
        """Drop one entry; True if it existed."""
        return self._change("DELETE FROM responses WHERE key = ?", (key,)) > 0

    def entries(self) -> list[CachedEntry]:
        """Every readable entry, in no particular order."""
        return self._found(f"SELECT {_COLUMNS} FROM responses")

    def recent(
        self, operation: str, limit: int = 20, prefix: str | None = None
    ) -> list[CachedEntry]:
        """Cached answers for ``operation``, newest first (the "recent lookups" list).

        ``prefix`` keeps only keys starting with it, e.g. one service's base URL.
        """
        return self._found(
            f"SELECT {_COLUMNS} FROM responses WHERE operation = ?1"
            " AND (?2 IS NULL OR substr(key, 1, length(?2)) = ?2)"
            " ORDER BY stored_at DESC LIMIT ?3",
            (operation, prefix, limit),
        )

    def stats(self) -> CacheStats:
        """Entry count, size on disk and entries per operation."""
        rows = self._rows(
            "SELECT operation, COUNT(*), SUM(expires_at <= ?) FROM responses"
            " GROUP BY operation ORDER BY operation", (time.time(),)
        )
        by_operation = {str(name): int(count) for name, count, _ in rows}
        stale = sum(int(expired or 0) for _, _, expired in rows)
        return CacheStats(
            directory=self.directory,
            entries=sum(by_operation.values()),
            size_bytes=cache_size_bytes(self.directory),
            by_operation=by_operation,
            stale=stale,
        )

    def clear(self) -> int:
        """Remove every entry and give the space back; returns how many were removed."""
        removed = self._change("DELETE FROM responses")
        with self._lock:
            try:  # another process reading right now keeps the space until next time
                self._db.execute("VACUUM")
                self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            except sqlite3.Error:
                pass
        return removed

    def close(self) -> None:
        """Release the on-disk handles."""
        with self._lock:
            self._db.close()
