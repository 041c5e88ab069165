"""A budget shared by the tabs of one `creditscope web` run, at the session level: each
tab's reservation counts what the others have committed, what a tab gives back is free
for the others at once, and a failing shared file never loses a record."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from creditscope.client.records import CacheStatus, CallRecord
from creditscope.client.session import BudgetRefused, SpendSession
from creditscope.client.shared_budget import SharedBudget


def tab(path: Path, run: str = "run-1") -> tuple[SpendSession, SharedBudget]:
    session = SpendSession()
    pool = SharedBudget(path, run, session.session_id)
    session.share_budget(pool)
    return session, pool


def charged(credits: int) -> CallRecord:
    rec = CallRecord("restaurants/search", "GET", "/restaurants/search",
                     {"location": "Lisbon"}, cache=CacheStatus.MISS)
    rec.status, rec.credits_charged = 200, credits
    return rec


def test_a_tab_is_refused_what_another_tab_holds_with_the_figures(tmp_path: Path) -> None:
    first, _ = tab(tmp_path / "budgets.sqlite3")
    second, pool = tab(tmp_path / "budgets.sqlite3")
    first.reserve(3, 5, over_budget_ok=False)
    assert second.budget_is_shared and pool.others() == 3
    with pytest.raises(BudgetRefused) as refused:
        second.reserve(3, 5, over_budget_ok=True)  # a visitor cannot confirm past it
    assert (refused.value.price, refused.value.committed, refused.value.budget) == (3, 3, 5)
    second.reserve(2, 5, over_budget_ok=False)  # what is left still goes
    with pytest.raises(BudgetRefused) as refused:
        first.reserve(1, 5, over_budget_ok=False)
    assert refused.value.committed == 5
    assert second.held == 2 and first.held == 3
    first.reserve(1, 10, over_budget_ok=False)  # a larger budget: both held add up
    assert first.held == 4 and pool.others() == 4


def test_what_a_tab_gives_back_or_is_charged_is_what_the_others_see(tmp_path: Path) -> None:
    first, _ = tab(tmp_path / "budgets.sqlite3")
    second, pool = tab(tmp_path / "budgets.sqlite3")
    held = first.reserve(3, 5, over_budget_ok=False)
    first.release(held)  # refused, failed or a cache hit: nothing spent
    assert pool.others() == 0
    second.reserve(5, 5, over_budget_ok=False)
    second.release(second.reserve(0, 5, over_budget_ok=False))
    first.hold_uncertain(1)
    assert pool.others() == 1
    first.settle_uncertain()
    first.add(charged(2), first.reserve(2, 10, over_budget_ok=False))
    assert pool.others() == 2


def test_a_tab_that_spent_before_sharing_counts_from_its_first_share(tmp_path: Path) -> None:
    path = tmp_path / "budgets.sqlite3"
    early = SpendSession()
    early.add(charged(4))
    pool = SharedBudget(path, "run-1", early.session_id)
    early.share_budget(pool)
    early.share_budget(SharedBudget(path, "run-2", early.session_id))  # once: ignored
    late, _ = tab(path)
    with pytest.raises(BudgetRefused):
        late.reserve(2, 5, over_budget_ok=False)
    alone, _ = tab(path, "run-2")
    alone.reserve(5, 5, over_budget_ok=False)  # the second share never took


def test_a_record_is_kept_when_the_shared_file_fails(tmp_path: Path) -> None:
    session, pool = tab(tmp_path / "budgets.sqlite3")
    held = session.reserve(2, 5, over_budget_ok=False)
    pool._db.close()  # the shared file went away under the run
    session.add(charged(2), held)
    session.hold_uncertain(1)
    assert session.spent() == 2 and session.records[-1].credits_charged == 2
    with pytest.raises(sqlite3.Error):  # the next reservation says so
        session.reserve(1, 5, over_budget_ok=False)
