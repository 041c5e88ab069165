"""The response cache's store: answers kept past their TTL as stale, the recent list
newest first, stats and size from one place, private files, and nothing unpickled."""

from __future__ import annotations

import pickle
import sqlite3
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from creditscope.client.cache import (
    CACHE_FORMAT,
    DATABASE_NAME,
    ResponseCache,
    cache_key,
    cache_size_bytes,
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
