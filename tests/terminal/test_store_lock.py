"""A cached revisit does not wait for a file another process holds (issue 35).

Another process (here this test, as a ``creditscope batch`` writing would) holds the
write locks of the explorer's ledger and cache. The installed explorer, in a
pseudo-terminal, still shows a cached search at once: its answer is read on the
store's thread (readers never wait in WAL), and its free record waits there for the
lock, with a "Saving…" note, not on the screen's event loop. Once the lock goes, the
record is written: nothing is lost. Before the store, the revisit's ledger write ran
on the loop and the whole explorer froze until the lock was released.
"""

from __future__ import annotations

import re
import sqlite3
import time
from pathlib import Path

import pytest

from creditscope.client.cache import CACHE_FORMAT, DATABASE_NAME
from creditscope.settings import Settings
from creditscope.wiring import ledger_path
from terminal_harness import ENTER, Terminal

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("terminal")]

HELD_S = 6.0  # the lock is held longer than any revisit may take
SHOWN_WITHIN_MS = 1500.0  # a loaded machine's slowest revisit, far below the hold


def search(term: Terminal, city: str) -> str:
    """A paid search for ``city``; its summary line ("10 restaurants near Lisbon, PT")."""
    term.fill_place(city, "Search · 2 cr")
    term.send(ENTER)
    found = term.wait_for(rf"\d+ restaurants near {city}[^·\n]*", timeout=30)
    term.settle()
    return found.group(0).strip()


def hold_write_lock(path: Path) -> sqlite3.Connection:
    """Take ``path``'s write lock, as a writer in another process does, until committed."""
    db = sqlite3.connect(str(path), timeout=5, isolation_level=None)
    db.execute("BEGIN IMMEDIATE")
    return db


def test_a_cached_revisit_shows_while_another_process_holds_the_files(
    terminal: Terminal,
) -> None:
    env = terminal.env
    settings = Settings(data_dir=Path(env["CREDITSCOPE_DATA_DIR"]),
                        cache_dir=Path(env["CREDITSCOPE_CACHE_DIR"]),
                        config_file=Path(env["CREDITSCOPE_CONFIG_FILE"]))
    terminal.press_escape()
    terminal.send(b"3")
    terminal.wait_for(r"Type a city", timeout=15)
    lisbon = search(terminal, "Lisbon")
    search(terminal, "Paris")  # the screen now shows Paris: Lisbon's summary is gone
    place = lisbon.split("near ")[1]
    terminal.fill_place(place, "Search · cached · free")

    held = [hold_write_lock(ledger_path(settings)),
            hold_write_lock(settings.cache_dir / CACHE_FORMAT / DATABASE_NAME)]
    locked_at = time.monotonic()
    try:
        took = terminal.timed(ENTER, re.escape(lisbon), timeout=HELD_S - 2)
        terminal.wait_for(r"Saving…", timeout=HELD_S - 1 - (time.monotonic() - locked_at))
        assert time.monotonic() - locked_at < HELD_S  # all of it while the lock was held
    finally:
        for db in held:
            db.commit()
            db.close()
    assert took < SHOWN_WITHIN_MS

    terminal.settle()
    terminal.quit()
    hits = [call for call in terminal.cli("history")
            if call["cache"] == "hit" and call["params"].get("location") == place]
    assert len(hits) == 1  # the revisit's record waited for the lock, and was written
