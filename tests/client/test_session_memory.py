"""A long batch keeps only the newest records in memory; its spend and totals stay exact.
A long explorer session keeps one text per answer, however often it is revisited."""

from __future__ import annotations

from creditscope.client.records import CacheStatus, CallRecord
from creditscope.client.session import SpendSession


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
