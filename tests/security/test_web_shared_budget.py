"""The presenter's ``budget`` holds for a whole `creditscope web` run: every tab counts
what the others spent, a visitor cannot confirm past it, and tabs pressing at once
cannot pass it together (attack report 4, item 1)."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import threading
import time
from contextlib import closing
from pathlib import Path

import aiohttp
import pytest
from web_attacker import Tab, open_tab, web_server

from creditscope import operations
from creditscope.client import errors
from creditscope.client.session import BudgetRefused, SpendSession
from creditscope.client.shared_budget import SharedBudget
from creditscope.settings import Settings
from creditscope.web_demo import WEB_DEMO_ENV, WEB_RUN_ENV
from creditscope.wiring import build_client


@pytest.fixture
def web_tab_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(WEB_DEMO_ENV, "1")
    monkeypatch.setenv(WEB_RUN_ENV, "run-1")


async def test_tabs_of_one_run_share_the_budget_and_cannot_confirm_past_it(
    tmp_path: Path, web_tab_env: None,
) -> None:
    settings = Settings(data_dir=tmp_path / "data", cache_dir=tmp_path / "cache",  # type: ignore[call-arg]
                        budget=5)
    first = build_client(settings)
    second = build_client(settings)  # another tab: another process, another session
    async with first, second:
        await first.call(operations.RESTAURANT_SEARCH, {"location": "Lisbon"})  # 2 cr
        await second.call(operations.RESTAURANT_SEARCH, {"location": "Porto"})  # 2 cr
        for client in (first, second):
            with pytest.raises(errors.BudgetExceeded) as refused:
                await client.call(operations.RESTAURANT_SEARCH, {"location": "Madrid"},
                                  confirm_over_budget=True)
            assert refused.value.shared and refused.value.spent == 4
        third = build_client(settings)  # a tab opened later starts from the run's spend
        async with third:
            with pytest.raises(errors.BudgetExceeded):
                await third.call(operations.RESTAURANT_SEARCH, {"location": "Paris"})


def test_another_run_has_its_own_budget(tmp_path: Path) -> None:
    path = tmp_path / "budgets.sqlite3"
    spent = SpendSession()
    spent.share_budget(SharedBudget(path, "run-1", spent.session_id))
    spent.reserve(5, 5, over_budget_ok=False)
    fresh = SpendSession()
    fresh.share_budget(SharedBudget(path, "run-2", fresh.session_id))
    fresh.reserve(5, 5, over_budget_ok=False)
    late = SpendSession()
    late.share_budget(SharedBudget(path, "run-1", late.session_id))
    with pytest.raises(BudgetRefused):
        late.reserve(1, 5, over_budget_ok=True)


def test_tabs_pressing_at_once_never_pass_the_budget_together(tmp_path: Path) -> None:
    path = tmp_path / "budgets.sqlite3"
    tabs = []
    for _ in range(12):
        session = SpendSession()
        session.share_budget(SharedBudget(path, "run-1", session.session_id))
        tabs.append(session)
    start = threading.Barrier(len(tabs))
    passed: list[int] = []

    def press(session: SpendSession) -> None:
        start.wait()
        try:
            session.reserve(2, 5, over_budget_ok=True)
        except BudgetRefused:
            return
        passed.append(2)

    threads = [threading.Thread(target=press, args=(tab,)) for tab in tabs]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert sum(passed) == 4  # two presses of 2 fit in 5; a third would make 6


def _ledger_spent() -> int:
    ledgers = list(Path(os.environ["XDG_DATA_HOME"]).rglob("sandbox-ledger.sqlite3"))
    if not ledgers:
        return 0
    with closing(sqlite3.connect(ledgers[0])) as db:
        return int(db.execute("SELECT COALESCE(SUM(credits_charged), 0) FROM calls")
                   .fetchone()[0])


async def _spent_reaches(credits: int, tab: Tab, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while _ledger_spent() < credits:
        assert time.monotonic() < deadline, f"spent {_ledger_spent()}, never {credits}:" \
            f" {tab.text()[-1500:]}"
        await asyncio.sleep(0.2)


@pytest.mark.slow
async def test_a_visitor_cannot_spend_past_the_presenters_budget_from_another_tab(
    tmp_path: Path,
) -> None:
    """The attacker's steps on a real server: two tabs search (2 cr each) under a 5 cr
    budget; the second then opens a place's details (2 cr more). Its dialog says the
    presenter's budget is reached and offers no way to spend; Shift+Tab, Enter (what
    pressed "Spend" before) sends nothing."""
    env = {**os.environ, "CREDITSCOPE_BUDGET": "5"}
    with web_server(tmp_path, env=env) as server:
        async with aiohttp.ClientSession(cookies=server.cookie) as session:
            first = await open_tab(session, server.base, "160x40")
            second = await open_tab(session, server.base, "160x40")
            for tab, city, spent in ((first, "Madrid", 2), (second, "Lisbon", 4)):
                await tab.wait_for("creditscope")
                await asyncio.sleep(3)  # the client starts after the first frame
                await tab.keys("\x1b", "3")
                await tab.keys(city, "\r", pause=1.0)
                await _spent_reaches(spent, tab)
            mark = second.mark()
            await second.keys("\x1b", "\x1b[B", "\r", pause=1.0)  # the first result's details
            await second.wait_for("presenter", since=mark)
            assert "Spend" not in second.text(mark)
            await second.keys("\x1b[Z", "\r", "\x1b[Z", "\r", pause=1.0)
            await asyncio.sleep(3)
            assert _ledger_spent() == 4
            await first.close()
            await second.close()
