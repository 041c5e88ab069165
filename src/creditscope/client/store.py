"""One store: the ledger (with its history, in-flight rows, settled balances and
possible charges) and the answer cache behind one owner, on one thread of its own.

Every SQLite statement on those files, and every answer body's decompress, runs on
the store's thread (``store_thread.py``); the pipeline, the commands and the
explorer await it. So the explorer's event loop never waits on a disk or on a lock
another process holds: with a ``creditscope batch`` writing the same files, a call
waits (and says so), the screen does not. The SQL itself stays in the classes that
own what the rows mean (``CreditLedger``, ``CallHistory``, ``ResponseCache``,
``Reconciler``); this module decides where it runs.

What a key press needs to price a button (is this answer cached, and fresh until
when) is the *freshness index*: answer key -> (stored_at, expires_at), in memory.
It is loaded on the store's thread when the store opens, kept current by every
write made here, and reloaded when another process wrote the cache: SQLite's
``PRAGMA data_version`` is compared on the store's thread, at most every
``REFRESH_EVERY`` seconds, when a lookup asks. A lookup itself reads memory only.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from creditscope.client.records import CacheStatus, CallRecord
from creditscope.client.store_thread import StoreThread

if TYPE_CHECKING:
    from creditscope import operations
    from creditscope.client.cache import CachedEntry, ResponseCache
    from creditscope.client.ledger import CreditLedger
    from creditscope.client.reconcile import Reconciler
    from creditscope.client.session import Reservation

R = TypeVar("R")

# How often a lookup may have the store look for another process's writes (seconds).
REFRESH_EVERY = 0.25


class FreshnessIndex:
    """Answer key -> ``(stored_at, expires_at)``: read on any thread, written only on the
    store's (one dict assignment or replacement at a time, each atomic in Python)."""

    def __init__(self) -> None:
        self._entries: dict[str, tuple[float, float]] = {}

    def __len__(self) -> int:
        return len(self._entries)

    def status(self, *keys: str) -> CacheStatus:
        """HIT or STALE for the first of ``keys`` held (by its expiry, now), else MISS."""
        entries = self._entries
        for key in keys:
            found = entries.get(key)
            if found is not None:
                return CacheStatus.STALE if time.time() >= found[1] else CacheStatus.HIT
        return CacheStatus.MISS

    def put(self, key: str, stored_at: float, expires_at: float) -> None:
        self._entries[key] = (stored_at, expires_at)

    def drop(self, *keys: str) -> None:
        for key in keys:
            self._entries.pop(key, None)

    def replace(self, entries: dict[str, tuple[float, float]]) -> None:
        self._entries = entries


class Store:
    """The ledger and the cache, on one thread; async methods for callers on a loop.

    Build it with :meth:`opening` (the files are opened on the store's thread) or around
    objects already open (tests, which also call the sync classes directly)."""

    def __init__(self, ledger: CreditLedger, cache: ResponseCache | None,
                 thread: StoreThread | None = None) -> None:
        self.ledger = ledger
        self.cache = cache
        self.thread = thread or StoreThread()
        self.index = FreshnessIndex()
        self._version: int | None = None
        self._checked = 0.0
        self._refresh_queued = False
        if cache is not None:
            self.thread.call(self._load_index)

    @classmethod
    def opening(cls, open_ledger: Callable[[], CreditLedger],
                open_cache: Callable[[], ResponseCache | None]) -> Store:
        """Open the ledger and the cache on a new store thread (a blocking call: made from
        the thread that builds the client, never from an event loop)."""
        thread = StoreThread()
        ledger = thread.call(open_ledger)
        cache = thread.call(open_cache)
        return cls(ledger, cache, thread)

    # --- running work on the store's thread -------------------------------------------

    async def run(self, work: Callable[..., R], *args: Any) -> R:
        """Run ``work(*args)`` (which may touch the ledger or cache) on the store's thread."""
        return await self.thread.run(work, *args)

    def call(self, work: Callable[..., R], *args: Any) -> R:
        """``run``, blocking: for a thread that is not an event loop's (a command, before
        or after its loop). Once the store is closed (its queue ran dry first) the work
        runs on the caller's thread: nothing else uses the files then."""
        if self.thread.closed:
            return work(*args)
        return self.thread.call(work, *args)

    def busy_for(self) -> float:
        """Seconds the store's current job has waited so far (a lock held elsewhere)."""
        return self.thread.busy_for()

    async def aclose(self, *, close_files: bool = False) -> None:
        """Let every queued job finish, then end the thread. The files stay open unless
        ``close_files`` (tests read a ledger after its client closed)."""
        if self.thread.closed:
            return
        await self.run(self._close_files if close_files else lambda: None)
        self.thread.close()

    def close(self) -> None:
        """Close the files on the store's thread, then end it (a command done with them,
        from its own thread after its loop, never from an event loop)."""
        self.call(self._close_files)
        self.thread.close()

    def _close_files(self) -> None:
        self.ledger.close()
        if self.cache is not None:
            self.cache.close()

    # --- prices without I/O -------------------------------------------------------------

    def freshness(self, *keys: str) -> CacheStatus:
        """HIT, STALE or MISS for an answer stored under the first of ``keys``, from
        memory; asks the store to look for other processes' writes now and then."""
        if self.cache is None:
            return CacheStatus.NONE
        if not (self._refresh_queued or self.thread.closed) and \
                time.monotonic() - self._checked >= REFRESH_EVERY:
            self._refresh_queued = True
            self.thread.submit(self._refresh_if_changed)
        return self.index.status(*keys)

    def _load_index(self) -> None:
        assert self.cache is not None
        self._version = self.cache.data_version()
        self.index.replace(self.cache.freshness())
        self._checked = time.monotonic()

    def _refresh_if_changed(self) -> None:
        """On the store's thread: reload the index if another connection wrote the file."""
        try:
            if self.cache is not None and self.cache.data_version() != self._version:
                self._load_index()
        finally:
            self._checked = time.monotonic()
            self._refresh_queued = False

    # --- the answer cache -----------------------------------------------------------------

    async def answer(self, base_url: str, op: operations.Operation[Any],
                     clean: dict[str, Any]) -> CachedEntry | None:
        """The stored answer to this request, stale or not, body decompressed (on the
        store's thread); the index learns what the file says of it."""
        return await self.run(self._answer, base_url, op, clean)

    def _answer(self, base_url: str, op: operations.Operation[Any],
                clean: dict[str, Any]) -> CachedEntry | None:
        from creditscope.client.answer_store import stored_entry

        entry = stored_entry(self.cache, base_url, op, clean)
        if entry is not None:
            self.index.put(entry.key, entry.stored_at, entry.expires_at)
        return entry

    async def keep_answer(self, key: str, *, operation: str, params: Mapping[str, Any],
                          body: str, status: int, headers: Mapping[str, str],
                          ttl: int) -> None:
        """Store a successful answer; the index has it as soon as the file does."""
        await self.run(self._keep_answer, key, operation, params, body, status, headers, ttl)

    def _keep_answer(self, key: str, operation: str, params: Mapping[str, Any], body: str,
                     status: int, headers: Mapping[str, str], ttl: int) -> None:
        assert self.cache is not None
        problems = len(self.cache.warnings)
        entry = self.cache.set(key, operation=operation, params=params, body=body,
                               status=status, headers=headers, ttl=ttl)
        if len(self.cache.warnings) == problems:  # written: a price may now say cached
            self.index.put(key, entry.stored_at, entry.expires_at)

    async def recent(self, operation: str, limit: int, prefix: str) -> list[dict[str, Any]]:
        """Params of the newest cached answers to ``operation`` under ``prefix``."""
        def read() -> list[dict[str, Any]]:
            assert self.cache is not None
            return [e.params for e in self.cache.recent(operation, limit=limit, prefix=prefix)]
        return await self.run(read) if self.cache is not None else []

    async def clear_cache(self) -> int:
        """Empty the cache (and the index); how many answers were removed."""
        def clear() -> int:
            assert self.cache is not None
            removed = self.cache.clear()
            self.index.replace({})
            return removed
        return await self.run(clear) if self.cache is not None else 0

    # --- the ledger -----------------------------------------------------------------------

    async def record(self, rec: CallRecord, reservation: Reservation | None = None) -> None:
        """Add one call to the session and the ledger file (subscribers are told)."""
        await self.run(self.ledger.record, rec, reservation)

    def record_soon(self, rec: CallRecord) -> None:
        """Queue a free call's record (a cache hit shown at once): written after every
        job before it, subscribers told once it is."""
        self.thread.submit(self.ledger.record, rec)

    def hold_possible(self, account: str, operation: str, credits: int) -> None:
        """Queue a possible charge (an answer lost after the request left); later jobs,
        the exchange's record and reconciliation among them, see it."""
        self.thread.submit(self.ledger.hold_possible, account, operation, credits)

    async def flight_started(self, reconciler: Reconciler, abandon_after: float,
                             operation: str, credits: int) -> int | None:
        """An exchange is about to leave: its in-flight row, for other processes to see."""
        return await self.run(reconciler.started, abandon_after, operation, credits)

    async def flight_finished(self, reconciler: Reconciler, rec: CallRecord | None,
                              token: int | None) -> CallRecord | None:
        """An exchange ended: its row goes, and reconciliation runs as a store job when
        the account is quiet (see ``reconcile``); returns an unexplained entry it found."""
        return await self.run(reconciler.finished, rec, token)
