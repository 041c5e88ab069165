"""The credit ledger: session and lifetime totals, persistence, subscribers."""

from __future__ import annotations

from pathlib import Path

from creditscope.client.ledger import CreditLedger
from creditscope.client.records import CacheStatus, CallRecord


def rec(operation: str, charged: int = 0, saved: int = 0, **kw: object) -> CallRecord:
    return CallRecord(operation=operation, method="GET", url="u", params={},
                      credits_charged=charged, credits_saved=saved, **kw)  # type: ignore[arg-type]


def test_lifetime_totals_survive_a_restart_and_sessions_stay_separate(tmp_path: Path) -> None:
    path = tmp_path / "ledger.sqlite3"
    first = CreditLedger(path)
    first.record(rec("restaurants/menu", 5, status=200, remaining=95))
    first.record(rec("restaurants/menu", 0, 5, cache=CacheStatus.HIT, status=200))
    first.close()

    second = CreditLedger(path)
    second.record(rec("restaurants/details", 0, status=404, error_code="not_found"))
    session = second.session_totals()
    assert (session.spent, session.calls, session.errors) == (0, 1, 1)
    lifetime = second.lifetime_totals()
    assert (lifetime.spent, lifetime.saved, lifetime.calls, lifetime.errors) == (5, 5, 3, 1)
    assert lifetime.by_operation["restaurants/menu"].calls == 2
    assert lifetime.remaining == 95
    latest = second.latest_session()
    assert latest is not None and latest[0] == first.session_id
    assert second.session_totals_for(first.session_id).spent == 5


def test_subscribers_hear_each_call_until_they_unsubscribe() -> None:
    ledger = CreditLedger(None)
    heard: list[str] = []
    unsubscribe = ledger.subscribe(lambda r: heard.append(r.operation))
    ledger.record(rec("catalog"))
    unsubscribe()
    ledger.record(rec("catalog"))
    assert heard == ["catalog"]
    assert len(ledger.session_records) == 2
    assert ledger.lifetime_totals().calls == 2
