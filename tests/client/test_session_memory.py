"""A long batch keeps only the newest records in memory; its spend and totals stay exact.
A long explorer session keeps one text per answer, however often it is revisited."""

from __future__ import annotations

import pytest

from creditscope.client.records import CacheStatus, CallRecord
from creditscope.client.session import BudgetRefused, SpendSession


def record(number: int) -> CallRecord:
    rec = CallRecord("restaurants/search", "GET", f"/restaurants/search?n={number}",
                     {"location": f"place {number}"}, cache=CacheStatus.MISS)
    rec.status, rec.credits_charged = 200, 2
    return rec


def test_records_beyond_the_bound_are_let_go_but_every_credit_is_counted() -> None:
    session = SpendSession(keep_records=10)
    for number in range(1000):
        session.add(record(number))
    assert len(session.records) <= 20
    assert session.records[-1].params == {"location": "place 999"}  # the newest stay
    assert session.spent() == 2000
    totals = session.totals_now()
    assert (totals.calls, totals.spent) == (1000, 2000)
    assert totals.by_operation["restaurants/search"].calls == 1000


def test_the_explorer_keeps_every_record() -> None:
    session = SpendSession()
    for number in range(100):
        session.add(record(number))
    assert len(session.records) == 100 and session.spent() == 200


def answered(number: int, body: str) -> CallRecord:
    rec = record(number)
    rec.raw_body = "".join(body)  # a new string, as each cache read makes one
    return rec


def test_revisits_of_one_answer_share_its_text() -> None:
    session = SpendSession()
    for _ in range(5):
        session.add(answered(1, '{"results": []}'))
    session.add(answered(1, '{"results": [1]}'))  # the answer changed: its own text
    session.add(answered(2, '{"results": []}'))
    bodies = [rec.raw_body for rec in session.records]
    assert bodies == ['{"results": []}'] * 5 + ['{"results": [1]}', '{"results": []}']
    assert len({id(body) for body in bodies[:5]}) == 1
    assert len({id(body) for body in bodies}) == 3


def test_a_bounded_session_keeps_no_texts_of_its_own() -> None:
    session = SpendSession(keep_records=10)
    for number in range(100):
        session.add(answered(number, f'{{"n": {number}}}'))
    assert session._bodies == {}


def test_a_bounded_session_trims_to_the_newest_once_it_holds_twice_the_bound() -> None:
    session = SpendSession(keep_records=2)
    sizes = []
    for number in range(5):
        session.add(record(number))
        sizes.append(len(session.records))
    assert sizes == [1, 2, 3, 4, 2]
    assert [r.params["location"] for r in session.records] == ["place 3", "place 4"]


def test_failed_calls_are_counted_as_errors_and_a_snapshot_stays_as_taken() -> None:
    session = SpendSession()
    session.add(record(1))
    failed = record(2)
    failed.status, failed.credits_charged = 500, 0
    session.add(failed)
    snapshot = session.totals_now()
    assert (snapshot.calls, snapshot.errors) == (2, 1)
    session.add(record(3))
    assert snapshot.by_operation["restaurants/search"].calls == 2  # the copy does not move
    assert session.totals_now().by_operation["restaurants/search"].calls == 3


def test_the_latest_balance_reported_is_kept_when_a_call_reports_none() -> None:
    session = SpendSession()
    assert session.remaining is None
    reported = record(1)
    reported.remaining = 9_998
    session.add(reported)
    session.add(record(2))  # a cache hit: no balance in it
    assert session.remaining == 9_998


def test_a_free_call_is_never_refused_and_a_paid_one_is_refused_with_its_figures() -> None:
    session = SpendSession()
    session.reserve(5, 3, over_budget_ok=True)  # the user confirmed going past 3
    session.reserve(0, 3, over_budget_ok=False)  # a free call still goes
    with pytest.raises(BudgetRefused) as refused:
        session.reserve(1, 3, over_budget_ok=False)
    assert (refused.value.price, refused.value.committed, refused.value.budget,
            refused.value.uncertain) == (1, 5, 3, 0)
    session.hold_uncertain(0)
    assert session.held == 5 and session.uncertain == 0


def test_uncertain_answers_add_up_until_the_balance_settles_them() -> None:
    session = SpendSession()
    session.hold_uncertain(2)
    session.hold_uncertain(3)
    session.hold_uncertain(-4)  # nothing to hold: never a credit back
    assert session.uncertain == 5 and session.held == 5
    with pytest.raises(BudgetRefused) as refused:
        session.reserve(1, 5, over_budget_ok=False)
    assert (refused.value.committed, refused.value.uncertain) == (5, 5)
    session.settle_uncertain()
    assert session.held == 0


def account_record(account: str, credits: int) -> CallRecord:
    rec = record(credits)
    rec.account, rec.credits_charged = account, credits
    return rec


def test_the_meter_counts_only_the_configured_accounts_calls_and_shows_the_balance() -> None:
    session = SpendSession()
    session.add(account_record("sandbox", 2))
    paid = account_record("live", 5)
    paid.remaining = 995
    session.add(paid)
    assert (session.totals_now("live").spent, session.totals_now("sandbox").spent) == (5, 2)
    assert session.totals_now().spent == 7 and session.totals_now().remaining == 995
    fresh = session.totals_now("another key")  # no call yet with it: all zero
    assert (fresh.calls, fresh.spent, fresh.by_operation) == (0, 0, {})
    snapshot = session.totals_now("live")
    session.add(account_record("live", 5))
    assert snapshot.by_operation["restaurants/search"].calls == 1  # the copy does not move
    assert session.totals_now("live").by_operation["restaurants/search"].calls == 2
