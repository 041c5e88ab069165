"""Full garbage collections while the user is away, never in the middle of a key.

Why: after a journey the explorer holds 150-350 thousand objects the cyclic collector
tracks (Textual keeps every line it drew as a ``Strip``, each with seven small caches),
and CPython starts a full collection, which walks all of them, whenever enough young
objects have survived: 100-300 ms of CPU here, charged to whichever key's work
allocated the object that tipped it. That was the "one cached revisit in five takes
150-700 ms" (found with ``benchmarks/revisit_tmux.py --probe``: a generation-2
collection inside every slow revisit). So, while the explorer runs:

- CPython's own full collections are off; one runs once no key, click or paste has
  come for :data:`IDLE_AFTER` seconds and the young generations have been collected
  as often as would have made CPython consider one (:data:`DUE_AFTER`), or past
  :data:`OVERDUE_AFTER` whatever the user is doing;
- what survives a collection is set aside (``gc.freeze``), so the next one walks only
  what was made since (40-160 ms of a busy minute's objects here, not the whole
  session's; measured with ``benchmarks/revisit_tmux.py --probe``). Garbage
  among the set-aside objects (a screen closed since) waits for a deep collection,
  which puts them back first: after :data:`DEEP_IDLE_AFTER` seconds away, or at the
  first pause after :data:`DEEP_AFTER` light ones (a benchmark's constant typing met a
  single overdue collection of 750,000 objects, a second long);
- the young generations stay automatic (a few milliseconds each).

Everything is put back as it was when the app closes (tests run many apps in one
process).
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable

IDLE_AFTER = 0.5  # seconds without input before a light full collection may run
DEEP_IDLE_AFTER = 5.0  # seconds without input before a deep one may
CHECK_EVERY = 0.25  # seconds between looks
DUE_AFTER = 10  # generation-1 collections since the last full one (CPython's own threshold)
OVERDUE_AFTER = 40  # ... past this, collect even while the user types
DEEP_AFTER = 20  # light collections since the last deep one: deep at the next pause
NEVER = 1 << 30  # a generation-2 threshold CPython never reaches


class IdleCollector:
    """Runs the full collections of one explorer; ``noticed_input`` on every key, click
    and paste, ``tick`` every :data:`CHECK_EVERY` seconds."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._last_input = clock()
        self._thresholds: tuple[int, int, int] | None = None
        self._froze = False
        self._lights = 0  # light collections since the last deep one
        self.full_collections = 0
        """Full collections this collector ran, light and deep (for tests)."""
        self.deep_collections = 0

    @property
    def running(self) -> bool:
        return self._thresholds is not None

    def start(self) -> None:
        """Take over full collections from CPython."""
        if self._thresholds is None:
            self._thresholds = gc.get_threshold()
            gc.set_threshold(self._thresholds[0], self._thresholds[1], NEVER)

    def stop(self) -> None:
        """Give them back, with every object the collector was told to skip."""
        if self._thresholds is not None:
            gc.set_threshold(*self._thresholds)
            self._thresholds = None
        if self._froze:
            gc.unfreeze()
            self._froze = False

    def noticed_input(self) -> None:
        self._last_input = self._clock()

    def tick(self) -> None:
        """Collect if one is due and the user is away, or overdue."""
        if self._thresholds is None:
            return
        young_since = gc.get_count()[2]  # generation-1 collections since the last full one
        quiet = self._clock() - self._last_input
        if quiet >= IDLE_AFTER and (
            not self._froze  # the first quiet moment: start-up is set aside
            or (self._lights and quiet >= DEEP_IDLE_AFTER) or self._lights >= DEEP_AFTER
        ):
            self.collect(deep=True)
        elif (quiet >= IDLE_AFTER and young_since >= DUE_AFTER) or young_since >= OVERDUE_AFTER:
            self.collect(deep=False)

    def collect(self, *, deep: bool) -> None:
        """A full collection of what was made since the last one (``deep``: of everything),
        then what survives is set aside."""
        if deep:
            gc.unfreeze()
        gc.collect()
        gc.freeze()
        self._froze = True
        self.full_collections += 1
        if deep:
            self.deep_collections += 1
            self._lights = 0
        else:
            self._lights += 1
