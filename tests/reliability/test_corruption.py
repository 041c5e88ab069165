"""Corruption: a damaged cache or ledger is set aside (``.corrupt-<timestamp>``)
and rebuilt with a visible warning; never a crash, and lifetime totals that were
still readable are carried over, never silently lost."""

from __future__ import annotations

import sqlite3
import stat
from pathlib import Path

from reliability_support import run_cli

from creditscope.client.cache import CACHE_FORMAT, DATABASE_NAME, ResponseCache
from creditscope.client.ledger import CreditLedger
from creditscope.client.records import CallRecord


def _record(ledger: CreditLedger, credits: int) -> None:
    ledger.record(CallRecord("restaurants/menu", "GET", "u", {}, status=200,
                             credits_charged=credits))


def test_a_ledger_that_is_not_a_database_is_set_aside_with_a_warning(tmp_path: Path) -> None:
    path = tmp_path / "ledger.sqlite3"
    path.write_bytes(b"this is not SQLite at all" * 100)
    ledger = CreditLedger(path)
    assert len(ledger.warnings) == 1 and "damaged" in ledger.warnings[0]
    assert "start again from zero" in ledger.warnings[0]  # said, not silent
    set_aside = list(tmp_path.glob("ledger.sqlite3.corrupt-*"))
    assert len(set_aside) == 1 and set_aside[0].read_bytes().startswith(b"this is not")
    _record(ledger, 5)
    assert ledger.lifetime_totals().spent == 5
    ledger.close()


def test_readable_lifetime_totals_survive_a_damaged_ledger(tmp_path: Path) -> None:
    path = tmp_path / "ledger.sqlite3"
    ledger = CreditLedger(path)
    for credits in (2, 3, 5, 10):
        _record(ledger, credits)
    ledger.close()
    # Damage the index only: the calls table stays readable, the integrity check fails.
    db = sqlite3.connect(path)
    db.execute("PRAGMA journal_mode=DELETE")
    page_size = db.execute("PRAGMA page_size").fetchone()[0]
    root = db.execute("SELECT rootpage FROM sqlite_master WHERE name='calls_session'").fetchone()[0]
    db.close()
    with path.open("r+b") as handle:
        handle.seek((root - 1) * page_size)
        handle.write(b"\x0d" + b"\xff" * 64)
    rebuilt = CreditLedger(path)
    assert rebuilt.warnings and "4 recorded calls were readable" in rebuilt.warnings[0]
    assert rebuilt.lifetime_totals().spent == 20
    rebuilt.close()


def test_a_damaged_cache_is_set_aside_and_starts_empty(tmp_path: Path) -> None:
    directory = tmp_path / "cache" / "v1"
    cache = ResponseCache(directory)
    cache.set("k", operation="catalog", params={}, body="{}", status=200, headers={}, ttl=60)
    cache.close()
    (directory / DATABASE_NAME).write_bytes(b"\x00garbage" * 512)
    reopened = ResponseCache(directory)
    [moved] = list((tmp_path / "cache").glob("v1.corrupt-*"))
    assert reopened.warnings == [
        "The response cache was damaged (file is not a database); it was moved to"
        f" {moved} and a new empty cache was started. Answers will be fetched (and charged)"
        " again."]
    assert (moved / DATABASE_NAME).read_bytes().startswith(b"\x00garbage")
    assert stat.S_IMODE(directory.stat().st_mode) == 0o700  # the new one is private too
    assert reopened.get("k") is None
    reopened.set("k", operation="catalog", params={}, body="{}", status=200, headers={}, ttl=60)
    assert reopened.get("k") is not None
    reopened.close()


def test_the_cli_prints_the_warning_and_still_works(isolated_dirs: dict[str, Path]) -> None:
    ledger = isolated_dirs["data"] / "creditscope" / "sandbox-ledger.sqlite3"
    ledger.parent.mkdir(parents=True)
    ledger.write_bytes(b"corrupt" * 200)
    cache_db = isolated_dirs["cache"] / "creditscope" / CACHE_FORMAT / DATABASE_NAME
    cache_db.parent.mkdir(parents=True)
    cache_db.write_bytes(b"corrupt" * 200)
    result = run_cli(["call", "restaurants/search", "--location", "Lisbon", "--json"])
    assert result.exit_code == 0, result.stderr
    assert "warning: The credit ledger" in result.stderr
    assert "warning: The response cache was damaged" in result.stderr
    assert "Traceback" not in result.stderr
    credits = run_cli(["credits", "--json"])
    assert credits.exit_code == 0 and '"spent": 2' in credits.stdout
    assert "warning" not in credits.stderr  # rebuilt once, healthy since


def test_a_cache_whose_index_is_damaged_is_set_aside_naming_the_check(tmp_path: Path) -> None:
    """The file opens and its table reads, but SQLite's integrity check fails: set
    aside like any damage, the warning saying what the check found."""
    directory = tmp_path / "cache" / "v2"
    cache = ResponseCache(directory)
    for n in range(50):
        cache.set(f"k{n}", operation="catalog", params={}, body="{}", status=200,
                  headers={}, ttl=60)
    cache.close()
    db = sqlite3.connect(directory / DATABASE_NAME)
    db.execute("PRAGMA journal_mode=DELETE")  # everything into the one file
    page_size = db.execute("PRAGMA page_size").fetchone()[0]
    root = db.execute(
        "SELECT rootpage FROM sqlite_master WHERE name='responses_recent'").fetchone()[0]
    db.close()
    with (directory / DATABASE_NAME).open("r+b") as handle:
        handle.seek((root - 1) * page_size)
        handle.write(b"\x0d" + b"\xff" * 64)
    reopened = ResponseCache(directory)
    [warning] = reopened.warnings
    found = warning.partition("integrity check failed: ")[2]
    assert found and not found.startswith(("?", "None"))  # what quick_check reported
    assert list((tmp_path / "cache").glob("v2.corrupt-*")) and reopened.get("k1") is None
    reopened.close()
