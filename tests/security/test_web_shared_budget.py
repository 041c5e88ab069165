"""The presenter's ``budget`` holds for a whole `creditscope web` run: every tab counts
what the others spent, a visitor cannot confirm past it, and tabs pressing at once
cannot pass it together (attack report 4, item 1)."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

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
