"""Nothing on the explorer's event loop opens SQLite or decompresses an answer (issue 35).

A cached revisit reads its answer on the store's thread; typing in a field whose
button shows a price asks the store's in-memory freshness index. The app is the one
``creditscope`` builds (``wiring.explorer_client`` through the test factory), its
ledger and cache real SQLite files; every SQLite statement and every
``zlib.decompress`` is noted with the thread that ran it.
"""

from __future__ import annotations

import sqlite3
import threading
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from textual.widgets import Input

from creditscope.client.records import CacheStatus
from creditscope.tui.app import CreditscopeApp
from creditscope.tui.widgets.price_button import PriceButton
from pilot_support import settle

from .conftest import SIZE

KEY_NAMES = {" ": "space", ",": "comma"}


@dataclass
class ThreadLog:
    """What touched SQLite or decompressed a body, and on which thread, while watching."""

    watching: bool = False
    seen: list[tuple[int, str]] = field(default_factory=list)

    def note(self, what: str) -> None:
        if self.watching:
            self.seen.append((threading.get_ident(), what))

    def on(self, thread: int) -> list[str]:
        return [what for ident, what in self.seen if ident == thread]

    def off(self, thread: int) -> list[str]:
        return [what for ident, what in self.seen if ident != thread]


@pytest.fixture
def thread_log(monkeypatch: pytest.MonkeyPatch) -> Iterator[ThreadLog]:
    """Every connection made from now on notes each statement it runs; every
    ``zlib.decompress`` is noted too."""
    log = ThreadLog()

    def noted(name: str) -> Callable[..., Any]:
        def method(self: sqlite3.Connection, *args: Any, **kwargs: Any) -> Any:
            log.note(f"sqlite {name} {str(args[0])[:60] if args else ''}")
            return getattr(sqlite3.Connection, name)(self, *args, **kwargs)
        return method

    watched = type("WatchedConnection", (sqlite3.Connection,), {
        name: noted(name) for name in
        ("execute", "executemany", "executescript", "commit", "rollback", "cursor")})
    connect = sqlite3.connect

    def connect_watched(*args: Any, **kwargs: Any) -> sqlite3.Connection:
        log.note(f"sqlite connect {args[0] if args else ''}")
        kwargs.setdefault("factory", watched)
        return connect(*args, **kwargs)

    decompress = zlib.decompress

    def decompress_noted(*args: Any, **kwargs: Any) -> bytes:
        log.note("zlib.decompress")
        return decompress(*args, **kwargs)

    monkeypatch.setattr(sqlite3, "connect", connect_watched)
    monkeypatch.setattr(zlib, "decompress", decompress_noted)
    yield log


async def test_a_cached_revisit_and_typing_a_price_touch_no_file_on_the_loop(
    make_app: Callable[..., CreditscopeApp], thread_log: ThreadLog,
) -> None:
    app = make_app(initial_mode="restaurants")
    loop_thread = threading.get_ident()  # Pilot runs the app on the test's own loop
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        client = await app.wait_for_client()
        box = app.screen.query_one("#location", Input)
        box.focus()
        box.value = "Lisbon"
        await pilot.press("enter")  # paid: the answer is now cached
        await settle(pilot)
        spent = client.ledger.session_spent()
        assert spent > 0

        thread_log.watching = True
        box.focus()
        await pilot.press("enter")  # the revisit: served from the cache
        await settle(pilot)
        await client.store.run(lambda: None)  # its (free) record is written after it shows
        revisit = client.ledger.session_records[-1]
        assert revisit.cache is CacheStatus.HIT and client.ledger.session_spent() == spent
        typed, box.value = box.value, ""
        for character in typed:  # each key re-prices the Search button
            await pilot.press(KEY_NAMES.get(character, character))
            await pilot.pause()
        await settle(pilot)
        label = str(app.screen.query_one("#search", PriceButton).label)
        thread_log.watching = False

    assert "cached · free" in label  # the index knew, with no file read
    assert thread_log.on(loop_thread) == []
    # The watch sees what it is meant to: the revisit's answer read and recorded elsewhere.
    assert "zlib.decompress" in thread_log.off(loop_thread)
    assert any(what.startswith("sqlite") for what in thread_log.off(loop_thread))
