"""The response cache's store: answers kept past their TTL as stale, the recent list
newest first, stats and size from one place, private files, and nothing unpickled."""

from __future__ import annotations

import pickle
import sqlite3
import stat
import threading
import time
import zlib
from collections.abc import Iterator
from datetime import date
from pathlib import Path

import pytest

from creditscope.client.cache import (
    CACHE_FORMAT,
    DATABASE_NAME,
    ResponseCache,
    cache_key,
    cache_size_bytes,
    default_cache_directory,
    set_aside,
)

BASE = "http://sandbox.invalid"


def _store(cache: ResponseCache, operation: str, params: dict[str, object], ttl: int = 3600,
           base: str = BASE) -> str:
    key = cache_key(base, "GET", "/" + operation, params)
    cache.set(key, operation=operation, params=params, body='{"results": ["Café"]}',
              status=200, headers={"Content-Type": "application/json", "X-Secret": "no"},
              ttl=ttl)
    return key


@pytest.fixture
def cache(tmp_path: Path) -> Iterator[ResponseCache]:
    opened = ResponseCache(tmp_path / "cache" / CACHE_FORMAT)
    yield opened
    opened.close()


def test_an_answer_comes_back_as_stored_and_turns_stale_without_going(
    cache: ResponseCache,
) -> None:
    fresh = _store(cache, "restaurants/search", {"location": "Lisbon", "limit": 10})
    expired = _store(cache, "restaurants/search", {"location": "Porto"}, ttl=-1)
    entry = cache.get(fresh)
    assert entry is not None and not entry.is_stale
    assert entry.body == '{"results": ["Café"]}' and entry.status == 200
    assert entry.params == {"location": "Lisbon", "limit": 10}
    assert entry.headers == {"content-type": "application/json"}  # nothing else kept
    stale = cache.get(expired)
    assert stale is not None and stale.is_stale  # kept for offline mode
    assert cache.get(cache_key(BASE, "GET", "/restaurants/search", {"location": "Oslo"})) is None


def test_recent_is_newest_first_per_operation_and_service(cache: ResponseCache) -> None:
    for city in ("Lisbon", "Porto", "Oslo"):
        _store(cache, "restaurants/search", {"location": city})
    _store(cache, "restaurants/search", {"location": "Rome"}, base="http://live.example")
    _store(cache, "professional_network/find_company", {"name": "Acme"})
    recent = cache.recent("restaurants/search", limit=2, prefix=f"{BASE} ")
    assert [entry.params["location"] for entry in recent] == ["Oslo", "Porto"]
    assert len(cache.recent("restaurants/search")) == 4


def test_stats_count_per_operation_and_stale(cache: ResponseCache) -> None:
    _store(cache, "restaurants/search", {"location": "Lisbon"})
    _store(cache, "restaurants/search", {"location": "Porto"}, ttl=-1)
    _store(cache, "catalog", {})
    found = cache.stats()
    assert (found.entries, found.stale) == (3, 1)
    assert found.by_operation == {"catalog": 1, "restaurants/search": 2}
    assert found.size_bytes == cache_size_bytes(cache.directory) > 0


def test_delete_and_clear_remove_entries_and_clear_gives_the_space_back(
    cache: ResponseCache,
) -> None:
    keys = [_store(cache, "restaurants/search", {"location": f"City {n}"}) for n in range(300)]
    assert cache.delete(keys[0]) and not cache.delete(keys[0])
    full = cache_size_bytes(cache.directory)
    assert cache.clear() == 299
    assert cache.entries() == [] and cache.stats().entries == 0
    assert cache_size_bytes(cache.directory) < full / 4


def test_the_size_counts_the_write_ahead_log(cache: ResponseCache) -> None:
    _store(cache, "catalog", {})
    files = {p.name: p.stat().st_size for p in cache.directory.iterdir()}
    assert f"{DATABASE_NAME}-wal" in files  # where the last answers are until a checkpoint
    assert cache_size_bytes(cache.directory) == sum(files.values())


def test_files_are_private(tmp_path: Path) -> None:
    cache = ResponseCache(tmp_path / "fresh" / CACHE_FORMAT)
    _store(cache, "catalog", {})
    assert stat.S_IMODE(cache.directory.stat().st_mode) == 0o700
    for path in cache.directory.iterdir():
        assert stat.S_IMODE(path.stat().st_mode) == 0o600, path
    cache.close()


def test_a_damaged_row_is_a_miss_and_the_rest_still_read(cache: ResponseCache) -> None:
    good = _store(cache, "catalog", {})
    bad = _store(cache, "restaurants/search", {"location": "Lisbon"})
    worse = _store(cache, "restaurants/search", {"location": "Porto"})
    with sqlite3.connect(cache.directory / DATABASE_NAME) as db:
        db.execute("UPDATE responses SET body = ? WHERE key = ?", (b"not zlib", bad))
        db.execute("UPDATE responses SET status = 'x', params = '[1]' WHERE key = ?", (worse,))
    assert cache.get(bad) is None and cache.get(worse) is None
    assert [entry.key for entry in cache.entries()] == [good]


class _Bomb:
    """Unpickling this would leave a file behind: proof that a pickle was loaded."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple[object, tuple[str, str]]:
        return (open, (str(self.marker), "w"))


def test_an_earlier_formats_pickles_beside_it_are_never_loaded(tmp_path: Path) -> None:
    marker = tmp_path / "unpickled"
    directory = tmp_path / "cache" / CACHE_FORMAT
    directory.mkdir(parents=True)
    # A v1 (diskcache) index with a pickled value, in the very directory handed over.
    with sqlite3.connect(directory / "cache.db") as db:
        db.execute("CREATE TABLE Cache (key BLOB, value BLOB)")
        db.execute("INSERT INTO Cache VALUES (?, ?)", (b"k", pickle.dumps(_Bomb(marker))))
    cache = ResponseCache(directory)
    assert cache.warnings == [] and cache.entries() == []
    _store(cache, "catalog", {})
    assert len(cache.entries()) == 1
    cache.close()
    assert not marker.exists()


def test_the_cache_key_is_stable_across_versions_and_argument_order() -> None:
    """Keys are how answers cached by an earlier run are found again: the same request,
    its parameters in any order and the base URL with or without its slash, is one key,
    spelled as earlier versions spelled it (a new spelling would re-buy every answer)."""
    key = cache_key("https://api.example.test/", "get", "/restaurants/search",
                    {"location": "Lisbon", "limit": 10})
    assert key == ('https://api.example.test GET /restaurants/search'
                   ' {"limit":10,"location":"Lisbon"}')
    assert key == cache_key("https://api.example.test", "GET", "/restaurants/search",
                            {"limit": 10, "location": "Lisbon"})
    # Only the slash goes: a base URL ending in any other character keeps it.
    assert cache_key("https://api.example.test/v1X/", "GET", "/catalog", {}).startswith(
        "https://api.example.test/v1X GET /catalog")


def test_a_damaged_rows_every_column_is_checked_on_its_own(cache: ResponseCache) -> None:
    """Params or headers that decode but are not objects, a body stored as text, a body
    that is not UTF-8 and a time that is not a number are each a miss."""
    keys = {name: _store(cache, "restaurants/search", {"location": name})
            for name in ("params", "headers", "text body", "latin-1 body", "time")}
    damage = {"params": ("params", "[1]"), "headers": ("headers", '["x"]'),
              "text body": ("body", "plain text"),
              "latin-1 body": ("body", zlib.compress("Café".encode("latin-1"))),
              "time": ("stored_at", "yesterday")}
    with sqlite3.connect(cache.directory / DATABASE_NAME) as db:
        for name, (column, value) in damage.items():
            db.execute(f"UPDATE responses SET {column} = ? WHERE key = ?", (value, keys[name]))
    assert [name for name, key in keys.items() if cache.get(key) is not None] == []
    kept = _store(cache, "catalog", {})
    [entry] = cache.entries()
    assert (entry.key, entry.operation, entry.status) == (kept, "catalog", 200)
    assert entry.expires_at == pytest.approx(entry.stored_at + 3600)
    assert entry.stored_at == pytest.approx(time.time(), abs=60)


def test_a_cache_that_cannot_be_written_says_so_once_and_still_answers(
    cache: ResponseCache,
) -> None:
    cache._db.execute("PRAGMA query_only = ON")  # as a read-only file or a full disk would
    entries = [cache.set(f"k{n}", operation="catalog", params={"n": n}, body="{}", status=200,
                         headers={"X-Request-Id": "req_1", "Cookie": "no"}, ttl=60)
               for n in range(2)]
    assert cache.warnings == [
        "Could not write to the response cache: attempt to write a readonly database"]
    assert entries[1].params == {"n": 1} and entries[1].headers == {"x-request-id": "req_1"}
    assert (entries[1].key, entries[1].operation, entries[1].body, entries[1].status) == (
        "k1", "catalog", "{}", 200)  # what the explorer shows is the answer as received
    assert cache.get("k0") is None  # the answer was shown; only its re-use is lost


def test_an_answer_is_kept_while_another_process_writes_the_cache_for_seconds(
    cache: ResponseCache,
) -> None:
    """A `creditscope batch` in another terminal holds the write lock a while: the answer
    this process paid for waits its turn (up to 10 s) instead of being lost, and charged
    again on the next visit. (SQLite's own default would give up after 5 s.)"""
    other = sqlite3.connect(cache.directory / DATABASE_NAME, isolation_level=None,
                            check_same_thread=False)
    other.execute("BEGIN IMMEDIATE")
    done = threading.Timer(5.5, other.execute, ("COMMIT",))
    done.start()
    try:
        key = _store(cache, "catalog", {})
    finally:
        done.join()
        other.close()
    assert cache.warnings == [] and cache.get(key) is not None


def test_recent_lists_twenty_by_default_and_stats_name_their_directory(
    cache: ResponseCache,
) -> None:
    for n in range(25):
        _store(cache, "restaurants/search", {"location": f"City {n}"})
    assert len(cache.recent("restaurants/search")) == 20
    assert cache.stats().directory == cache.directory


def test_the_size_counts_side_files_even_when_the_log_is_absent(tmp_path: Path) -> None:
    (tmp_path / DATABASE_NAME).write_bytes(b"d" * 100)
    (tmp_path / f"{DATABASE_NAME}-shm").write_bytes(b"s" * 30)  # no -wal beside it
    (tmp_path / f"{DATABASE_NAME}-journal").write_bytes(b"j" * 7)
    assert cache_size_bytes(tmp_path) == 137


def test_the_default_cache_lives_in_the_users_cache_directory(
    isolated_dirs: dict[str, Path],
) -> None:
    assert default_cache_directory() == isolated_dirs["cache"] / "creditscope" / CACHE_FORMAT
    cache = ResponseCache()
    assert cache.directory == default_cache_directory() and cache.directory.is_dir()
    cache.close()


def test_a_damaged_file_is_set_aside_under_a_utc_stamp_and_none_is_overwritten(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Three corruptions in one second keep three copies, numbered after the first."""
    moment = time.struct_time((2026, 11, 27, 21, 5, 9, 4, 331, 0))
    monkeypatch.setattr(time, "gmtime", lambda *_: moment)
    moved: list[Path] = []
    for n in range(3):
        damaged = tmp_path / CACHE_FORMAT
        damaged.write_text(f"copy {n}")
        # In a thread: a search for a free name that never ends fails here, not hangs.
        worker = threading.Thread(target=lambda path=damaged: moved.append(set_aside(path)),
                                  daemon=True)
        worker.start()
        worker.join(5)
        assert not worker.is_alive() and not damaged.exists()
    assert [path.name for path in moved] == [
        f"{CACHE_FORMAT}.corrupt-20261127T210509", f"{CACHE_FORMAT}.corrupt-20261127T210509-1",
        f"{CACHE_FORMAT}.corrupt-20261127T210509-2"]
    assert [path.read_text() for path in moved] == ["copy 0", "copy 1", "copy 2"]


def test_storing_a_key_again_replaces_its_answer_and_odd_params_are_kept_as_text(
    cache: ResponseCache,
) -> None:
    key = cache_key(BASE, "GET", "/restaurants/search", {"when": date(2026, 11, 27)})
    assert key.endswith('{"when":"2026-11-27"}')  # a value JSON lacks is its text
    for body in ('{"results": []}', '{"results": ["Tasca"]}'):
        cache.set(key, operation="restaurants/search", params={"when": date(2026, 11, 27)},
                  body=body, status=200, headers={}, ttl=60)
    entry = cache.get(key)
    assert entry is not None and entry.body == '{"results": ["Tasca"]}'
    assert entry.params == {"when": "2026-11-27"} and len(cache.entries()) == 1


def test_a_table_lost_after_opening_reads_as_empty(cache: ResponseCache) -> None:
    key = _store(cache, "catalog", {})
    with sqlite3.connect(cache.directory / DATABASE_NAME) as db:
        db.execute("DROP TABLE responses")
    assert cache.get(key) is None and cache.entries() == []
    assert cache.recent("catalog") == [] and cache.stats().entries == 0


def test_the_cache_answers_from_another_thread(cache: ResponseCache) -> None:
    """The explorer reads it on its loop and clears it in a worker thread."""
    key = _store(cache, "catalog", {})
    found: list[object] = []
    worker = threading.Thread(target=lambda: found.append(cache.get(key)))
    worker.start()
    worker.join(10)
    assert [getattr(entry, "key", None) for entry in found] == [key]
    assert cache.clear() == 1
