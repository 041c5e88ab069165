"""``creditscope cache stats`` and ``creditscope doctor`` state the same size for the
same cache, write-ahead log included (they once said 164 KB and 1.2 MB)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from creditscope.cli import main
from creditscope.client.cache import CACHE_FORMAT, ResponseCache, cache_key, cache_size_bytes
from creditscope.wording import byte_size


@pytest.fixture
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for name in ("CONFIG_FILE", "CACHE_DIR", "DATA_DIR"):
        monkeypatch.setenv(f"CREDITSCOPE_{name}", str(tmp_path / name.lower()))
    return tmp_path / "cache_dir" / CACHE_FORMAT


def test_cache_stats_and_doctor_state_the_same_size(cache_dir: Path) -> None:
    cache = ResponseCache(cache_dir)  # held open: recent answers are still in the WAL
    for number in range(150):
        params = {"location": f"Town {number}"}
        cache.set(cache_key("http://sandbox.invalid", "GET", "/restaurants/search", params),
                  operation="restaurants/search", params=params, body="{}" + " " * 2000,
                  status=200, headers={}, ttl=3600)
    size = cache_size_bytes(cache_dir)
    assert size > 100_000 and any(p.name.endswith("-wal") for p in cache_dir.iterdir())
    try:
        stats = CliRunner().invoke(main, ["cache", "stats"], catch_exceptions=False)
        doctor = CliRunner().invoke(main, ["doctor", "--json"], catch_exceptions=False)
    finally:
        cache.close()
    assert f"150 entries (0 stale), {byte_size(size)}" in stats.stdout
    finding = next(c for c in json.loads(doctor.stdout)["checks"] if c["name"] == "cache")
    assert finding["details"]["size_bytes"] == size
    assert f"150 responses, {byte_size(size)}," in finding["summary"]


def test_cache_stats_after_clear_is_empty_and_small(cache_dir: Path) -> None:
    cache = ResponseCache(cache_dir)
    for number in range(100):
        cache.set(f"key {number}", operation="catalog", params={}, body=os.urandom(4000).hex(),
                  status=200, headers={}, ttl=60)
    cache.close()
    assert cache_size_bytes(cache_dir) > 400 * 1024
    cleared = CliRunner().invoke(main, ["cache", "clear"], catch_exceptions=False)
    assert "Removed 100 cached responses." in cleared.stdout
    stats = CliRunner().invoke(main, ["cache", "stats"], catch_exceptions=False)
    assert "0 entries (0 stale)" in stats.stdout
    assert cache_size_bytes(cache_dir) < 100 * 1024

