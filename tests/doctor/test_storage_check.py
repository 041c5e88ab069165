"""Doctor's cache finding: an earlier version's cache directory (v1, diskcache's
pickles) is noted with its path to delete, and never opened or removed."""

from __future__ import annotations

from pathlib import Path

from creditscope.client.cache import CACHE_FORMAT, ResponseCache
from creditscope.doctor.storage_check import check_cache
from creditscope.settings import Settings


def test_an_earlier_formats_cache_is_noted_and_left_alone(tmp_path: Path) -> None:
    settings = Settings(cache_dir=tmp_path / "cache", data_dir=tmp_path / "data",
                        config_file=tmp_path / "config.toml")
    earlier = settings.cache_dir / "v1"
    earlier.mkdir(parents=True)
    (earlier / "cache.db").write_bytes(b"diskcache pickles" * 100)
    ResponseCache(settings.cache_dir / CACHE_FORMAT).close()
    found = check_cache(settings)
    assert found.status == "note" and "earlier version's cache" in found.summary
    assert found.fix == f"Delete it to free the space: {earlier}"
    assert (earlier / "cache.db").read_bytes() == b"diskcache pickles" * 100
