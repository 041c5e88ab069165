"""Usage's figures: the ledger's own totals, split by day, hour, operation, outcome, grade."""

from __future__ import annotations

import contextlib
import sqlite3
import tempfile
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from client_fakes import InstantRetry
from creditscope import operations
from creditscope.client import errors
from creditscope.client.cache import ResponseCache
from creditscope.client.client import DataClient
from creditscope.client.ledger import CreditLedger
from creditscope.client.records import UNEXPLAINED, CacheStatus, CallRecord
from creditscope.client.usage import GRADES, usage_of
from creditscope.sandbox import DEMO_KEY, SANDBOX_BASE_URL
from creditscope.sandbox.app import create_app
from creditscope.sandbox.config import SandboxConfig

START = datetime(2025, 3, 1, tzinfo=UTC)
OPERATIONS = ("restaurants/search", "events/feed", "professional_network/find_company",
              UNEXPLAINED)


@st.composite
def call_records(draw: st.DrawFn) -> CallRecord:
    """A call as the pipeline could record it: ok, failed, refused, cached or unexplained."""
    operation = draw(st.sampled_from(OPERATIONS))
    status = draw(st.sampled_from([None, 200, 402, 404, 503]))
    failed = (status is None and draw(st.booleans())) or (status or 0) >= 400
    cache = draw(st.sampled_from(list(CacheStatus)))
    return CallRecord(
        operation=operation, method="GET", url="u", params={}, status=status,
        credits_charged=draw(st.integers(0, 10)), credits_saved=draw(st.integers(0, 10)),
        cache=cache, error_code="failed" if failed else None, attempts=draw(st.integers(0, 2)),
        match_grade=draw(st.sampled_from([None, *GRADES, "unsure"])),
        started_at=START + timedelta(minutes=draw(st.integers(0, 60 * 24 * 5))),
    )


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(call_records(), max_size=25))
def test_usage_figures_are_the_ledgers_totals(records: list[CallRecord]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        ledger = CreditLedger(Path(folder) / "ledger.sqlite3")
        for record in records:
            ledger.record(record)
        rows = ledger.usage_rows()
        totals = ledger.lifetime_totals()
        since = START + timedelta(days=2, hours=5)
        assert ledger.usage_rows(since) == [row for row in rows if row.at >= since]
        ledger.close()
    for period in ("day", "hour"):
        usage = usage_of(rows, period)
        assert (usage.total.spent, usage.total.saved, usage.total.calls) == (
            totals.spent, totals.saved, totals.calls)
        # every call is in exactly one period and has exactly one outcome
        assert sum(b.spent for b in usage.periods) == totals.spent
        assert sum(b.calls for b in usage.periods) == totals.calls
        assert sum(usage.total.outcomes.values()) == totals.calls
        unexplained = totals.by_operation.get(UNEXPLAINED)
        assert usage.total.outcomes["unexplained"] == (unexplained.calls if unexplained else 0)
    by_operation = {b.label: (b.spent, b.saved, b.calls) for b in usage.operations}
    assert by_operation == {name: (t.spent, t.saved, t.calls)
                            for name, t in totals.by_operation.items()}
    failed_calls = sum(r.error_code is not None or (r.status or 0) >= 400
                       for r in records if r.operation != UNEXPLAINED)
    assert usage.total.outcomes["error"] + usage.total.outcomes["refused"] == failed_calls


def _row_at(hours: int, **fields: object) -> CallRecord:
    record = CallRecord(operation="events/feed", method="GET", url="u", params={}, status=200,
                        started_at=START + timedelta(hours=hours))
    for name, value in fields.items():
        setattr(record, name, value)
    return record


def test_periods_are_utc_days_or_hours_and_since_leaves_out_earlier_calls() -> None:
    ledger = CreditLedger(None)
    for hours, credits in ((1, 3), (2, 4), (26, 5)):
        ledger.record(_row_at(hours, credits_charged=credits))
    rows = ledger.usage_rows()
    days = usage_of(rows, "day")
    assert [(b.label, b.spent) for b in days.periods] == [("2025-03-01", 7), ("2025-03-02", 5)]
    hours = usage_of(rows, "hour")
    assert [b.label for b in hours.periods] == [
        "2025-03-01 01:00", "2025-03-01 02:00", "2025-03-02 02:00"]
    later = usage_of(rows, "day", since=START + timedelta(days=1))
    assert (later.total.spent, later.total.calls) == (5, 1)
    assert usage_of([], "day").is_empty


def test_outcomes_tell_refused_from_failed_and_cache_hits_count_as_saved() -> None:
    ledger = CreditLedger(None)
    ledger.record(_row_at(0, credits_charged=2, attempts=1))
    ledger.record(_row_at(0, status=None, error_code="invalid_parameter", attempts=0))
    ledger.record(_row_at(0, status=None, error_code="timeout", attempts=3))
    ledger.record(_row_at(0, status=503, error_code="unavailable", attempts=1))
    ledger.record(_row_at(0, cache=CacheStatus.HIT, credits_saved=2))
    ledger.record(_row_at(0, operation=UNEXPLAINED, status=None, credits_charged=4))
    usage = usage_of(ledger.usage_rows())
    assert usage.total.outcomes == {"ok": 2, "error": 2, "refused": 1, "unexplained": 1}
    assert (usage.total.saved, usage.total.cached, usage.total.spent) == (2, 1, 6)


def test_grades_count_each_lookup_once_and_keep_unknown_confidences_apart() -> None:
    ledger = CreditLedger(None)
    for grade in ("high", "high", "medium", "none", "probable"):
        ledger.record(_row_at(0, match_grade=grade))
    ledger.record(_row_at(0, match_grade="high", cache=CacheStatus.HIT))  # the same answer
    usage = usage_of(ledger.usage_rows())
    assert usage.grades == {"high": 2, "medium": 1, "low": 0, "none": 1, "other": 1}
    assert usage.graded == 5


async def test_the_pipeline_records_what_usage_needs(tmp_path: Path) -> None:
    """Against the sandbox: a lookup's grade, a refusal, a cache hit, all in the file."""
    ledger = CreditLedger(tmp_path / "ledger.sqlite3")
    client = DataClient(
        SANDBOX_BASE_URL, DEMO_KEY,
        transport=httpx.ASGITransport(app=create_app(SandboxConfig(keys={DEMO_KEY: 1000}))),
        cache=ResponseCache(tmp_path / "cache"), ledger=ledger, retry_policy=InstantRetry(),
        is_sandbox=True,
    )
    try:
        lookup = await client.call(operations.FIND_COMPANY,
                                   {"name": "Acme Ltd", "website": "acme.example"})
        await client.call(operations.RESTAURANT_SEARCH, {"location": "Porto"})
        await client.call(operations.RESTAURANT_SEARCH, {"location": "Porto"})
        with contextlib.suppress(errors.InvalidRequest):
            await client.call("restaurants/search", {"location": "Porto", "limit": 0})
    finally:
        await client.aclose()
    best = lookup.data.matches[0].confidence if lookup.data.matches else "none"
    usage = usage_of(ledger.usage_rows())
    assert usage.grades[str(best)] == 1 and usage.graded == 1
    assert usage.total.outcomes == {"ok": 3, "error": 0, "refused": 1, "unexplained": 0}
    assert (usage.total.spent, usage.total.saved, usage.total.cached) == (12, 2, 1)
    ledger.close()


def test_a_ledger_from_before_usage_opens_and_its_old_rows_count(tmp_path: Path) -> None:
    path = tmp_path / "ledger.sqlite3"
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE calls (id INTEGER PRIMARY KEY AUTOINCREMENT, session TEXT NOT NULL,"
               " at TEXT NOT NULL, operation TEXT NOT NULL, status INTEGER, cache TEXT NOT NULL,"
               " credits_charged INTEGER NOT NULL, credits_saved INTEGER NOT NULL,"
               " error_code TEXT, remaining INTEGER)")
    db.execute("INSERT INTO calls (session, at, operation, status, cache, credits_charged,"
               " credits_saved, error_code, remaining) VALUES"
               " ('old', '2025-03-01T10:00:00+00:00', 'events/feed', NULL, 'miss', 0, 0,"
               " 'timeout', NULL)")
    db.commit()
    db.close()
    ledger = CreditLedger(path)
    ledger.record(_row_at(30, credits_charged=3, attempts=1))
    usage = usage_of(ledger.usage_rows())
    ledger.close()
    assert [(b.label, b.calls) for b in usage.periods] == [("2025-03-01", 1), ("2025-03-02", 1)]
    # an old row does not say whether it was sent: a failure counts as an error
    assert usage.total.outcomes["error"] == 1 and usage.total.spent == 3
