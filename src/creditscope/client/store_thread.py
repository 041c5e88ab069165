"""One thread that runs jobs one at a time, in the order they were given.

The store's thread (``store.py``): every SQLite statement on the ledger and cache
files runs here, so a lock held by another process (a ``creditscope batch``
writing the same files) makes a job wait, never the caller's event loop. Jobs
keep their order, so a write submitted before a read is seen by it, and a job
once submitted runs even when the caller who awaited it is cancelled (a record
of a paid call is never dropped).

The thread is a daemon and ends when its owner is closed or garbage-collected:
a client a test forgets to close leaves no thread behind that holds the process.
"""

from __future__ import annotations

import asyncio
import queue
import threading
import time
import weakref
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any, TypeVar

R = TypeVar("R")

_Job = tuple[Callable[[], Any], "Future[Any]"]


def _serve(jobs: queue.SimpleQueue[_Job | None], busy: list[float]) -> None:
    """The thread's loop: run each job, hand its result or exception to its future."""
    while True:
        job = jobs.get()
        if job is None:
            return
        work, future = job
        if not future.set_running_or_notify_cancel():
            continue
        busy[0] = time.monotonic()
        try:
            future.set_result(work())
        except BaseException as exc:  # handed to whoever awaits it
            future.set_exception(exc)
        finally:
            busy[0] = 0.0


class StoreThread:
    """A single worker thread with an async face (``run``) and a blocking one (``call``)."""

    def __init__(self, name: str = "creditscope-store") -> None:
        self._jobs: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()
        # When the running job started (0: idle); a list so the thread holds no ref to self.
        self._busy = [0.0]
        self._thread = threading.Thread(target=_serve, args=(self._jobs, self._busy),
                                        name=name, daemon=True)
        self._thread.start()
        self._closed = False
        weakref.finalize(self, self._jobs.put, None)

    @property
    def ident(self) -> int | None:
        """The thread's id (tests check that SQLite runs on it alone)."""
        return self._thread.ident

    def on_thread(self) -> bool:
        """True when called from the store's own thread."""
        return threading.get_ident() == self._thread.ident

    def busy_for(self) -> float:
        """Seconds the running job has taken so far (0 when idle): a long one waits on a
        lock another process holds."""
        started = self._busy[0]
        return time.monotonic() - started if started else 0.0

    def submit(self, work: Callable[..., R], *args: Any) -> Future[R]:
        """Queue ``work(*args)``; it runs after every job queued before it."""
        future: Future[R] = Future()
        if self._closed:
            raise RuntimeError("the store is closed")
        self._jobs.put((lambda: work(*args), future))
        return future

    def call(self, work: Callable[..., R], *args: Any) -> R:
        """Run ``work(*args)`` on the store's thread and wait for it (from a thread that is
        not an event loop's: building a client, a command before its loop). On the store's
        own thread it simply runs."""
        if self.on_thread():
            return work(*args)
        return self.submit(work, *args).result()

    async def run(self, work: Callable[..., R], *args: Any) -> R:
        """Run ``work(*args)`` on the store's thread; the event loop waits for nothing.
        The job runs whatever happens to the awaiting task (shielded)."""
        if self.on_thread():
            return work(*args)
        return await asyncio.shield(asyncio.wrap_future(self.submit(work, *args)))

    @property
    def closed(self) -> bool:
        """True once ``close`` was called."""
        return self._closed

    def close(self) -> None:
        """Finish the queued jobs, then end the thread (later submits are refused)."""
        if not self._closed:
            self._closed = True
            self._jobs.put(None)

    def join(self, timeout: float | None = None) -> None:
        """Wait for the thread to end (after ``close``)."""
        if not self.on_thread():
            self._thread.join(timeout)
