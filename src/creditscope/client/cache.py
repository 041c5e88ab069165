"""The response cache: successful answers on disk, so nothing is paid for twice.

Entries live in a diskcache directory under the user cache dir with a format
version in its path. A key is base URL + method + path + canonical params, so
it never contains the API key; the stored headers are the response's, filtered
to a harmless few. Entries are kept past their TTL (marked stale) so offline
mode can still show them.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import diskcache
import platformdirs

from creditscope.private_files import private_database, private_directory

CACHE_FORMAT = "v1"  # bump when the stored entry shape changes

# Response headers worth keeping with a cached body; nothing that could identify the caller.
KEPT_HEADERS = frozenset(
    {"content-type", "x-request-id", "x-credits-charged", "x-credits-remaining", "date", "etag"}
)


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
    """``<user cache dir>/creditscope/v1``."""
    return Path(platformdirs.user_cache_dir("creditscope")) / CACHE_FORMAT


def cache_key(base_url: str, method: str, path: str, params: Mapping[str, Any]) -> str:
    """The cache key of a request: canonical, sorted, and free of any credential."""
    canonical = json.dumps(dict(params), sort_keys=True, separators=(",", ":"), default=str)
    return f"{base_url.rstrip('/')} {method.upper()} {path} {canonical}"


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


def _check_integrity(database: Path) -> None:
    """Raise ``sqlite3.DatabaseError`` unless SQLite's quick check finds ``database`` sound.

    A connection of its own: diskcache keeps its connection private."""
    with contextlib.closing(sqlite3.connect(database)) as connection:
        row = connection.execute("PRAGMA quick_check").fetchone()
    if row is None or row[0] != "ok":
        raise sqlite3.DatabaseError(f"integrity check failed: {row[0] if row else '?'}")


class ResponseCache:
    """Successful responses on disk, keyed by ``cache_key``."""

    def __init__(self, directory: Path | None = None) -> None:
        self.directory = Path(directory) if directory is not None else default_cache_directory()
        self.warnings: list[str] = []  # shown by the explorer and printed by the CLI
        private_directory(self.directory)
        try:
            self._store = self._open()
        except (sqlite3.Error, OSError) as exc:
            # A damaged cache only costs re-fetching: set it aside and start empty.
            moved = set_aside(self.directory)
            private_directory(self.directory)
            self._store = self._open()
            self.warnings.append(
                f"The response cache was damaged ({exc}); it was moved to {moved} and a new"
                " empty cache was started. Answers will be fetched (and charged) again."
            )

    def _open(self) -> diskcache.Cache:
        database = private_database(self.directory / "cache.db")  # 0700 dir, 0600 file
        # Values up to 16 MiB stay inside that database rather than in separate files.
        store = diskcache.Cache(str(self.directory), disk_min_file_size=2**24)
        try:
            # Opening succeeds on some damage; reading the index is what fails.
            store.get("creditscope-probe")
            _check_integrity(database)
        except BaseException:
            store.close()
            raise
        return store

    def get(self, key: str) -> CachedEntry | None:
        """The entry for ``key``, stale or not; None when absent or unreadable."""
        try:
            raw = self._store.get(key)
        except Exception:  # a damaged value file or row (unpickling can raise anything): a miss
            return None
        if not isinstance(raw, dict):
            return None
        try:
            return CachedEntry(**raw)
        except TypeError:
            return None  # written by an incompatible build; treat as a miss

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
        try:
            self._store.set(key, entry.__dict__, tag=operation)
        except (sqlite3.Error, OSError) as exc:
            # The answer was paid for and is shown; only re-use is lost.
            message = f"Could not write to the response cache: {exc}"
            if message not in self.warnings:
                self.warnings.append(message)
        return entry

    def delete(self, key: str) -> bool:
        """Drop one entry; True if it existed."""
        return bool(self._store.delete(key))

    def entries(self) -> list[CachedEntry]:
        """Every readable entry, in no particular order."""
        found: list[CachedEntry] = []
        for key in list(self._store.iterkeys()):
            entry = self.get(key)
            if entry is not None:
                found.append(entry)
        return found

    def recent(
        self, operation: str, limit: int = 20, prefix: str | None = None
    ) -> list[CachedEntry]:
        """Cached answers for ``operation``, newest first (the "recent lookups" list).

        ``prefix`` keeps only keys starting with it, e.g. one service's base URL.
        """
        matching = [
            e for e in self.entries()
            if e.operation == operation and (prefix is None or e.key.startswith(prefix))
        ]
        matching.sort(key=lambda e: e.stored_at, reverse=True)
        return matching[:limit]

    def stats(self) -> CacheStats:
        """Entry count, size on disk and entries per operation."""
        entries = self.entries()
        by_operation: dict[str, int] = {}
        for entry in entries:
            by_operation[entry.operation] = by_operation.get(entry.operation, 0) + 1
        return CacheStats(
            directory=self.directory,
            entries=len(entries),
            size_bytes=int(self._store.volume()),
            by_operation=dict(sorted(by_operation.items())),
            stale=sum(1 for e in entries if e.is_stale),
        )

    def clear(self) -> int:
        """Remove every entry; returns how many were removed."""
        return int(self._store.clear())

    def close(self) -> None:
        """Release the on-disk handles."""
        self._store.close()
