"""How should the response cache store its answers? Three stores, one run, same answers.

Run: ``.venv/bin/python benchmarks/cache_storage.py [--sizes 1000 10000]``

The stores, each behind the cache's own operations (set, get, the stale check,
entries, recent, stats):
- **diskcache + pickle** (the baseline): the store creditscope used until format
  v2: a diskcache ``Cache`` holding each entry as a pickled dict, expiry and scans
  done by hand (every ``recent``/``stats`` unpickles every entry);
- **diskcache + JSONDisk**: the same, with diskcache's JSON serialisation (no
  pickle on read) and the operation as diskcache's tag;
- **SQLite table** (``creditscope.client.cache.ResponseCache``, what ships): one
  row per answer, params and headers as JSON text, an index on (operation,
  stored_at), the same stdlib sqlite3 the ledger uses.

diskcache's own expiry (``expire=``) is not a candidate: an expired item is gone
(``get`` returns the default and culling deletes it), but the cache must keep
answers past their TTL, marked stale, for offline mode.

The answers are real: about a hundred sandbox calls (searches in many cities,
details, menus, reviews, company lookups, event feeds) made in-process first,
then reused with distinct keys up to N. Per store and N: total time of N sets,
N gets (each with the stale check), 20 ``recent`` calls, 5 ``stats`` and 5
``entries``, and the bytes on disk; each printed as a ratio to the baseline. Then
the import cost of each store's module in a fresh interpreter (medians of 9, taking turns).
The headline figure is the SQLite store's ``recent`` time as a share of the
baseline's at the largest N (the "recent lookups" list of the explorer).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import subprocess
import tempfile
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import diskcache
import httpx
from _common import PYTHON, print_figure

from creditscope import operations
from creditscope.client.cache import CachedEntry, ResponseCache, cache_key
from creditscope.client.client import DataClient
from creditscope.client.ledger import CreditLedger
from creditscope.sandbox import DEMO_KEY, SANDBOX_BASE_URL
from creditscope.sandbox.app import create_app
from creditscope.sandbox.config import SandboxConfig

CITIES = ("Lisbon", "Paris", "Berlin", "Tokyo", "Lima", "Oslo", "Cairo", "Austin", "Porto",
          "Madrid", "Rome", "Seoul", "Dublin", "Vienna", "Prague", "Quito")
COMPANIES = ("Acme Corp", "Globex", "Initech", "Umbrella", "Hooli", "Stark Industries",
             "Wayne Enterprises", "Soylent", "Tyrell", "Cyberdyne")
RECENT_CALLS = 20
SCANS = 5


@dataclass(frozen=True)
class Answer:
    """One cached answer as the pipeline stores it."""

    operation: str
    params: dict[str, Any]
    body: str
    status: int
    headers: dict[str, str]


class Store(Protocol):
    """What the benchmark asks of each store: the cache's own operations."""

    def set(self, key: str, *, operation: str, params: Mapping[str, Any], body: str,
            status: int, headers: Mapping[str, str], ttl: int) -> object: ...
    def get(self, key: str) -> CachedEntry | None: ...
    def entries(self) -> list[CachedEntry]: ...
    def recent(self, operation: str, limit: int = 20,
               prefix: str | None = None) -> list[CachedEntry]: ...
    def stats(self) -> object: ...
    def close(self) -> None: ...


class DiskcacheStore:
    """The store of format v1: diskcache values, expiry, recent and stats by hand.

    ``disk`` picks the serialisation: diskcache's default (pickle) or ``JSONDisk``.
    """

    def __init__(self, directory: Path, disk: type[diskcache.Disk]) -> None:
        self.directory = directory
        self._store = diskcache.Cache(str(directory), disk=disk, disk_min_file_size=2**24)

    def set(self, key: str, *, operation: str, params: Mapping[str, Any], body: str,
            status: int, headers: Mapping[str, str], ttl: int) -> CachedEntry:
        now = time.time()
        entry = CachedEntry(key, operation, dict(params), body, status, dict(headers), now,
                            now + ttl)
        self._store.set(key, entry.__dict__, tag=operation)
        return entry

    def get(self, key: str) -> CachedEntry | None:
        raw = self._store.get(key)
        return CachedEntry(**raw) if isinstance(raw, dict) else None

    def entries(self) -> list[CachedEntry]:
        found = (self.get(key) for key in list(self._store.iterkeys()))
        return [entry for entry in found if entry is not None]

    def recent(self, operation: str, limit: int = 20,
               prefix: str | None = None) -> list[CachedEntry]:
        matching = [e for e in self.entries() if e.operation == operation
                    and (prefix is None or e.key.startswith(prefix))]
        matching.sort(key=lambda e: e.stored_at, reverse=True)
        return matching[:limit]

    def stats(self) -> tuple[int, int, dict[str, int]]:
        entries = self.entries()
        by_operation: dict[str, int] = {}
        for entry in entries:
            by_operation[entry.operation] = by_operation.get(entry.operation, 0) + 1
        return len(entries), sum(e.is_stale for e in entries), by_operation

    def close(self) -> None:
        self._store.close()


def disk_bytes(directory: Path) -> int:
    """Every file under ``directory`` (a store's database, WAL and value files)."""
    return sum(p.stat().st_size for p in directory.rglob("*") if p.is_file())


async def sandbox_answers() -> list[Answer]:
    """About a hundred real answers of the in-process sandbox, as the cache stores them."""
    app = create_app(SandboxConfig(keys={DEMO_KEY: 10**9}))
    with tempfile.TemporaryDirectory() as tmp:
        cache = ResponseCache(Path(tmp) / "cache")
        client = DataClient(SANDBOX_BASE_URL, DEMO_KEY, transport=httpx.ASGITransport(app=app),
                            cache=cache, ledger=CreditLedger(None))
        async with client:
            for city in CITIES:
                found = await client.call(operations.RESTAURANT_SEARCH,
                                          {"location": city, "limit": 20})
                for listing in found.data.results[:2]:
                    for part in (operations.RESTAURANT_DETAILS, operations.RESTAURANT_MENU,
                                 operations.RESTAURANT_REVIEWS):
                        await client.call(part, {"id": listing.id})
            for name in COMPANIES:
                await client.call(operations.FIND_COMPANY, {"name": name})
            for lat, lng in ((38.7, -9.1), (48.9, 2.35), (35.7, 139.7), (40.4, -3.7)):
                await client.call(operations.EVENTS, {"lat": lat, "lng": lng})
        answers = [Answer(e.operation, e.params, e.body, e.status, e.headers)
                   for e in cache.entries()]
        cache.close()
    return answers


def timed(action: Callable[[], object]) -> float:
    """Seconds ``action`` takes."""
    started = time.perf_counter()
    action()
    return time.perf_counter() - started


def measure(store: Store, directory: Path, answers: list[Answer], count: int) -> dict[str, float]:
    """Seconds for each operation over ``count`` entries, and bytes on disk."""
    keyed = []
    for number in range(count):
        answer = answers[number % len(answers)]
        params = {**answer.params, "_n": number}  # distinct keys, realistic bodies
        keyed.append((cache_key(SANDBOX_BASE_URL, "GET", "/" + answer.operation, params),
                      answer, params))

    def set_all() -> None:
        for number, (key, answer, params) in enumerate(keyed):
            # A tenth already past its TTL, so the stale check and stats have work.
            ttl = -1 if number % 10 == 0 else 3600
            store.set(key, operation=answer.operation, params=params, body=answer.body,
                      status=answer.status, headers=answer.headers, ttl=ttl)

    def get_all() -> None:
        stale = sum(1 for key, _, _ in keyed if (entry := store.get(key)) and entry.is_stale)
        assert stale == (count + 9) // 10, stale

    operations = sorted({answer.operation for answer in answers})
    prefix = f"{SANDBOX_BASE_URL} GET "

    def recent() -> None:
        for number in range(RECENT_CALLS):
            assert store.recent(operations[number % len(operations)], 20, prefix)

    figures = {
        "set": timed(set_all),
        "get + stale check": timed(get_all),
        f"recent x{RECENT_CALLS}": timed(recent),
        f"stats x{SCANS}": timed(lambda: [store.stats() for _ in range(SCANS)]),
        f"entries x{SCANS}": timed(lambda: [store.entries() for _ in range(SCANS)]),
    }
    store.close()
    figures["bytes on disk"] = float(disk_bytes(directory))
    return figures


STORES: dict[str, Callable[[Path], Store]] = {
    "diskcache + pickle": lambda d: DiskcacheStore(d, diskcache.Disk),
    "diskcache + JSONDisk": lambda d: DiskcacheStore(d, diskcache.JSONDisk),
    "SQLite table": ResponseCache,
}
# What each store's cache module imports (v1's module: diskcache beside the same helpers).
_HELPERS = "import json, sqlite3, platformdirs, creditscope.private_files"
IMPORTS = {
    "diskcache + pickle": f"{_HELPERS}; import diskcache",
    "diskcache + JSONDisk": f"{_HELPERS}; import diskcache",
    "SQLite table": "import creditscope.client.cache",
}


def import_costs(statements: dict[str, str], runs: int = 9) -> dict[str, float]:
    """Median milliseconds a fresh interpreter spends on each statement beyond starting;
    the statements take turns, so a busy moment does not fall on one of them only."""
    samples: dict[str, list[float]] = {name: [] for name in statements}
    for _ in range(runs):
        for name, statement in statements.items():
            probe = (f"import time; t = time.perf_counter(); {statement}; "
                     "print((time.perf_counter() - t) * 1000)")
            done = subprocess.run([PYTHON, "-c", probe], capture_output=True, text=True,
                                  check=True)
            samples[name].append(float(done.stdout))
    return {name: statistics.median(values) for name, values in samples.items()}


def main() -> None:
    """Print each store's figures with their ratio to the baseline, then the headline."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000])
    sizes = parser.parse_args().sizes
    answers = asyncio.run(sandbox_answers())
    bodies = sorted(len(a.body) for a in answers)
    print(f"{len(answers)} sandbox answers, body median {bodies[len(bodies) // 2]} B,"
          f" largest {bodies[-1]} B")
    baseline = next(iter(STORES))
    headline = float("nan")
    for count in sizes:
        results: dict[str, dict[str, float]] = {}
        for name, make in STORES.items():
            with tempfile.TemporaryDirectory() as tmp:
                results[name] = measure(make(Path(tmp)), Path(tmp), answers, count)
        print(f"\nN = {count}  (seconds; bytes; ratio to {baseline})")
        for figure in results[baseline]:
            cells = []
            for name in STORES:
                value, base = results[name][figure], results[baseline][figure]
                shown = f"{value / 1024:.0f} KB" if figure == "bytes on disk" else f"{value:.3f}"
                cells.append(f"{name}: {shown} ({value / base:.2f}x)")
            print(f"  {figure:<20} " + " | ".join(cells))
        key = f"recent x{RECENT_CALLS}"
        headline = results["SQLite table"][key] / results[baseline][key]
    print("\nimport cost in a fresh interpreter (median ms):")
    costs = import_costs(IMPORTS)
    for name, statement in IMPORTS.items():
        spent = costs[name]
        print(f"  {name:<20} {spent:6.1f} ms ({spent / costs[baseline]:.2f}x)  `{statement}`")
    print_figure("sqlite_recent_vs_diskcache", headline, "<=", 0.5, digits=3)


if __name__ == "__main__":
    main()
